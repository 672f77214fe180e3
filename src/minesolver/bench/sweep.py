"""Win rate against mine density (first-click rule, noise): points, tables, CSV, plot.

A sweep is one stored run whose games are spread over several points (rules:
board, mine count, first-click rule, noise model), ``games`` games each, so it
resumes like a bench.

>>> density_points(30, 16, [0.1, 0.2], ["safe"])
(Rules(30, 16, 48, first_click='safe'), Rules(30, 16, 96, first_click='safe'))
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import quote
from ..noise import NoiseModel
from ..rules import FirstClick, Rules, RulesError
from .spec import RunSpec
from .store import GameRow
from .summary import summarize

__all__ = ["density_points", "parse_densities", "plot_sweep", "sweep_table", "write_csv"]

COLUMNS = [
    "strategy", "noise", "first_click", "no_guess", "width", "height", "mines", "density",
    "games", "wins", "win_rate", "ci_lo", "ci_hi", "needs_guess", "open_rate", "guesses_per_game",
    "ms_per_game_mean", "opened_5", "open_rate_5", "engine_share", "chain_mean", "chain_max",
]


MAX_POINTS = 200  # densities a sweep may ask for


def parse_densities(text: str) -> list[float]:
    """``0.1,0.15,0.2`` or a range ``0.10:0.30:0.02`` (start:stop:step, stop included).

    Densities lie strictly between 0 and 1; at most :data:`MAX_POINTS` of them.

    >>> parse_densities("0.1:0.2:0.05")
    [0.1, 0.15, 0.2]
    """
    text = text.strip()
    try:
        pieces = text.split(":") if ":" in text else text.split(",")
        parts = [float(x) for x in pieces if x.strip()]
    except ValueError:
        raise RulesError(
            f"cannot read densities {quote(text)}: expected 0.1,0.2 or start:stop:step"
        ) from None
    if ":" in text:
        if len(parts) != 3:
            raise RulesError(f"cannot read densities {quote(text)}: expected start:stop:step")
        start, stop, step = parts
        if not all(math.isfinite(x) for x in parts) or not 0 < start < 1 or not 0 < stop < 1:
            raise RulesError(f"densities must lie strictly between 0 and 1, got {quote(text)}")
        if step <= 0:
            raise RulesError(f"density step must be positive, got {step:g} in {quote(text)}")
        if stop < start:
            raise RulesError(
                f"cannot read densities {quote(text)}: a range runs up, start:stop:step "
                f"with start at most stop"
            )
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_POINTS:
            raise RulesError(f"{quote(text)} makes {count} densities: at most {MAX_POINTS}")
        values = [round(start + k * step, 6) for k in range(max(0, count))]
    else:
        values = parts
    if not values or any(not 0 < v < 1 for v in values):  # also refuses nan
        raise RulesError(f"densities must lie strictly between 0 and 1, got {quote(text)}")
    if len(values) > MAX_POINTS:
        raise RulesError(f"{len(values)} densities: at most {MAX_POINTS}")
    return values


def density_points(
    width: int,
    height: int,
    densities: Sequence[float],
    first_clicks: Sequence[FirstClick],
    noises: Sequence[NoiseModel | None] = (None,),
    *,
    no_guess: bool = False,
) -> tuple[Rules, ...]:
    """One point per noise model, first-click rule and density (``None``: exact clues);
    ``no_guess``: every point's boards are no-guess."""
    points = []
    for noise in noises:
        for first_click in first_clicks:
            for density in densities:
                mines = max(1, round(density * width * height))
                points.append(Rules(width, height, mines, first_click=first_click, noise=noise,
                                    no_guess=no_guess))
    return tuple(dict.fromkeys(points))


def sweep_table(spec: RunSpec, rows: Iterable[GameRow]) -> list[dict[str, Any]]:
    """One summary row per strategy and point, in point order."""
    groups: dict[tuple[str, int], list[GameRow]] = {}
    for row in rows:
        groups.setdefault((row.strategy, row.game_index // spec.games), []).append(row)
    table = []
    for name in spec.strategies:
        for p in range(len(spec.points)):
            games = groups.get((name, p), [])
            rules = spec.rules_for(p * spec.games)
            s = summarize(games)
            table.append(
                {
                    "strategy": name,
                    "noise": rules.noise_text or "none",
                    "first_click": rules.first_click,
                    "no_guess": rules.no_guess,
                    "width": rules.width,
                    "height": rules.height,
                    "mines": rules.mines,
                    "density": rules.mines / rules.cells,
                    "games": s["games"],
                    "wins": s["wins"],
                    "win_rate": s["win_rate"],
                    "ci_lo": s["ci95"][0],
                    "ci_hi": s["ci95"][1],
                    "needs_guess": s["needs_guess"],
                    "open_rate": s["open_rate"],
                    "guesses_per_game": s["guesses_per_game"],
                    "ms_per_game_mean": s["ms_per_game_mean"],
                    **{key: s[key] for key in COLUMNS[-5:]},
                }
            )
    return table


def write_csv(table: list[dict[str, Any]], handle: IO[str]) -> None:
    """Write the sweep table as CSV to an open text file."""
    writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in table:
        writer.writerow(row)


def _percent(share: float | None) -> float:
    """A share as a percentage to plot; none (no game opened enough to count) is a gap."""
    return math.nan if share is None else 100 * share


def plot_sweep(table: list[dict[str, Any]], path: str | Path | IO[bytes], title: str = "") -> None:
    """Two panels: win rate with 95% intervals; open rate and share needing a guess."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    series: dict[tuple[str, str, str, bool], list[dict[str, Any]]] = {}
    for row in table:
        key = (row["strategy"], row["first_click"], row.get("noise", "none"),
               bool(row.get("no_guess")))
        series.setdefault(key, []).append(row)
    for (name, first_click, noise, no_guess), rows in series.items():
        # a point with no game yet (a stopped run) has no figures: it is left out
        rows = sorted((r for r in rows if r["games"]), key=lambda r: r["density"])
        x = [100 * r["density"] for r in rows]
        y = [100 * r["win_rate"] for r in rows]
        err = [
            [100 * (r["win_rate"] - r["ci_lo"]) for r in rows],
            [100 * (r["ci_hi"] - r["win_rate"]) for r in rows],
        ]
        label = f"{name}, first click {first_click}"
        if noise != "none":
            label += f", {noise}"
        if no_guess:
            label += ", no-guess boards"
        left.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
        line = right.plot(x, [_percent(r["open_rate"]) for r in rows], marker="o",
                          label=f"open rate: {label}")
        right.plot(x, [100 * r["needs_guess"] for r in rows], marker="x", linestyle="--",
                   color=line[0].get_color(), label=f"needs a guess: {label}")
    left.set_xlabel("mine density (%)")
    left.set_ylabel("win rate (%)")
    left.set_title(title or "win rate (95% Wilson intervals)")
    left.grid(alpha=0.3)
    left.legend(fontsize=8)
    right.set_xlabel("mine density (%)")
    right.set_ylabel("%")
    right.set_title("share of safe cells opened; games needing a guess")
    right.grid(alpha=0.3)
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path if not isinstance(path, Path) else str(path), dpi=110, format="png")
    plt.close(fig)
