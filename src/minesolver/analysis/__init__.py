"""The exact probability engine and its helpers."""

from .engine import Analysis, FrontSummary, analyze
from .oracle import brute_force
from .system import InconsistentPositionError

__all__ = ["Analysis", "FrontSummary", "InconsistentPositionError", "analyze", "brute_force"]
