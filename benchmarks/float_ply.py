"""Where ``best``'s last lookahead ply pays in floats: the time of one candidate's ply
in floats (``analysis.floats.outcomes``: a whole-board compiled call per number) over
the same ply through the exact, incremental engine, by board size.

Both are timed on every candidate ``best`` scores in seeded games (wall clock, one
after the other on the same candidate, the exact path's answer played on).  The float
call reads the whole board each time while the engine rebuilds only what a number
changes, so the ratio grows with the board; ``best`` takes the float ply up to
``best.FLOAT_PLY_CELLS`` cells.

    python benchmarks/float_ply.py --games 6
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver import Position
from minesolver.analysis import Engine, probabilities
from minesolver.analysis.floats import FloatBoard
from minesolver.play import play_game
from minesolver.rules import Rules
from minesolver.strategies import best as best_module
from minesolver.strategies import find_strategy
from minesolver.strategies.best import Best

BOARDS = ("30x16x99", "32x32x160", "50x50x400", "64x64x650", "100x100x2000")


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--games", type=int, default=6, help="seeded games per board size")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    probabilities(Position.from_text("3x3x2\nHHH\n2H2\nHHH\n"))  # load the compiled kernel
    ratios: dict[int, list[float]] = {}
    scored = Best._outcomes

    def both(self: Best, engine: Engine, cell: int, depth: int,
             found: FloatBoard | None = None) -> Iterator[tuple[float, float, bool]]:
        assert self.floats  # the game is played as best plays it: floats on
        start = time.perf_counter()
        list(scored(self, engine, cell, depth, found))
        floats = time.perf_counter() - start
        self.floats = False  # for this one call: the rest of the game keeps them
        try:
            start = time.perf_counter()
            exact = list(scored(self, engine, cell, depth, found))
        finally:
            self.floats = True
        cells = engine.position.width * engine.position.height
        ratios.setdefault(cells, []).append(floats / (time.perf_counter() - start))
        return iter(exact)

    setattr(Best, "_outcomes", both)  # noqa: B010 (mypy: a method replaced)
    best_module.FLOAT_PLY_CELLS = 10**9  # measure the float ply on every size
    for board in BOARDS:
        for g in range(args.games):
            play_game(Rules.from_string(board), find_strategy("best"), seed=args.seed + g)
    print(f"{'board':<14}{'cells':>7}{'plies':>7}{'floats / exact, median':>25}{'p90':>7}")
    for board in BOARDS:
        cells = Rules.from_string(board).width * Rules.from_string(board).height
        values = sorted(ratios.get(cells, []))
        if values:
            print(f"{board:<14}{cells:>7}{len(values):>7}{statistics.median(values):>25.2f}"
                  f"{values[int(0.9 * (len(values) - 1))]:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
