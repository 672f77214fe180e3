"""Cheap deductions: the trivial rule and the subset rule, without counting.

* **trivial**: a clue that needs no more mines clears all its unknown cells; a
  clue that needs as many mines as it has unknown cells fills them all;
* **subset**: if clue A's unknown cells are a subset of clue B's, the cells of B
  outside A hold ``need(B) - need(A)`` mines; when that is 0 they are safe, when
  it is their number they are all mines.

Both are sound: everything they find holds in every layout, so the exact engine
must give those cells probability 0 or 1 (the tests check this).  They are much
cheaper than counting, so strategies try them first.  They ignore the total mine
count; the exact engine does not.

>>> from minesolver.position import Position
>>> d = deduce(Position.from_text("4x2x2\\n1221\\nHHHH\\n"))
>>> d.mines, d.safe
([(1, 1), (1, 2)], [(1, 0), (1, 3)])
"""

from __future__ import annotations

from dataclasses import dataclass

from ..position import Position
from .system import InconsistentPositionError, build_system

__all__ = ["Deductions", "deduce"]


@dataclass(frozen=True)
class Deductions:
    """Cells the cheap rules prove safe or mined, as sorted ``(row, col)`` lists."""

    safe: list[tuple[int, int]]
    mines: list[tuple[int, int]]

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


def deduce(position: Position, *, subset: bool = True) -> Deductions:
    """Apply the trivial rule (and, unless ``subset=False``, the subset rule)."""
    system = build_system(position)
    w = position.width
    mines = set(system.settled_mines)
    safe = set(system.settled_safe)
    clues = {(frozenset(c.cells), c.need) for c in system.clues if c.is_hard}
    while subset and clues:
        by_cell: dict[int, list[tuple[frozenset[int], int]]] = {}
        for clue in clues:
            for c in clue[0]:
                by_cell.setdefault(c, []).append(clue)
        new_mines: set[int] = set()
        new_safe: set[int] = set()
        for cells_a, need_a in clues:
            seen: set[tuple[frozenset[int], int]] = set()
            for c in cells_a:
                for clue_b in by_cell[c]:
                    cells_b, need_b = clue_b
                    if clue_b in seen or len(cells_b) <= len(cells_a):
                        continue
                    seen.add(clue_b)
                    if not cells_a <= cells_b:
                        continue
                    rest = cells_b - cells_a
                    more = need_b - need_a
                    if more == 0:
                        new_safe |= rest
                    elif more == len(rest):
                        new_mines |= rest
                    elif more < 0 or more > len(rest):
                        r, col = divmod(next(iter(cells_b)), w)
                        raise InconsistentPositionError(
                            f"clues around ({r}, {col}) contradict each other", None
                        )
        if not new_mines and not new_safe:
            break
        if new_mines & new_safe:
            raise InconsistentPositionError("the clues force a cell to be both safe and a mine")
        # settle, then re-run the trivial rule until it stops
        while new_mines or new_safe:
            mines |= new_mines
            safe |= new_safe
            reduced = set()
            for cells, need in clues:
                left = cells - mines - safe
                need2 = need - len(cells & mines)
                if need2 < 0 or need2 > len(left):
                    raise InconsistentPositionError("the clues contradict each other")
                if left:
                    reduced.add((frozenset(left), need2))
            clues = reduced
            new_mines = set()
            new_safe = set()
            for cells, need in clues:
                if need == 0:
                    new_safe |= cells
                elif need == len(cells):
                    new_mines |= cells
    return Deductions(
        safe=sorted(divmod(i, w) for i in safe),
        mines=sorted(divmod(i, w) for i in mines),
    )
