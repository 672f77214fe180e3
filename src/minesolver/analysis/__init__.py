"""The exact probability engine and its helpers."""

from ..errors import EngineLimitError, InconsistentPositionError
from .engine import Analysis, FrontSummary, analyze
from .oracle import brute_force

__all__ = [
    "Analysis",
    "EngineLimitError",
    "FrontSummary",
    "InconsistentPositionError",
    "analyze",
    "brute_force",
]
