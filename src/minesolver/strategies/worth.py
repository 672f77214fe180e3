"""Exact worth: the chance to win from a position, after a move, or with a strategy's play.

Every layout consistent with the position is equally likely; the chances are
exact (up to float rounding of the final ratio), by the endgame search's game
tree (:class:`.endgame._Search`) over all of them:

* :func:`win_probability`: perfect play from the position;
* :func:`move_win_chance`: opening a given cell now, then perfect play: how much a
  move gives away against the best one;
* :func:`win_chances`: both from one search (``minesolver review`` uses it);
* :func:`strategy_win_chance`: any strategy's own play, its game tree walked over
  every layout.

They judge the heuristics and the estimates of the sampled search
(``benchmarks/endgame_worth.py``) and power the review of a played game; they are
for positions of a few hundred to a few thousand layouts.

>>> from minesolver.position import Position
>>> win_probability(Position.from_text("3x1x1\\nHHH\\n"))
0.6666666666666666
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.enumerate import enumerate_layouts
from ..codes import COVERED, is_marked
from ..position import Position
from ..rules import Rules
from .base import Strategy
from .endgame import _Search

__all__ = ["move_win_chance", "strategy_win_chance", "win_chances", "win_probability"]


def _all_layouts(position: Position, max_layouts: int) -> tuple[list[int], list[int]]:
    """``enumerate_layouts``, with ``ValueError`` past ``max_layouts``."""
    found = enumerate_layouts(position, max_layouts)
    if found is None:
        raise ValueError(f"more than {max_layouts} layouts")
    return found


def win_probability(position: Position, *, max_layouts: int = 400, budget: int = 200_000) -> float:
    """Exact chance to win from ``position`` with perfect play (tests and reports).

    Raises ``ValueError`` past ``max_layouts`` layouts and :class:`.endgame.BudgetExceeded`
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
    covered and unknown, and :class:`.endgame.BudgetExceeded` past ``budget`` states.

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
