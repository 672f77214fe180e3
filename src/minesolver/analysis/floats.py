"""Float mine probabilities of a whole position in one compiled call.

:func:`probabilities` answers what ``analyze(position).prob`` answers, as floats,
without building an :class:`~.engine.Analysis`: with numba installed, one compiled
call (:mod:`._compiled_board`) goes from the board's bytes to the probabilities,
so a caller that needs only the numbers (a hint, a naive strategy, a benchmark
against ms_toollib) pays no Python per clue or per box.  The plain path is the
engine itself, which stays the reference: the tests hold the two equal on the
oracle, the fixtures and generated positions.  The compiled path hands over to the
engine whenever it cannot answer (noisy clues need the engine; a front wider than
15 open clues; a position no layout agrees with, which the engine then names).

The choice follows :func:`~.kernels.kernel_in_use` (``MINESOLVER_KERNELS``).

>>> from minesolver.position import Position
>>> probabilities(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")).round(4).tolist()
[[0.0, 0.6667, 0.0], [0.0, 0.6667, 0.0], [0.0, 0.6667, 0.0]]
>>> probabilities(Position.from_text("3x1x1\\n1HH\\n"), kernel="python").tolist()
[[0.0, 1.0, 0.0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..codes import COVERED, FLAG, MINE
from ..position import Position
from .engine import analyze
from .kernels import Kernel, kernel_in_use

__all__ = ["FloatOutcome", "outcomes", "probabilities"]


def probabilities(position: Position, *, kernel: Kernel | None = None) -> np.ndarray:
    """Mine probability of every cell, shape ``(height, width)``: revealed 0, flagged
    and known mines 1, covered cells their exact probability as a float (within a
    few units in the last place of ``analyze(position).prob``).

    Raises :class:`~.system.InconsistentPositionError` when no layout agrees.

    >>> from minesolver.position import Position
    >>> probabilities(Position.from_text("4x1x1\\n1HHH\\n")).tolist()
    [[0.0, 1.0, 0.0, 0.0]]
    """
    if kernel_in_use(kernel) == "numba":
        from ._compiled_board import OK, board_probabilities

        out, status, _ = board_probabilities(
            position.cells, position.height, position.width, position.mines
        )
        if status == OK:
            shaped: np.ndarray = out.reshape(position.shape)
            return shaped
    return analyze(position).prob


@dataclass(frozen=True)
class FloatOutcome:
    """One number a cell may show when opened: its chance (from the position before:
    the cell is safe *and* shows ``shown``) and the float probabilities after, flat."""

    shown: int
    chance: float
    prob: np.ndarray


def outcomes(
    position: Position, cell: tuple[int, int], *, kernel: Kernel | None = None
) -> list[FloatOutcome] | None:
    """Every number ``cell`` may show, as :meth:`.engine.Engine.outcomes` gives them,
    in floats: one compiled call per number.  ``None`` when the compiled path cannot
    answer one of the positions (numba missing or not chosen, a front too wide): the
    caller then asks the engine.

    A chance is the ratio of two counts of layouts (after and before), each known
    as a float logarithm: within about ``1e-12`` of the engine's fraction on boards
    the size of expert.

    >>> from minesolver.position import Position
    >>> found = outcomes(Position.from_text("3x2x1\\nHHH\\n1HH\\n"), (0, 0), kernel="numba")
    >>> [(o.shown, round(o.chance, 12)) for o in found]
    [(1, 0.666666666667)]
    >>> outcomes(Position.from_text("3x2x1\\nHHH\\n1HH\\n"), (0, 0), kernel="python") is None
    True
    """
    if kernel_in_use(kernel) != "numba":
        return None
    from ._compiled_board import INCONSISTENT, OK, board_probabilities

    h, w, mines = position.height, position.width, position.mines
    before, status, log_before = board_probabilities(position.cells, h, w, mines)
    if status != OK:
        return None
    i = position.index(*cell)
    around = position.grid.neighbours(i)
    cells = position.cells
    known = sum(1 for j in around if cells[j] in (FLAG, MINE))
    unknown = [j for j in around if cells[j] == COVERED]
    # the numbers the cell cannot show: certain mines and certain safe cells around
    mines_around = sum(1 for j in unknown if before[j] > 1.0 - 1e-9)
    safe_around = sum(1 for j in unknown if before[j] < 1e-12)
    out = []
    changed = bytearray(cells)
    for v in range(known + mines_around, known + len(unknown) - safe_around + 1):
        changed[i] = v
        after, status, log_after = board_probabilities(bytes(changed), h, w, mines)
        if status == INCONSISTENT:
            continue
        if status != OK:
            return None
        out.append(FloatOutcome(v, math.exp(log_after - log_before), after))
    return out
