"""No-guess boards: how long one takes, and which densities work.

Prints two tables:

1. **time per board**: ``no_guess_layout`` for ``--games`` seeds (``--seed``,
   ``--seed + 1``, ...) of each board and first click: the boards tried (the rejection's
   tries), and the time per board (median, mean, p90, max), in this one process (one
   core);
2. **densities**: on 30x16 boards, the share of ordinary boards that are no-guess (the
   rejection's acceptance rate) at each mine count, with an opening first click at
   (3, 3) and a safe first click at the corner, from ``--sample`` boards each; the
   expected tries are 1 / rate, and below about 1 in ``MAX_TRIES`` the generator gives
   up.  With ms-toollib installed, the share of the generated expert boards its
   ``is_solvable`` accepts (it ignores the mine counter) is printed too.

    python benchmarks/noguess_bench.py --games 200 --sample 400 --seed 1
"""

from __future__ import annotations

import statistics
import time

from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver.game import random_layout
from minesolver.noguess import MAX_TRIES, candidates, solvable
from minesolver.rules import Rules

BOARDS = [
    ("beginner 9x9/10, safe corner", Rules(9, 9, 10, no_guess=True), (0, 0)),
    ("intermediate 16x16/40, safe corner", Rules(16, 16, 40, no_guess=True), (0, 0)),
    ("expert 30x16/99, safe corner", Rules(30, 16, 99, no_guess=True), (0, 0)),
    ("expert 30x16/99, opening at (3,3)",
     Rules(30, 16, 99, first_click="opening", no_guess=True), (3, 3)),
]
MINES = [60, 70, 80, 90, 99, 105, 110, 115, 120, 130]


def tries_and_layout(rules: Rules, seed: int, first: int) -> tuple[int, object]:
    for tries, layout in enumerate(candidates(rules, seed, first), 1):
        if solvable(layout, first):
            return tries, layout
    return MAX_TRIES, None


def time_table(games: int, seed: int) -> list[tuple[str, Rules, int, list[object]]]:
    print(f"Time per no-guess board, {games} seeds from {seed}, one process")
    print(f"{'board':<38}{'tries med':>10}{'mean':>7}{'max':>6}"
          f"{'s med':>8}{'mean':>7}{'p90':>7}{'max':>7}")
    made = []
    for name, rules, start in BOARDS:
        first = start[0] * rules.width + start[1]
        tries, times, layouts = [], [], []
        for s in range(seed, seed + games):
            t0 = time.perf_counter()
            n, layout = tries_and_layout(rules, s, first)
            times.append(time.perf_counter() - t0)
            tries.append(n)
            layouts.append(layout)
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"{name:<38}{statistics.median(tries):>10.0f}{statistics.mean(tries):>7.1f}"
              f"{max(tries):>6}{statistics.median(times):>8.3f}{statistics.mean(times):>7.3f}"
              f"{p90:>7.3f}{times[-1]:>7.3f}")
        made.append((name, rules, first, layouts))
    return made


def density_table(sample: int, seed: int) -> None:
    print(f"\nShare of ordinary 30x16 boards that are no-guess, {sample} boards each")
    print(f"{'mines':>6}{'density':>9}{'opening (3,3)':>15}{'safe (0,0)':>12}")
    for mines in MINES:
        shares = []
        for first_click, first in (("opening", 3 * 30 + 3), ("safe", 0)):
            rules = Rules(30, 16, mines, first_click=first_click)  # type: ignore[arg-type]
            good = sum(solvable(random_layout(rules, s, first), first)
                       for s in range(seed, seed + sample))
            shares.append(good / sample)
        print(f"{mines:>6}{mines / 480:>9.1%}{shares[0]:>15.3f}{shares[1]:>12.3f}")


def toolkit_table(made: list[tuple[str, Rules, int, list[object]]]) -> None:
    try:
        import ms_toollib as ms
    except ImportError:
        print("\n(ms-toollib not installed: no is_solvable column)")
        return
    print("\nGenerated boards ms-toollib's is_solvable accepts (it ignores the mine counter)")
    for name, rules, first, layouts in made:
        row, col = divmod(first, rules.width)
        ok = 0
        for layout in layouts:
            mines = set(layout.mines)  # type: ignore[attr-defined]
            board = [[-1 if r * rules.width + c in mines else 0 for c in range(rules.width)]
                     for r in range(rules.height)]
            ok += ms.is_solvable(ms.cal_board_numbers(board), row, col)
        print(f"{name:<38}{ok:>5} / {len(layouts)}")


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--games", type=int, default=200, help="seeds per board and first click")
    parser.add_argument("--sample", type=int, default=400,
                        help="ordinary 30x16 boards per mine count, for the densities")
    parser.add_argument("--seed", type=int, default=1, help="the first seed of both tables")
    args = parser.parse_args()
    made = time_table(args.games, args.seed)
    toolkit_table(made)
    density_table(args.sample, args.seed)


if __name__ == "__main__":
    main()
