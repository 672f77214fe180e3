"""What an exact endgame search over more layouts would add to ``best``, measured
exactly on the positions where it would act, instead of by paired games.

``best`` searches the game tree exactly once at most ``endgame_layouts`` layouts
remain (``--floor``; by default its default, now 5,000).  A search up to ``--layouts N``
would act earlier: at the first position of a game where ``best`` has to guess
with between the floor and N layouts.  The
two players agree up to that position, and from it on the bigger search plays
perfectly, so what it adds to that game is exactly

    W*(s) - V(s)

where ``W*(s)`` is the chance to win from ``s`` with perfect play (the search) and
``V(s)`` is ``best``'s own chance from ``s``, both exact over every layout of
``s`` (:func:`~minesolver.strategies.worth.strategy_win_chance` walks ``best``'s
game tree over them).  Averaged over all games (zero for a game that never meets
such a position) it is the gain in win rate, with far less noise than a paired
run: most games contribute exactly nothing, the others an exact number.
``W*(s, best's move)`` (the search's value of the cell ``best`` chose) shows
whether the difference is in that move or in later ones.

    python benchmarks/endgame_worth.py --rules expert --games 1000 --seed 20261135 \\
        --floor 300 --layouts 5000 [--strategy best:second=0.5,endgame_layouts=300 ...]

Each ``--strategy`` is asked for its move at the same positions, and that move is
judged by its exact value with perfect play after (its regret, ``W*(s)`` minus it):
a measure of the first move alone, free of the luck of the boards.  With
``--harness PATH --jsms DIR`` JSMinesweeper's analyser is asked too (its
``probs --move``, as ``benchmarks/losses.py --versus`` asks it).  That is the
analyser's "Analyse" move, which searches the game tree exactly up to 5,000
solutions (its play searches up to 1,000): at these positions it is an independent
check of the search's optimal moves more than a judge of JSMinesweeper's play.

``--where`` values every cell that may be safe at those positions and says how
often an optimal cell is among those ``best``'s lookahead considers (within its
``cutoff`` of the safest), and how safe the optimal cells are.

``--compiled`` values perfect play with the compiled search instead of the Python
one, and judges no moves (no ``--strategy``, ``--where`` or ``--harness``): for
searches past 5,000 layouts, where the Python search takes minutes a position.
``best``'s own chance is walked as always (its endgame searches below the floor run
compiled anyway).

    python benchmarks/endgame_worth.py --rules expert --games 1000 --seed 20261600 \
        --layouts 20000 --budget 5000000 --compiled

A position whose search passes ``--budget`` states is counted and left out.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

from losses import jsms_move  # benchmarks/losses.py: JSMinesweeper's move on a position
from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    script_parser,
    strategy_spec,
)

from minesolver.analysis.enumerate import enumerate_layouts
from minesolver.bench.stats import Z95
from minesolver.codes import COVERED
from minesolver.game import Game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
from minesolver.strategies.best import Best
from minesolver.strategies.endgame import BudgetExceeded, best_endgame_move
from minesolver.strategies.worth import strategy_win_chance, win_chances


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return mean, Z95 * sd / math.sqrt(n)


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    add_board(parser)
    add_games(parser, games=200, seed=0, seed_help="game i is played with seed+i")
    parser.add_argument("--layouts", type=int, default=5000, help="the bigger search's limit")
    parser.add_argument("--budget", type=int, default=3_000_000, help="states per search")
    parser.add_argument("--floor", type=int, default=Best().endgame_layouts,
                        help="best's own endgame threshold")
    parser.add_argument("--strategy", action="append", default=[], type=strategy_spec,
                        help="also judge this strategy's move at the same positions")
    parser.add_argument("--compiled", action="store_true",
                        help="perfect play's chance by the compiled search, and no judging "
                             "of moves (for positions too big for the Python search)")
    parser.add_argument("--where", action="store_true",
                        help="also value every cell: is an optimal one within best's cutoff?")
    parser.add_argument("--harness", help="also judge JSMinesweeper's move (its harness)")
    parser.add_argument("--jsms", help="the JSMinesweeper checkout, with --harness")
    parser.add_argument("--jsms-timeout", type=float, default=120,
                        help="seconds JSMinesweeper may take on one position (else not judged)")
    args = parser.parse_args(argv)
    if args.compiled and (args.strategy or args.where or args.harness):
        parser.error("--compiled values perfect play only: no --strategy, --where or --harness")
    if bool(args.harness) != bool(args.jsms):
        parser.error("--harness and --jsms go together")
    if args.layouts <= args.floor:
        parser.error(f"--layouts {args.layouts} must be above --floor {args.floor}")
    if args.harness and not (Path(args.harness).is_file() and Path(args.jsms).is_dir()):
        parser.error("no harness or checkout there (see ../shared/peers/README.md)")
    rules = Rules.from_string(args.rules)
    others = {name: find_strategy(name) for name in args.strategy}
    floor = args.floor
    gains: list[float] = []  # one per game
    judges = ["best", *others, *(["JSMinesweeper analyser"] if args.harness else [])]
    regrets: dict[str, list[float | None]] = {name: [] for name in judges}
    gave_up = met = 0
    where: list[float] = []  # --where: the safest optimal cell's safety over the safest's
    sums = {"W*": 0.0, "W*(best's move)": 0.0, "V": 0.0}
    if args.compiled:  # no move is judged: best's move has no value of its own
        del sums["W*(best's move)"]
    started = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        game = Game(rules, seed=seed)
        strategy = Best(endgame_layouts=floor)
        strategy.new_game(rules, seed)
        gain = 0.0
        while not game.is_over:
            position = game.position()
            move = strategy.moves(position)[0]
            if move.reason in ("guess", "forced"):
                found = enumerate_layouts(position, args.layouts)
                if found is not None and len(found[1]) > floor:
                    picks = {"best": move.cell}
                    for name, other in others.items():
                        other.new_game(rules, seed)
                        picks[name] = other.moves(position)[0].cell
                    if args.harness:
                        theirs = jsms_move(position, args, timeout=args.jsms_timeout)
                        if theirs is not None:
                            if position.cells[position.index(*theirs)] != COVERED:
                                sys.exit(f"game {g}: JSMinesweeper's move {theirs} is not a guess")
                            picks["JSMinesweeper analyser"] = theirs
                    cells = list(dict.fromkeys(picks.values()))
                    safety = {}
                    if args.where:  # value every cell that may be safe
                        last = strategy.last_analysis  # the analysis of this very turn
                        assert last is not None
                        prob = last.prob
                        safety = {
                            position.coords(i): 1.0 - float(prob[position.coords(i)])
                            for i, code in enumerate(position.cells)
                            if code == COVERED and prob[position.coords(i)] < 1.0
                        }
                        cells = list(dict.fromkeys([*cells, *safety]))
                    try:
                        if args.compiled:  # perfect play's chance alone, compiled
                            result = best_endgame_move(
                                position, max_layouts=args.layouts, budget=args.budget,
                                kernel="numba",
                            )
                            if result is None:
                                raise BudgetExceeded(f"more than {args.budget} states")
                            optimum, chances = result.win_chance, {}
                        else:
                            optimum, each = win_chances(
                                position, cells, max_layouts=args.layouts, budget=args.budget
                            )
                            chances = dict(zip(cells, each, strict=True))
                    except BudgetExceeded:
                        gave_up += 1
                        print(f"game {g}: {len(found[1])} layouts, search over budget")
                        break
                    v = strategy_win_chance(
                        position, Best(endgame_layouts=floor), rules, seed=seed,
                        max_layouts=args.layouts,
                    )
                    for name in judges:  # None: not judged (JSMinesweeper timed out)
                        cell = picks.get(name)
                        if chances:
                            regrets[name].append(
                                None if cell is None else optimum - chances[cell]
                            )
                    if args.where:
                        # how safe the safest optimal cell is, next to the safest cell
                        top = max(safety.values())
                        rel = max(safety[c] for c in safety if chances[c] >= optimum - 1e-12)
                        where.append(rel / top)
                    met += 1
                    sums["W*"] += optimum
                    if chances:
                        sums["W*(best's move)"] += chances[move.cell]
                    sums["V"] += v
                    gain = optimum - v
                    shown = "".join(
                        f"; {name} {chances[cell]:.4f}"
                        for name, cell in picks.items() if len(picks) > 1
                    )
                    mine = f"W*(best's move) {chances[move.cell]:.4f}, " if chances else ""
                    print(
                        f"game {g}: {len(found[1])} layouts; W* {optimum:.4f}, "
                        f"{mine}best wins {v:.4f}; gain {gain:+.4f}{shown}",
                        flush=True,
                    )
                    break
            game.reveal(*move.cell)
        gains.append(gain)
        if (g + 1) % 20 == 0:
            print(f"[{g + 1}/{args.games} games, {time.perf_counter() - started:.0f} s]",
                  file=sys.stderr, flush=True)
    n = len(gains)
    print(f"\n{args.rules}, seeds {args.seed}..{args.seed + n - 1}: {n} games; a guess with "
          f"{floor + 1}-{args.layouts} layouts met in {met} (search over budget in {gave_up})")
    if met:
        print("mean over them: " + ", ".join(f"{k} {v / met:.4f}" for k, v in sums.items()))
    if where:
        cutoff = Best().cutoff
        within = sum(r >= cutoff - 1e-12 for r in where)
        print(f"an optimal cell within best's cutoff ({cutoff} of the safest) at {within} of "
              f"{len(where)}; the safest optimal cell's safety over the safest's: median "
              f"{sorted(where)[len(where) // 2]:.3f}, lowest {min(where):.3f}")
    for name, judged in regrets.items():
        values = [r for r in judged if r is not None]
        if not values:
            continue
        mean, half = interval(values)
        line = (f"{name}: first move optimal in {sum(r <= 1e-12 for r in values)} of "
                f"{len(values)}, mean regret {100 * mean:.3f} points "
                f"[{100 * (mean - half):+.3f}, {100 * (mean + half):+.3f}] per position")
        if name != "best":
            paired = [a - b for a, b in zip(judged, regrets["best"], strict=True)
                      if a is not None and b is not None]
            diff, dhalf = interval(paired)
            line += f"; minus best's {100 * diff:+.3f} [{100 * (diff - dhalf):+.3f}, " \
                    f"{100 * (diff + dhalf):+.3f}]"
        print(line)
    mean, half = interval(gains)
    print(f"gain per game of a search to {args.layouts} layouts: {100 * mean:+.3f} points "
          f"[{100 * (mean - half):+.3f}, {100 * (mean + half):+.3f}]; "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
