"""``dfs``: a capped depth-first search of the boundary, as the early solvers did it.

Deductions first (the trivial and subset rules).  Otherwise the covered cells
next to a number (the *boundary*) are given values one after another, depth
first, safe before mine, undoing a choice as soon as a number around it can no
longer be met; every complete assignment that leaves a feasible number of mines
for the other covered cells is a *solution*.  The search stops after ``cap``
solutions.  Each solution with ``k`` boundary mines weighs
``comb(cells off the boundary, mines left - k)``, as in exact counting, so a cap
above the number of solutions gives ``tank``'s exact probabilities (and its
deductions); below it the estimate is biased: the cells searched first keep the
value they were given first (safe) in every solution found.

The order is a breadth-first walk of the boundary (cells sharing a number are
neighbours) from a start cell that rotates: ``rotate=on`` (the default) starts
each search at a seeded random boundary cell, so the bias falls on different
cells from move to move; ``rotate=off`` always starts at the first boundary cell
in row-major order.  The lowest estimate is opened (seeded tie-break); a capped
search's estimate of 0 is not a proof, so such a move is a ``guess``, reported
with its exact risk (the engine is asked after the choice, never before).

>>> from minesolver.position import Position
>>> s = DepthFirst(cap=10)
>>> est, complete = s.estimate(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n"))
>>> complete, round(est[4], 4), est[0]
(True, 0.6667, 0.0)
"""

from __future__ import annotations

from math import comb
from typing import Annotated

from ..analysis.deduce import deduce
from ..analysis.system import build_system
from ..options import Range
from ..position import Position
from ..rules import Rules
from .base import Move, Strategy, StrategyError, register
from .baselines import reported_guess

__all__ = ["DepthFirst"]


@register
class DepthFirst(Strategy):
    """Deductions, else mine frequencies over the first ``cap`` boundary solutions."""

    name = "dfs"
    summary = "deductions, else frequencies over the first cap boundary solutions found depth first"

    def __init__(
        self, *, cap: Annotated[int, Range(1, 10**9)] = 1000, rotate: bool = True
    ) -> None:
        super().__init__()
        self.cap = cap
        self.rotate = rotate

    def new_game(self, rules: Rules, seed: int) -> None:
        if rules.noise is not None:
            raise StrategyError("dfs enumerates exact clues: it cannot play noisy games")
        super().new_game(rules, seed)

    def estimate(self, position: Position) -> tuple[dict[int, float], bool]:
        """Estimated mine probability of every unknown covered cell (flat index),
        and whether the search was complete (then the figures are exact)."""
        system = build_system(position)
        est: dict[int, float] = dict.fromkeys(system.settled_safe, 0.0)
        est.update(dict.fromkeys(system.settled_mines, 1.0))
        clues = [(c.cells, c.need) for c in system.clues]
        cell_clues: dict[int, list[int]] = {}
        for k, (cells, _) in enumerate(clues):
            for c in cells:
                cell_clues.setdefault(c, []).append(k)
        order = self._order(sorted(cell_clues), cell_clues, clues)
        boundary = set(order)
        off = [c for c in system.unknown if c not in boundary]
        remaining = system.remaining
        need = [n for _, n in clues]
        free = [len(cells) for cells, _ in clues]
        value = [0] * len(order)
        weight_of = {k: comb(len(off), remaining - k) for k in range(remaining + 1)}
        hits = dict.fromkeys(order, 0)
        total = 0
        off_mines = 0
        found = 0
        mines = 0
        # iterative depth-first search: ``tried[d]`` is how many values depth d has tried
        tried = [0] * (len(order) + 1)
        depth = 0
        complete = True
        while depth >= 0:
            if depth == len(order):
                w = weight_of.get(mines, 0) if remaining - mines <= len(off) else 0
                if w:
                    total += w
                    off_mines += w * (remaining - mines)
                    for d, cell in enumerate(order):
                        if value[d]:
                            hits[cell] += w
                    found += 1
                    if found >= self.cap:
                        complete = False
                        break
                depth -= 1
                continue
            cell = order[depth]
            if tried[depth]:  # undo the value tried last at this depth
                for k in cell_clues[cell]:
                    free[k] += 1
                    need[k] += value[depth]
                mines -= value[depth]
            if tried[depth] == 2:
                tried[depth] = 0
                depth -= 1
                continue
            v = tried[depth]  # 0 (safe) first, then 1 (mine)
            tried[depth] += 1
            value[depth] = v
            mines += v
            for k in cell_clues[cell]:
                free[k] -= 1
                need[k] -= v
            if mines <= remaining and all(
                0 <= need[k] <= free[k] for k in cell_clues[cell]
            ):
                depth += 1
        if total == 0:  # unreachable for a real position: the true layout is a solution
            raise StrategyError("dfs found no layout that agrees with the position")
        for cell in order:
            est[cell] = hits[cell] / total
        if off:
            share = off_mines / (total * len(off))
            est.update(dict.fromkeys(off, share))
        return est, complete

    def _order(
        self, cells: list[int], cell_clues: dict[int, list[int]],
        clues: list[tuple[list[int], int]],
    ) -> list[int]:
        """A breadth-first walk of the boundary from a (rotating) start cell."""
        if not cells:
            return []
        first = self.rng.below(len(cells)) if self.rotate else 0
        starts = cells[first:] + cells[:first]
        seen: set[int] = set()
        order: list[int] = []
        for start in starts:
            if start in seen:
                continue
            seen.add(start)
            queue = [start]
            while queue:
                cell = queue.pop(0)
                order.append(cell)
                for k in cell_clues[cell]:
                    for other in clues[k][0]:
                        if other not in seen:
                            seen.add(other)
                            queue.append(other)
        return order

    def moves(self, position: Position) -> list[Move]:
        found = deduce(position)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        est, complete = self.estimate(position)
        w = position.width
        if complete:
            safe = sorted(divmod(i, w) for i, p in est.items() if p == 0.0)
            if safe:
                return [Move(cell, reason="deduction", probability=0.0) for cell in safe]
        best = min(est.values())
        cell = self.choice(sorted(divmod(i, w) for i, p in est.items() if p <= best + 1e-12))
        return [reported_guess(self, position, cell)]
