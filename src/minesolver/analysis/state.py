"""What the engine knows about one position, and how a change updates it.

A :class:`State` holds the position's *fronts* (after the trivial rules) with their
reduced clues and counts, and the cells the rules *settled*.  A change (cells
revealed, flagged or hypothesised) only reaches the fronts next to it:

1. the clues of the revealed cells next to a changed cell are read again from the
   position (the other clues cannot have changed);
2. they join the reduced clues of the fronts they touch, plus, for each settled
   cell they see, a one-cell clue that settles it again;
3. the trivial rules run on that small system, which splits into fronts that are
   counted (from the cache when the same clues were counted before).

Untouched fronts are reused as they are.  This equals a rebuild from scratch: the
trivial rules reach the same fixpoint in any order, and cells they settled stay
settled when clues are added (a new clue refines what its cells may hold, never
undoes a deduction).  ``tests/analysis/test_incremental.py`` checks it after every
move of many games.

>>> from minesolver.position import Position
>>> from .cache import FrontCache
>>> s = State.scratch(Position.from_text("4x2x1\\n1HHH\\nHHHH\\n"), None, FrontCache())
>>> [u.cells for u in s.units.values()], s.settled_mines
([(1, 4, 5)], 0)
>>> s = s.derive(Position.from_text("4x2x1\\n11HH\\nHHHH\\n"), None, FrontCache())
>>> [u.cells for u in s.units.values()], s.settled_mines
([(2, 4, 5, 6)], 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..codes import BLANK, COVERED, FLAG, MINE
from ..position import Position
from .cache import FrontCache
from .counting import FrontCount
from .fronts import Front, ordered, split_fronts
from .kernels import count_fronts
from .system import (
    Clue,
    InconsistentPositionError,
    SoftClue,
    System,
    clue_cells,
    raw_clues,
    run_trivial_rules,
)

__all__ = ["State", "Unit", "counted"]

_NONE = -1


@dataclass(frozen=True)
class Unit:
    """One front: its reduced clues (never mutated), cells and count."""

    clues: tuple[Clue, ...]
    cells: tuple[int, ...]  # sorted
    count: FrontCount
    # every cell, box after box, and its box's number within the front
    box_cells: np.ndarray = field(repr=False, compare=False)
    box_index: np.ndarray = field(repr=False, compare=False)
    box_sizes: tuple[int, ...] = field(repr=False, compare=False)  # in box order


def counted(fronts: list[Front], cache: FrontCache[FrontCount]) -> list[FrontCount]:
    """The counts of ``fronts``: from ``cache`` when the same clues were counted
    before, the others put in counting order (:func:`.fronts.ordered`) and counted
    together in one call (:func:`.kernels.count_fronts`).  Each count carries its
    ordered front (``count.front``): the same clues, boxes and cells."""
    keys = [
        (f.board_width, *((c.at, tuple(c.cells), c.need, c.factor) for c in f.clues))
        for f in fronts
    ]
    out = [cache.get(key) for key in keys]
    missing = [i for i, c in enumerate(out) if c is None]
    if missing:
        fresh = count_fronts([ordered(fronts[i]) for i in missing])
        for i, count in zip(missing, fresh, strict=True):
            cache.put(keys[i], count)
            out[i] = count
    return [c for c in out if c is not None]


class State:
    """The fronts and settled cells of one position (a value: never changed in place)."""

    __slots__ = ("position", "settled", "settled_count", "settled_mines", "unit_of", "units")

    def __init__(
        self,
        position: Position,
        units: dict[int, Unit],
        unit_of: np.ndarray,
        settled: np.ndarray,
        settled_mines: int,
        settled_count: int = 0,
    ) -> None:
        self.position = position
        self.units = units  # by serial number
        self.unit_of = unit_of  # per cell: serial of its front (covered or clue cell), or -1
        self.settled = settled  # per cell: -1, or 0 / 1 when the trivial rules cleared / filled it
        self.settled_mines = settled_mines  # covered cells settled as mines
        self.settled_count = settled_count  # covered cells settled, mines or safe

    @classmethod
    def scratch(
        cls, position: Position, soft: SoftClue | None, cache: FrontCache[FrontCount]
    ) -> State:
        """The state of ``position`` built from nothing."""
        n = len(position.cells)
        empty = cls(
            position,
            {},
            np.full(n, _NONE, dtype=np.int64),
            np.full(n, _NONE, dtype=np.int8),
            0,
        )
        return empty._rebuild(position, clue_cells(position, soft is not None), set(), soft, cache)

    def derive(
        self,
        position: Position,
        soft: SoftClue | None,
        cache: FrontCache[FrontCount],
        at: Iterable[int] | None = None,
    ) -> State:
        """The state of ``position``, the same board with some cells changed (``at``,
        when the caller knows them: a hypothesis saves comparing the boards)."""
        if (position.width, position.height) != (self.position.width, self.position.height):
            raise ValueError("an engine follows one board: the new position has another size")
        cells = position.cells
        new = np.frombuffer(cells, dtype=np.uint8)
        old = np.frombuffer(self.position.cells, dtype=np.uint8)
        if at is None:
            changed = np.flatnonzero(old != new)
        else:
            before = self.position.cells
            changed = np.array(sorted({c for c in at if before[c] != cells[c]}), dtype=np.int64)
        # only covered cells shown (opened or flagged) go step by step: a cell covered
        # again, or a flag or number changed, undoes what the old clues settled
        if (len(changed) > len(cells) // 4 or bool((new[changed] == COVERED).any())
                or bool((old[changed] != COVERED).any())):
            return State.scratch(position, soft, cache)
        unit_of = self.unit_of
        grid = position.grid
        # the clues next to a change (or changed) and the fronts they and their covered
        # cells belong to, as arrays: a move on a big board changes thousands of cells
        around = grid.neighbour_array(changed)
        near = np.unique(np.concatenate([changed, around[around >= 0]]))
        code = new[near]
        clue_at = near[(code <= 8) | ((code == BLANK) if soft is not None else False)]
        around = grid.neighbour_array(clue_at)
        seen = around[around >= 0]
        seen = seen[new[seen] == COVERED]
        units = unit_of[np.concatenate([changed, clue_at, seen])]
        touched: set[int] = set(np.unique(units[units >= 0]).tolist())
        clues: set[int] = set(clue_at.tolist())
        return self._rebuild(position, clues, touched, soft, cache, changed)

    def _rebuild(
        self,
        position: Position,
        at: Iterable[int],
        touched: set[int],
        soft: SoftClue | None,
        cache: FrontCache[FrontCount],
        changed: np.ndarray | None = None,
    ) -> State:
        settled = self.settled.copy()
        settled_mines = self.settled_mines
        settled_count = self.settled_count
        if changed is not None and len(changed):
            was = settled[changed]
            if (was >= 0).any():
                settled_mines -= _check_settled(position, changed, was)
                settled_count -= int((was >= 0).sum())
                settled[changed] = _NONE  # shown now: no longer the rules' business
        at = sorted(at)
        fresh = raw_clues(position, at, soft)
        ats = set(at)
        units = dict(self.units)
        unit_of = self.unit_of.copy()
        kept: list[Clue] = []
        for serial in touched:
            unit = units.pop(serial)
            unit_of[list(unit.cells)] = _NONE
            unit_of[[c.at for c in unit.clues]] = _NONE
            kept.extend(
                Clue(c.at, list(c.cells), c.need, c.factor) for c in unit.clues if c.at not in ats
            )
        # cells settled before: a one-cell clue settles each again, in the same way
        again = sorted({x for c in fresh for x in c.cells if settled[x] >= 0})
        pins = [Clue(_NONE, [x], int(settled[x])) for x in again]
        system_clues = fresh + kept + pins
        unknown = sorted({x for c in system_clues for x in c.cells})
        system = System(position.width, position.height, unknown, system_clues, 0)
        run_trivial_rules(system)
        pinned = set(again)
        for x in system.settled_mines:
            if x not in pinned:
                settled[x] = 1
                settled_mines += 1
                settled_count += 1
        for x in system.settled_safe:
            if x not in pinned:
                settled[x] = 0
                settled_count += 1
        # every cell left is next to a clue; only the fronts counted now need ordering
        fronts, _ = split_fronts(system, in_order=False)
        serial = max(units, default=0)
        for count in counted(fronts, cache):
            serial += 1
            unit = _unit(count)
            units[serial] = unit
            unit_of[list(unit.cells)] = serial
            unit_of[[c.at for c in unit.clues]] = serial
        return State(position, units, unit_of, settled, settled_mines, settled_count)


def _check_settled(position: Position, changed: np.ndarray, was: np.ndarray) -> int:
    """Cells the rules had settled and that are now shown must agree with them;
    returns how many settled mines are now shown (flags or known mines)."""
    codes = np.frombuffer(position.cells, dtype=np.uint8)[changed]
    shown_mine = (codes == FLAG) | (codes == MINE)
    wrong = ((was == 1) & ~shown_mine) | ((was == 0) & shown_mine)
    if wrong.any():
        cell = position.coords(int(changed[np.flatnonzero(wrong)[0]]))
        what = "a mine" if was[np.flatnonzero(wrong)[0]] == 1 else "safe"
        raise InconsistentPositionError(
            f"the clues around {cell} make it {what}, but the position shows otherwise", cell
        )
    return int(((was == 1) & shown_mine).sum())


def _unit(count: FrontCount) -> Unit:
    front = count.front
    flat: list[int] = []
    index: list[int] = []
    for b, box in enumerate(front.boxes):
        flat.extend(box.cells)
        index.extend([b] * box.size)
    return Unit(
        tuple(front.clues),
        tuple(sorted(flat)),
        count,
        np.array(flat, dtype=np.int64),
        np.array(index, dtype=np.int64),
        tuple(box.size for box in front.boxes),
    )
