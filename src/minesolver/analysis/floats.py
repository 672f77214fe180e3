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

import numpy as np

from ..position import Position
from .engine import analyze
from .kernels import Kernel, kernel_in_use

__all__ = ["probabilities"]


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

        out, status = board_probabilities(
            position.cells, position.height, position.width, position.mines
        )
        if status == OK:
            shaped: np.ndarray = out.reshape(position.shape)
            return shaped
    return analyze(position).prob
