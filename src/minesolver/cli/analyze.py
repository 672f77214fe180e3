"""``minesolver analyze``: exact probabilities of positions given as .mine text."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ..analysis import Analysis, analyze
from ..display import board_text
from ..position import COVERED, Position
from . import USER_ERRORS, cli, console, one_line


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    path = Path(name)
    if path.is_dir():
        raise IsADirectoryError(f"{name} is a directory")
    return path.read_text(encoding="utf-8")


def analysis_json(name: str, analysis: Analysis) -> dict[str, Any]:
    """The ``--json`` record of one analysed position."""
    position = analysis.position
    return {
        "file": name,
        "width": position.width,
        "height": position.height,
        "mines": position.mines,
        "prob": analysis.prob.tolist(),
        "safe": [list(cell) for cell in analysis.safe],
        "mine": [list(cell) for cell in analysis.mines],
        "solutions": str(analysis.solutions),
        "seconds": analysis.seconds,
    }


def print_analysis(console: Console, name: str, analysis: Analysis) -> None:
    position = analysis.position
    console.print(
        f"[bold]{name}[/]: {position.width}x{position.height}, {position.mines} mines, "
        f"{position.mines_left} not flagged"
    )
    console.print(board_text(position, analysis), end="")
    safe = analysis.safe
    new_mines = [
        cell for cell in analysis.mines if position.cells[position.index(*cell)] == COVERED
    ]
    console.print(f"safe ({len(safe)}): " + (_cells(safe) or "none"))
    console.print(f"mines not flagged ({len(new_mines)}): " + (_cells(new_mines) or "none"))
    covered = [
        (float(analysis.prob[r, c]), (r, c))
        for r, c in position.covered_cells()
        if (r, c) not in set(safe)
    ]
    if not safe and covered:
        p, cell = min(covered)
        console.print(f"safest guess: {cell} with mine probability {p:.2%}")
    digits = len(str(analysis.solutions))
    approx = f" (about 10^{digits - 1})" if digits > 12 else ""
    console.print(
        f"layouts: {_short_int(analysis.solutions)}{approx}; "
        f"{len(analysis.fronts)} fronts; engine {analysis.seconds * 1000:.2f} ms\n"
    )


def _short_int(n: int) -> str:
    s = str(n)
    return s if len(s) <= 60 else f"{s[:25]}...{s[-25:]} ({len(s)} digits)"


def _cells(cells: list[tuple[int, int]], limit: int = 40) -> str:
    shown = " ".join(f"({r},{c})" for r, c in cells[:limit])
    return shown + (f" ... and {len(cells) - limit} more" if len(cells) > limit else "")


@cli.command("analyze")
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file, one per line.")
def analyze_cmd(files: tuple[str, ...], as_json: bool) -> None:
    """Exact mine probabilities of positions in JSMinesweeper's .mine text.

    FILES are .mine files; `-` reads one position from standard input.
    """
    out = console()
    failed = False
    for name in files:
        try:
            position = Position.from_text(_read_input(name))
            analysis = analyze(position)
        except USER_ERRORS as exc:
            click.echo(f"minesolver: error: {name}: {one_line(str(exc))}", err=True)
            failed = True
            continue
        if as_json:
            click.echo(json.dumps(analysis_json(name, analysis)))
        else:
            print_analysis(out, name, analysis)
    if failed:
        sys.exit(2)
