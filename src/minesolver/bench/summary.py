"""Figures of a run: win rate with its interval, guesses, time; paired comparisons.

>>> from minesolver.bench.store import GameRow
>>> rows = [GameRow("r1", "tank", i, i, "9x9x10", "safe", "corner", i % 2 == 0, 5, 1, 10,
...                 0.01, 60, 71, "0") for i in range(10)]
>>> s = summarize(rows)
>>> s["games"], s["wins"], s["win_rate"]
(10, 5, 0.5)
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from typing import Any

from ..play import format_start
from .spec import RunSpec
from .stats import Mcnemar, mcnemar, wilson
from .store import GameRow, Store

__all__ = ["compare", "comparison_json", "run_results", "study_measures", "summarize"]


def summarize(rows: Sequence[GameRow]) -> dict[str, Any]:
    """Summary of one strategy's games (all rows share the strategy).  With no
    games (a run stopped before its first), every rate and time is ``None``: there
    is nothing to measure, not a measure of 0."""
    n = len(rows)
    wins = sum(1 for r in rows if r.won)
    lo, hi = wilson(wins, n)
    out: dict[str, Any] = {
        "strategy": rows[0].strategy if rows else None,
        "games": n,
        "wins": wins,
        "win_rate": None,
        "ci95": [lo, hi],
        "guesses_per_game": None,
        "needs_guess": None,
        "open_rate": None,
        "ms_per_game_mean": None,
        "ms_per_game_median": None,
        "ms_per_game_p95": None,
        "bbbv_mean": None,
    }
    if n:
        ms = [r.seconds * 1000 for r in rows]
        out.update({
            "win_rate": wins / n,
            "guesses_per_game": statistics.fmean(r.guesses for r in rows),
            "needs_guess": sum(1 for r in rows if r.guesses > 0) / n,
            "open_rate": statistics.fmean(r.opened / r.safe_cells for r in rows),
            "ms_per_game_mean": statistics.fmean(ms),
            "ms_per_game_median": statistics.median(ms),
            "ms_per_game_p95": _quantile(ms, 0.95),
            "bbbv_mean": statistics.fmean(r.bbbv for r in rows),
        })
    out.update(study_measures(rows))
    return out


OPENED_ENOUGH = 0.05  # "games that opened at least 5% of the board"


def study_measures(rows: Sequence[GameRow]) -> dict[str, Any]:
    """The studies' figures (``docs/studies.md``): the open rate among games that
    opened at least 5% of their safe cells (and how many did), the per-turn share of
    positions the trivial and subset rules could not advance (the probability engine
    was needed), and the longest deduction chain one reveal set off (mean and max
    over games).  Rows stored before these measures existed count for the open
    rates only; the others are ``None`` when no row has them, and the open rate among
    games that opened enough is ``None`` when no game did.

    >>> from minesolver.bench.store import GameRow
    >>> row = GameRow("r1", "tank", 0, 0, "9x9x10", "safe", "corner", True, 5, 1, 10, 0.01,
    ...               71, 71, "0", '{"turns": 4, "engine_turns": 1, "chain": 3, "chain_cells": 60}')
    >>> m = study_measures([row])
    >>> m["engine_share"], m["chain_max"], m["open_rate_5"]
    (0.25, 3, 1.0)
    """
    opened = [r.opened / r.safe_cells for r in rows if r.safe_cells]
    enough = [x for x in opened if x >= OPENED_ENOUGH]
    measured = [m for m in (_measures(r) for r in rows) if m is not None]
    turns = sum(m["turns"] for m in measured)
    chains = [m["chain"] for m in measured]
    return {
        "opened_5": len(enough) / len(opened) if opened else 0.0,
        "open_rate_5": statistics.fmean(enough) if enough else None,
        "engine_share": sum(m["engine_turns"] for m in measured) / turns if turns else None,
        "chain_mean": statistics.fmean(chains) if chains else None,
        "chain_max": max(chains) if chains else None,
    }


def _measures(row: GameRow) -> dict[str, int] | None:
    if not row.extra:
        return None
    data = json.loads(row.extra)
    return data if "turns" in data else None


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def compare(a: Sequence[GameRow], b: Sequence[GameRow]) -> Mcnemar:
    """McNemar comparison of two strategies on the games both played."""
    won_b = {r.game_index: r.won for r in b}
    pairs = [(r.won, won_b[r.game_index]) for r in a if r.game_index in won_b]
    a_only = sum(1 for x, y in pairs if x and not y)
    b_only = sum(1 for x, y in pairs if y and not x)
    return mcnemar(a_only, b_only, len(pairs))


def comparison_json(name_a: str, name_b: str, result: Mcnemar) -> dict[str, Any]:
    """A comparison as the JSON the CLI prints."""
    return {
        "a": name_a,
        "b": name_b,
        "games": result.games,
        "a_only": result.a_only,
        "b_only": result.b_only,
        "diff": result.diff,
        "ci95": list(result.ci95),
        "statistic": result.statistic,
        "p_value": result.p_value,
    }


def run_results(store: Store, run_id: str, spec: RunSpec) -> dict[str, Any]:
    """A run's figures from the store: a summary per strategy and every pairwise
    comparison on the games both played."""
    rows = {name: list(store.games(run_id, name)) for name in spec.strategies}
    rules = spec.rules
    summaries = []
    for name in spec.strategies:
        s = summarize(rows[name])
        s.update(
            {
                "run_id": run_id,
                "strategy": name,
                "rules": str(rules),
                "first_click": rules.first_click,
                "noise": rules.noise_text,
                "no_guess": rules.no_guess,
                "start": None if spec.start is None else format_start(spec.start),
                "seed": spec.seed,
            }
        )
        summaries.append(s)
    comparisons = []
    names = list(spec.strategies)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            comparisons.append(comparison_json(a, b, compare(rows[a], rows[b])))
    return {"run_id": run_id, "results": summaries, "comparisons": comparisons}
