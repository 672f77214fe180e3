"""``tank``: the classic exact CSP solver.

Exact probabilities of every cell; open every certainly-safe cell; otherwise
open the cell with the lowest mine probability (seeded random tie-break).

``tank:total=off`` plays without the mine counter: the engine weighs layouts as
if every covered cell were a mine independently with the board's starting
density (:func:`~minesolver.analysis.analyze`'s ``density``), which is what the
total mine count is worth to measure.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..analysis import Analysis
from ..codes import COVERED
from ..position import Position
from ..rules import Rules
from .base import Move, Strategy, register
from .baselines import reported_guess

__all__ = ["Tank", "safest_cells"]


def safest_cells(
    position: Position, analysis: Analysis, slack: float = 1e-12
) -> list[tuple[int, int]]:
    """Covered cells whose mine probability is the lowest (within ``slack``)."""
    covered = np.frombuffer(position.cells, dtype=np.uint8).reshape(position.shape) == COVERED
    prob = np.where(covered, analysis.prob, 2.0)
    best = float(prob.min())
    rows, cols = np.nonzero(prob <= best + slack)
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


@register
class Tank(Strategy):
    """Exact probabilities; open all safe cells, else the least likely mine."""

    name = "tank"
    summary = "exact probabilities: every safe cell, else the lowest mine probability"

    def __init__(self, *, total: bool = True) -> None:
        super().__init__()
        self.total = total

    def new_game(self, rules: Rules, seed: int) -> None:
        super().new_game(rules, seed)
        if not self.total:
            self.density = Fraction(rules.mines, rules.cells)

    def moves(self, position: Position) -> list[Move]:
        analysis = self.analyze(position, remember=True)
        self.last_analysis = analysis
        if analysis.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in analysis.safe]
        cell = self.choice(safest_cells(position, analysis))
        if self.density is not None:
            return [reported_guess(self, position, cell)]
        return [Move(cell, reason="guess", probability=float(analysis.prob[cell]))]
