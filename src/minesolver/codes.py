"""Cell codes: one byte per cell of a :class:`~minesolver.position.Position`, and
named predicates on them.

====  =========  ================================================================
code  .mine      meaning
====  =========  ================================================================
0-8   ``0``-``8``  revealed, showing that many adjacent mines
9     ``H``        covered
10    ``F``        flagged (trusted as a mine by the analysis)
11    ``M``        covered cell known to hold a mine (``M``, ``?``, ``I`` on input)
12    ``.``        revealed safe cell that shows no number (noisy-clue variants)
====  =========  ================================================================

>>> is_number(3), is_number(COVERED), is_covered(FLAG), is_open(BLANK)
(True, False, True, True)
"""

from __future__ import annotations

__all__ = [
    "BLANK",
    "COVERED",
    "FLAG",
    "MINE",
    "is_covered",
    "is_marked",
    "is_number",
    "is_open",
]

COVERED = 9
FLAG = 10
MINE = 11
BLANK = 12


def is_number(code: int) -> bool:
    """A revealed number (0 to 8)."""
    return code <= 8


def is_open(code: int) -> bool:
    """A revealed cell: a number, or a blank that shows none."""
    return code <= 8 or code == BLANK


def is_covered(code: int) -> bool:
    """A covered cell, flagged or marked or not."""
    return code in (COVERED, FLAG, MINE)


def is_marked(code: int) -> bool:
    """A flag or a known-mine mark: trusted as a mine."""
    return code in (FLAG, MINE)
