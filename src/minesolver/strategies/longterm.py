"""Long-term 50/50 risk: how often a cell sits in a 50/50 that no clue can ever settle.

Two covered cells side by side, one of them a mine, whose other neighbours (the
cells that touch only one of the two) are all mines or off the board, can never be
told apart by a number: every revealed cell that touches one touches both.  Such a
pair costs a coin flip sooner or later, whoever plays.  The same holds for a 2x2
block holding two mines on a diagonal whose four outer diagonal cells are mines.

Opening a cell that may be part of such a configuration *now* takes that coin flip
early, while a guess elsewhere leaves it waiting.  :func:`fifty_influence` counts, exactly,
the layouts in which the cell is the mine of such a pair or block (JSMinesweeper's
"50/50 influence", re-derived here with the exact engine's counts); the ``best``
strategy's ``fifty`` option turns it into a bonus on the cell's score.

>>> from minesolver.analysis import Engine
>>> from minesolver.position import Position
>>> engine = Engine(Position.from_text("2x2x1\\n1H\\n1H\\n"))
>>> fifty_influence(engine, 1), engine.analysis.solutions
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..analysis import Engine, InconsistentPositionError
from ..codes import BLANK, COVERED, FLAG, MINE

__all__ = ["fifty_influence", "fifty_shape_mask"]

# the pair / block shapes, as (row, col) offsets from the cell that is the mine:
# (partner, the walls: cells touching one of the two only, which must all be mines)
_PAIR_WALLS_H = [(-1, -1), (0, -1), (1, -1), (-1, 2), (0, 2), (1, 2)]  # pair (0,0)-(0,1)
_PAIR_WALLS_V = [(-1, -1), (-1, 0), (-1, 1), (2, -1), (2, 0), (2, 1)]  # pair (0,0)-(1,0)
_BLOCK_WALLS = [(-1, -1), (-1, 2), (2, -1), (2, 2)]  # block (0,0)-(1,1)


def _shapes() -> list[tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]]:
    """Every pair and block holding (0, 0), as (mines, safe cells, walls) offsets
    with (0, 0) among the mines."""
    out = []
    # pairs: (0,0) is either cell of a horizontal or a vertical pair
    for dr, dc, walls in ((0, 1, _PAIR_WALLS_H), (1, 0, _PAIR_WALLS_V)):
        out.append(([(0, 0)], [(dr, dc)], walls))
        out.append(([(0, 0)], [(-dr, -dc)], [(r - dr, c - dc) for r, c in walls]))
    # blocks: (0,0) is any of the four cells; its diagonal partner is the other mine
    for br, bc in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        block = [(br + r, bc + c) for r, c in ((0, 0), (0, 1), (1, 0), (1, 1))]
        mines = [(0, 0), (2 * br + 1, 2 * bc + 1)]
        safe = [cell for cell in block if cell not in mines]
        out.append((mines, safe, [(br + r, bc + c) for r, c in _BLOCK_WALLS]))
    return out


_SHAPES = _shapes()
_PAIRS = 4  # the first four shapes are pairs (summed); the blocks count by their largest


def fifty_influence(engine: Engine, index: int, *, max_unknown_walls: int = 3) -> int:
    """The layouts (of ``engine.analysis.solutions``) in which cell ``index`` is the
    mine of an unresolvable pair, summed over its four pairs, plus the largest such
    count over its four 2x2 blocks; capped at the cell's mine and safe counts.

    Shapes whose walls hold a revealed cell are impossible; shapes needing more than
    ``max_unknown_walls`` walls not yet known to be mines are skipped (too unlikely
    to matter, and each shape costs one hypothesis).
    """
    pairs = 0
    block = 0
    for n, changes in _possible_shapes(engine, index, max_unknown_walls):
        try:
            count = engine.hypothesis(changes).analysis.solutions
        except InconsistentPositionError:
            continue
        if n < _PAIRS:
            pairs += count
        else:
            block = max(block, count)
    analysis = engine.analysis
    mine_count, den = analysis.exact(index)
    total = analysis.solutions
    mine_layouts = total * mine_count // den
    return min(pairs + block, mine_layouts, total - mine_layouts)


def fifty_shape_mask(engine: Engine, *, max_unknown_walls: int = 3) -> np.ndarray:
    """Per flat index: whether the cell has a pair or block that the known cells
    leave possible, so that its :func:`fifty_influence` may be above zero (the same
    shapes, for the whole board at once and without counting their layouts).

    >>> from minesolver.position import Position
    >>> fifty_shape_mask(Engine(Position.from_text("2x2x1\\n1H\\n1H\\n"))).tolist()
    [False, True, False, True]
    >>> fifty_shape_mask(Engine(Position.from_text("3x1x1\\n1HH\\n"))).tolist()  # (0,0): a 1
    [False, False, False]
    """
    position = engine.position
    analysis = engine.analysis
    h, w = position.shape
    codes = np.frombuffer(position.cells, dtype=np.uint8)
    mine = np.zeros(len(codes), dtype=bool)
    mine[analysis.mine_indices] = True  # flags included
    hidden = (codes == COVERED) & analysis.uncertain_mask  # unknown walls too
    mine_or_hidden = mine | hidden  # a wall that is neither can never be a mine
    mines_left = position.mines - int(np.count_nonzero((codes == FLAG) | (codes == MINE)))

    def shifted(mask: np.ndarray, dr: int, dc: int, fill: bool) -> np.ndarray:
        """``out[r, c] = mask[r + dr, c + dc]``, ``fill`` off the board."""
        padded = np.full((h + 4, w + 4), fill, dtype=bool)
        padded[2:-2, 2:-2] = mask.reshape(h, w)
        return padded[2 + dr : 2 + dr + h, 2 + dc : 2 + dc + w]

    out = np.zeros((h, w), dtype=bool)
    for mines, safe, walls in _SHAPES:
        ok = np.ones((h, w), dtype=bool)
        for dr, dc in mines + safe:
            ok &= shifted(hidden, dr, dc, False)
        unknown = np.zeros((h, w), dtype=np.int16)
        for dr, dc in walls:
            ok &= shifted(mine_or_hidden, dr, dc, True)
            unknown += shifted(hidden, dr, dc, False)
        out |= ok & (unknown <= max_unknown_walls) & (unknown + len(mines) <= mines_left)
    return out.ravel()


def _possible_shapes(
    engine: Engine, index: int, max_unknown_walls: int
) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """For each shape of :data:`_SHAPES` holding cell ``index`` as a mine that the
    known cells allow, its number and the changes that make it (its mines and
    walls mines, its other cells safe)."""
    position = engine.position
    analysis = engine.analysis
    cells = position.cells
    w, h = position.width, position.height
    r0, c0 = divmod(index, w)
    mines_left = position.mines - sum(1 for code in cells if code in (FLAG, MINE))

    def at(dr: int, dc: int) -> int | None:
        r, c = r0 + dr, c0 + dc
        return r * w + c if 0 <= r < h and 0 <= c < w else None

    def hidden(j: int | None) -> bool:
        return j is not None and cells[j] == COVERED and analysis.is_uncertain(j)

    def unknown_walls(walls: list[tuple[int, int]]) -> list[int] | None:
        """The walls not yet known to be mines; ``None`` when one cannot be a mine."""
        out = []
        for d in walls:
            j = at(*d)
            if j is None or cells[j] in (FLAG, MINE) or analysis.is_mine(j):
                continue
            if cells[j] != COVERED or analysis.is_safe(j):
                return None
            out.append(j)
        return out

    for n, (mines, safe, walls) in enumerate(_SHAPES):
        mine_cells = [at(*d) for d in mines]
        safe_cells = [at(*d) for d in safe]
        inside = [j for j in mine_cells + safe_cells if j is not None and hidden(j)]
        if len(inside) < len(mine_cells) + len(safe_cells):
            continue
        unknown = unknown_walls(walls)
        if unknown is None or len(unknown) > max_unknown_walls:
            continue
        if len(unknown) + len(mine_cells) > mines_left:
            continue
        changes = [(j, MINE) for j in unknown + inside[: len(mine_cells)]]
        changes += [(j, BLANK) for j in inside[len(mine_cells) :]]
        yield n, changes
