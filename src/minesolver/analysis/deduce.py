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

import numpy as np

from ..codes import COVERED, FLAG, MINE
from ..position import Position
from .system import (
    Clue,
    InconsistentPositionError,
    System,
    build_system,
    raw_clues,
)

__all__ = ["Deducer", "Deductions", "deduce"]


@dataclass(frozen=True)
class Deductions:
    """Cells the cheap rules prove safe or mined, as sorted ``(row, col)`` lists."""

    safe: list[tuple[int, int]]
    mines: list[tuple[int, int]]

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


def deduce(position: Position, *, subset: bool = True) -> Deductions:
    """Apply the trivial rule (and, unless ``subset=False``, the subset rule)."""
    system = build_system(position, off_front=False)
    safe, mines = _settle(system, subset)
    return _deductions(safe, mines, position.width)


def _deductions(safe: set[int], mines: set[int], w: int) -> Deductions:
    return Deductions(
        safe=sorted(divmod(i, w) for i in safe),
        mines=sorted(divmod(i, w) for i in mines),
    )


class Deducer:
    """:func:`deduce` for one evolving position, kept up to date move by move.

    It keeps the clues as the trivial rule left them and the cells it settled.  A
    move re-reads the numbers next to the cells it changed; the rule runs on from
    there (it reaches the same fixpoint in any order, and a settled cell stays
    settled when clues are added).  The subset rule only links clues that share a
    cell, so it runs again only on the groups of clues the move reached.  A board of
    a million cells then costs what its changes cost, not what its whole boundary
    costs; ``tests/analysis/test_deduce.py`` checks it equals :func:`deduce` after
    every move of whole games.

    >>> d = Deducer()
    >>> d.update(Position.from_text("4x2x2\\n1221\\nHHHH\\n")).safe
    [(1, 0), (1, 3)]
    >>> d.update(Position.from_text("4x2x2\\n1221\\n1HHH\\n")).safe, d.any_safe
    ([(1, 3)], True)
    """

    def __init__(self) -> None:
        self._position: Position | None = None
        self._clues: dict[int, tuple[set[int], int]] = {}  # number -> cells, mines needed
        self._seen_by: dict[int, set[int]] = {}  # cell -> numbers whose clue holds it
        self._settled: dict[int, int] = {}  # cell -> 1 mine / 0 safe, by the trivial rule
        self._safe_settled = 0
        self._group_of: dict[int, int] = {}  # number -> its group's serial
        self._groups: dict[int, tuple[list[int], set[int], set[int]]] = {}  # numbers, safe, mines
        self._serial = 0

    @property
    def any_safe(self) -> bool:
        """Whether the rules prove some covered cell safe (cheaper than the list)."""
        return bool(self._safe_settled) or any(g[1] for g in self._groups.values())

    def update(self, position: Position) -> Deductions:
        """Move on to ``position`` and return its deductions (raises
        :class:`InconsistentPositionError` as :func:`deduce` does)."""
        self.advance(position)
        return self.deductions()

    def deductions(self) -> Deductions:
        """The deductions of the position seen last."""
        assert self._position is not None, "no position seen yet"
        safe = {c for c, v in self._settled.items() if not v}
        mines = {c for c, v in self._settled.items() if v}
        for _, group_safe, group_mines in self._groups.values():
            safe |= group_safe
            mines |= group_mines
        return _deductions(safe, mines, self._position.width)

    def advance(self, position: Position) -> None:
        """Move on to ``position`` (the same board after some moves)."""
        old, self._position = self._position, None  # a failure below leaves nothing half done
        known = position.cells.count(FLAG) + position.cells.count(MINE)
        if known > position.mines:
            build_system(position)  # says what is wrong, as deduce does
        new = np.frombuffer(position.cells, dtype=np.uint8)
        changed = np.empty(0, dtype=np.int64)
        if old is not None and (old.width, old.height) == (position.width, position.height):
            changed = np.flatnonzero(np.frombuffer(old.cells, dtype=np.uint8) != new)
        settled = self._settled
        if old is None or len(changed) != len(
            [c for c in changed.tolist() if _agrees(settled.get(c), int(new[c]))]
        ):
            self.__init__()  # type: ignore[misc]
            at = np.flatnonzero(new <= 8).tolist()
        else:
            for c in changed.tolist():
                self._safe_settled -= settled.pop(c, 1) == 0
            around = position.grid.neighbour_array(changed)
            near = np.unique(np.concatenate([changed, around[around >= 0]]))
            at = near[new[near] <= 8].tolist()
        self._read(position, at)
        self._position = position

    def _read(self, position: Position, at: list[int]) -> None:
        """Read the numbers ``at`` again, run the trivial rule on from them, and run
        the subset rule on every group of clues that changed."""
        seeds: set[int] = set()
        queue: list[int] = []
        for a in at:
            self._drop(a, seeds)
        settled = self._settled
        for clue in raw_clues(position, at, None):
            cells = {x for x in clue.cells if x not in settled}
            need = clue.need - sum(settled[x] for x in clue.cells if x in settled)
            self._check(clue.at, cells, need, position.width)
            if cells:
                self._clues[clue.at] = (cells, need)
                for x in cells:
                    self._seen_by.setdefault(x, set()).add(clue.at)
                seeds.add(clue.at)
                queue.append(clue.at)
        while queue:
            a = queue.pop()
            if a not in self._clues:
                continue
            cells, need = self._clues[a]
            if need not in (0, len(cells)):
                continue
            fill = int(need > 0)
            for x in list(cells):
                settled[x] = fill
                self._safe_settled += not fill
                for b in self._seen_by.pop(x):
                    b_cells, b_need = self._clues[b]
                    b_cells.discard(x)
                    self._check(b, b_cells, b_need - fill, position.width)
                    self._clues[b] = (b_cells, b_need - fill)
                    self._invalidate(b, seeds)
                    if not b_cells:
                        del self._clues[b]
                    elif b_need - fill in (0, len(b_cells)):
                        queue.append(b)
        for seed in sorted(seeds):
            if seed in self._clues and seed not in self._group_of:
                self._settle_group(position, self._reach(seed, seeds))

    @staticmethod
    def _check(at: int, cells: set[int], need: int, w: int) -> None:
        if need < 0 or need > len(cells):
            row, col = divmod(at, w)
            raise InconsistentPositionError(
                f"clue at ({row}, {col}) cannot be met: its neighbours are forced beyond "
                "its number",
                (row, col),
            )

    def _invalidate(self, a: int, seeds: set[int]) -> None:
        """The group of ``a`` is settled again (its clues are seeds)."""
        seeds.add(a)
        serial = self._group_of.pop(a, None)
        if serial is not None and serial in self._groups:
            members = self._groups.pop(serial)[0]
            seeds.update(members)
            for b in members:
                self._group_of.pop(b, None)

    def _drop(self, a: int, seeds: set[int]) -> None:
        """Forget the clue at ``a`` (it is read again)."""
        self._invalidate(a, seeds)
        clue = self._clues.pop(a, None)
        if clue is not None:
            for x in clue[0]:
                linked = self._seen_by[x]
                linked.discard(a)
                if not linked:
                    del self._seen_by[x]

    def _reach(self, seed: int, seeds: set[int]) -> list[int]:
        """The clues linked to ``seed`` through shared cells (groups met on the way
        are settled again with it)."""
        group = {seed}
        todo = [seed]
        while todo:
            for x in self._clues[todo.pop()][0]:
                for b in self._seen_by[x]:
                    if b not in group:
                        self._invalidate(b, seeds)
                        group.add(b)
                        todo.append(b)
        return sorted(group)

    def _settle_group(self, position: Position, group: list[int]) -> None:
        clues = [Clue(a, sorted(self._clues[a][0]), self._clues[a][1]) for a in group]
        cells = sorted({x for clue in clues for x in clue.cells})
        safe, mines = _settle(System(position.width, position.height, cells, clues, 0), True)
        self._serial += 1
        self._groups[self._serial] = (group, safe, mines)
        for a in group:
            self._group_of[a] = self._serial


def _agrees(settled: int | None, code: int) -> bool:
    """Whether a cell the trivial rule settled (or not) may now show ``code``."""
    if settled is None:
        return code != COVERED
    return (code in (FLAG, MINE)) == (settled == 1)


def _settle(system: System, subset: bool) -> tuple[set[int], set[int]]:
    """The safe cells and mines of ``system`` (its trivial rules already run)."""
    w = system.width
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
    return safe, mines
