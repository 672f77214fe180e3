"""Text output that several commands share: an analysis, a run's results."""

from __future__ import annotations

import json
from typing import Any

import click
import numpy as np
from rich.console import Console
from rich.table import Table

from ..advice import Advice
from ..analysis import Analysis
from ..bench import RunSpec, Store
from ..bench.flags import flags_summary
from ..bench.stats import wilson
from ..codes import COVERED
from ..errors import counted, percent
from ..serialize import MAX_EXACT_DIGITS, solutions_text
from ..show.terminal import board_text
from ..survey import Survey
from .base import console

__all__ = [
    "print_advice",
    "print_analysis",
    "print_flags_run",
    "print_flags_summary",
    "print_results",
    "short_number",
]


def print_analysis(out: Console, name: str, analysis: Analysis, *, trailing: bool = True) -> None:
    """A position's board with its probabilities, the safe cells and mines, the
    safest guess and the number of layouts (then a blank line, with ``trailing``)."""
    position = analysis.position
    out.print(
        f"[bold]{name}[/]: {position.width}x{position.height}, {counted(position.mines, 'mine')}, "
        f"{position.mines_left} not flagged"
    )
    out.print(board_text(position, analysis), end="")
    safe = analysis.safe
    new_mines = [cell for cell in analysis.mines if position.cell(*cell) == COVERED]
    out.print(f"safe ({len(safe)}): " + (_cells(safe) or "none"))
    out.print(f"mines not flagged ({len(new_mines)}): " + (_cells(new_mines) or "none"))
    if not safe and analysis.uncertain_mask.any():  # the lowest risk, first row-major
        risks = np.where(analysis.uncertain_mask, analysis.prob.ravel(), np.inf)
        index = int(np.argmin(risks))
        cell = divmod(index, position.width)
        out.print(f"safest guess: {cell} with mine probability {percent(float(risks[index]))}")
    written = solutions_text(analysis)
    if written is None:
        count = (f"about 10^{int(analysis.solutions_log10)} (over {MAX_EXACT_DIGITS:,} "
                 "digits: not written out)")
    else:
        count = short_number(written)
        count += f" (about 10^{len(written) - 1})" if len(written) > 12 else ""
    fronts = len(analysis.fronts)
    out.print(
        f"layouts: {count}; "
        f"{fronts} front{'' if fronts == 1 else 's'}; engine {analysis.seconds * 1000:.2f} ms"
        + ("\n" if trailing else "")
    )


def print_advice(out: Console, advice: Advice | None, survey: Survey | None) -> None:
    """What to click and why (:mod:`minesolver.advice`), then the 50/50 pairs, the dead
    cells and the cells likeliest to show a zero (:mod:`minesolver.survey`)."""
    if advice is None:
        out.print("[bold]advice[/]: nothing left to open (every covered cell, if any, is a mine)")
    else:
        out.print(f"[bold]advice[/]: {advice.text}")
    if survey is not None:
        pairs = " ".join(f"{a}-{b}" for a, b in survey.pairs)
        out.print(f"50/50 pairs ({len(survey.pairs)}): {pairs or 'none'}")
        if survey.skipped:
            out.print(f"chance of a zero, dead cells: {survey.skipped}")
        else:
            out.print(f"dead cells ({len(survey.dead)}): " + (_cells(survey.dead) or "none"))
            ranked = sorted(
                ((chance, (r, c)) for r, row in enumerate(survey.zero)
                 for c, chance in enumerate(row) if chance > 0),
                key=lambda item: (-item[0], item[1]),
            )
            best = " ".join(f"({r},{c}) {percent(p)}" for p, (r, c) in ranked[:5])
            out.print("likeliest zeros: " + (best or "none"))
    out.print("figures are exact: ratios of exact layout counts\n")


def short_number(s: str) -> str:
    """A number written out, or its first and last 25 digits when it has more than 60."""
    return s if len(s) <= 60 else f"{s[:25]}...{s[-25:]} ({len(s)} digits)"


def _cells(cells: list[tuple[int, int]], limit: int = 40) -> str:
    shown = " ".join(f"({r},{c})" for r, c in cells[:limit])
    return shown + (f" ... and {len(cells) - limit} more" if len(cells) > limit else "")


def print_results(out: Console, data: dict[str, Any]) -> None:
    """A run's summary table and its paired comparisons (:func:`~minesolver.bench.run_results`)."""
    table = Table(title=f"run {data['run_id']}", title_justify="left")
    for column in ("strategy", "games", "wins", "win rate", "95% CI", "guesses/game",
                   "open rate", "ms/game mean", "ms/game median"):
        table.add_column(column, justify="right" if column != "strategy" else "left")
    for s in data["results"]:
        lo, hi = s["ci95"]
        figures: tuple[str, ...] = ("-",) * 6  # a run stopped before its first game
        if s["games"]:
            figures = (
                f"{s['win_rate']:.2%}", f"[{lo:.2%}, {hi:.2%}]", f"{s['guesses_per_game']:.2f}",
                f"{s['open_rate']:.1%}", f"{s['ms_per_game_mean']:.1f}",
                f"{s['ms_per_game_median']:.1f}",
            )
        table.add_row(s["strategy"], str(s["games"]), str(s["wins"]), *figures)
    out.print(table)
    for s in data["results"]:
        out.print(study_line(s))
    for c in data["comparisons"]:
        lo, hi = c["ci95"]
        out.print(
            f"{c['a']} - {c['b']}: {c['diff']:+.2%} [{lo:+.2%}, {hi:+.2%}] over {c['games']} "
            f"paired games ({c['a_only']} won only by {c['a']}, {c['b_only']} only by "
            f"{c['b']}; McNemar p = {c['p_value']:.3g})"
        )


def study_line(s: dict[str, Any]) -> str:
    """The studies' measures of one strategy (:func:`~minesolver.bench.summary.study_measures`)."""
    if not s["games"]:
        return f"{s['strategy']}: no game played yet"
    among = "-" if s["open_rate_5"] is None else f"{s['open_rate_5']:.1%}"
    text = (f"{s['strategy']}: {s['opened_5']:.1%} of games opened >= 5% of the board, "
            f"open rate among them {among}")
    if s.get("engine_share") is not None:
        text += (f"; engine needed on {s['engine_share']:.1%} of turns; longest deduction "
                 f"chain {s['chain_mean']:.1f} turns on average, {s['chain_max']} at most")
    return text


def print_flags_summary(out: Console, run_id: str, spec: RunSpec, s: dict[str, Any]) -> None:
    """A match as a small table: each side's wins, win rate, score and time."""
    p1, p2 = spec.strategies
    table = Table(title=f"run {run_id}: Minesweeper Flags {spec.rules}, seed {spec.seed}",
                  title_justify="left")
    for column in ("player", "wins", "win rate", "95% CI", "mean mines", "bombed",
                   "ms/game"):
        table.add_column(column, justify="left" if column == "player" else "right")
    games = s["games"]
    for seat, name, wins in (("p1", p1, s["p1_wins"]), ("p2", p2, s["p2_wins"])):
        lo, hi = wilson(wins, games)
        figures: tuple[str, ...] = ("-",) * 5  # a match stopped before its first game
        if games:
            figures = (f"{wins / games:.1%}", f"[{lo:.1%}, {hi:.1%}]",
                       f"{s[f'{seat}_mean_score']:.1f}", f"{s[f'{seat}_bomb_rate']:.0%}",
                       f"{s[f'{seat}_ms_per_game']:.0f}")
        table.add_row(f"{seat} {name}", str(wins), *figures)
    out.print(table)
    for seat, name in (("p1", p1), ("p2", p2)):
        rate = s.get(f"{seat}_boards_per_second")
        if rate is not None:
            out.print(f"{seat} {name} sampled {rate:,.0f} boards per second of sampling")
    if not games:
        out.print(f"0 of {spec.games} games: no game played yet")
        return

    def share(key: str) -> str:
        return "-" if s[key] is None else f"{s[key]:.1%}"

    out.print(
        f"{games} of {spec.games} games, {s['draws']} draws; p1 wins "
        f"{share('p1_win_rate_moving_first')} moving first, "
        f"{share('p1_win_rate_moving_second')} moving second; "
        f"{s['moves_per_game']:.1f} moves per game"
    )


def print_flags_run(store: Store, run_id: str, created: str, spec: RunSpec,
                    as_json: bool) -> None:
    """``minesolver report`` for a run of kind ``flags``."""
    summary = flags_summary(list(store.flags_games(run_id)))
    if as_json:
        summary.update({"run_id": run_id, "kind": "flags", "created": created,
                        "p1": spec.strategies[0], "p2": spec.strategies[1],
                        "rules": str(spec.rules), "seed": spec.seed,
                        "planned_games": spec.games})
        click.echo(json.dumps(summary))
        return
    out = console()
    out.print(f"[bold]{run_id}[/] flags {created}: {spec.strategies[0]} (p1) against "
              f"{spec.strategies[1]} (p2), {spec.rules}, seed {spec.seed}, "
              f"{spec.games} games planned")
    print_flags_summary(out, run_id, spec, summary)


def print_sweep_rows(out: Console, table: list[dict[str, Any]], games: int) -> None:
    """One line per point and strategy of a sweep (``bench.sweep.sweep_table``), whose
    points ask for ``games`` each: a point with fewer (a run stopped part way) says so."""
    for row in table:
        point = (
            f"{row['strategy']:<10} {row['noise']:<13} {row['first_click']:<8} "
            f"{'no-guess ' if row['no_guess'] else ''}"
            f"{row['width']}x{row['height']}x"
            f"{row['mines']:<5} density {row['density']:.1%}:"
        )
        if not row["games"]:
            out.print(f"{point} no games yet (of {games})")
            continue
        part = f" ({row['games']} of {games} games)" if row["games"] < games else ""
        out.print(
            f"{point} win {row['win_rate']:.1%} [{row['ci_lo']:.1%}, {row['ci_hi']:.1%}]"
            f"{part}, needs a guess {row['needs_guess']:.0%}, open rate {row['open_rate']:.1%}"
        )
