"""Strategies: from the naive baselines to ``best``; a registry finds them by name."""

from .base import STRATEGIES, Move, Reason, Strategy, StrategyError, find_strategy, register

__all__ = [
    "STRATEGIES",
    "Move",
    "Reason",
    "Strategy",
    "StrategyError",
    "find_strategy",
    "register",
]

_loaded = False


def _load_builtins() -> None:
    """Import the built-in strategy modules so they register themselves."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import baselines, best, sampling, tank  # noqa: F401
