"""Multi-record and binary board formats: MBF boards and layout files.

* **MBF** (Minesweeper Board Format, used by Arbiter, Viennasweeper and
  JSMinesweeper): byte 0 width, byte 1 height, bytes 2-3 the mine count
  big-endian, then one ``(x, y)`` byte pair per mine, ``x`` the column and ``y``
  the row.
* **Layout files**: JSON lines, one board per line,
  ``{"width": W, "height": H, "mines": [row * W + col, ...]}``; used to replay the
  very same boards in two solvers.

>>> layout = Layout(3, 2, (0, 5))
>>> read_mbf(write_mbf(layout)) == layout
True
>>> next(read_layouts(layout_line(layout)))
Layout(width=3, height=2, mines=(0, 5))
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO, Any

from .errors import InputError, counted
from .files import read_capped
from .minefield import Layout

__all__ = [
    "FormatError",
    "json_kind",
    "layout_line",
    "read_boards",
    "read_json",
    "read_layouts",
    "read_mbf",
    "read_mbf_stream",
    "write_layouts",
    "write_mbf",
]


class FormatError(InputError):
    """Bytes or text that are not a valid board file."""


MAX_JSON_DIGITS = 40  # no number minesolver reads is longer; a longer one is an attack


_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_JSON_DIGITS + 1}}}")  # only where it occurs
_LONG_NUMBER_BYTES = re.compile(_LONG_NUMBER.pattern.encode())  # is the check slow


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise FormatError(f"a number of {len(text)} digits is too long (at most {MAX_JSON_DIGITS})")
    return int(text)


def _no_constant(text: str) -> Any:
    raise FormatError(f"{text} is not a number JSON allows")


def json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words (not Python's ``NoneType``).

    >>> json_kind(None), json_kind([1]), json_kind(True), json_kind(2.5), json_kind({})
    ('null', 'a list', 'true/false', 'a number', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def read_json(text: str | bytes) -> Any:
    """JSON from text, as ``json.loads``, but every failure a :class:`FormatError`
    whose message says what is wrong in the reader's terms (where, and why), and
    numbers longer than 40 digits, ``NaN`` and ``Infinity`` refused.

    >>> read_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> read_json('{"a": ' + "9" * 50 + "}")
    Traceback (most recent call last):
    minesolver.formats.FormatError: a number of 50 digits is too long (at most 40)
    >>> read_json('{"a": }')
    Traceback (most recent call last):
    minesolver.formats.FormatError: not JSON: expecting value at character 6
    """
    try:
        long_number = (_LONG_NUMBER.search(text) if isinstance(text, str)
                       else _LONG_NUMBER_BYTES.search(text))
        if long_number is None:  # no number can be too long: C's own ints are as good
            return json.loads(text, parse_constant=_no_constant)
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        why = exc.msg[:1].lower() + exc.msg[1:]
        raise FormatError(f"not JSON: {why} at character {exc.pos}") from None
    except RecursionError:
        raise FormatError("nested too deeply to read") from None
    except UnicodeDecodeError as exc:
        raise FormatError(f"not UTF-8 text (byte {exc.start})") from None


def read_mbf(data: bytes) -> Layout:
    """Read an MBF board: one, nothing after it (several: :func:`read_mbf_stream`).

    >>> read_mbf(bytes([2, 1, 0, 1, 1, 0]))
    Layout(width=2, height=1, mines=(1,))
    """
    try:
        layout, end = _read_one_mbf(data)
    except FormatError:
        if data.lstrip()[:1] in (b"{", b"[") and _is_text(data):
            raise FormatError("not an MBF board: it reads as JSON text (a layout file?)") from None
        if _MINE_HEADER.match(data.removeprefix(b"\xef\xbb\xbf").lstrip()) and _is_text(data):
            raise FormatError(
                "not an MBF board: it reads as .mine position text (open it as a position)"
            ) from None
        raise
    if end < len(data):
        extra = len(data) - end
        what = f"{extra} byte{'s' * (extra > 1)}"
        more = "another board?" if extra >= 4 else "stray bytes"
        raise FormatError(
            f"MBF data has {what} after its {layout.width}x{layout.height} board ({more})"
        )
    return layout


_MINE_HEADER = re.compile(rb"\d+\s*(?:x|\xc3\x97)\s*\d+\s*(?:x|\xc3\x97)\s*\d+\s*\r?\n", re.I)


def _is_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _read_one_mbf(data: bytes) -> tuple[Layout, int]:
    """The board at the start of ``data``, and where it ends."""
    if len(data) < 4:
        raise FormatError(f"MBF data too short: {len(data)} bytes, need at least 4")
    width, height = data[0], data[1]
    count = int.from_bytes(data[2:4], "big")
    if width == 0 or height == 0:
        raise FormatError(f"MBF board size must be positive, got {width}x{height}")
    expected = 4 + 2 * count
    if len(data) < expected:
        raise FormatError(
            f"MBF header says {count} mines ({expected} bytes) but the data has {len(data)} bytes"
        )
    mines = []
    for k in range(count):
        x, y = data[4 + 2 * k], data[5 + 2 * k]
        if x >= width or y >= height:
            raise FormatError(f"MBF mine {k + 1} at x={x}, y={y} is off the {width}x{height} board")
        mines.append(y * width + x)
    if len(set(mines)) != len(mines):
        raise FormatError("MBF data lists the same mine twice")
    return Layout(width, height, tuple(sorted(mines))), expected


def write_mbf(layout: Layout) -> bytes:
    """Write an MBF board (boards up to 255x255 and 65535 mines)."""
    if layout.width > 255 or layout.height > 255:
        raise FormatError(f"MBF holds boards up to 255x255, not {layout.width}x{layout.height}")
    if len(layout.mines) > 0xFFFF:
        raise FormatError(f"MBF holds up to 65535 mines, not {len(layout.mines)}")
    out = bytearray([layout.width, layout.height])
    out += len(layout.mines).to_bytes(2, "big")
    for m in layout.mines:
        row, col = layout.grid.coords(m)
        out += bytes([col, row])
    return bytes(out)


def layout_line(layout: Layout) -> str:
    """One layout as a JSON line (with its newline)."""
    return (
        json.dumps({"width": layout.width, "height": layout.height, "mines": list(layout.mines)})
        + "\n"
    )


def read_layouts(source: str | IO[str]) -> Iterator[Layout]:
    """Read a layout file (text or an open text file), one board per non-blank line."""
    lines: Iterable[str] = source.splitlines() if isinstance(source, str) else source
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = read_json(line)
        except FormatError as exc:
            raise FormatError(f"layout line {number}: {exc}") from None
        if not isinstance(record, dict):
            raise FormatError(
                f"layout line {number}: expected an object, got {line.strip()[:40]!r}"
            )
        try:
            width, height, mines = record["width"], record["height"], record["mines"]
        except KeyError as exc:
            raise FormatError(f"layout line {number}: missing key {exc.args[0]!r}") from None
        if not (
            isinstance(width, int) and not isinstance(width, bool)
            and isinstance(height, int) and not isinstance(height, bool)
            and isinstance(mines, list)
            and set(map(type, mines)) <= {int}  # JSON's own types: not true/false
        ):
            raise FormatError(
                f"layout line {number}: width and height must be integers and mines a list "
                "of integers"
            )
        try:
            yield Layout(width, height, tuple(sorted(mines)))
        except InputError as exc:
            raise FormatError(f"layout line {number}: {exc}") from None


def write_layouts(layouts: Iterable[Layout], out: IO[str]) -> int:
    """Write layouts as JSON lines; returns how many were written."""
    n = 0
    for layout in layouts:
        out.write(layout_line(layout))
        n += 1
    return n


def read_mbf_stream(data: bytes, limit: int | None = None) -> list[Layout]:
    """Every board of MBF records written one after another (one record: one board),
    or the first ``limit`` of them.

    >>> boards = read_mbf_stream(write_mbf(Layout(2, 1, (1,))) * 2)
    >>> len(boards), boards[0].mines
    (2, (1,))
    """
    boards: list[Layout] = []
    offset = 0
    while offset < len(data) and (limit is None or len(boards) < limit):
        if len(data) - offset < 4:
            raise FormatError(
                f"MBF board {len(boards) + 1}: {counted(len(data) - offset, 'stray byte')}"
            )
        count = int.from_bytes(data[offset + 2 : offset + 4], "big")
        end = offset + 4 + 2 * count
        try:
            boards.append(read_mbf(data[offset:end]))
        except FormatError as exc:
            raise FormatError(f"MBF board {len(boards) + 1}: {exc}") from None
        offset = end
    return boards


MAX_BOARD_FILE = 256 << 20  # a million expert layouts as JSON lines: about 450 MB


def _mbf_records(data: bytes) -> list[Layout] | None:
    """The boards of ``data`` if it is whole MBF records, else ``None``."""
    try:
        return read_mbf_stream(data)
    except FormatError:
        return None


def read_boards(path: str | Path, limit: int | None = None) -> list[Layout]:
    """The boards of a file: layout JSON lines, or MBF (one board, or several
    records one after another); errors name the file.  With ``limit``, only the
    first ``limit`` boards are read (and checked): a run of 10 games from a file of
    100,000 boards reads 10.

    A ``.mbf`` file is read as MBF; any other is read as layout JSON lines when it
    starts with ``{`` (after a byte-order mark), unless it is whole MBF records (a
    board 123 columns wide starts with ``{``).  It must be a regular
    file of at most :data:`MAX_BOARD_FILE` bytes: a run reads it again when resumed.
    """
    path = Path(path)
    if path.exists() and not path.is_file():  # a FIFO, a device, a process substitution
        raise FormatError(f"{path}: not a regular file (a run reads its boards again "
                          "when it is resumed)")
    data = read_capped(path, MAX_BOARD_FILE, "a board file", FormatError)
    text = data.removeprefix(b"\xef\xbb\xbf")
    as_json = path.suffix.lower() != ".mbf" and text.lstrip()[:1] in (b"{", b"")
    try:
        if not as_json:
            return read_mbf_stream(data, limit)
        whole_mbf = _mbf_records(data)  # a board 123 columns wide starts with "{" too
        if whole_mbf is not None:
            return whole_mbf[:limit]
        return list(islice(read_layouts(text.decode("utf-8")), limit))
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not a layout file (byte {exc.start} is not UTF-8)") from None
    except FormatError as exc:
        raise FormatError(f"{path}: {exc}") from None
