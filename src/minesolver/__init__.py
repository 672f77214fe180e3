"""minesolver: exact Minesweeper probabilities, strong solvers, benchmarks.

The public names are imported on first use, so that ``import minesolver.cli``
costs nothing before the command line's own error handling is in place (Ctrl-C
at any moment is then one line, not a traceback from an import).

>>> from minesolver import Rules
>>> Rules.from_string("9x9x10").mines
10
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game, GameError, Layout
    from .position import Position, PositionError
    from .rules import BEGINNER, EXPERT, INTERMEDIATE, Rules, RulesError

__version__ = "0.1.0"

__all__ = [
    "BEGINNER",
    "EXPERT",
    "INTERMEDIATE",
    "Game",
    "GameError",
    "Layout",
    "Position",
    "PositionError",
    "Rules",
    "RulesError",
    "__version__",
]

_HOMES = {
    "Game": "game", "GameError": "game", "Layout": "game",
    "Position": "position", "PositionError": "position",
    "BEGINNER": "rules", "EXPERT": "rules", "INTERMEDIATE": "rules", "Rules": "rules",
    "RulesError": "rules",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'minesolver' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
