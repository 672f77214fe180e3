"""The floor and the classic naive baselines.

* ``random``: a uniformly random covered cell that is not a proven mine.
* ``max-constraint`` / ``mean-constraint``: open what the trivial and subset rules
  prove safe (in noisy games, where those rules do not hold, what the exact
  posterior proves safe); otherwise estimate each cell's risk from the clues around it, each
  clue spreading the mines it still needs evenly over its covered neighbours, a
  cell's risk being the max (resp. mean) of these shares; cells away from clues
  get the mines left divided by the covered cells left.  The lowest risk is
  opened (seeded random tie-break).  These are the baselines of the early
  CSP-solver literature.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..analysis import Analysis
from ..analysis.deduce import Deductions, deduce
from ..codes import COVERED, FLAG, MINE, is_number
from ..position import Position
from .base import Move, Strategy, register

__all__ = ["MaxConstraint", "MeanConstraint", "RandomStrategy", "fallback_moves"]


def not_proven_mines(position: Position, analysis: Analysis) -> list[tuple[int, int]]:
    """Covered, unflagged cells the exact analysis does not prove to be mines."""
    out = []
    for r, c in position.covered_cells():
        num, den = analysis.exact(r * position.width + c)
        if num != den:
            out.append((r, c))
    return out


@register
class RandomStrategy(Strategy):
    """Open a random covered cell (never a proven mine): the floor."""

    name = "random"
    summary = "a random covered cell that is not a proven mine (the floor)"

    def moves(self, position: Position) -> list[Move]:
        analysis = self.analyze(position)
        self.last_analysis = analysis
        cell = self.choice(not_proven_mines(position, analysis))
        return [Move(cell, reason="guess", probability=float(analysis.prob[cell]))]


def _max(values: list[float]) -> float:
    return max(values)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def cheap_first(strategy: Strategy, position: Position) -> tuple[Analysis, Deductions | Analysis]:
    """The exact analysis (kept to never open a proven mine) and what the cheap
    rules find; in noisy games, where those rules do not hold, the analysis itself."""
    analysis = strategy.analyze(position, remember=True)
    strategy.last_analysis = analysis
    return analysis, (deduce(position) if strategy.noise is None else analysis)


def lowest_guess(
    strategy: Strategy,
    analysis: Analysis,
    allowed: list[tuple[int, int]],
    risk: Callable[[tuple[int, int]], float],
) -> list[Move]:
    """Open the allowed cell with the lowest estimated ``risk`` (seeded tie-break)."""
    best = min(risk(cell) for cell in allowed)
    cell = strategy.choice([c for c in allowed if risk(c) <= best + 1e-12])
    return [Move(cell, reason="guess", probability=float(analysis.prob[cell]))]


class _ConstraintStrategy(Strategy):
    combine: Callable[[list[float]], float]

    def moves(self, position: Position) -> list[Move]:
        analysis, found = cheap_first(self, position)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        risk = naive_risk(position, {r * position.width + c for r, c in found.mines}, self.combine)
        return lowest_guess(self, analysis, not_proven_mines(position, analysis),
                            lambda cell: float(risk[cell]))


def naive_risk(
    position: Position, known_mines: set[int], combine: Callable[[list[float]], float]
) -> np.ndarray:
    """Per-cell naive risk estimate (see the module docstring); shape ``(h, w)``."""
    w, h = position.width, position.height
    cells = position.cells
    grid = position.grid
    table = grid.table()
    shares: dict[int, list[float]] = {}
    for i, code in enumerate(cells):
        if not is_number(code):
            continue
        around = table[i] if table is not None else grid.neighbours(i)
        unknown = [j for j in around if cells[j] == COVERED and j not in known_mines]
        if not unknown:
            continue
        flagged = sum(1 for j in around if cells[j] in (FLAG, MINE) or j in known_mines)
        share = max(0.0, (code - flagged) / len(unknown))
        for j in unknown:
            shares.setdefault(j, []).append(share)
    covered = [i for i, code in enumerate(cells) if code == COVERED and i not in known_mines]
    left = position.mines - position.flag_count - len(known_mines)
    default = left / len(covered) if covered else 0.0
    risk = np.ones(w * h)
    for i in covered:
        risk[i] = combine(shares[i]) if i in shares else default
    return risk.reshape(h, w)


@register
class MaxConstraint(_ConstraintStrategy):
    """Naive baseline: a cell's risk is the largest share among its clues."""

    name = "max-constraint"
    summary = "deductions, else the cell whose largest per-clue mine share is lowest"
    combine = staticmethod(_max)


@register
class MeanConstraint(_ConstraintStrategy):
    """Naive baseline: a cell's risk is the mean share of its clues."""

    name = "mean-constraint"
    summary = "deductions, else the cell whose mean per-clue mine share is lowest"
    combine = staticmethod(_mean)


def fallback_moves(strategy: Strategy, position: Position) -> list[Move]:
    """Moves without the exact engine, for a position whose front is too wide to count
    (:class:`~minesolver.errors.EngineLimitError`): the cheap rules' safe cells (exact
    clues only), else the cell of lowest naive risk (``max-constraint``'s estimate).
    Known mines of the game are never opened.

    >>> from minesolver.strategies import find_strategy
    >>> moves = fallback_moves(find_strategy("best"), Position.from_text("4x2x2\\n1221\\nHHHH\\n"))
    >>> [(m.cell, m.reason) for m in moves]
    [((1, 0), 'deduction'), ((1, 3), 'deduction')]
    """
    known = set(strategy.known_mines)
    if strategy.noise is None:
        found = deduce(position)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        known |= {position.index(r, c) for r, c in found.mines}
    risk = naive_risk(position, known, _max)
    allowed = [
        (r, c) for r, c in position.covered_cells() if position.index(r, c) not in known
    ]
    best = min(float(risk[cell]) for cell in allowed)
    cell = strategy.choice([c for c in allowed if float(risk[c]) <= best + 1e-12])
    return [Move(cell, reason="guess", probability=float(risk[cell]))]
