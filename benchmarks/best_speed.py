"""Time per game of ``best``, this code against another checkout, on the same boards
under the same machine load.

Two child processes (one per code version, ``--old-src`` on its ``PYTHONPATH``) play
the seeded games in alternating chunks, so both see the same load over the run; each
game is timed in CPU seconds of its process (``time.process_time``), which other
processes on a loaded machine disturb far less than wall time.  Two figures per game:
``game``, the whole ``play_game`` call (the game itself and the bookkeeping that
``play_game`` keeps out of ``GameRecord.seconds``, such as the cheap-rules measure of
``engine_turns``), and ``strategy``, the CPU time inside the strategy's ``moves``
alone: the time the strategy takes, which the targets are about.  Prints per version
the wins and the median / mean / p95 ms per game of both, and the games won by one
version only.

    python benchmarks/best_speed.py --old-src /work/main/src --games 2000 --seed 2026
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    add_strategy,
    script_parser,
)

CHILD = r"""
import json, sys, time
from minesolver.play import play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
rules = Rules.from_string(sys.argv[1])
strategy = find_strategy(sys.argv[2])
inside = [0.0]
moves = strategy.moves
def timed_moves(position):
    t = time.process_time()
    try:
        return moves(position)
    finally:
        inside[0] += time.process_time() - t
strategy.moves = timed_moves
play_game(rules, strategy, seed=1)  # warm-up: imports, compiled kernel
for line in sys.stdin:
    out = []
    for seed in json.loads(line):
        inside[0] = 0.0
        t = time.process_time()
        record = play_game(rules, strategy, seed=seed)
        out.append([seed, record.won, time.process_time() - t, inside[0]])
    print(json.dumps(out), flush=True)
"""


def child(src: str | None, rules: str, strategy: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, rules, strategy],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--old-src", required=True, help="src folder of the other checkout")
    add_board(parser)
    add_strategy(parser)
    add_games(parser, games=2000, seed=2026)
    parser.add_argument("--chunk", type=int, default=50,
                        help="games each side plays before the other takes its turn")
    args = parser.parse_args(argv)
    from minesolver.bench.stats import mcnemar, percentile
    from minesolver.rng import derive_seed

    seeds = [derive_seed(args.seed, i) for i in range(args.games)]
    procs = {"old": child(args.old_src, args.rules, args.strategy),
             "new": child(None, args.rules, args.strategy)}
    results: dict[str, dict[int, tuple[bool, float, float]]] = {"old": {}, "new": {}}
    for start in range(0, len(seeds), args.chunk):
        chunk = seeds[start : start + args.chunk]
        order = ("old", "new") if (start // args.chunk) % 2 == 0 else ("new", "old")
        for name in order:
            proc = procs[name]
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(chunk) + "\n")
            proc.stdin.flush()
            for seed, won, sec, inside in json.loads(proc.stdout.readline()):
                results[name][seed] = (won, sec, inside)
        done = start + len(chunk)
        print(f"\r{done}/{len(seeds)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(f"{args.strategy} on {args.rules}, {len(seeds)} seeded games (seed {args.seed}), "
          "CPU ms per game")
    for name in ("old", "new"):
        wins = sum(results[name][s][0] for s in seeds)
        for what, at in (("game", 1), ("strategy", 2)):
            ms = [results[name][s][at] * 1000 for s in seeds]
            print(f"{name} {what:<8}: {wins} won; median {statistics.median(ms):.1f}, "
                  f"mean {statistics.mean(ms):.1f}, p95 {percentile(ms, 95):.1f}")
    old_only = sum(1 for s in seeds if results["old"][s][0] and not results["new"][s][0])
    new_only = sum(1 for s in seeds if results["new"][s][0] and not results["old"][s][0])
    test = mcnemar(old_only, new_only, len(seeds))
    print(f"won by old only: {old_only}, by new only: {new_only} (McNemar p = {test.p_value:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
