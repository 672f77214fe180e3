"""``minesolver analyze``: exact probabilities of positions given as .mine text, and advice."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ..advice import advise
from ..analysis import Analysis, analyze
from ..errors import InputError, LimitError, with_notes
from ..formats import FormatError, read_mbf_stream
from ..position import Position
from ..serialize import advice_json, analysis_json
from ..survey import survey
from .base import USER_ERRORS, cli, console, message_of, one_line
from .options import limits_option
from .printing import print_advice, print_analysis

__all__ = ["analyze_cmd", "analyze_record"]


# the text of the largest position (a 1x16,000,000 board, every row ending in CRLF) is
# under this: anything longer is refused as it is read, a device or a stream included
MAX_BYTES = 64 << 20


def read_text(name: str) -> str:
    """The text of file ``name`` (``-``: standard input), read to :data:`MAX_BYTES`; the
    caller names the file in its error line, so the errors do not."""
    if name == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    else:
        if not name:
            raise InputError("an empty file name")
        path = Path(name)
        if path.is_dir():
            raise InputError("a folder, not a .mine file")
        try:
            with path.open("rb") as file:
                data = file.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InputError(exc.strerror or str(exc)) from None
        except LimitError as exc:  # a pipe no one writes to: opening it waits for a writer
            if path.is_fifo():
                exc.add_note("a named pipe: nothing had finished writing to it")
            raise
    if len(data) > MAX_BYTES:
        raise InputError(f"over {MAX_BYTES:,} bytes: no position's text is that long")
    if data.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] in (b"{", b"["):
        raise InputError("JSON text (layout lines?), not a .mine position: "
                         "`bench --layouts` plays a board file")
    if _mbf(data):
        raise InputError("an MBF board, not a .mine position: `bench --layouts` plays it, "
                         "and the web app's Play opens it")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text: byte {exc.start} is {data[exc.start]:#04x}"
        ) from None


def _mbf(data: bytes) -> bool:
    """Whether ``data`` is whole MBF records (binary: a .mine header starts with a digit)."""
    if not data or data[:1].isdigit():
        return False
    try:
        read_mbf_stream(data)
    except FormatError:
        return False
    return True


def analyze_record(
    name: str, analysis: Analysis, advice: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``--json`` record of one analysed position: the file, the board's size
    and mine count, the analysis (:func:`~minesolver.serialize.analysis_json`) and the
    advice (:func:`~minesolver.serialize.advice_json`), when given."""
    position = analysis.position
    return {
        "file": name,
        "width": position.width,
        "height": position.height,
        "mines": position.mines,
        **analysis_json(analysis),
        **(advice or {}),
    }


@cli.command("analyze")
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file, one per line.")
@click.option("--advice/--no-advice", default=True, show_default=True,
              help="Say what to click and why; chance of a zero, dead cells, 50/50 pairs.")
@limits_option(seconds=60.0, each=True)
def analyze_cmd(files: tuple[str, ...], as_json: bool, advice: bool,
                limits: Callable[[], AbstractContextManager[None]]) -> None:
    """Exact mine probabilities of positions in JSMinesweeper's .mine text, and the
    move minesolver's best strategy would play, with its reason and exact figures.

    FILES are .mine files; `-` reads one position from standard input.  A file
    that cannot be analysed (within --max-seconds and --max-memory, which hold for
    each file) gets one line on stderr; the others are still done, and the exit
    status is then 2.
    """
    out = console()
    failed = False
    for name in files:
        try:
            with limits():  # the whole answer is made within them, then printed whole
                text = _answer(name, as_json, advice, out)
        except USER_ERRORS as exc:
            label = name or "''"  # an empty argument is named, not left blank
            why = with_notes(message_of(exc), exc)
            click.echo(f"minesolver: error: {one_line(f'{label}: {why}')}", err=True)
            failed = True
            continue
        click.echo(text, nl=False)
    if failed:
        sys.exit(2)


def _answer(name: str, as_json: bool, advice: bool, out: Console) -> str:
    """What ``analyze`` prints for the file ``name``."""
    position = Position.from_text(read_text(name))
    analysis = analyze(position)
    advised = advise(position) if advice else None
    surveyed = survey(position, analysis) if advice else None
    if as_json:
        extra = advice_json(advised, surveyed) if advice else None
        return json.dumps(analyze_record(name, analysis, extra)) + "\n"
    # a console of its own, thrown away if this fails (rich's capture would keep a
    # half-rendered buffer and print it with the next file's answer)
    buffer = io.StringIO()
    into = Console(file=buffer, width=out.width, highlight=False, soft_wrap=True,
                   force_terminal=out.is_terminal,
                   color_system="auto" if out.color_system else None,
                   no_color=out.no_color)
    print_analysis(into, name, analysis, trailing=not advice)
    if advice:
        print_advice(into, advised, surveyed)
    return buffer.getvalue()
