"""``tank``: the classic exact CSP solver.

Exact probabilities of every cell; open every certainly-safe cell; otherwise
open the cell with the lowest mine probability (seeded random tie-break).
"""

from __future__ import annotations

import numpy as np

from ..analysis import Analysis
from ..codes import COVERED
from ..position import Position
from .base import Move, Strategy, register

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

    def moves(self, position: Position) -> list[Move]:
        analysis = self.analyze(position, remember=True)
        self.last_analysis = analysis
        if analysis.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in analysis.safe]
        cell = self.choice(safest_cells(position, analysis))
        return [Move(cell, reason="guess", probability=float(analysis.prob[cell]))]
