"""The work done in :mod:`.sandbox` children for Play, Analyse and Flags: plain functions.

They take and return picklable values, and hold no state between calls: a
strategy (or a Flags player) travels to the child and back, so its random
generator moves on.

>>> from minesolver.position import Position
>>> analysis_of(Position.from_text("3x1x1\\n1HH\\n"))["solutions"]
'1'
"""

from __future__ import annotations

from typing import Any

from ..advice import advise
from ..analysis import analyze
from ..position import Position
from ..replay import Replay
from ..review import review_game
from ..serialize import advice_json, analysis_json, review_json
from ..strategies import Move, Strategy
from ..survey import survey
from ..variants.flags import FlagsMove, FlagsPlayer, FlagsView

__all__ = [
    "PROB_DIGITS",
    "advice_of",
    "analysis_of",
    "flags_choice",
    "review_of",
    "solver_moves",
]

PROB_DIGITS = 5  # enough for the hover text (xx.xxx%), small enough for 200x200 boards


def analysis_of(position: Position) -> dict[str, Any]:
    """The API's analysis JSON of ``position``."""
    return dict(analysis_json(analyze(position), digits=PROB_DIGITS))


def advice_of(position: Position) -> dict[str, Any]:
    """The API's advice JSON of ``position``: ``best``'s move and why, the chance of a
    zero of every cell, the dead cells and the 50/50 pairs.

    >>> advice_of(Position.from_text("3x1x1\\n1HH\\n"))["advice"]["cell"]
    [0, 2]
    """
    return advice_json(advise(position), survey(position), digits=PROB_DIGITS)


def review_of(replay: Replay) -> dict[str, Any]:
    """The API's review JSON of a played game, with the position before each click."""
    return review_json(review_game(replay), positions=True)


def solver_moves(strategy: Strategy, position: Position) -> tuple[list[Move], Strategy]:
    """The strategy's moves, and the strategy itself (its state moved on)."""
    moves = strategy.moves(position)
    strategy.last_analysis = None  # big, and not needed back
    return moves, strategy


def flags_choice(player: FlagsPlayer, view: FlagsView) -> tuple[FlagsMove, FlagsPlayer]:
    """The Flags player's move on what it may see, and the player (its state moved on).

    >>> from minesolver.variants.flags import FlagsGame, find_flags_player
    >>> move, player = flags_choice(find_flags_player("exact"), FlagsGame(seed=5).view())
    >>> move.kind, player.name
    ('open', 'exact')
    """
    return player.choose(view), player
