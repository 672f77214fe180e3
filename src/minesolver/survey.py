"""What every covered cell may show: the chance of a zero, dead cells, 50/50 pairs.

All exact, from the engine's layout counts (every layout that agrees with the
position equally likely):

* **chance of a zero**: the layouts in which the cell shows 0 (it and every
  neighbour safe) over all of them;
* **dead cells**: uncertain cells (neither certainly safe nor a certain mine) that can
  show only one number if safe: opening one risks a mine and teaches nothing;
* **50/50 pairs**: two uncertain cells holding exactly one mine in every layout that
  nothing but opening one of them can ever tell apart: every open number next to
  either is next to both, and every covered cell next to just one of them is a certain
  mine (so its number will never be seen).

A count is one analysis of a hypothetical position (the cell shown as 0, say).  Cells
whose whole neighbourhood is covered and away from every number share their figures
by the size of that neighbourhood, so a large unexplored area costs a few analyses, not
one per cell (:func:`zero_chances` with ``reference=True`` does one per cell; the tests
check both agree).

>>> from minesolver.position import Position
>>> p = Position.from_text("4x2x2\\n1HH1\\n1HH1\\n")
>>> s = survey(p)
>>> s.pairs
[((0, 1), (1, 1)), ((0, 2), (1, 2))]
>>> s.dead  # safe, each would show 2: the mine of its pair and one of the other pair
[(0, 1), (0, 2), (1, 1), (1, 2)]
>>> float(s.zero[0][1])
0.0
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .analysis import Analysis, analyze
from .codes import BLANK, COVERED, FLAG, MINE, is_number
from .errors import InconsistentPositionError
from .geometry import neighbour_sum
from .position import Position

__all__ = [
    "MAX_SURVEY_WORK",
    "Survey",
    "count_with",
    "dead_cells",
    "fifty_fifty_pairs",
    "min_probability",
    "share_with",
    "shown_values",
    "survey",
    "zero_chances",
]

# Cells near the clues are surveyed one by one, each with a few analyses of the whole
# board: past this many (cells near the clues) x (cells on the board) the per-cell
# figures are skipped.  Every expert position fits (480 x 480); on a 64x64 board about
# 70 cells near the clues do, a few seconds of work.
MAX_SURVEY_WORK = 300_000

Cell = tuple[int, int]


@dataclass(frozen=True)
class Survey:
    """The per-cell figures of a position.

    ``zero[r][c]``: the exact chance that ``(r, c)`` shows a zero (0 for open cells and
    flags); ``dead``: dead cells, row-major; ``pairs``: 50/50 pairs, each sorted.
    ``skipped`` says why the per-cell figures were not computed (too many cells), or
    is ``None``.
    """

    zero: list[list[Fraction]]
    dead: list[Cell]
    pairs: list[tuple[Cell, Cell]]
    skipped: str | None = None


# ---------------------------------------------------------------------- counting helpers
def shown_values(position: Position, analysis: Analysis, index: int) -> range:
    """The numbers cell ``index`` could show if opened: its flagged and certain mine
    neighbours at least, plus any of its uncertain covered neighbours.

    >>> p = Position.from_text("3x1x1\\n1HH\\n")
    >>> shown_values(p, analyze(p), 2)
    range(1, 2)
    """
    cells = position.cells
    low = high = 0
    for j in position.grid.neighbours(index):
        code = cells[j]
        if code in (FLAG, MINE):
            low += 1
            high += 1
        elif code == COVERED:
            num, den = analysis.exact(j)
            low += num == den
            high += num != 0
    return range(low, high + 1)


def count_with(position: Position, index: int, code: int) -> tuple[int, Analysis | None]:
    """The layouts in which cell ``index`` shows ``code`` (``BLANK``: is safe, ``MINE``:
    is a mine), and the analysis of that hypothetical position (``None`` when there
    are none).

    >>> p = Position.from_text("3x1x1\\nHHH\\n")
    >>> count_with(p, 0, 0)[0], count_with(p, 0, BLANK)[0], count_with(p, 0, MINE)[0]
    (1, 2, 1)
    """
    try:
        after = analyze(position.with_cells([(index, code)]))
    except InconsistentPositionError:
        return 0, None
    return after.solutions, after


def share_with(analysis: Analysis, index: int, code: int) -> tuple[Fraction, Analysis | None]:
    """The exact share of ``analysis``'s layouts in which cell ``index`` shows ``code``
    (``BLANK``: is safe, ``MINE``: is a mine), and the analysis of that hypothetical
    position (``None`` when there is none): :func:`count_with` as a share, without
    multiplying out either count (seconds each on a board of millions of cells).

    >>> a = analyze(Position.from_text("3x1x1\\nHHH\\n"))
    >>> share_with(a, 0, 0)[0], share_with(a, 0, BLANK)[0], share_with(a, 1, 0)[0]
    (Fraction(1, 3), Fraction(2, 3), Fraction(0, 1))
    """
    try:
        after = analyze(analysis.position.with_cells([(index, code)]))
    except InconsistentPositionError:
        return Fraction(0), None
    return after.share_of(analysis), after


def min_probability(analysis: Analysis) -> Fraction | None:
    """The lowest exact mine probability of a covered cell that is not a certain
    mine, or ``None`` when there is no such cell (every safe cell is open).

    >>> min_probability(analyze(Position.from_text("3x1x1\\nHHH\\n")))
    Fraction(1, 3)
    """
    return min(analysis.risks(), default=None)


def _uncertain(analysis: Analysis, index: int) -> bool:
    num, den = analysis.exact(index)
    return 0 < num < den


def _interior(position: Position) -> list[bool]:
    """Per cell: covered and unflagged, with every neighbour covered and unflagged too,
    and none of them next to an open cell (so no clue, flag or mine touches them).

    >>> _interior(Position.from_text("4x1x1\\n1HHH\\n"))
    [False, False, False, True]
    """
    codes = np.frombuffer(position.cells, dtype=np.uint8).reshape(position.shape)
    opened = (codes <= 8) | (codes == BLANK)  # codes.is_open, for the whole board
    away = (codes == COVERED) & (neighbour_sum(opened) == 0)
    around = _neighbours_of_each(position)
    interior: list[bool] = (away & (neighbour_sum(away) == around)).ravel().tolist()
    return interior


def _neighbours_of_each(position: Position) -> np.ndarray:
    """Per cell (rows): how many neighbours it has (3 in a corner, 5 on an edge, else 8)."""
    return neighbour_sum(np.ones(position.shape, dtype=bool))


def _neighbour_counts(position: Position) -> list[int]:
    """:func:`_neighbours_of_each` as one flat list, row-major."""
    counts: list[int] = _neighbours_of_each(position).ravel().tolist()
    return counts


# ---------------------------------------------------------------------- zeros
def zero_chances(
    position: Position, analysis: Analysis | None = None, *, reference: bool = False
) -> list[list[Fraction]]:
    """The exact chance that each cell shows a zero (rows of fractions).

    ``reference=True`` counts every cell on its own (the plain path the shortcut for
    cells away from the clues is tested against).

    >>> zero_chances(Position.from_text("3x1x1\\nHHH\\n"))
    [[Fraction(1, 3), Fraction(0, 1), Fraction(1, 3)]]
    """
    analysis = analysis if analysis is not None else analyze(position)
    cells = position.cells
    grid = position.grid
    interior = [False] * len(cells) if reference else _interior(position)
    sizes = _neighbour_counts(position)
    shared: dict[int, Fraction] = {}  # by the size of an interior cell's neighbourhood
    out = [Fraction(0)] * len(cells)
    for i, code in enumerate(cells):
        if code != COVERED:
            continue
        if interior[i] and sizes[i] in shared:
            out[i] = shared[sizes[i]]
            continue
        around = grid.neighbours(i)
        num, den = analysis.exact(i)
        if num == den or any(
            cells[j] in (FLAG, MINE) or (cells[j] == COVERED and _is_mine(analysis, j))
            for j in around
        ):
            chance = Fraction(0)
        else:
            chance = share_with(analysis, i, 0)[0]
        out[i] = chance
        if interior[i]:
            shared[sizes[i]] = chance
    w = position.width
    return [out[r * w : (r + 1) * w] for r in range(position.height)]


# ---------------------------------------------------------------------- dead cells
def is_dead(position: Position, analysis: Analysis, index: int) -> bool:
    """True when uncertain cell ``index`` can show only one number if safe.

    Values are tried likeliest first (nearest the expected number of mines around),
    so a living cell usually costs two counts.
    """
    values = shown_values(position, analysis, index)
    if len(values) <= 1:
        return True
    prob = analysis.prob.ravel()
    expected = sum(
        float(prob[j]) if position.cells[j] == COVERED else 1.0
        for j in position.grid.neighbours(index)
        if position.cells[j] in (COVERED, FLAG, MINE)
    )
    seen = 0
    for value in sorted(values, key=lambda v: abs(v - expected)):
        if share_with(analysis, index, value)[1] is not None:
            seen += 1
            if seen > 1:
                return False
    return True


def dead_cells(position: Position, analysis: Analysis | None = None) -> list[Cell]:
    """Uncertain cells that can show only one number, row-major.

    >>> dead_cells(Position.from_text("3x1x1\\nHHH\\n"))  # safe, it sees the mine
    [(0, 1)]
    """
    analysis = analysis if analysis is not None else analyze(position)
    interior = _interior(position)
    sizes = _neighbour_counts(position)
    shared: dict[int, bool] = {}
    dead = []
    for i, code in enumerate(position.cells):
        if code != COVERED or not _uncertain(analysis, i):
            continue
        size = sizes[i]
        if interior[i] and size in shared:
            verdict = shared[size]
        else:
            verdict = is_dead(position, analysis, i)
            if interior[i]:
                shared[size] = verdict
        if verdict:
            dead.append(position.coords(i))
    return dead


# ---------------------------------------------------------------------- 50/50 pairs
def fifty_fifty_pairs(
    position: Position, analysis: Analysis | None = None
) -> list[tuple[Cell, Cell]]:
    """Every unavoidable 50/50 pair (see the module's definition), sorted.

    >>> fifty_fifty_pairs(Position.from_text("2x2x1\\n11\\nHH\\n"))
    [((1, 0), (1, 1))]
    """
    analysis = analysis if analysis is not None else analyze(position)
    cells = position.cells
    grid = position.grid
    def is_half(i: int) -> bool:
        num, den = analysis.exact(i)
        return 2 * num == den

    def maybe_safe(j: int) -> bool:
        num, den = analysis.exact(j)
        return num != den

    halves = [i for i, code in enumerate(cells) if code == COVERED and is_half(i)]

    def telling(i: int) -> set[int]:
        """Neighbours whose number is or could be seen: numbers, covered cells not certain
        to be mines."""
        return {
            j for j in grid.neighbours(i)
            if is_number(cells[j]) or (cells[j] == COVERED and maybe_safe(j))
        }

    tells = {i: telling(i) for i in halves}
    # every telling cell around a but b is next to b as well, so it is one of the at most
    # four cells next to both: a cell with more than five telling neighbours has no pair
    half = {i for i in halves if len(tells[i]) <= 5}
    loners = [i for i in half if not tells[i]]  # nothing around them can ever be seen
    pairs = []
    for a in sorted(half):
        around_a = set(grid.neighbours(a))
        # b must neighbour every telling cell around a: within two steps of it, or, when
        # nothing around a tells, anywhere (then nothing around b may tell either)
        near = {b for j in tells[a] | {a} for b in grid.square(j, 1)}
        for b in sorted((near | set(loners)) & half):
            if b <= a:
                continue
            around_b = set(grid.neighbours(b))
            if not (tells[a] - {b} <= around_b and tells[b] - {a} <= around_a):
                continue
            # exactly one mine between them, in every layout
            both = position.with_cells([(a, MINE), (b, MINE)])
            neither = position.with_cells([(a, BLANK), (b, BLANK)])
            if _consistent(both) or _consistent(neither):
                continue
            pairs.append((position.coords(a), position.coords(b)))
    return pairs


def _is_mine(analysis: Analysis, index: int) -> bool:
    num, den = analysis.exact(index)
    return num == den


def _consistent(position: Position) -> bool:
    try:
        analyze(position)
    except InconsistentPositionError:
        return False
    return True


# ---------------------------------------------------------------------- all together
def survey(
    position: Position, analysis: Analysis | None = None, *, max_work: int = MAX_SURVEY_WORK
) -> Survey:
    """Zero chances, dead cells and 50/50 pairs of ``position``.

    When the covered cells near the clues times the cells of the board exceed
    ``max_work`` (each such cell costs a few analyses of the whole board), the zero
    chances and dead cells are skipped and ``skipped`` says so; the pairs are still
    found.
    """
    analysis = analysis if analysis is not None else analyze(position)
    pairs = fifty_fifty_pairs(position, analysis)
    interior = _interior(position)
    near = sum(
        1 for i, code in enumerate(position.cells) if code == COVERED and not interior[i]
    )
    if near * len(position.cells) > max_work:
        zero = [[Fraction(0)] * position.width for _ in range(position.height)]
        most = max_work // len(position.cells)
        why = (
            f"{near} covered cells near the clues: on a board of {len(position.cells)} cells "
            f"at most {most} are surveyed, so the chance of a zero and the dead cells were "
            "not computed"
        )
        return Survey(zero, [], pairs, skipped=why)
    return Survey(zero_chances(position, analysis), dead_cells(position, analysis), pairs)
