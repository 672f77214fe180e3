"""Study 1, the OpenMP CSP solver: thread scaling of one big board, and the reuse of
solutions between successive positions of one game.

Published: a CSP solver in C with OpenMP, reusing earlier solutions incrementally, timed at
several thread counts on one large board.

Ours: one seeded game of ``tank`` on a big board (default 100x100, 20% mines, opening first
click); every position it met is analysed again (a) cold, a new engine (and cache) for
each call, and (b) in game order by one engine updated move by move, which is how a game
reuses the fronts that did not change.  Each mode is timed with the engine counting on
1, 2, 4 and 8 threads (``MINESOLVER_ENGINE_WORKERS``: the compiled batch of a position's
hard fronts is split over threads when it holds at least
``analysis.kernels.PARALLEL_MIN_BOXES`` boxes; smaller batches stay on one).

    python benchmarks/studies/openmp_threads.py [--size 100x100 --density 0.2 --seed 3]

The played game is stored in --db (a one-game bench run), so the positions are found again
and replayed identically on the next run.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from common import (
    at_least,
    check_outputs,
    machine,
    play,
    run_study,
    save_json,
    size_of,
    study_parser,
    table,
)

from minesolver.analysis import Engine, analyze
from minesolver.analysis.kernels import PARALLEL_MIN_BOXES, WORKERS_ENV
from minesolver.bench import RunSpec, Store
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

WORKERS = (1, 2, 4, 8)


def positions_of(rules: Rules, seed: int) -> list[Position]:
    """Every position the seeded game showed ``tank`` (the store's game, replayed)."""
    seen: list[Position] = []
    play_game(rules, find_strategy("tank"), seed=seed, start="center",
              observer=lambda step: seen.append(step.position) if step.index else None)
    return seen


def timed(positions: list[Position], *, cold: bool) -> list[float]:
    """Cold: ``analyze`` (a new engine, an empty cache) per position.  Warm: one
    :class:`~minesolver.analysis.Engine` updated position after position, in game order."""
    times = []
    engine: Engine | None = None
    for position in positions:
        start = time.perf_counter()
        if cold:
            analyze(position)
        elif engine is None:
            engine = Engine(position)
            _ = engine.analysis
        else:
            engine.update(position)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = study_parser(__doc__)
    parser.add_argument("--size", default="100x100", help="the board, WxH")
    parser.add_argument("--density", type=at_least(0.0, float), default=0.2,
                        help="its share of mines")
    parser.add_argument("--seed", type=int, default=3, help="the game whose positions are timed")
    parser.add_argument("--repeat", type=at_least(1), default=3,
                        help="timings per mode (best kept)")
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args()
    check_outputs([args.json, args.db])
    width, height = size_of(args.size)
    rules = Rules(width, height, round(args.density * width * height), first_click="opening")
    print(f"# OpenMP study ({machine()})")
    spec = RunSpec(points=(rules,), strategies=("tank",), games=1, seed=args.seed,
                   start="center")
    with Store(args.db) as store:
        run_id = play(store, "bench", spec, workers=1, label="big board")
        (row,) = list(store.games(run_id))
    positions = positions_of(rules, row.seed)
    print(f"\n{rules}, opening first click in the centre, seed {args.seed} (run {run_id}): "
          f"{len(positions)} positions, game {'won' if row.won else 'lost'}\n")
    modes: list[tuple[str, bool, int]] = []
    for w in WORKERS:
        modes.append((f"cold, {w} worker{'s' if w > 1 else ''}", True, w))
        modes.append((f"cache kept, {w} worker{'s' if w > 1 else ''}", False, w))
    figures = {}
    rows = []
    for label, cold, workers in modes:
        os.environ[WORKERS_ENV] = str(workers)  # read by the engine at every count
        best = min((timed(positions, cold=cold) for _ in range(args.repeat)), key=sum)
        figures[label] = {"total_s": sum(best), "median_ms": 1000 * statistics.median(best),
                          "max_ms": 1000 * max(best)}
        rows.append([label, f"{sum(best):.2f}", f"{1000 * statistics.median(best):.1f}",
                     f"{1000 * max(best):.0f}"])
        print(f"[timing] {label} done", file=sys.stderr, flush=True)
    print(table(["engine", "all positions (s)", "median per position (ms)", "max (ms)"],
                rows))
    print(f"\n{os.cpu_count()} CPUs here; a batch goes to several threads from "
          f"{PARALLEL_MIN_BOXES} boxes.")
    if args.json:
        save_json(args.json, {"run_id": run_id, "positions": len(positions),
                              "figures": figures})


if __name__ == "__main__":
    run_study(main)
