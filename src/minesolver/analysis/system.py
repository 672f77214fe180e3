"""From a position to a system of clues over the unknown cells.

Every revealed number becomes a *clue*: the number of mines among its unknown
neighbours, after subtracting the flags and known mines around it.  Unknown cells
are covered cells that are neither flagged nor marked as mines.  A clue may also be
*soft* (noisy variants): then it carries a likelihood factor, ``factor[n]`` being
the (integer-scaled) likelihood of what it shows given ``n`` mines among its
unknown neighbours.  A hard clue is the factor that is 1 at ``need`` and 0
elsewhere; it keeps the plain ``need`` form because it allows pruning.

:func:`build_system` also runs the trivial rules on hard clues (a clue that needs
no more mines clears its cells; a clue that needs all its cells fills them) until
nothing changes.  Cells they settle hold the same value in every layout, so taking
them out changes no count; what is left is the part that needs counting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..codes import BLANK, COVERED, FLAG, MINE
from ..errors import EngineLimitError, InconsistentPositionError, counted
from ..geometry import neighbour_sum
from ..position import Position

__all__ = [
    "Clue",
    "EngineLimitError",
    "InconsistentPositionError",
    "System",
    "build_system",
    "closed_factor",
    "clue_cells",
    "known_mines",
    "raw_clues",
    "run_trivial_rules",
]


@dataclass
class Clue:
    """A revealed number seen as a constraint on its unknown neighbours."""

    at: int  # flat index of the number
    cells: list[int]  # unknown neighbours (flat indices)
    need: int  # mines still needed among them (hard clues)
    factor: tuple[int, ...] | None = None  # likelihood by mine count (soft clues)

    @property
    def is_hard(self) -> bool:
        return self.factor is None


@dataclass
class System:
    """The clues that still constrain unknown cells, and what the rules settled."""

    width: int
    height: int
    unknown: list[int]  # unknown cells not settled by the trivial rules
    clues: list[Clue]  # clues with at least one unknown cell left
    remaining: int  # mines among ``unknown``
    settled_mines: list[int] = field(default_factory=list)
    settled_safe: list[int] = field(default_factory=list)

    def coords(self, index: int) -> tuple[int, int]:
        return divmod(index, self.width)


# A soft clue: given the shown value and the counts around the cell, return the
# integer-scaled likelihood of each possible number of mines among its unknown
# neighbours (index n = n unknown mines), or None to treat it as a hard clue.
SoftClue = Callable[[int, int, int, int], tuple[int, ...] | None]


def known_mines(position: Position) -> int:
    """The flags and shown mines of ``position``; more than its mines is an
    :class:`InconsistentPositionError`.

    >>> known_mines(Position.from_text("3x1x2\\nF1H\\n"))
    1
    """
    known = position.cells.count(FLAG) + position.cells.count(MINE)
    if known > position.mines:
        raise InconsistentPositionError(
            f"{counted(known, 'flag')} and known mines but the position has only "
            f"{counted(position.mines, 'mine')}"
        )
    return known


def build_system(
    position: Position,
    *,
    soft: SoftClue | None = None,
    propagate: bool = True,
    off_front: bool = True,
) -> System:
    """Turn ``position`` into clues over unknown cells, settling the trivial ones.

    ``soft(shown, known_mines_around, unknown_around, neighbours_total)`` makes a
    clue noisy (see :mod:`minesolver.variants.noisy`).  Raises
    :class:`InconsistentPositionError` when a clue cannot be met.  With
    ``off_front=False``, ``unknown`` lists only the cells next to a clue (what the
    cheap deductions need; a big board has a million others).

    >>> s = build_system(Position.from_text("3x1x1\\n1HH\\n"))
    >>> s.settled_mines, s.unknown, s.remaining
    ([1], [2], 0)
    """
    w, h = position.width, position.height
    cells = position.cells
    left = remaining = position.mines - known_mines(position)
    clues = raw_clues(position, clue_cells(position, soft is not None), soft)
    unknown_all: list[int] = (
        np.flatnonzero(np.frombuffer(cells, dtype=np.uint8) == COVERED).tolist()
        if off_front
        else sorted({x for clue in clues for x in clue.cells})
    )
    system = System(w, h, unknown_all, clues, remaining)
    if propagate:
        run_trivial_rules(system)
    if system.remaining < 0:
        raise InconsistentPositionError(
            f"the clues need more than the {counted(left, 'mine')} left"
        )
    return system


def raw_clues(position: Position, at: Sequence[int], soft: SoftClue | None) -> list[Clue]:
    """The clues of the revealed cells ``at`` over their covered neighbours, before any
    rule runs; numbers with no covered neighbour are only checked.

    Raises :class:`InconsistentPositionError` naming the first clue that cannot be met.

    >>> p = Position.from_text("3x1x1\\n1HH\\n")
    >>> [(c.at, c.cells, c.need) for c in raw_clues(p, [0], None)]
    [(0, [1], 1)]
    """
    w = position.width
    cells = position.cells
    clues: list[Clue] = []
    for i, (unknown, flagged, degree) in zip(at, _surroundings(position, at), strict=True):
        code = cells[i]
        factor = soft(code, flagged, len(unknown), degree) if soft is not None else None
        if factor is not None:
            if not any(factor):
                shown = "'.' (no number)" if code == BLANK else str(code)
                raise InconsistentPositionError(
                    f"clue {shown} at {divmod(i, w)} cannot be shown with "
                    f"{counted(flagged, 'flag')} and {counted(len(unknown), 'covered cell')} "
                    "around it",
                    divmod(i, w),
                )
            if unknown:
                clues.append(Clue(i, unknown, -1, factor))
            continue
        need = code - flagged
        if need < 0 or need > len(unknown):
            row, col = divmod(i, w)
            raise InconsistentPositionError(
                f"clue {code} at ({row}, {col}) has {counted(flagged, 'flag')} and "
                f"{counted(len(unknown), 'covered cell')} around it",
                (row, col),
            )
        if unknown:
            clues.append(Clue(i, unknown, need))
    return clues


def closed_factor(position: Position, at: Sequence[int], soft: SoftClue | None) -> int:
    """The product of the factors of the revealed cells of ``at`` that have no covered
    neighbour left: constants the counts leave out (:func:`raw_clues` only checks such
    a clue), which a ratio of two positions' counts must put back for a clue closed in
    one and open in the other.  1 for hard clues (their factor is 1 or the position is
    inconsistent).

    >>> from minesolver.noise import parse_noise, soft_clue
    >>> p = Position.from_text("2x1x1\\n1F\\n")  # optimistic: a 1 shown by a true 1
    >>> closed_factor(p, [0], soft_clue(parse_noise("optimistic"))) == 2520 * 10**6 // 2
    True
    """
    product = 1
    if soft is None:
        return product
    for i, (unknown, flagged, degree) in zip(at, _surroundings(position, at), strict=True):
        if not unknown:
            factor = soft(position.cells[i], flagged, 0, degree)
            if factor is not None:
                product *= factor[0]
    return product


def _surroundings(position: Position, at: Sequence[int]) -> list[tuple[list[int], int, int]]:
    """Per cell of ``at``: its covered neighbours, its flags and known mines around, and
    how many neighbours it has."""
    cells = position.cells
    grid = position.grid
    table = grid.table()
    if table is not None or len(at) < 256:  # small: the loop beats building arrays
        out = []
        for i in at:
            around = table[i] if table is not None else grid.neighbours(i)
            unknown = []
            flagged = 0
            for j in around:
                c = cells[j]
                if c == COVERED:
                    unknown.append(j)
                elif c in (FLAG, MINE):
                    flagged += 1
            out.append((unknown, flagged, len(around)))
        return out
    rows = grid.neighbour_array(at)
    on = rows >= 0
    codes = np.frombuffer(cells, dtype=np.uint8)[np.where(on, rows, 0)]
    marked = on & ((codes == FLAG) | (codes == MINE))
    covered = on & (codes == COVERED)
    cells_flat: list[int] = rows[covered].tolist()  # row after row, in order
    ends: list[int] = np.cumsum(covered.sum(axis=1)).tolist()
    return [
        (cells_flat[end - n : end], flagged, degree)
        for end, n, flagged, degree in zip(
            ends, covered.sum(axis=1).tolist(), marked.sum(axis=1).tolist(),
            on.sum(axis=1).tolist(), strict=True,
        )
    ]


def clue_cells(position: Position, soft: bool) -> list[int]:
    """Revealed cells that need looking at, in row-major order.

    Numbers with covered neighbours always do.  A number whose neighbours are all
    open or flagged only needs its value to equal its flags; the check is done
    here, vectorised, and the first wrong one (if any) is returned so the loop
    names it.  Soft clues (noisy games) are all looked at.
    """
    grid = np.frombuffer(position.cells, dtype=np.uint8).reshape(position.shape)
    if soft:
        return np.flatnonzero((grid <= 8) | (grid == BLANK)).tolist()
    numbers = grid <= 8
    covered_around = neighbour_sum(grid == COVERED)
    wanted = numbers & (covered_around > 0)
    closed = numbers & (covered_around == 0)
    if closed.any():
        known_around = neighbour_sum((grid == FLAG) | (grid == MINE))
        wrong = np.flatnonzero(closed & (grid != known_around))
        if wrong.size:
            wanted.flat[wrong[0]] = True
    return np.flatnonzero(wanted).tolist()


def run_trivial_rules(system: System) -> None:
    """Apply the trivial rules to hard clues until nothing changes."""
    clues = system.clues
    by_cell: dict[int, list[int]] = {}
    for k, clue in enumerate(clues):
        for c in clue.cells:
            by_cell.setdefault(c, []).append(k)
    value: dict[int, int] = {}  # settled cell -> 1 mine / 0 safe
    queue = [
        k
        for k, cl in enumerate(clues)
        if cl.is_hard and (cl.need == 0 or cl.need == len(cl.cells))
    ]
    w = system.width
    while queue:
        k = queue.pop()
        clue = clues[k]
        if not clue.cells:
            continue
        fill = 1 if clue.need == len(clue.cells) else 0
        if clue.need != 0 and not fill:
            continue
        for c in clue.cells:
            if c in value:
                continue
            value[c] = fill
            for k2 in by_cell[c]:
                other = clues[k2]
                other.cells.remove(c)
                if other.is_hard:
                    other.need -= fill
                    if other.need < 0 or other.need > len(other.cells):
                        row, col = divmod(other.at, w)
                        raise InconsistentPositionError(
                            f"clue at ({row}, {col}) cannot be met: its neighbours "
                            "are forced beyond its number",
                            (row, col),
                        )
                    if other.cells and (other.need == 0 or other.need == len(other.cells)):
                        queue.append(k2)
                else:
                    assert other.factor is not None
                    # a settled mine shifts a soft clue's factor by one
                    if fill:
                        other.factor = other.factor[1:]
                    else:
                        other.factor = other.factor[: len(other.cells) + 1]
                    if not any(other.factor):
                        row, col = divmod(other.at, w)
                        raise InconsistentPositionError(
                            f"clue at ({row}, {col}) cannot be met", (row, col)
                        )
    if not value:
        return
    system.settled_mines = sorted(c for c, v in value.items() if v)
    system.settled_safe = sorted(c for c, v in value.items() if not v)
    system.remaining -= len(system.settled_mines)
    system.unknown = [c for c in system.unknown if c not in value]
    kept = []
    for clue in clues:
        if clue.cells:
            kept.append(clue)
        elif clue.is_hard:
            assert clue.need == 0
        else:
            assert clue.factor is not None and clue.factor[0] != 0
    system.clues = kept

