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

__all__ = [
    "EXACT_ZERO_CELLS",
    "FloatBoard",
    "FloatOutcome",
    "board",
    "certain_safe",
    "outcomes",
    "probabilities",
]

# Up to this many cells a float zero is an exact zero.  Every term the compiled path
# adds is a count of layouts (an integer, at least 1) divided by the factors it
# takes out on the way: each front's largest count (at most 2**front cells) and the
# largest off-front binomial (at most 2**off-front cells), so a term that is not
# zero is at least 2**-cells, and so is a probability that is not zero (at least one
# layout in all of them, at most 2**cells).  2**-1000 is about 1e-301, above the
# smallest normal float64 (2.2e-308): nothing underflows to a false zero.
EXACT_ZERO_CELLS = 1000


def probabilities(position: Position, *, kernel: Kernel | None = None) -> np.ndarray:
    """Mine probability of every cell, shape ``(height, width)``: revealed 0, flagged
    and known mines 1, covered cells their exact probability as a float (within a
    few units in the last place of ``analyze(position).prob``).

    Raises :class:`~.system.InconsistentPositionError` when no layout agrees.

    >>> from minesolver.position import Position
    >>> probabilities(Position.from_text("4x1x1\\n1HHH\\n")).tolist()
    [[0.0, 1.0, 0.0, 0.0]]
    """
    found = board(position, kernel=kernel)
    if found is not None:
        shaped: np.ndarray = found.prob.reshape(position.shape)
        return shaped
    return analyze(position).prob


@dataclass(frozen=True)
class FloatBoard:
    """One compiled call's answer for a position: every cell's float mine
    probability, flat (row-major), and the natural log of its number of layouts."""

    prob: np.ndarray
    log_layouts: float


def board(position: Position, *, kernel: Kernel | None = None) -> FloatBoard | None:
    """The compiled path's answer for ``position``, or ``None`` when it cannot answer
    (numba missing or not chosen, a front too wide, a position no layout agrees
    with): :func:`probabilities` and :func:`outcomes` without the fallback, for a
    caller that asks several questions of one position.

    >>> from minesolver.position import Position
    >>> found = board(Position.from_text("3x1x1\\n1HH\\n"), kernel="numba")
    >>> found.prob.tolist(), round(found.log_layouts, 12)
    ([0.0, 1.0, 0.0], 0.0)
    """
    if kernel_in_use(kernel) != "numba":
        return None
    from ._compiled_board import OK, board_probabilities

    prob, status, log_layouts = board_probabilities(
        position.cells, position.height, position.width, position.mines
    )
    return FloatBoard(prob, log_layouts) if status == OK else None


def certain_safe(
    position: Position, *, kernel: Kernel | None = None, found: FloatBoard | None = None
) -> np.ndarray | None:
    """Flat indices of the covered cells that are certainly safe, ascending, as
    ``analyze(position).safe_indices`` gives them, from one compiled call (or
    ``found``, :func:`board`'s answer for ``position``); ``None`` when the compiled
    path cannot answer or the board has more than :data:`EXACT_ZERO_CELLS` cells: the
    caller then asks the engine.

    Exact, not approximate: on these boards a cell's float probability is zero
    exactly when no layout has a mine there (see :data:`EXACT_ZERO_CELLS`).

    >>> from minesolver.position import Position
    >>> certain_safe(Position.from_text("4x1x1\\n1HHH\\n"), kernel="numba").tolist()
    [2, 3]
    >>> certain_safe(Position.from_text("4x1x1\\n1HHH\\n"), kernel="python") is None
    True
    """
    if len(position.cells) > EXACT_ZERO_CELLS:
        return None
    if found is None:
        found = board(position, kernel=kernel)
        if found is None:
            return None
    covered = np.frombuffer(position.cells, dtype=np.uint8) == COVERED
    safe: np.ndarray = np.flatnonzero(covered & (found.prob == 0.0))
    return safe


@dataclass(frozen=True)
class FloatOutcome:
    """One number a cell may show when opened: its chance (from the position before:
    the cell is safe *and* shows ``shown``) and the float probabilities after, flat."""

    shown: int
    chance: float
    prob: np.ndarray


def outcomes(
    position: Position,
    cell: tuple[int, int],
    *,
    kernel: Kernel | None = None,
    found: FloatBoard | None = None,
) -> list[FloatOutcome] | None:
    """Every number ``cell`` may show, as :meth:`.engine.Engine.outcomes` gives them,
    in floats: one compiled call per number (and one for ``position`` itself unless
    ``found``, :func:`board`'s answer for it, is given).  ``None`` when the compiled path cannot
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

    if found is None:
        found = board(position, kernel="numba")
        if found is None:
            return None
    before, log_before = found.prob, found.log_layouts
    h, w, mines = position.height, position.width, position.mines
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
