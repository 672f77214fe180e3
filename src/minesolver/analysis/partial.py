"""Exact mine probabilities front by front, for a position the engine cannot count whole.

When a front is too wide to count (:class:`~minesolver.errors.EngineLimitError`) the
engine cannot join the fronts through the total mine count, but the other fronts
still count exactly.  Weighed each alone against the density of the mines left
(every unknown cell a mine with probability ``remaining / unknown``, as
``analyze(..., density=...)`` weighs a whole board), each gives its cells' exact
probabilities under that model: the fronts are then independent, so the failing one
changes nothing for the others.  Its cells are left out, for the caller to estimate
some weaker way (:func:`~minesolver.strategies.baselines.fallback_moves`).

>>> from minesolver.position import Position
>>> risks = front_risks(Position.from_text("4x2x2\\n1HH1\\nHHHH\\n"))
>>> risks[(0, 1)], risks[(1, 0)]
(Fraction(1, 3), Fraction(1, 3))
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import EngineLimitError
from ..position import Position
from .counting import count_front
from .fronts import split_fronts
from .joining import density_weights
from .system import SoftClue, build_system

__all__ = ["front_risks"]


def front_risks(
    position: Position, *, soft: SoftClue | None = None, density: Fraction | None = None
) -> dict[tuple[int, int], Fraction]:
    """The exact probability of every unknown cell on a front that can be counted (and
    of the cells the trivial rules settle), each front weighed alone with ``density``
    (default: the mines left over the unknown cells left).  Cells of fronts too wide to
    count, and cells next to no clue, are not in the result.

    Raises :class:`~minesolver.errors.InconsistentPositionError` as the engine does
    when clues contradict each other.
    """
    system = build_system(position, soft=soft)
    w = position.width
    out = {divmod(c, w): Fraction(0) for c in system.settled_safe}
    out.update({divmod(c, w): Fraction(1) for c in system.settled_mines})
    if density is None:
        left = len(system.unknown)
        # out of [0, 1] only for a mine count the clues contradict: keep an estimate
        density = min(Fraction(1), max(Fraction(0), Fraction(system.remaining, left or 1)))
    fronts, _ = split_fronts(system)
    for front in fronts:
        try:
            count = count_front(front)
        except EngineLimitError:
            continue
        g = np.empty(front.size + 1, dtype=object)
        g[:] = density_weights(density, front.size)
        z, nums = count.box_weights(g)
        for box, num in zip(front.boxes, nums, strict=True):
            for c in box.cells:
                out[divmod(c, w)] = Fraction(num, box.size * z)
    return out
