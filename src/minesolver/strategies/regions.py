"""Closed regions: covered cells nothing outside them can ever tell about, solved exactly.

A set ``R`` of uncertain covered cells is *closed* when every covered cell next to
one of them is in ``R`` or a certain mine, and every number next to one of them has
all its uncertain neighbours in ``R``.  Nothing opened outside ``R`` can then show a
number that counts a cell of ``R``, and no clue ties a cell outside to one inside.
When, moreover, every way the numbers around ``R`` allow puts the same number of
mines in ``R``, the two parts are independent: every layout of ``R`` goes with the
same layouts of the rest (as many mines are left for it whichever).  ``R`` is then
a small game of its own that must be won to win, on which nothing done elsewhere
has any bearing: the chance of winning the whole game with perfect play is the
chance of winning ``R`` times that of winning the rest, and the best first move of
``R`` alone (the exact endgame search over ``R``'s own layouts, few however large
the board) is a best move of the whole game.

A region is a connected component of the uncertain cells, two cells joined when
they touch or share a number; a component is closed unless a certainly safe cell
touches it (``best`` opens those before it guesses).  A component is solved when it
has at most ``max_cells`` cells and ``max_layouts`` layouts and its search stays
within ``budget`` states; those larger are left to the rest of ``best``.

``best:regions=on`` plays such regions first.  Off by default: on 100,000 paired
expert boards it changed 75 outcomes, 37 for the better (``docs/benchmarks.md``).

>>> from minesolver.analysis import analyze
>>> p = Position.from_text("6x4x10\\nH3HH20\\nHHHH41\\n14HHHH\\n02HH31\\n")
>>> region = closed_regions(p, analyze(p))[0]  # two mines among four cells top left
>>> [p.coords(i) for i in region.cells], len(region.layouts), region.mines
([(0, 0), (0, 2), (1, 0), (1, 1)], 4, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..analysis import Analysis
from ..analysis.enumerate import clue_layouts
from ..codes import COVERED, is_number
from ..geometry import neighbour_sum
from ..position import Position
from .endgame import EndgameResult, best_move_over

__all__ = ["Region", "RegionMove", "closed_regions", "region_move"]

# a region this small is searched at once in plain Python (a few thousand states at
# most); larger components are the open board, where the rest of ``best`` plays
MAX_CELLS = 24
MAX_LAYOUTS = 500
BUDGET = 50_000


@dataclass(frozen=True)
class Region:
    """A closed region: its cells (flat indices), its layouts (bit ``k`` set when
    ``cells[k]`` is a mine; every layout the numbers around it allow) and the
    number of mines every one of them holds."""

    cells: tuple[int, ...]
    layouts: tuple[int, ...]
    mines: int


@dataclass(frozen=True)
class RegionMove:
    """The best cell to open in a closed region: the region, the exact search's
    answer (``result.win_chance``: the chance of winning the region)."""

    region: Region
    result: EndgameResult


def closed_regions(
    position: Position,
    analysis: Analysis,
    *,
    max_cells: int = MAX_CELLS,
    max_layouts: int = MAX_LAYOUTS,
) -> list[Region]:
    """Every closed region of at most ``max_cells`` cells and ``max_layouts`` layouts
    whose layouts all hold the same number of mines (see the module's docstring), in
    the order of their first cell next to a number, row-major.

    ``position`` must read with exact numbers (no noise)."""
    cells = position.cells
    around = position.grid.neighbours
    grid = np.frombuffer(cells, dtype=np.uint8).reshape(position.shape)
    unsure = analysis.uncertain_mask.reshape(position.shape) & (grid == COVERED)
    starts = np.flatnonzero(unsure & (neighbour_sum(grid <= 8) > 0)).tolist()
    flat = unsure.ravel()
    seen: set[int] = set()
    out = []
    for start in starts:
        if start in seen:
            continue
        found = _component(start, cells, flat, around, analysis.is_mine, max_cells)
        seen.update(found[0])
        if found[1]:
            region = _region(found[0], cells, around, analysis.is_mine, max_layouts)
            if region is not None:
                out.append(region)
    return out


def region_move(
    position: Position,
    analysis: Analysis,
    *,
    max_cells: int = MAX_CELLS,
    max_layouts: int = MAX_LAYOUTS,
    budget: int = BUDGET,
) -> RegionMove | None:
    """The best first move of the first closed region that can be searched, or
    ``None`` when there is none.  Any closed region will do: each must be won, and
    the order they are played in changes no chance.

    >>> from minesolver.analysis import analyze
    >>> p = Position.from_text("6x4x10\\nH3HH20\\nHHHH41\\n14HHHH\\n02HH31\\n")
    >>> found = region_move(p, analyze(p))  # (0,0) would win the region 1 time in 4
    >>> found.result.cell, found.result.win_chance
    ((0, 2), 0.5)
    """
    for region in closed_regions(position, analysis, max_cells=max_cells,
                                 max_layouts=max_layouts):
        result = best_move_over(position, list(region.cells), list(region.layouts),
                                budget=budget)
        if result is not None:
            return RegionMove(region, result)
    return None


def _component(
    start: int,
    cells: bytes,
    unsure: np.ndarray,
    around: Callable[[int], tuple[int, ...]],
    is_mine: Callable[[int], bool],
    max_cells: int,
) -> tuple[list[int], bool]:
    """The uncertain cells joined to ``start`` (touching, or sharing a number), and
    whether they are a closed region of at most ``max_cells``; the walk stops early
    (the cells found so far, ``False``) past ``max_cells`` or at a safe cell."""
    found = [start]
    member = {start}
    k = 0
    while k < len(found):
        x = found[k]
        k += 1
        for y in around(x):
            code = cells[y]
            if is_number(code):
                joined = [z for z in around(y) if unsure[z] and z not in member]
            elif code == COVERED and not unsure[y]:
                if not is_mine(y):
                    return found, False  # a certainly safe cell would show a number
                continue
            elif code == COVERED and y not in member:
                joined = [y]
            else:
                continue
            for z in joined:
                member.add(z)
                found.append(z)
            if len(found) > max_cells:
                return found, False
    return found, True


def _region(
    found: list[int],
    cells: bytes,
    around: Callable[[int], tuple[int, ...]],
    is_mine: Callable[[int], bool],
    max_layouts: int,
) -> Region | None:
    """The region of the closed component ``found`` with its layouts, or ``None``
    when they are more than ``max_layouts`` or hold different numbers of mines."""
    at = {c: k for k, c in enumerate(found)}
    # each number next to the region: the mines it still needs among the region's cells
    clues: dict[int, tuple[int, int]] = {}
    for x in found:
        for y in around(x):
            if is_number(cells[y]) and y not in clues:
                need = cells[y] - sum(1 for z in around(y) if is_mine(z))
                clues[y] = (need, sum(1 << at[z] for z in around(y) if z in at))
    layouts = clue_layouts(len(found), list(clues.values()), max_layouts)
    if not layouts:
        return None
    mines = {lay.bit_count() for lay in layouts}
    if len(mines) != 1:
        return None
    return Region(tuple(found), tuple(layouts), mines.pop())
