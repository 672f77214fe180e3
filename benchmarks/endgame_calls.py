"""How often ``best``'s endgame search runs, and how often it gives up on its budget.

Plays seeded games with each strategy given and counts, per strategy, the calls to
the endgame search and the calls that returned no move (the search hit
``endgame_budget``: ``best`` only calls it with at most ``endgame_layouts`` layouts).

    python benchmarks/endgame_calls.py --games 40 --strategy best:endgame_layouts=1000 \\
        --strategy best:endgame_layouts=1000,endgame_budget=1000000
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    script_parser,
    strategy_spec,
)

from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
from minesolver.strategies.endgame import Endgame, EndgameResult


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    add_board(parser)
    add_games(parser, games=40, seed=0, seed_help="game i is played with seed+i")
    parser.add_argument("--strategy", action="append", required=True, type=strategy_spec,
                        help="a strategy spec to count the calls of (repeat)")
    args = parser.parse_args(argv)
    rules = Rules.from_string(args.rules)
    calls: Counter[str] = Counter()

    searched = Endgame.move

    def counted(self: Endgame, position: Position) -> EndgameResult | None:
        result = searched(self, position)
        calls["gave up" if result is None else "moved"] += 1
        return result

    setattr(Endgame, "move", counted)  # noqa: B010 (mypy: a method replaced)
    for name in args.strategy:
        calls.clear()
        strategy = find_strategy(name)
        start = time.process_time()
        won = sum(
            play_game(rules, strategy, seed=args.seed + i).won for i in range(args.games)
        )
        seconds = time.process_time() - start
        print(
            f"{name}: {won} of {args.games} won; endgame search ran {sum(calls.values())} "
            f"times, gave up {calls['gave up']}; {seconds:.1f} CPU s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
