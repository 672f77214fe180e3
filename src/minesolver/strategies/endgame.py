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
tested equal to, and serves the exact measures (:func:`win_chances` etc.).

Past the exact search's range, :func:`sampled_endgame_move` searches the same game
tree over layouts drawn from the position (``best:sample``): an estimate, and an
optimistic one.  The exact values (:func:`win_chances`, :func:`strategy_win_chance`)
are how such estimates and the heuristics are judged.

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
from ..codes import COVERED, is_marked, is_open
from ..position import Position
from ..rules import Rules
from .base import Strategy

if TYPE_CHECKING:
    from ._compiled_endgame import CompiledSearch

__all__ = [
    "COMPILED_FROM",
    "BudgetExceeded",
    "Endgame",
    "EndgameResult",
    "best_endgame_move",
    "best_move_over",
    "move_win_chance",
    "sampled_endgame_move",
    "strategy_win_chance",
    "win_chances",
    "win_probability",
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
    cells were given up part way, to measure what that saves."""

    def __init__(
        self, position: Position, cells: list[int], budget: int, *, prune: bool = True
    ) -> None:
        grid = position.grid
        self.prune = prune
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
        for n_alive, j, alive in candidates:
            if n_alive / n <= best_w:
                break  # even winning every branch cannot beat the best so far
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


def _all_layouts(position: Position, max_layouts: int) -> tuple[list[int], list[int]]:
    """``enumerate_layouts``, with ``ValueError`` past ``max_layouts``."""
    found = enumerate_layouts(position, max_layouts)
    if found is None:
        raise ValueError(f"more than {max_layouts} layouts")
    return found


def win_probability(position: Position, *, max_layouts: int = 400, budget: int = 200_000) -> float:
    """Exact chance to win from ``position`` with perfect play (tests and reports).

    Raises ``ValueError`` past ``max_layouts`` layouts and :class:`BudgetExceeded`
    past ``budget`` states.

    >>> win_probability(Position.from_text("3x1x1\\nHHH\\n"))
    0.6666666666666666
    """
    best = _chances(position, [], max_layouts, budget, perfect=True)[0]
    assert best is not None
    return best


def move_win_chance(
    position: Position,
    cells: list[tuple[int, int]],
    *,
    max_layouts: int = 400,
    budget: int = 200_000,
) -> list[float]:
    """Exact chance to win by opening each of ``cells`` now and playing perfectly
    after (one search, shared by the cells): how much a move gives away against the
    best one, :func:`win_probability`.

    Raises ``ValueError`` past ``max_layouts`` layouts or for a cell that is not
    covered and unknown, and :class:`BudgetExceeded` past ``budget`` states.

    >>> position = Position.from_text("3x1x1\\n1HH\\n")
    >>> move_win_chance(position, [(0, 1), (0, 2)])
    [0.0, 1.0]
    """
    return _chances(position, cells, max_layouts, budget, perfect=False)[1]


def win_chances(
    position: Position,
    cells: list[tuple[int, int]],
    *,
    max_layouts: int = 400,
    budget: int = 200_000,
) -> tuple[float, list[float]]:
    """:func:`win_probability` and :func:`move_win_chance` from one search, which the
    two share (a move's value is made of the states perfect play meets anyway).

    ``budget`` counts the states of both together.  Raises as the two do.

    >>> position = Position.from_text("3x1x1\\n1HH\\n")
    >>> win_chances(position, [(0, 1), (0, 2)])
    (1.0, [0.0, 1.0])
    """
    best, out = _chances(position, cells, max_layouts, budget, perfect=True)
    assert best is not None
    return best, out


def _chances(
    position: Position, cells: list[tuple[int, int]], max_layouts: int, budget: int,
    *, perfect: bool,
) -> tuple[float | None, list[float]]:
    """Perfect play's chance (``perfect``; else ``None``) and each cell's, from one
    search."""
    unknown, layouts = _all_layouts(position, max_layouts)
    at = {c: j for j, c in enumerate(unknown)}
    picked = []
    for row, col in cells:
        on_board = 0 <= row < position.height and 0 <= col < position.width
        j = at.get(row * position.width + col) if on_board else None
        if j is None or position.cells[unknown[j]] != COVERED:
            raise ValueError(f"cell {(row, col)} is not a covered unknown cell")
        picked.append(j)
    if not layouts:
        return (0.0 if perfect else None), [0.0] * len(picked)
    search = _Search(position, unknown, budget)
    best = search.value(layouts) if perfect else None
    out = []
    for j in picked:
        bit = 1 << j
        alive = [lay for lay in layouts if not lay & bit]
        out.append(search.after(alive, j) / len(layouts))
    return best, out


def strategy_win_chance(
    position: Position,
    strategy: Strategy,
    rules: Rules,
    *,
    seed: int = 0,
    max_layouts: int = 400,
) -> float:
    """Exact chance that ``strategy`` wins from ``position``, every consistent layout
    equally likely: the strategy's game tree is walked over the layouts, one call
    to its ``moves`` per distinct position (after ``new_game(rules, seed)``, so a
    strategy's choice depends on the position alone, as for ``best``).  Zeros
    open their neighbours as in a game; a position where it opens nothing loses.
    Compare :func:`win_probability`, the chance of perfect play.

    Raises ``ValueError`` past ``max_layouts`` layouts.

    >>> from minesolver.strategies import find_strategy
    >>> position = Position.from_text("3x1x1\\nHHH\\n")
    >>> strategy_win_chance(position, find_strategy("best"), Rules(3, 1, 1))
    0.6666666666666666
    """
    unknown, layouts = _all_layouts(position, max_layouts)
    if not layouts:
        return 0.0
    return _Walk(position, unknown, strategy, rules, seed).value(position.cells, layouts)


@dataclass
class _Frame:
    """A position of the walk: its layouts, the positions after its move still to
    value (``None`` before its first visit) and their ``len(layouts) * value`` so far."""

    cells: bytes
    layouts: list[int]
    children: list[tuple[bytes, list[int]]] | None = None
    total: float = 0.0


class _Walk:
    """The game tree of one strategy over a set of layouts (bit masks over the
    unknown cells)."""

    def __init__(
        self, position: Position, unknown: list[int], strategy: Strategy, rules: Rules, seed: int
    ) -> None:
        grid = position.grid
        bit = {c: j for j, c in enumerate(unknown)}
        self.position = position
        self.strategy, self.rules, self.seed = strategy, rules, seed
        self.bit = bit
        marked = {i for i, code in enumerate(position.cells) if is_marked(code)}
        # for every cell: its neighbours among the unknown cells, and its marked mines
        self.around = [sum(1 << bit[n] for n in grid.neighbours(c) if n in bit)
                       for c in range(len(position.cells))]
        self.marked = [sum(n in marked for n in grid.neighbours(c))
                       for c in range(len(position.cells))]
        self.neighbours = grid.neighbours
        self.mines_covered = position.mines - len(marked)  # the walk only opens cells
        self.memo: dict[bytes, float] = {}

    def value(self, cells: bytes, layouts: list[int]) -> float:
        """The chance of winning from ``cells`` over ``layouts``: the tree is walked
        depth first with a stack of its own (a game may last more moves than Python's
        recursion allows)."""
        stack = [_Frame(cells, layouts)]
        while True:
            frame = stack[-1]
            got: float | None = None
            if frame.children is None:  # first visit
                got = self._known(frame.cells)
                if got is None:
                    frame.children = self._children(frame.cells, frame.layouts)
            if got is None:
                if frame.children:
                    stack.append(_Frame(*frame.children.pop()))
                    continue
                got = frame.total / len(frame.layouts)
                self.memo[frame.cells] = got
            stack.pop()
            if not stack:
                return got
            stack[-1].total += len(frame.layouts) * got

    def _known(self, cells: bytes) -> float | None:
        if cells.count(COVERED) == self.mines_covered:
            return 1.0  # every safe cell is open
        return self.memo.get(cells)

    def _children(self, cells: bytes, layouts: list[int]) -> list[tuple[bytes, list[int]]]:
        """The positions after the strategy's move at ``cells`` (none: it opened no
        cell, which loses)."""
        p = self.position
        strategy = self.strategy
        strategy.new_game(self.rules, self.seed)
        w = p.width
        opened = [
            r * w + c
            for (r, c), action in ((m.cell, m.action) for m in strategy.moves(
                Position(p.width, p.height, p.mines, cells)))
            if action == "reveal" and cells[r * w + c] == COVERED
        ]
        return self.open(cells, layouts, list(dict.fromkeys(opened))) if opened else []

    def open(
        self, cells: bytes, layouts: list[int], todo: list[int]
    ) -> list[tuple[bytes, list[int]]]:
        """The positions after opening ``todo`` (and the zeros' neighbours, as a game
        does), each with the layouts that survive and show it."""
        out = []
        work = [(cells, layouts, todo)]
        while work:
            cells, layouts, todo = work.pop()
            mask = 0
            for c in todo:
                mask |= 1 << self.bit[c]
            groups: dict[tuple[int, ...], list[int]] = {}
            for lay in layouts:
                if not lay & mask:
                    key = tuple((lay & self.around[c]).bit_count() for c in todo)
                    groups.setdefault(key, []).append(lay)
            for key, group in groups.items():
                after = bytearray(cells)
                for c, shown in zip(todo, key, strict=True):
                    after[c] = shown + self.marked[c]
                more = list(dict.fromkeys(
                    n for c in todo if after[c] == 0 for n in self.neighbours(c)
                    if after[n] == COVERED
                ))
                if more:
                    work.append((bytes(after), group, more))
                else:
                    out.append((bytes(after), group))
        return out
