"""The compiled endgame search against the plain-Python reference, side by side on
the same positions: the first guess of each seeded game that has between
``--min`` and ``--max`` layouts (where a bigger search would act).

Each position is searched by both paths with the same budget of states, one right
after the other (the order alternating), and the two must agree: the same win
chance, the same number of states, the same give-up.  Prints per position and a
summary: ms per search of each path (median, mean), the ratio of the totals, and
states per second.

    python benchmarks/endgame_speed.py --rules expert --games 300 --seed 20261201 \\
        --min 300 --max 5000 --budget 100000

``--against unpruned`` times the compiled search against itself without giving a
cell up part way (``prune=False``: every cell tried is valued to the end, as the
search did before) instead of against the Python path.  The two must agree
on the win chance wherever both finish; they search different numbers of states
(that is what is measured), so either may give up where the other does not.

    python benchmarks/endgame_speed.py --rules expert --games 1200 --seed 20261214 \\
        --min 301 --max 5000 --budget 3000000 --against unpruned

``--against dominated`` times it against itself not trying a cell that is safe only
where a cell tried before it is safe (``skip_dominated=True``: such a cell cannot win
more).  Again they must agree on the win chance; the states are what is measured.

    python benchmarks/endgame_speed.py --rules expert --games 600 --seed 20261127 \\
        --min 5001 --max 20000 --budget 5000000 --against dominated
"""

from __future__ import annotations

import statistics
import sys
import time

from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    script_parser,
)

from minesolver.analysis.enumerate import enumerate_layouts
from minesolver.analysis.kernels import compiled_available
from minesolver.game import Game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies.best import Best
from minesolver.strategies.endgame import _Search


def positions(rules: Rules, games: int, seed: int, low: int, high: int) -> list[Position]:
    """The first guess of each game with ``low`` to ``high`` layouts."""
    out = []
    for g in range(games):
        game = Game(rules, seed=seed + g)
        strategy = Best()
        strategy.new_game(rules, seed + g)
        while not game.is_over:
            position = game.position()
            move = strategy.moves(position)[0]
            if move.reason in ("guess", "forced", "endgame") and strategy.last_analysis is not None:
                analysis = strategy.last_analysis
                if analysis.solutions_at_most(high) and analysis.solutions >= low:
                    out.append(position)
                    break
            game.reveal(*move.cell)
        print(f"\rcollecting: game {g + 1}/{games}, {len(out)} positions", end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    add_board(parser)
    add_games(parser, games=100, seed=0, seed_help="game i is played with seed+i")
    parser.add_argument("--min", type=int, default=300, help="fewest layouts of a position")
    parser.add_argument("--max", type=int, default=5000, help="most layouts of a position")
    parser.add_argument("--budget", type=int, default=100_000, help="states per search")
    parser.add_argument("--against", choices=["python", "unpruned", "dominated"],
                        default="python",
                        help="the other path: the Python reference, the compiled search "
                        "that values every cell it tries to the end, or the compiled "
                        "search that skips dominated cells")
    args = parser.parse_args(argv)
    if not compiled_available():
        parser.error("numba is not installed: pip install minesolver[fast]")
    from minesolver.strategies._compiled_endgame import CompiledSearch

    found = positions(Rules.from_string(args.rules), args.games, args.seed, args.min, args.max)
    tiny = Position.from_text("2x1x1\nHH\n")
    CompiledSearch(tiny, [0, 1], 10).root([1, 2])  # load the kernel before timing
    other = args.against
    print(f"layouts  cells  {other}_states  states  {other}_ms  compiled_ms  ratio  win")
    ms: dict[str, list[float]] = {other: [], "compiled": []}
    states = {other: 0, "compiled": 0}
    over = {other: 0, "compiled": 0}
    for k, position in enumerate(found):
        enumerated = enumerate_layouts(position, args.max)
        assert enumerated is not None
        cells, layouts = enumerated
        took: dict[str, float] = {}
        got: dict[str, tuple[int, float, float] | None] = {}
        used: dict[str, int] = {}
        for path in ((other, "compiled") if k % 2 == 0 else ("compiled", other)):
            started = time.perf_counter()
            if path == "python":
                plain = _Search(position, cells, args.budget)
                got[path] = plain.root(layouts)
                used[path] = plain.limit - plain.budget
            else:
                compiled = CompiledSearch(position, cells, args.budget,
                                          prune=path != "unpruned",
                                          skip_dominated=path == "dominated")
                got[path] = compiled.root(layouts)
                used[path] = compiled.states
            took[path] = 1000 * (time.perf_counter() - started)
        a, b = got[other], got["compiled"]
        if a and b and abs(a[1] - b[1]) > 1e-12:
            sys.exit(f"the paths disagree ({a} against {b}) on:\n{position}")
        if other == "python" and ((a is None) != (b is None) or used[other] != used["compiled"]):
            sys.exit(f"the paths searched {used} states on:\n{position}")
        for path in ms:
            ms[path].append(took[path])
            states[path] += used[path]
            over[path] += got[path] is None
        win = f"{b[1]:.4f}" if b else "over"
        print(f"{len(layouts):7d}  {len(cells):5d}  {used[other]:{len(other) + 7}d}  "
              f"{used['compiled']:6d}  {took[other]:{len(other) + 3}.1f}  "
              f"{took['compiled']:11.1f}  {took[other] / took['compiled']:5.1f}  {win}",
              flush=True)
    if not found:
        print("no position in range")
        return 0
    total = {path: sum(v) for path, v in ms.items()}
    print(f"\n{len(found)} positions, budget {args.budget:,} states")
    for path, values in ms.items():
        print(f"{path:9s} ms per search: median {statistics.median(values):.1f}, "
              f"mean {statistics.fmean(values):.1f}, max {max(values):.1f}; "
              f"{states[path]:,} states, {over[path]} over the budget; "
              f"{states[path] / total[path] * 1000:,.0f} states/s")
    ratios = [p / c for p, c in zip(ms[other], ms["compiled"], strict=True)]
    print(f"compiled faster: {total[other] / total['compiled']:.2f}x in total, "
          f"median {statistics.median(ratios):.2f}x per position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
