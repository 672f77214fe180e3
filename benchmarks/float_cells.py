"""Whole games of ``best`` with the float ply's board-size limit at two values.

``best`` takes its compiled float paths (the safe cells of a turn, the last lookahead
ply, the 50/50 screen) on boards of at most ``best.FLOAT_PLY_CELLS`` cells and the exact
engine above.  This plays the same seeded games with the limit at each value given,
one after the other in this process, and prints the CPU time per game and the games
won by one limit only (the float chances are within ~1e-12 of the engine's, so moves
differ only where two candidates tie that closely, or where the 50/50 screen now runs).

    python benchmarks/float_cells.py --board 64x64x650 --board 100x100x2000 --games 20 \\
        --limit 2500 --limit 10000
"""

from __future__ import annotations

import statistics
import sys
import time

from script_args import script_parser  # benchmarks/script_args.py: shared options

import minesolver.strategies.best as best_module
from minesolver.bench.stats import mcnemar
from minesolver.play import play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--board", action="append", required=True, help="WxHxM (repeat)")
    parser.add_argument("--games", type=int, default=20, help="seeded games per board")
    parser.add_argument("--seed", type=int, default=0, help="game i is played with seed+i")
    parser.add_argument("--limit", type=int, action="append", required=True,
                        help="a value of FLOAT_PLY_CELLS (repeat; the first is the reference)")
    args = parser.parse_args(argv)
    print(f"{'board':<14}{'limit':>7}{'won':>5}{'median ms':>11}{'mean ms':>9}"
          f"{'only ref / only this':>22}")
    for board in args.board:
        rules = Rules.from_string(board)
        first: list[bool] | None = None
        for limit in args.limit:
            best_module.FLOAT_PLY_CELLS = limit
            times, wins = [], []
            for g in range(args.games):
                start = time.process_time()
                record = play_game(rules, find_strategy("best"), seed=args.seed + g)
                times.append(1000 * (time.process_time() - start))
                wins.append(record.won)
            paired = ""
            if first is None:
                first = wins
            else:
                a = sum(x and not y for x, y in zip(first, wins, strict=True))
                b = sum(y and not x for x, y in zip(first, wins, strict=True))
                paired = f"{a} / {b} (p = {mcnemar(a, b, args.games).p_value:.2g})"
            print(f"{board:<14}{limit:>7}{sum(wins):>5}{statistics.median(times):>11.1f}"
                  f"{statistics.mean(times):>9.1f}{paired:>22}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
