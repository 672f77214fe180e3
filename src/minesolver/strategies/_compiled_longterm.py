"""The numba shape mask behind :func:`.longterm._shape_mask` (imported only when numba
is installed and :func:`~minesolver.analysis.kernels.kernel_in_use` says so).

The same test as the plain numpy reference, cell by cell instead of mask by mask: the
reference builds about a hundred small whole-board masks per call, which costs more
in numpy's per-call overhead than in arithmetic on a 30x16 board.  The inputs are the
reference's own padded masks (two cells of padding on each side), so the two read the
board identically; the tests hold them equal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["shape_mask"]

MINE_CELL = 0  # a shape's other mine
SAFE_CELL = 1  # a shape's safe cell
WALL_CELL = 2  # a wall: a mine, or a cell that may still be one


@njit(cache=True, nogil=True)
def shape_mask(hidden, inside, wall, unknown, likelier, risk, use_prob,  # type: ignore[no-untyped-def]
               kinds, drs, dcs, starts, mines, limits, mines_left):
    """Per cell of the ``(h, w)`` board: whether any shape ``n`` (its offsets
    ``starts[n]:starts[n + 1]``, kind by kind) fits there; see the reference."""
    h, w = hidden.shape
    out = np.zeros((h, w), dtype=np.bool_)
    for r in range(h):
        for c in range(w):
            if not hidden[r, c]:
                continue
            bar = risk[r, c]
            for n in range(starts.size - 1):
                ok = True
                walls = 0
                for k in range(starts[n], starts[n + 1]):
                    rr = r + 2 + drs[k]
                    cc = c + 2 + dcs[k]
                    kind = kinds[k]
                    if kind == SAFE_CELL:
                        if not inside[rr, cc] or (use_prob and 1.0 - likelier[rr, cc] < bar):
                            ok = False
                            break
                    elif kind == MINE_CELL:
                        if not inside[rr, cc] or (use_prob and likelier[rr, cc] < bar):
                            ok = False
                            break
                    else:
                        if not wall[rr, cc] or (use_prob and likelier[rr, cc] < bar):
                            ok = False
                            break
                        walls += unknown[rr, cc]
                if ok and walls <= limits[n] and walls + mines[n] <= mines_left:
                    out[r, c] = True
                    break
    return out
