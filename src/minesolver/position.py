"""Position: what a player sees, and JSMinesweeper's ``.mine`` text.

A position is a board of cells, each either a revealed number, covered, or
flagged, plus the total number of mines.  It knows nothing of the hidden layout.

Cells are one byte each, row-major, with the codes of :mod:`minesolver.codes`
(``0``-``8`` numbers, ``COVERED``, ``FLAG``, ``MINE``, ``BLANK``).

On input ``O`` (JSMinesweeper's flag that needs no inflating) reads as ``F``.

>>> p = Position.from_text("3x2x1\\n1H1\\n111\\n")
>>> p.mines, p.covered_count
(1, 1)
>>> print(p)
1 # 1
1 1 1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .codes import BLANK, COVERED, FLAG, MINE, is_covered, is_marked, is_number
from .errors import InputError, OffBoardError, counted, make_whole, quote
from .geometry import Grid

__all__ = ["EXAMPLE_POSITION", "Position", "PositionError"]

_READ = {str(d): d for d in range(9)}
_READ.update({"H": COVERED, "F": FLAG, "O": FLAG, "M": MINE, "?": MINE, "I": MINE, ".": BLANK})
_WRITE = {d: str(d) for d in range(9)}
_WRITE.update({COVERED: "H", FLAG: "F", MINE: "M", BLANK: "."})
_ASCII = {d: str(d) for d in range(1, 9)}
_ASCII.update({0: ".", COVERED: "#", FLAG: "F", MINE: "*", BLANK: "-"})
_MAX_CELLS = 4_000_000 * 4
_CODES = bytes(range(BLANK + 1))  # every cell code


class PositionError(InputError):
    """Text or data that does not describe a position."""


@dataclass(frozen=True, eq=True)
class Position:
    """An immutable view of a board: numbers, covered cells, flags, mine total.

    >>> p = Position.from_text("2x2x1\\nHH\\n11\\n")
    >>> p.number(1, 0), p.is_covered(0, 1)
    (1, True)
    """

    width: int
    height: int
    mines: int
    cells: bytes

    def __post_init__(self) -> None:
        make_whole(self, ("width", "height", "mines"), PositionError, "the position's ")
        if type(self.cells) is not bytes:  # a bytearray would make a changeable position
            if not isinstance(self.cells, bytearray | memoryview):
                raise PositionError(f"cells must be bytes of cell codes, got "
                                    f"{type(self.cells).__name__}")
            object.__setattr__(self, "cells", bytes(self.cells))
        if self.width < 1 or self.height < 1:
            raise PositionError(f"board size must be positive, got {self.width}x{self.height}")
        if self.mines < 0:
            raise PositionError(f"mine count must not be negative, got {self.mines}")
        if len(self.cells) != self.width * self.height:
            raise PositionError(
                f"expected {self.width * self.height} cells for a "
                f"{self.width}x{self.height} board, got {len(self.cells)}"
            )
        if self.cells.translate(None, _CODES):  # what is left is no cell code
            raise PositionError(f"unknown cell code {max(self.cells)}")

    # ------------------------------------------------------------------ building
    @classmethod
    def covered(cls, width: int, height: int, mines: int) -> Position:
        """A board with every cell covered.

        >>> Position.covered(2, 1, 1).to_text()
        '2x1x1\\nHH\\n'
        """
        return cls(width, height, mines, bytes([COVERED]) * (width * height))

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read JSMinesweeper's ``.mine`` text: ``WxHxM`` then H rows of W characters.

        A leading byte-order mark (Windows Notepad's "UTF-8 with BOM"), trailing blank
        lines, trailing spaces and Windows line ends are accepted; anything else
        unreadable raises :class:`PositionError` naming the line, the column and the
        character.

        >>> Position.from_text("2x1x1\\nF1").cells
        b'\\n\\x01'
        >>> Position.from_text("2x1x1\\nFx")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        minesolver.position.PositionError: line 2, column 2: unexpected character 'x' ...
        """
        # lines end at \n, \r\n or \r only: str.splitlines would also break a row at a
        # stray form feed or separator, and blame the lines after it
        text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        lines = [line.rstrip(" \t") for line in text.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        top = 0  # leading blank lines, so error messages still name the file's lines
        while top < len(lines) and not lines[top]:
            top += 1
        lines = lines[top:]
        if not lines:
            raise PositionError("line 1: empty text, expected a header like 30x16x99")
        header = [part.strip() for part in lines[0].strip().lower().replace("×", "x").split("x")]
        if len(header) == 3 and all(part.isascii() and part.isdecimal() for part in header):
            # numbers past 9 digits (leading zeros aside) are named, never converted
            long = [len(part.lstrip("0")) > 9 for part in header]
            if long[0] or long[1]:
                raise PositionError(
                    f"line {top + 1}: board {lines[0].strip()[:40]} is too large")
            if long[2]:
                raise PositionError(
                    f"line {top + 1}: {header[2][:20]} mines do not fit on a "
                    f"{int(header[0])}x{int(header[1])} board")
        if len(header) != 3 or not all(part.isascii() and part.isdecimal() for part in header):
            raise PositionError(
                f"line {top + 1}: cannot read header {quote(lines[0].strip())}, "
                "expected WxHxM like 30x16x99"
            )
        width, height, mines = (int(part) for part in header)
        if width < 1 or height < 1:
            raise PositionError(
                f"line {top + 1}: board size must be positive, got {width}x{height}"
            )
        if width * height > _MAX_CELLS:
            raise PositionError(f"line {top + 1}: board {width}x{height} is too large")
        rows = lines[1:]
        blank = next((r for r, row in enumerate(rows[:height]) if not row), None)
        if blank is not None:
            raise PositionError(
                f"line {top + blank + 2}: a blank line where row {blank + 1} of "
                f"{height} should be"
            )
        if len(rows) < height:
            raise PositionError(
                f"line {top + len(rows) + 2}: expected {counted(height, 'row')} of cells, "
                f"found {len(rows)}"
            )
        if len(rows) > height:  # blank lines after the rows are not more rows: the next is
            extra = next(r for r in range(height, len(rows)) if rows[r])  # (ends trimmed)
            raise PositionError(
                f"line {top + extra + 2}: expected {counted(height, 'row')} of cells, found more: "
                f"{quote(rows[extra], 20)}"
            )
        cells = bytearray(width * height)
        for r, row in enumerate(rows):
            if len(row) != width:
                raise PositionError(
                    f"line {top + r + 2}: expected {width} characters, found {len(row)}"
                )
            base = r * width
            for c, ch in enumerate(row):
                code = _READ.get(ch)
                if code is None:
                    raise PositionError(
                        f"line {top + r + 2}, column {c + 1}: unexpected character {ch!r} "
                        "(expected 0-8, H, F, M, ?, I, O or .)"
                    )
                cells[base + c] = code
        return cls(width, height, mines, bytes(cells))

    def to_text(self) -> str:
        """Write ``.mine`` text (``H`` covered, ``F`` flag, ``M`` known mine).

        >>> Position.from_text("2x1x1\\nO1\\n").to_text()
        '2x1x1\\nF1\\n'
        """
        w = self.width
        body = "".join(
            "".join(_WRITE[code] for code in self.cells[r * w : (r + 1) * w]) + "\n"
            for r in range(self.height)
        )
        return f"{self.width}x{self.height}x{self.mines}\n{body}"

    def with_cells(self, changes: Iterable[tuple[int, int]]) -> Position:
        """A copy with ``(index, code)`` changes applied (hypothetical positions).

        >>> Position.covered(2, 1, 1).with_cells([(1, 1)]).to_text()
        '2x1x1\\nH1\\n'
        """
        cells = bytearray(self.cells)
        for index, code in changes:
            if not 0 <= index < len(cells):  # a negative one would wrap to the end
                raise OffBoardError(f"cell index {index} is off the {self.width}x{self.height} "
                                    "board")
            cells[index] = code
        return Position(self.width, self.height, self.mines, bytes(cells))

    # ------------------------------------------------------------------ reading
    @property
    def grid(self) -> Grid:
        """The board's geometry."""
        return Grid(self.width, self.height)

    def index(self, row: int, col: int) -> int:
        """Flat index of ``(row, col)``; :class:`~minesolver.errors.OffBoardError`
        (an ``IndexError``) off the board."""
        return self.grid.index(row, col)

    def cell(self, row: int, col: int) -> int:
        """The cell code at ``(row, col)``."""
        return self.cells[self.index(row, col)]

    def number(self, row: int, col: int) -> int | None:
        """The revealed number at ``(row, col)``, or ``None``."""
        code = self.cell(row, col)
        return code if is_number(code) else None

    def is_covered(self, row: int, col: int) -> bool:
        """True for covered cells, flagged or not."""
        return is_covered(self.cell(row, col))

    def is_flagged(self, row: int, col: int) -> bool:
        """True for flags and known-mine marks."""
        return is_marked(self.cell(row, col))

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``."""
        return (self.height, self.width)

    @property
    def covered_count(self) -> int:
        """Covered cells that are not flagged."""
        return self.cells.count(COVERED)

    @property
    def flag_count(self) -> int:
        """Flags plus covered cells marked as known mines."""
        return self.cells.count(FLAG) + self.cells.count(MINE)

    @property
    def mines_left(self) -> int:
        """Mines not yet flagged (the mine counter)."""
        return self.mines - self.flag_count

    def coords(self, index: int) -> tuple[int, int]:
        """``(row, col)`` of a flat index."""
        return divmod(index, self.width)

    def covered_cells(self) -> Iterator[tuple[int, int]]:
        """``(row, col)`` of every unflagged covered cell."""
        w = self.width
        for i, code in enumerate(self.cells):
            if code == COVERED:
                yield divmod(i, w)

    def is_blank(self) -> bool:
        """True when nothing is revealed yet."""
        return all(is_covered(code) for code in self.cells)

    def __str__(self) -> str:
        w = self.width
        return "\n".join(
            " ".join(_ASCII[code] for code in self.cells[r * w : (r + 1) * w])
            for r in range(self.height)
        )

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"


# An expert position from a real game, for demos and the web app's Analyse mode.
EXAMPLE_POSITION = """30x16x99
HHHHHH10002FHHHH12F1HHHHHHHHHH
HHHHHH10003FHHHHF3112FHHHHHHHF
HHHHHH11213HHH12F2002F4H3FH122
HHHHHHHHHHHHHH221100112244HH1H
HHHHHHHHHH1HHHF200000001FH43H2
HHHHHHHHHHH1H2H21222110123FH2F
HHH1HHHHHHF212111HH2F100012221
HHHHHHH11222H10012222322110000
HHHHHHH100011100001H2HFHF10111
HHHHHHH221100012322H23F31101H2
HHHHHHHH2H21002FHFH111110013HF
HHHHHHH2H2H2113FHHHH1100112HFH
HHHHHHHH1212HHHHHHHHF2101FH3HH
HHHHHHHHHHHHHHHHHHHHHH1012HHHH
HHHHHHHHHHHHHHHHHHHHF31001HHHH
HHHHHHHHHHHHHHHHHHHHH20001HHHH
"""
