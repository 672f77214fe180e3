"""Writing JSON: positions, analyses and moves as the API serves them.

One shape per thing, shared by every mode, so the page has one renderer:

* a **position** is ``{"width", "height", "mines", "rows"}`` where ``rows`` are the
  ``.mine`` text rows (``H`` covered, ``F`` flag, ``0``-``8`` numbers);
* an **analysis** has ``prob`` (rows of mine probabilities, rounded), ``safe`` and
  ``mine`` (lists of ``[row, col]``), ``solutions`` (a decimal string: it can have
  thousands of digits) and ``fronts``;
* a **move** is ``{"cell", "action", "reason", "probability", "win_chance", "text"}``.

>>> from minesolver.position import Position
>>> position_json(Position.from_text("2x1x1\\n1H\\n"))
{'width': 2, 'height': 1, 'mines': 1, 'rows': ['1H']}
"""

from __future__ import annotations

from typing import Any

from ..analysis import Analysis
from ..position import COVERED, Position
from ..strategies import Move

__all__ = [
    "PROB_DIGITS",
    "analysis_json",
    "cells_json",
    "decimal",
    "move_json",
    "position_json",
]

_CHUNK_DIGITS = 2000
_CHUNK_BASE = 10**_CHUNK_DIGITS
PROB_DIGITS = 5  # enough for the hover text (xx.xxx%), small enough for 200x200 boards


def decimal(n: int) -> str:
    """``str(n)`` for any size: layout counts can exceed Python's 4300-digit default.

    The CLI lifts the limit process-wide; a library serving requests should not, so
    big numbers are written in chunks of 2000 digits.

    >>> decimal(10**5000) == "1" + "0" * 5000
    True
    """
    if n < _CHUNK_BASE**2:
        return str(n)
    high, low = divmod(n, _CHUNK_BASE)
    return decimal(high) + str(low).zfill(_CHUNK_DIGITS)


def position_json(position: Position) -> dict[str, Any]:
    """A position as the API serves it."""
    rows = position.to_text().splitlines()[1:]
    return {
        "width": position.width,
        "height": position.height,
        "mines": position.mines,
        "rows": rows,
    }


def cells_json(cells: list[tuple[int, int]]) -> list[list[int]]:
    """``[(r, c), ...]`` as ``[[r, c], ...]``."""
    return [[r, c] for r, c in cells]


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """An analysis as the API serves it (its position is served beside it).

    ``mine`` lists covered cells that are certainly mines and not yet flagged.

    >>> from minesolver.analysis import analyze
    >>> a = analysis_json(analyze(Position.from_text("3x1x1\\n1HH\\n")))
    >>> a["prob"], a["safe"], a["mine"], a["solutions"]
    ([[0.0, 1.0, 0.0]], [[0, 2]], [[0, 1]], '1')
    """
    position = analysis.position
    cells = position.cells
    w = position.width
    return {
        "prob": analysis.prob.round(PROB_DIGITS).tolist(),
        "safe": cells_json(analysis.safe),
        "mine": cells_json([(r, c) for r, c in analysis.mines if cells[r * w + c] == COVERED]),
        "solutions": decimal(analysis.solutions),
        "fronts": [
            {
                "cells": cells_json(front.cells),
                "clues": cells_json(front.clues),
                "boxes": front.boxes,
                "min_mines": front.min_mines,
                "max_mines": front.max_mines,
            }
            for front in analysis.fronts
        ],
        "seconds": round(analysis.seconds, 6),
    }


def move_json(move: Move) -> dict[str, Any]:
    """A strategy's move, with its reason and the line people read.

    >>> move_json(Move((2, 3), reason="guess", probability=0.25))["text"]
    'open (2, 3): guess at 25.0% mine risk'
    """
    return {
        "cell": list(move.cell),
        "action": move.action,
        "reason": move.reason,
        "probability": move.probability,
        "win_chance": move.win_chance,
        "text": move.describe(),
    }
