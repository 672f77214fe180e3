"""Whole games of ``best`` on a 1000x1000 board with 150,000 mines, against the number
of threads that count one position's fronts (``--engine-workers``).

Each game is a fresh ``minesolver play`` process (seed-major: the worker counts of a
seed run one after the other, so they see about the same machine load); prints per
game the wall seconds, the CPU seconds of its process (user + system: what one core
spent, which a loaded machine disturbs far less than wall time), the game's own seconds
(``play --json``: without the studies' measures), the cells opened and the process's
peak RSS, then per worker count the median and total wall and CPU time and the largest
RSS.  More workers than cores only oversubscribe.

``--threshold`` measures instead where splitting one position's compiled batch over
two threads starts to pay: the fronts of a real position of such a game, counted in
batches of growing size with 1 and 2 threads (best of ``--repeat``; a batch larger
than the position repeats its fronts); the smallest batch where 2 threads win is what
``kernels.PARALLEL_MIN_BOXES`` should be.

    python benchmarks/huge_board.py --seeds 1 2 3 4 5 --workers 1 2 4
    python benchmarks/huge_board.py --threshold
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from script_args import add_board, script_parser  # benchmarks/script_args.py: shared options

RULES = "1000x1000x150000"


def play(seed: int, workers: int, rules: str, limit: float) -> dict[str, Any]:
    """One game in its own process: wall seconds, game seconds, opened, peak RSS (MB)."""
    command = [sys.executable, "-m", "minesolver", "play", "--json", "--rules", rules,
               "--strategy", "best", "--seed", str(seed), "--engine-workers", str(workers),
               "--max-seconds", str(limit), "--max-memory", "none"]
    with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out_file, stderr=err_file, text=True)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak RSS
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    rss_mb = usage.ru_maxrss / 1024
    cpu = usage.ru_utime + usage.ru_stime  # what one core spent, whatever the load
    if child.returncode != 0:
        return {"wall": wall, "cpu": cpu, "game": float("nan"), "opened": -1, "rss": rss_mb,
                "error": err.strip().splitlines()[-1] if err.strip() else "failed"}
    record = json.loads(out)
    return {"wall": wall, "cpu": cpu, "game": record["seconds"], "opened": record["opened"],
            "won": record["won"], "rss": rss_mb}


def games(seeds: list[int], workers: list[int], rules: str, limit: float) -> None:
    print(f"# {rules}, best; load at start: {os.getloadavg()}", flush=True)
    rows: dict[int, list[dict[str, float]]] = {w: [] for w in workers}
    for seed in seeds:
        for w in workers:
            got = play(seed, w, rules, limit)
            rows[w].append(got)
            print(f"seed {seed} workers {w}: wall {got['wall']:.1f} s, CPU {got['cpu']:.1f} s,"
                  f" game {got['game']:.1f} s,"
                  f" opened {got['opened']}, peak RSS {got['rss']:.0f} MB"
                  + (f", {got['error']}" if "error" in got else ""), flush=True)
    print(f"# load at end: {os.getloadavg()}, cores: {os.cpu_count()}")
    print("workers | wall s per game (median, total) | CPU s (median, total) | peak RSS MB")
    for w in workers:
        walls = [r["wall"] for r in rows[w]]
        cpus = [r["cpu"] for r in rows[w]]
        print(f"{w} | {statistics.median(walls):.1f}, {sum(walls):.1f} |"
              f" {statistics.median(cpus):.1f}, {sum(cpus):.1f} |"
              f" {max(r['rss'] for r in rows[w]):.0f}")


def threshold(repeat: int, turns: int) -> None:
    """Batches of a real position's fronts, counted with 1 and 2 threads."""
    from minesolver.analysis import kernels
    from minesolver.analysis.fronts import split_fronts
    from minesolver.analysis.kernels import count_fronts
    from minesolver.analysis.system import build_system
    from minesolver.play import play_game
    from minesolver.rules import Rules
    from minesolver.strategies import find_strategy

    seen = []

    class Enough(Exception):
        pass

    def observe(step: object) -> None:
        seen.append(step.position)  # type: ignore[attr-defined]
        if len(seen) >= turns:
            raise Enough

    with contextlib.suppress(Enough):
        play_game(Rules.from_string(RULES), find_strategy("best"), seed=2, observer=observe)
    fronts, _ = split_fronts(build_system(seen[-1]))
    fronts = [f for f in fronts if len(f.boxes) > 1]  # one-box fronts never reach the kernel
    if not fronts:  # too few turns: nothing to batch
        sys.exit(f"huge_board: no front of two or more boxes after {len(seen)} turns of "
                 "seed 2: give more --turns")
    kernels.PARALLEL_MIN_BOXES = 0
    count_fronts(fronts[:2], kernel="numba", workers=2)  # warm: compile, start the threads
    print(f"# {len(fronts)} multi-box fronts after {len(seen)} turns of seed 2; "
          f"load {os.getloadavg()}")
    print("fronts | boxes | 1 thread ms | 2 threads ms | ratio")
    size = 4
    while size <= 4096:
        batch = (fronts * (size // len(fronts) + 1))[:size]
        boxes = sum(len(f.boxes) for f in batch)
        best = {}
        for w in (1, 2):
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                count_fronts(batch, kernel="numba", workers=w)
                times.append(time.perf_counter() - t)
            best[w] = min(times)
        print(f"{len(batch)} | {boxes} | {best[1] * 1e3:.2f} | {best[2] * 1e3:.2f} |"
              f" {best[1] / best[2]:.2f}", flush=True)
        size *= 2


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5],
                        help="one game per seed")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4],
                        help="the --engine-workers to compare")
    add_board(parser, rules=RULES)
    parser.add_argument("--max-seconds", type=float, default=600.0,
                        help="each game's minesolver play --max-seconds")
    parser.add_argument("--threshold", action="store_true",
                        help="measure where two threads start to pay, instead of games")
    parser.add_argument("--repeat", type=int, default=7,
                        help="--threshold: timings of each batch; the fastest is kept")
    parser.add_argument("--turns", type=int, default=40,
                        help="--threshold: turns of the game whose position is counted")
    args = parser.parse_args(argv)
    if args.threshold:
        threshold(args.repeat, args.turns)
    else:
        games(args.seeds, args.workers, args.rules, args.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
