"""minesolver: exact Minesweeper probabilities, strong solvers, benchmarks."""

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
