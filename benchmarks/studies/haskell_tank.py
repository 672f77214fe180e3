"""Study 2, the parallel tank solver in Haskell: seconds per seeded expert board at 1, 2, 4
and 8 workers.

Published: a tank solver in Haskell timed per seeded expert board at 1/2/4/8 cores.

Ours: ``tank`` plays the same seeded expert boards (safe first click in the corner) once per
worker count, as separate stored runs; the figure is wall seconds per board over the games
played in one session, and the speed-up against one worker.  This machine has the number of
CPUs the header says: worker counts above it share those cores.

    python benchmarks/studies/haskell_tank.py [--games 500 --seed 7]

Resumable: each worker count is a stored run; a finished one is only read again (its time
kept in --times), an interrupted one is completed and timed over the games left (the
table's "boards timed" says over how many).
"""

from __future__ import annotations

import time

from common import (
    at_least,
    check_outputs,
    find_run,
    load_json,
    machine,
    play,
    run_study,
    save_json,
    study_parser,
    table,
)

from minesolver.bench import RunSpec, Store
from minesolver.rules import EXPERT

WORKERS = (1, 2, 4, 8)


def main() -> None:
    parser = study_parser(__doc__)
    parser.add_argument("--games", type=at_least(1), default=500,
                        help="seeded expert boards per worker count")
    parser.add_argument("--seed", type=int, default=7, help="the same seed, the same boards")
    parser.add_argument("--times", default="haskell_times.json",
                        help="wall times of finished worker counts")
    args = parser.parse_args()
    check_outputs([args.times, args.db])  # a timing not saved cannot be measured again
    print(f"# Haskell tank study ({machine()})")
    times = load_json(args.times) or {}
    rows = []
    with Store(args.db) as store:
        for workers in WORKERS:
            spec = RunSpec(points=(EXPERT,), strategies=("tank",), games=args.games,
                           seed=args.seed, start="corner", extra={"workers": workers})
            before = sum(1 for _ in store.games(find_run(store, "bench", spec)))
            start = time.perf_counter()
            run_id = play(store, "bench", spec, workers=workers, label=f"{workers} workers")
            wall = time.perf_counter() - start
            played = args.games - before
            key = f"{args.games}:{args.seed}:{workers}"
            if played:
                times[key] = {"seconds_per_board": wall / played, "boards": played}
                save_json(args.times, times)
            if key not in times:
                raise SystemExit(f"no timing stored for {workers} workers: delete run {run_id} "
                                 f"from {args.db} or use another --seed")
            games = list(store.games(run_id))
            wins = sum(g.won for g in games)
            cpu = sum(g.seconds for g in games) / len(games)
            timed = times[key]
            rows.append((workers, timed["seconds_per_board"], timed.get("boards", args.games),
                         cpu, wins / len(games)))
    base = rows[0][1]
    print(f"\nexpert 30x16/99, tank, {args.games} seeded boards (seed {args.seed})\n")
    print(table(["workers", "wall s per board", "boards timed", "speed-up",
                 "s per game in a worker", "win rate"],
                [[w, f"{s:.4f}", n, f"{base / s:.2f}x", f"{c:.4f}", f"{100 * r:.1f}%"]
                 for w, s, n, c, r in rows]))


if __name__ == "__main__":
    run_study(main)
