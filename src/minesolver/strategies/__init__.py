"""Strategies: from the naive baselines to ``best``; a registry finds them by name.

Importing this package registers the built-in strategies (each module registers
its own, as an outside plug-in would with :func:`register`).

>>> find_strategy("best:endgame=off").label
'best:endgame=off'
"""

from . import baselines, best, dfs, sampling, tank
from .base import STRATEGIES, Move, Reason, Strategy, StrategyError, find_strategy, register

__all__ = [
    "STRATEGIES",
    "Move",
    "Reason",
    "Strategy",
    "StrategyError",
    "baselines",
    "best",
    "dfs",
    "find_strategy",
    "register",
    "sampling",
    "tank",
]
