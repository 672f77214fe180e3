"""Two runs of ``minesolver bench`` on the same boards, compared game by game.

Run the same ``bench`` command (same rules, seed and games) with two versions of the
code, each into its own SQLite store, then:

    python benchmarks/paired_best.py OLD.sqlite NEW.sqlite

It pairs the games by index (the same seed, so the same board), checks the seeds
agree, and prints each side's win rate, the games won by one side only with
McNemar's exact test, and the time per game (median, mean, p95; the mean also
without the first game, whose time includes loading or compiling the kernels in
stores made by code before ``bench`` played an untimed warm-up game first).
How the figures in docs/benchmarks.md were made (the old code from main by
PYTHONPATH):

    PYTHONPATH=/path/to/main/src python -m minesolver bench --rules expert \\
        --strategy best --games 2000 --seed 2026 --workers 1 --db old.sqlite --quiet
    python -m minesolver bench --rules expert --strategy best --games 2000 \\
        --seed 2026 --workers 1 --db new.sqlite --quiet

Variants of one code played in two runs of the same seed pair the same way:
``--strategy best --new-strategy best:fifty=2`` reads ``best`` from OLD and the
variant from NEW; ``--run r2 --new-run r1`` reads run r2 of OLD and r1 of NEW.
"""

from __future__ import annotations

import sqlite3
import statistics
import sys

from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver.bench.stats import mcnemar, percentile


def load(path: str, run: str, strategy: str) -> dict[int, tuple[str, bool, float]]:
    """``game_index -> (seed, won, seconds)`` of one run's games of ``strategy``."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT game_index, seed, won, seconds FROM games WHERE run_id = ? AND strategy = ?",
            (run, strategy),
        ).fetchall()
    return {int(i): (str(seed), bool(won), float(sec)) for i, seed, won, sec in rows}


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("old", help="the store (SQLite file) of the old checkout's run")
    parser.add_argument("new", help="the store of the new checkout's run")
    parser.add_argument("--run", default="r1", help="run id in both stores")
    parser.add_argument("--new-run", help="the run id in NEW (default: --run)")
    parser.add_argument("--strategy", default="best", help="the strategy label to read from OLD")
    parser.add_argument(
        "--new-strategy", help="the strategy to read from NEW (default: --strategy)"
    )
    args = parser.parse_args(argv)
    old = load(args.old, args.run, args.strategy)
    new = load(args.new, args.new_run or args.run, args.new_strategy or args.strategy)
    common = sorted(set(old) & set(new))
    if not common:
        print("no game in common", file=sys.stderr)
        return 2
    if any(old[i][0] != new[i][0] for i in common):
        print("the runs played different boards (seeds differ)", file=sys.stderr)
        return 2
    old_only = sum(1 for i in common if old[i][1] and not new[i][1])
    new_only = sum(1 for i in common if new[i][1] and not old[i][1])
    test = mcnemar(old_only, new_only, len(common))
    print(f"{len(common)} paired games")
    for name, side in (("old", old), ("new", new)):
        wins = sum(1 for i in common if side[i][1])
        ms = [side[i][2] * 1000 for i in common]
        # before bench warmed up, the first game of a run also loaded (or compiled)
        # the kernels: a mean without it compares such a store with a newer one
        later = ms[1:] or ms
        print(
            f"{name}: {wins} won ({wins / len(common):.2%}); ms per game median "
            f"{statistics.median(ms):.1f}, mean {statistics.mean(ms):.1f} "
            f"({statistics.mean(later):.1f} without the first game, {ms[0]:.0f}), "
            f"p95 {percentile(ms, 95):.1f}"
        )
    print(
        f"won by old only {old_only}, by new only {new_only}: difference "
        f"{-test.diff + 0.0:+.2%} (95% {-test.ci95[1] + 0.0:+.2%} .. {-test.ci95[0] + 0.0:+.2%}), "
        f"McNemar exact p = {test.p_value:.3g}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
