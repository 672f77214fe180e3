"""Measuring strategies: many games in parallel, a SQLite store, statistics."""

from .runner import (
    Job,
    check_boards_unchanged,
    check_scheduler,
    layout_of,
    load_layouts,
    pending_jobs,
    play_chunk,
    run_jobs,
    validate,
)
from .spec import RunSpec
from .stats import Mcnemar, mcnemar, wilson
from .store import GameRow, Store, StoreError
from .summary import compare, comparison_json, run_results, summarize

__all__ = [
    "GameRow",
    "Job",
    "Mcnemar",
    "RunSpec",
    "Store",
    "StoreError",
    "check_boards_unchanged",
    "check_scheduler",
    "compare",
    "comparison_json",
    "layout_of",
    "load_layouts",
    "mcnemar",
    "pending_jobs",
    "play_chunk",
    "run_jobs",
    "run_results",
    "summarize",
    "validate",
    "wilson",
]
