"""The exact probability engine and its helpers."""

from .engine import Analysis, FrontSummary, analyze
from .oracle import brute_force
from .system import EngineLimitError, InconsistentPositionError

__all__ = [
    "Analysis",
    "EngineLimitError",
    "FrontSummary",
    "InconsistentPositionError",
    "analyze",
    "brute_force",
]
