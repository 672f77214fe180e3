"""Exhaustive endgame search: the exact best move when few layouts remain.

The state is the set ``S`` of layouts still consistent with what was seen.  The
value of a state is the probability of winning from it with perfect play:

* every cell safe in all of ``S`` is opened for free; the numbers it shows split
  ``S`` into the sets consistent with each outcome;
* a state with one layout left is won;
* otherwise, for each cell that may be safe, opening it survives in the layouts
  where it is safe and splits them by the number it shows:
  ``W(S) = max_c  sum_v |S_{c,v}| / |S| * W(S_{c,v})``.

States are memoised (the value of ``S`` does not depend on the path that led to
it) and a cell is skipped when even winning every branch could not beat the best
move found so far.  The search gives up (returns ``None``) past a node budget so
the caller can fall back to heuristics.

An :class:`Endgame` keeps its last search for the rest of the game: the position
after a move it chose, and after the safe cells that move made certain, is a state
that search already solved, so the next call looks the move up instead of
searching again.

>>> from minesolver.position import Position
>>> result = best_endgame_move(Position.from_text("2x1x1\\nHH\\n"))
>>> result.win_chance
0.5
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.enumerate import enumerate_layouts
from ..codes import COVERED, is_open
from ..position import Position

__all__ = ["Endgame", "EndgameResult", "best_endgame_move", "win_probability"]


@dataclass(frozen=True)
class EndgameResult:
    """The best cell to open and the exact win probability with perfect play."""

    cell: tuple[int, int]
    win_chance: float
    safety: float
    layouts: int


class _Budget(Exception):
    pass


class _Search:
    def __init__(self, position: Position, cells: list[int], budget: int) -> None:
        grid = position.grid
        index = {c: j for j, c in enumerate(cells)}
        self.cells = cells
        self.full = (1 << len(cells)) - 1
        # neighbour mask of each unknown cell over the unknown cells
        self.nbr = [
            sum(1 << index[n] for n in grid.neighbours(c) if n in index) for c in cells
        ]
        self.memo: dict[frozenset[int], float] = {}
        # the best move of every state that had to choose one: (bit, win, safety)
        self.chosen: dict[frozenset[int], tuple[int, float, float]] = {}
        self.budget = budget

    def value(self, layouts: list[int]) -> float:
        if len(layouts) == 1:
            return 1.0
        key = frozenset(layouts)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.budget -= 1
        if self.budget < 0:
            raise _Budget
        safe = self.free(layouts)
        groups = self._split_by_safe(layouts, safe)
        if len(groups) > 1:
            n = len(layouts)
            result = sum(len(g) * self.value(g) for g in groups) / n
        else:
            move = self.best_move(layouts, safe)
            self.chosen[key] = move
            result = move[1]
        self.memo[key] = result
        return result

    def free(self, layouts: list[int]) -> int:
        """The cells safe in every one of ``layouts``, as a bit mask."""
        union = 0
        for lay in layouts:
            union |= lay
        return self.full & ~union

    def _split_by_safe(self, layouts: list[int], safe: int) -> list[list[int]]:
        if not safe:
            return [layouts]
        masks = []
        bits = safe
        while bits:
            low = bits & -bits
            masks.append(self.nbr[low.bit_length() - 1])
            bits ^= low
        groups: dict[tuple[int, ...], list[int]] = {}
        for lay in layouts:
            groups.setdefault(tuple((lay & m).bit_count() for m in masks), []).append(lay)
        return list(groups.values())

    def best_move(self, layouts: list[int], opened: int) -> tuple[int, float, float]:
        """``(cell bit index, win chance, safety)`` of the best cell to open."""
        n = len(layouts)
        inter = self.full
        for lay in layouts:
            inter &= lay
        candidates = []
        for j in range(len(self.cells)):
            bit = 1 << j
            if bit & (inter | opened):
                continue
            alive = [lay for lay in layouts if not lay & bit]
            candidates.append((len(alive), j, alive))
        candidates.sort(key=lambda t: -t[0])
        best_j, best_w, best_s = -1, -1.0, 0.0
        for n_alive, j, alive in candidates:
            if n_alive / n <= best_w:
                break  # even winning every branch cannot beat the best so far
            m = self.nbr[j]
            groups: dict[int, list[int]] = {}
            for lay in alive:
                groups.setdefault((lay & m).bit_count(), []).append(lay)
            total = 0.0
            for g in groups.values():
                total += len(g) * self.value(g)
            w = total / n
            if w > best_w:
                best_j, best_w, best_s = j, w, n_alive / n
        return best_j, best_w, best_s


class Endgame:
    """The optimal cell to open in the endgames of one game, one position after
    another.  A new game needs a new ``Endgame``.

    >>> from minesolver.position import Position
    >>> endgame = Endgame(max_layouts=10)
    >>> endgame.move(Position.from_text("2x1x1\\nHH\\n")).win_chance
    0.5
    """

    def __init__(self, *, max_layouts: int = 400, budget: int = 20_000) -> None:
        self.max_layouts = max_layouts
        self.budget = budget
        self._last: _Search | None = None  # the last finished search of this game
        self.searched = 0  # positions searched, and positions answered from a search
        self.recalled = 0

    def move(self, position: Position) -> EndgameResult | None:
        """The optimal cell to open when ``position`` has at most ``max_layouts``
        layouts; ``None`` when it has more, or the search exceeds ``budget`` states,
        or no cell is left to open."""
        found = enumerate_layouts(position, self.max_layouts)
        if found is None:
            return None
        cells, layouts = found
        if not layouts:
            return None
        known = self._recall(position, cells, layouts)
        if known is not None:
            self.recalled += 1
            return known
        self.searched += 1
        search = _Search(position, cells, self.budget)
        try:
            j, win, safety = search.best_move(layouts, 0)
        except _Budget:
            return None
        if j < 0:
            return None
        if not search.free(layouts):  # no cell here is certainly safe: as value() saw it
            search.chosen[frozenset(layouts)] = (j, win, safety)
        self._last = search
        return EndgameResult(position.coords(cells[j]), win, safety, len(layouts))

    def _recall(
        self, position: Position, cells: list[int], layouts: list[int]
    ) -> EndgameResult | None:
        """The move the last search chose for this state, if it reached it: the
        layouts are written over that search's cells (a cell it had unknown and this
        position has open holds no mine; one covered but no longer unknown, a mine)."""
        last = self._last
        if last is None:
            return None
        at = {c: j for j, c in enumerate(last.cells)}
        unknown = set(cells)
        if not unknown <= at.keys():
            return None  # not a later position of the same game
        fixed = 0
        for c, j in at.items():
            if c in unknown:
                continue
            code = position.cells[c]
            if code == COVERED:
                return None  # never happens: every covered cell is listed
            if not is_open(code):  # a flag or a known mine
                fixed |= 1 << j
        moved = [1 << at[c] for c in cells]
        key = frozenset(
            fixed | sum(bit for k, bit in enumerate(moved) if lay >> k & 1) for lay in layouts
        )
        chosen = last.chosen.get(key)
        if chosen is None:
            return None
        j, win, safety = chosen
        if position.cells[last.cells[j]] != COVERED:
            return None
        return EndgameResult(position.coords(last.cells[j]), win, safety, len(layouts))


def best_endgame_move(
    position: Position, *, max_layouts: int = 400, budget: int = 20_000
) -> EndgameResult | None:
    """The optimal cell to open, when the position has at most ``max_layouts``.

    Returns ``None`` when there are more layouts, or the search exceeds ``budget``
    states, or no cell is left to open.  (:class:`Endgame` does the same over a
    game, reusing its searches.)
    """
    return Endgame(max_layouts=max_layouts, budget=budget).move(position)


def win_probability(position: Position, *, max_layouts: int = 400, budget: int = 200_000) -> float:
    """Exact chance to win from ``position`` with perfect play (tests and reports)."""
    found = enumerate_layouts(position, max_layouts)
    if found is None:
        raise ValueError(f"more than {max_layouts} layouts")
    cells, layouts = found
    if not layouts:
        return 0.0
    return _Search(position, cells, budget).value(layouts)
