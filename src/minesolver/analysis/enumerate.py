"""List every layout of a position when there are few (for endgame search).

Layouts are found by backtracking over the unknown cells next to clues, cell by
cell in front order with the clues checked as soon as they close, then the
off-front cells are filled in every way the remaining mine count allows.  The
caller bounds the work with ``limit``: enumeration stops with ``None`` as soon as
more than ``limit`` layouts exist.

>>> from minesolver.position import Position
>>> cells, layouts = enumerate_layouts(Position.from_text("3x1x1\\n1HH\\n"), 10)
>>> cells, layouts
([2, 1], [2])
"""

from __future__ import annotations

from itertools import combinations

from ..position import Position
from .fronts import split_fronts
from .system import build_system

__all__ = ["enumerate_layouts"]


def enumerate_layouts(position: Position, limit: int) -> tuple[list[int], list[int]] | None:
    """All layouts as bitmasks over ``cells`` (the unknown cells, flat indices).

    Returns ``(cells, layouts)`` where bit ``j`` of a layout is set when
    ``cells[j]`` holds a mine, or ``None`` when there are more than ``limit``.
    Cells the trivial rules settle are included with their fixed value.
    """
    system = build_system(position)
    fronts, off_front = split_fronts(system)
    order = [c for f in fronts for box in f.boxes for c in box.cells]
    cells = order + off_front + system.settled_mines + system.settled_safe
    bit = {c: 1 << j for j, c in enumerate(cells)}
    settled = 0
    for c in system.settled_mines:
        settled |= bit[c]
    clues = system.clues
    # for each cell in order, the clues that close when it is assigned
    last_pos: dict[int, int] = {}
    pos_of = {c: j for j, c in enumerate(order)}
    for k, clue in enumerate(clues):
        last_pos[k] = max(pos_of[c] for c in clue.cells)
    closing: list[list[int]] = [[] for _ in order]
    for k, j in last_pos.items():
        closing[j].append(k)
    masks = [sum(bit[c] for c in clue.cells) for clue in clues]
    needs = [clue.need for clue in clues]
    remaining = system.remaining
    n_off = len(off_front)
    open_at: list[list[int]] = [[] for _ in order]
    for k, clue in enumerate(clues):
        for j in range(min(pos_of[c] for c in clue.cells), last_pos[k]):
            open_at[j].append(k)
    front_layouts: list[int] = []

    def dfs(j: int, mask: int, mines: int) -> bool:
        if mines > remaining or mines + (len(order) - j) + n_off < remaining:
            return True
        if j == len(order):
            if remaining - mines <= n_off:
                front_layouts.append(mask)
            return len(front_layouts) <= limit
        c = order[j]
        for value in (0, 1):
            m = mask | bit[c] if value else mask
            fits = all((m & masks[k]).bit_count() == needs[k] for k in closing[j]) and all(
                (m & masks[k]).bit_count() <= needs[k] for k in open_at[j]
            )
            if fits and not dfs(j + 1, m, mines + value):
                return False
        return True

    if not dfs(0, 0, 0):
        return None
    layouts: list[int] = []
    off_bits = [bit[c] for c in off_front]
    for mask in front_layouts:
        left = remaining - mask.bit_count()
        if not 0 <= left <= len(off_front):
            continue
        for chosen in combinations(off_bits, left):
            layouts.append(mask | sum(chosen) | settled)
            if len(layouts) > limit:
                return None
    return cells, layouts
