"""The exact probability engine and its helpers."""

from ..errors import EngineLimitError, InconsistentPositionError
from .cache import FrontCache
from .engine import Analysis, Engine, FrontSummary, Outcome, analyze
from .floats import probabilities
from .oracle import brute_force

__all__ = [
    "Analysis",
    "Engine",
    "EngineLimitError",
    "FrontCache",
    "FrontSummary",
    "InconsistentPositionError",
    "Outcome",
    "analyze",
    "brute_force",
    "probabilities",
]
