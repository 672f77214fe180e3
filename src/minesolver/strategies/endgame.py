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
move found so far, or given up part way once the numbers it may show that are
left could not make up the difference.  The search gives up (returns ``None``)
past a node budget so the caller can fall back to heuristics.

An :class:`Endgame` keeps its last search for the rest of the game: the position
after a move it chose, and after the safe cells that move made certain, is a state
that search already solved, so the next call looks the move up instead of
searching again.

With numba installed, :class:`Endgame` searches on a compiled kernel
(:mod:`._compiled_endgame`: the same tree, the same budget of states, about ten
times faster; ``benchmarks/endgame_speed.py``), chosen as the engine's is
(``MINESOLVER_KERNELS`` or ``kernel``: ``numba`` always, ``auto`` from
:data:`COMPILED_FROM` layouts).  :class:`_Search` here is the reference it is
tested equal to, and serves the exact measures of :mod:`.worth` (the chance to
win from a position, after a move, or with a strategy's own play).

Past the exact search's range, :func:`sampled_endgame_move` searches the same game
tree over layouts drawn from the position (``best:sample``): an estimate, and an
optimistic one.  The exact values of :mod:`.worth` are how such estimates and the
heuristics are judged.

>>> from minesolver.position import Position
>>> result = best_endgame_move(Position.from_text("2x1x1\\nHH\\n"))
>>> result.win_chance
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..analysis.enumerate import enumerate_layouts
from ..analysis.kernels import Kernel, kernel_choice, kernel_in_use
from ..codes import COVERED, is_open
from ..position import Position

if TYPE_CHECKING:
    from ._compiled_endgame import CompiledSearch

__all__ = [
    "COMPILED_FROM",
    "BudgetExceeded",
    "Endgame",
    "EndgameResult",
    "best_endgame_move",
    "best_move_over",
    "sampled_endgame_move",
]


@dataclass(frozen=True)
class EndgameResult:
    """The best cell to open and the exact win probability with perfect play."""

    cell: tuple[int, int]
    win_chance: float
    safety: float
    layouts: int


# ``auto`` searches this many layouts or more on the compiled kernel (when numba is
# installed): below, building its arrays costs more than the plain search
COMPILED_FROM = 100


class BudgetExceeded(RuntimeError):
    """The search needed more states than its budget allowed."""


class _Search:
    """The plain-Python game tree (the reference of :mod:`._compiled_endgame`).
    ``prune=False`` values every cell it tries to the end, as the search did before
    cells were given up part way, to measure what that saves.

    ``skip_dominated`` does not try a cell that is safe only where a cell tried
    before it is safe.  Such a cell cannot win more: opening the other first, then
    it, then playing on as after it, risks no layout it does not risk and wins
    every layout it wins.  The values are the same; kept to measure what skipping
    saves (``benchmarks/endgame_speed.py --against dominated``)."""

    def __init__(
        self,
        position: Position,
        cells: list[int],
        budget: int,
        *,
        prune: bool = True,
        skip_dominated: bool = False,
    ) -> None:
        grid = position.grid
        self.prune = prune
        self.skip_dominated = skip_dominated
        self.skipped = 0  # cells not tried as dominated
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
        self.limit = budget

    def value(self, layouts: list[int]) -> float:
        if len(layouts) == 1:
            return 1.0
        key = frozenset(layouts)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.budget -= 1
        if self.budget < 0:
            raise BudgetExceeded(f"more than {self.limit} states")
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
        tried: list[int] = []  # as sets of layouts (bit i: layouts[i]), where safe
        for n_alive, j, alive in candidates:
            if n_alive / n <= best_w:
                break  # even winning every branch cannot beat the best so far
            if self.skip_dominated:
                bit = 1 << j
                safe_in = sum(1 << i for i, lay in enumerate(layouts) if not lay & bit)
                if any(safe_in & ~other == 0 for other in tried):
                    self.skipped += 1  # safe only where a cell tried already is safe
                    continue
                tried.append(safe_in)
            w = self.after(alive, j, best_w * n) / n
            if w > best_w:
                best_j, best_w, best_s = j, w, n_alive / n
        return best_j, best_w, best_s

    def root(self, layouts: list[int]) -> tuple[int, float, float] | None:
        """:meth:`best_move` with every layout possible and no cell opened yet,
        remembered for :meth:`recall`; ``None`` past the budget."""
        try:
            move = self.best_move(layouts, 0)
        except BudgetExceeded:
            return None
        if move[0] >= 0 and not self.free(layouts):  # a state value() meets: keep its move
            self.chosen[frozenset(layouts)] = move
        return move

    def recall(self, layouts: list[int]) -> tuple[int, float, float] | None:
        """The move this search chose for the state ``layouts``, if it reached it."""
        return self.chosen.get(frozenset(layouts))

    def after(self, alive: list[int], j: int, beat: float = -1.0) -> float:
        """``len(alive)`` times the chance of winning after opening cell ``j`` in
        ``alive`` (the layouts where it is safe), split by the number it shows.

        With ``beat`` (the best cell's so far, as such a total), the numbers'
        states are valued only while winning every one left could still exceed it;
        once it cannot, -1 is returned: the cell is not better."""
        m = self.nbr[j]
        groups: dict[int, list[int]] = {}
        for lay in alive:
            groups.setdefault((lay & m).bit_count(), []).append(lay)
        total = 0.0
        left = len(alive)
        for g in groups.values():
            if self.prune and total + left <= beat:
                return -1.0
            left -= len(g)
            total += len(g) * self.value(g)
        return total


class Endgame:
    """The optimal cell to open in the endgames of one game, one position after
    another.  A new game needs a new ``Endgame``.

    >>> from minesolver.position import Position
    >>> endgame = Endgame(max_layouts=10)
    >>> endgame.move(Position.from_text("2x1x1\\nHH\\n")).win_chance
    0.5
    """

    def __init__(
        self, *, max_layouts: int = 400, budget: int = 20_000, kernel: Kernel | None = None
    ) -> None:
        self.max_layouts = max_layouts
        self.budget = budget
        self.kernel = kernel
        self._last: _Search | CompiledSearch | None = None  # this game's last search
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
        search: _Search | CompiledSearch
        if self._compiled(len(layouts)):
            from ._compiled_endgame import CompiledSearch

            search = CompiledSearch(position, cells, self.budget)
        else:
            search = _Search(position, cells, self.budget)
        found_move = search.root(layouts)
        if found_move is None or found_move[0] < 0:
            return None
        j, win, safety = found_move
        self._last = search
        return EndgameResult(position.coords(cells[j]), win, safety, len(layouts))

    def _compiled(self, layouts: int) -> bool:
        """Whether this search runs on the compiled kernel (:data:`COMPILED_FROM`)."""
        if kernel_in_use(self.kernel) != "numba":
            return False
        return kernel_choice(self.kernel) == "numba" or layouts >= COMPILED_FROM

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
        chosen = last.recall([
            fixed | sum(bit for k, bit in enumerate(moved) if lay >> k & 1) for lay in layouts
        ])
        if chosen is None:
            return None
        j, win, safety = chosen
        if position.cells[last.cells[j]] != COVERED:
            return None
        return EndgameResult(position.coords(last.cells[j]), win, safety, len(layouts))


def best_endgame_move(
    position: Position,
    *,
    max_layouts: int = 400,
    budget: int = 20_000,
    kernel: Kernel | None = None,
) -> EndgameResult | None:
    """The optimal cell to open, when the position has at most ``max_layouts``.

    Returns ``None`` when there are more layouts, or the search exceeds ``budget``
    states, or no cell is left to open.  (:class:`Endgame` does the same over a
    game, reusing its searches.)  ``kernel`` chooses the search's path as for the
    engine (:func:`~minesolver.analysis.kernels.kernel_in_use`); both give the
    same move.
    """
    return Endgame(max_layouts=max_layouts, budget=budget, kernel=kernel).move(position)


def sampled_endgame_move(
    position: Position,
    sample: list[frozenset[int]],
    candidates: dict[int, float],
    *,
    budget: int = 20_000,
) -> EndgameResult | None:
    """The endgame search where there are too many layouts to search them all: the
    game tree is searched over ``sample`` (layouts drawn from the position: sets of
    mine cells, flat indices; repeats count once) as if they were all there were.

    Each of ``candidates`` (flat index: its exact chance of being safe) is valued
    as that chance times its win chance, with perfect play, among the sampled
    layouts where it is safe; the best is returned, with that value as its win
    chance.  The values are estimates, optimistic ones (a layout alone in a sample
    is as good as won).  ``None`` when the search exceeds ``budget`` states or no
    candidate is safe in any sampled layout.

    >>> position = Position.from_text("3x1x1\\nHHH\\n")
    >>> sample = [frozenset({0}), frozenset({1}), frozenset({2})]
    >>> sampled_endgame_move(position, sample, {0: 2 / 3, 1: 2 / 3}).cell
    (0, 0)
    """
    unknown = [i for i, code in enumerate(position.cells) if code == COVERED]
    at = {c: j for j, c in enumerate(unknown)}
    layouts = sorted({sum(1 << at[c] for c in mines if c in at) for mines in sample})
    search = _Search(position, unknown, budget)
    best_cell, best_value, best_safety = -1, -1.0, 0.0
    try:
        for cell, safety in sorted(candidates.items(), key=lambda t: -t[1]):
            if safety <= best_value:
                break  # even winning every branch cannot beat the best so far
            j = at[cell]
            alive = [lay for lay in layouts if not lay >> j & 1]
            if not alive:
                continue
            value = safety * search.after(alive, j) / len(alive)
            if value > best_value:
                best_cell, best_value, best_safety = cell, value, safety
    except BudgetExceeded:
        return None
    if best_cell < 0:
        return None
    return EndgameResult(position.coords(best_cell), best_value, best_safety, len(layouts))


def best_move_over(
    position: Position, cells: list[int], layouts: list[int], *, budget: int = 20_000
) -> EndgameResult | None:
    """The endgame search over a part of the board: ``cells`` (flat indices of
    covered cells) and ``layouts`` (bit ``k`` set when ``cells[k]`` is a mine), as if
    no other cell were unknown; the numbers its cells may show count their mines
    among ``cells``.  Exact for a part nothing outside can tell about
    (:mod:`.regions`).  ``None`` past ``budget`` states, or when no cell is left to
    open or none of ``layouts`` is given.

    >>> position = Position.from_text("3x1x1\\nHHH\\n")
    >>> best_move_over(position, [0, 1], [0b01, 0b10]).win_chance
    0.5
    """
    if not layouts:
        return None
    found = _Search(position, cells, budget).root(layouts)
    if found is None or found[0] < 0:
        return None
    j, win, safety = found
    return EndgameResult(position.coords(cells[j]), win, safety, len(layouts))
