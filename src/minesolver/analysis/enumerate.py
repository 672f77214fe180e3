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

__all__ = ["clue_layouts", "enumerate_layouts"]


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
    needs = [(clue.need, sum(bit[c] for c in clue.cells)) for clue in system.clues]
    remaining = system.remaining
    n_off = len(off_front)
    # the front's cells are bits 0 .. len(order) - 1; the off-front cells take the rest
    front_layouts = clue_layouts(len(order), needs, limit, mines=(remaining - n_off, remaining))
    if front_layouts is None:
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


def clue_layouts(
    count: int,
    clues: list[tuple[int, int]],
    limit: int,
    *,
    mines: tuple[int, int] | None = None,
) -> list[int] | None:
    """Every way to place mines in ``count`` cells (bit ``k`` for cell ``k``) that
    gives each of ``clues`` (mines needed, mask of its cells) its mines, with a total
    between ``mines`` (low, high) when given; ``None`` past ``limit`` layouts.  Cells
    are placed in bit order, each clue checked at every one of its cells, so cells a
    clue shares should be close in that order.

    >>> [bin(lay) for lay in clue_layouts(3, [(1, 0b011), (1, 0b110)], 10)]
    ['0b10', '0b101']
    """
    low, high = mines if mines is not None else (0, count)
    # for each cell: the clues it counts for, each as (mines needed, its cells' mask,
    # its cells' mask still to place after this one)
    checks: list[list[tuple[int, int, int]]] = [[] for _ in range(count)]
    for need, mask in clues:
        for k in range(mask.bit_length()):
            if mask >> k & 1:
                checks[k].append((need, mask, mask >> (k + 1) << (k + 1)))
    layouts: list[int] = []

    def place(k: int, lay: int, placed: int) -> bool:
        """Extend ``lay`` (cells before ``k`` placed, ``placed`` mines) in every way;
        False past the limit."""
        if placed > high or placed + count - k < low:
            return True
        if k == count:
            layouts.append(lay)
            return len(layouts) <= limit
        for bit in (0, 1 << k):
            now = lay | bit
            fits = all(0 <= need - (now & mask).bit_count() <= rest.bit_count()
                       for need, mask, rest in checks[k])
            if fits and not place(k + 1, now, placed + (bit > 0)):
                return False
        return True

    return layouts if place(0, 0, 0) else None
