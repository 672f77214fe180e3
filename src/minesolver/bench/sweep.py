"""Win rate against mine density (first-click rule, noise): points, tables, CSV, plot.

A sweep is one stored run whose games are spread over several
``(rules, first_click, noise)`` points, ``games`` games each, so it resumes like a bench.

>>> points = density_points(30, 16, [0.1, 0.2], ["safe"])
>>> points
(('30x16x48', 'safe', ''), ('30x16x96', 'safe', ''))
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..rules import Rules, RulesError
from .store import GameRow, RunSpec
from .summary import summarize

__all__ = ["density_points", "parse_densities", "plot_sweep", "sweep_table", "write_csv"]

COLUMNS = [
    "strategy", "noise", "first_click", "width", "height", "mines", "density", "games", "wins",
    "win_rate", "ci_lo", "ci_hi", "needs_guess", "open_rate", "guesses_per_game",
    "ms_per_game_mean",
]


def parse_densities(text: str) -> list[float]:
    """``0.1,0.15,0.2`` or a range ``0.10:0.30:0.02`` (start:stop:step, stop included).

    >>> parse_densities("0.1:0.2:0.05")
    [0.1, 0.15, 0.2]
    """
    text = text.strip()
    try:
        if ":" in text:
            start, stop, step = (float(x) for x in text.split(":"))
            if step <= 0:
                raise RulesError(f"density step must be positive, got {step}")
            values = []
            k = 0
            while start + k * step <= stop + 1e-9:
                values.append(round(start + k * step, 6))
                k += 1
        else:
            values = [float(x) for x in text.split(",") if x.strip()]
    except RulesError:
        raise  # a RulesError is a ValueError: keep its own message
    except ValueError:
        raise RulesError(
            f"cannot read densities {text!r}: expected 0.1,0.2 or start:stop:step"
        ) from None
    if not values or any(not 0 < v < 1 for v in values):
        raise RulesError(f"densities must lie strictly between 0 and 1, got {text!r}")
    return values


def density_points(
    width: int,
    height: int,
    densities: Sequence[float],
    first_clicks: Sequence[str],
    noises: Sequence[str | None] = (None,),
) -> tuple[tuple[str, str, str], ...]:
    """One ``(WxHxM, first_click, noise)`` point per noise model, first-click rule
    and density (noise ``""`` is the classic game)."""
    points = []
    for noise in noises:
        for first_click in first_clicks:
            for density in densities:
                mines = max(1, round(density * width * height))
                rules = Rules(
                    width, height, mines, first_click=first_click, noise=noise  # type: ignore[arg-type]
                )
                points.append((str(rules), first_click, rules.noise or ""))
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
                    "noise": rules.noise or "none",
                    "first_click": rules.first_click,
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
                }
            )
    return table


def write_csv(table: list[dict[str, Any]], path: str | Path) -> None:
    """Write the sweep table as CSV."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for row in table:
            writer.writerow(row)


def plot_sweep(table: list[dict[str, Any]], path: str | Path, title: str = "") -> None:
    """Two panels: win rate with 95% intervals; open rate and share needing a guess."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    series: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in table:
        key = (row["strategy"], row["first_click"], row.get("noise", "none"))
        series.setdefault(key, []).append(row)
    for (name, first_click, noise), rows in series.items():
        rows = sorted(rows, key=lambda r: r["density"])
        x = [100 * r["density"] for r in rows]
        y = [100 * r["win_rate"] for r in rows]
        err = [
            [100 * (r["win_rate"] - r["ci_lo"]) for r in rows],
            [100 * (r["ci_hi"] - r["win_rate"]) for r in rows],
        ]
        label = f"{name}, first click {first_click}"
        if noise != "none":
            label += f", {noise}"
        left.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
        line = right.plot(x, [100 * r["open_rate"] for r in rows], marker="o",
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
    fig.savefig(str(path), dpi=110)
    plt.close(fig)
