"""``sampling``: probabilities estimated from sampled layouts instead of counted.

Deductions first (the trivial and subset rules, which are exact but
incomplete); otherwise the mine probability of each covered cell is estimated
as the share of sampled layouts that put a mine there, and the lowest estimate
is opened.  Two samplers:

* ``method=front`` (default): exact per-front sampling
  (:func:`~minesolver.analysis.sampling.sample_layouts`), ``samples`` draws;
* ``method=reject``: rejection sampling of whole boards, at most
  ``samples * 10`` proposals; when none is accepted (the usual case once a few
  clues show on expert) the estimate falls back to the naive mines-left share.
  Noisy games always use the exact sampler (rejection would need weights).

This strategy exists to measure what estimating costs against exact counting.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated

from ..analysis.sampling import rejection_layouts, sample_layouts
from ..codes import COVERED
from ..options import Range
from ..position import Position
from .base import Move, Strategy, StrategyError, register
from .baselines import cheap_first, lowest_guess, not_proven_mines

__all__ = ["Sampling"]


@register
class Sampling(Strategy):
    """Deductions, then the cell least often a mine in sampled layouts."""

    name = "sampling"
    summary = "deductions, else the lowest mine frequency over sampled layouts"

    def __init__(
        self, *, method: str = "front", samples: Annotated[int, Range(1, 100_000)] = 200
    ) -> None:
        super().__init__()
        if method not in ("front", "reject"):
            raise StrategyError(f"sampling method must be front or reject, not {method!r}")
        if samples < 1:
            raise StrategyError(f"samples must be positive, got {samples}")
        self.method = method
        self.samples = samples

    def moves(self, position: Position) -> list[Move]:
        analysis, found = cheap_first(self, position)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        known = {r * position.width + c for r, c in found.mines}
        if self.method == "front" or self.noise is not None:
            layouts = sample_layouts(position, self.samples, self.rng, soft=self.soft)
        else:
            layouts, _ = rejection_layouts(position, self.samples * 10, self.rng,
                                           want=self.samples)
        w = position.width
        covered = [i for i, code in enumerate(position.cells) if code == COVERED and i not in known]
        if layouts:
            hits = Counter(c for layout in layouts for c in layout)
            estimate = {i: hits[i] / len(layouts) for i in covered}
        else:
            left = position.mines_left - len(known)
            estimate = {i: left / len(covered) for i in covered}
        return lowest_guess(self, analysis, not_proven_mines(position, analysis),
                            lambda cell: estimate[cell[0] * w + cell[1]])
