"""Coloured terminal boards (rich), with or without mine probabilities.

Each cell is three characters wide.  Revealed numbers use the classic colours,
``·`` is an open zero, ``F`` a flag.  With an analysis, covered cells show their
mine probability in percent, always two digits (``07``), on the
:mod:`.palette`'s green-to-red background, ``ok`` when certainly
safe and ``**`` when certainly a mine.  Without colour (a pipe, ``NO_COLOR``)
the same characters remain readable.

>>> from minesolver.position import Position
>>> board_text(Position.from_text("2x1x1\\n1H\\n")).plain
'  1  #\\n'
"""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text

from ..analysis import Analysis
from ..codes import BLANK, COVERED, FLAG, MINE, is_number
from ..position import Position
from .palette import NUMBER_RGB, heat

__all__ = ["MAX_DRAWN_CELLS", "board_text", "probability_style"]

# the web app's largest board (200x200): past it no terminal shows the board, and drawing
# it would take longer than the analysis (24 s and 1.3 GB for a million cells)
MAX_DRAWN_CELLS = 40_000

NUMBER_STYLES = {n: "bold rgb({},{},{})".format(*rgb) for n, rgb in NUMBER_RGB.items()}


def probability_style(p: float) -> str:
    """Background colour for a mine probability (:func:`~.palette.heat`)."""
    return "black on rgb({},{},{})".format(*heat(p))


def board_text(
    position: Position,
    analysis: Analysis | None = None,
    *,
    highlight: Collection[tuple[int, int]] = (),
    mines: Collection[int] = (),
) -> Text:
    """Render a position as rich ``Text``, one line per row.

    ``highlight`` cells are underlined and reversed (the move just made); ``mines``
    (flat indices) are shown as ``*`` on covered cells (a finished game).  A board of
    more than :data:`MAX_DRAWN_CELLS` cells is one line saying it is not drawn.
    """
    if position.width * position.height > MAX_DRAWN_CELLS:
        return Text(f"(the {position.width}x{position.height} board is not drawn: over "
                    f"{MAX_DRAWN_CELLS:,} cells)\n", style="dim")
    text = Text()
    w = position.width
    prob = analysis.prob if analysis is not None else None
    marked = set(highlight)
    shown_mines = set(mines)
    for r in range(position.height):
        for c in range(w):
            i = r * w + c
            code = position.cells[i]
            style = ""
            if is_number(code):
                cell = "  ·" if code == 0 else f"  {code}"
                style = NUMBER_STYLES.get(code, "dim")
            elif code == BLANK:
                cell, style = "  -", "dim"
            elif code in (FLAG, MINE):
                cell, style = "  F", "bold red"
            elif i in shown_mines:
                cell, style = "  *", "bold white on red"
            elif prob is not None and code == COVERED:
                p = float(prob[r, c])
                if p == 0.0 and analysis is not None and analysis.exact(i)[0] == 0:
                    cell = " ok"
                elif p == 1.0 and analysis is not None and _certain(analysis, i):
                    cell = " **"
                else:
                    # two digits always ("07"), so a 7% risk never reads as a revealed 7
                    cell = f" {min(99, round(p * 100)):02d}"
                style = probability_style(p)
            else:
                cell, style = "  #", "grey50"
            if (r, c) in marked:
                style = f"{style} reverse underline".strip()
            text.append(cell, style=style)
        text.append("\n")
    return text


def _certain(analysis: Analysis, index: int) -> bool:
    num, den = analysis.exact(index)
    return num == den
