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

import contextlib
from collections.abc import Iterator

import numpy as np

from ..analysis import Analysis, Engine, InconsistentPositionError
from ..analysis.kernels import Kernel, kernel_in_use
from ..codes import BLANK, COVERED, FLAG, MINE

__all__ = ["fifty_bound_cells", "fifty_influence", "fifty_shape_mask"]

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


def _shape_table() -> tuple[np.ndarray, ...]:
    """:data:`_SHAPES` as flat arrays for the compiled mask: per offset its kind
    (other mine 0, safe 1, wall 2) and ``(dr, dc)``; per shape where its offsets
    start and how many mines it holds."""
    kinds, drs, dcs, starts = [], [], [], [0]
    for mines, safe, walls in _SHAPES:
        for kind, cells in ((0, mines[1:]), (1, safe), (2, walls)):
            for dr, dc in cells:
                kinds.append(kind)
                drs.append(dr)
                dcs.append(dc)
        starts.append(len(kinds))
    count = [len(mines) for mines, _, _ in _SHAPES]
    return tuple(np.array(a, dtype=np.int64) for a in (kinds, drs, dcs, starts, count))


_TABLE = _shape_table()


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


def fifty_bound_cells(engine: Engine, *, undecided: tuple[int, int] = (1, 2)) -> list[int]:
    """The cells that are a mine only as the mine of one same pair (or, failing any,
    one 2x2 block) of :data:`_SHAPES`: in every layout where the cell is a mine, that
    shape's other cells are safe and its walls mines (JSMinesweeper's test for the
    50/50s it opens before any other guess).  Pairs may have ``undecided[0]`` walls
    not yet known to be mines, blocks ``undecided[1]``: one and two, as there.

    Such a cell, when a mine, sits in a 50/50 no number will settle, so its risk is
    one the game asks for anyway, or so the idea goes.  It is not a proof: when a
    wall is still undecided, the layouts where the cell is safe are not bound to
    anything, and a guess elsewhere can be better (the tests hold a position where
    opening such a cell wins a third less often than perfect play).

    >>> from minesolver.position import Position
    >>> p = Position.from_text("4x3x6\\nHHH2\\n3HHH\\n1HH2\\n")  # a walled pair
    >>> [p.coords(i) for i in fifty_bound_cells(Engine(p))]
    [(1, 1), (2, 1)]
    """
    position = engine.position
    analysis = engine.analysis
    on_front = analysis.front_mask
    hidden = (np.frombuffer(position.cells, np.uint8) == COVERED) & analysis.uncertain_mask
    # no cell of a shape may be likelier to break it than the cell itself is a mine
    # (floats only rule a shape out: the hypotheses decide)
    prob = analysis.prob.ravel()
    looked = _shape_mask(engine, undecided, prob=prob)
    away = np.flatnonzero(hidden & ~on_front).tolist()
    # the uncertain cells away from the clues are interchangeable (swapping two maps
    # layouts to layouts): one hypothesis answers for all of them, and when it leaves
    # the others uncertain, no shape of one with another in it can be bound
    shared = None
    if (looked & ~on_front).any():
        with contextlib.suppress(InconsistentPositionError):
            shared = engine.hypothesis([(away[0], MINE)]).analysis
        if shared is None:
            looked &= on_front
        elif len(away) > 1 and shared.is_uncertain(away[1]):
            looked &= on_front | _shape_mask(engine, undecided, hidden & on_front, prob=prob)
    found: tuple[list[int], list[int]] = ([], [])  # by pairs, by blocks
    for index in np.flatnonzero(looked).tolist():
        swap = index  # the cell whose hypothesis stands for this one
        given: Analysis | None = None
        for n, changes in _possible_shapes(engine, index, max(undecided)):
            pair = n < _PAIRS
            unknown = sum(1 for _, code in changes if code == MINE) - (1 if pair else 2)
            if unknown > undecided[0 if pair else 1]:
                continue
            if given is None:
                if not on_front[index]:
                    swap, given = away[0], shared
                else:
                    try:
                        given = engine.hypothesis([(index, MINE)]).analysis
                    except InconsistentPositionError:
                        break
            assert given is not None
            # what holds for ``swap`` a mine holds for ``index`` with the two swapped
            swapped = {index: swap, swap: index}
            if all(given.is_mine(j) if code == MINE else given.is_safe(j)
                   for j, code in ((swapped.get(k, k), code) for k, code in changes)):
                found[0 if pair else 1].append(index)
                break
    return found[0] or found[1]


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
    return _shape_mask(engine, (max_unknown_walls, max_unknown_walls))


def _shape_mask(
    engine: Engine,
    limits: tuple[int, int],
    others: np.ndarray | None = None,
    *,
    prob: np.ndarray | None = None,
    kernel: Kernel | None = None,
) -> np.ndarray:
    """:func:`fifty_shape_mask` with ``limits`` on the unknown walls of pairs and of
    blocks, and only the cells of ``others`` (by default every uncertain covered
    cell) as a shape's cells other than the one looked at and as its unknown walls.
    With ``prob`` (each cell's mine probability), only shapes whose mines are each
    at least as likely as the cell itself, and whose safe cells as likely safe.
    The compiled kernel runs when :func:`~minesolver.analysis.kernels.kernel_in_use`
    says so (``kernel``); this function's numpy loop is its reference."""
    position = engine.position
    analysis = engine.analysis
    h, w = position.shape
    codes = np.frombuffer(position.cells, dtype=np.uint8)
    mine = np.zeros(len(codes), dtype=bool)
    mine[analysis.mine_indices] = True  # flags included
    hidden = (codes == COVERED) & analysis.uncertain_mask  # unknown walls too
    movable = hidden if others is None else others
    mine_or_movable = mine | movable  # a wall that is neither can never be a mine
    mines_left = position.mines - int(np.count_nonzero((codes == FLAG) | (codes == MINE)))
    risk = np.zeros((h, w)) if prob is None else prob.reshape(h, w) - 1e-9

    def padded(mask: np.ndarray, fill: bool | float) -> np.ndarray:
        out = np.full((h + 4, w + 4), fill, dtype=mask.dtype)
        out[2:-2, 2:-2] = mask.reshape(h, w)
        return out

    # each mask padded once; a shape's offsets are then views, each made once
    inside = padded(movable, False)
    wall = padded(mine_or_movable, True)
    unknown_wall = padded(hidden, False).astype(np.int16)
    likelier = padded(np.zeros(h * w) if prob is None else prob, 1.0)  # off the board: no wall
    if kernel_in_use(kernel) == "numba":
        from ._compiled_longterm import shape_mask

        kinds, drs, dcs, starts, count = _TABLE
        per_shape = np.array([limits[0] if n < _PAIRS else limits[1] for n in range(len(_SHAPES))])
        fits: np.ndarray = shape_mask(hidden.reshape(h, w), inside, wall, unknown_wall,
                                      likelier, risk, prob is not None, kinds, drs, dcs,
                                      starts, count, per_shape, mines_left)
        return fits.ravel()
    made: dict[tuple[str, int, int], np.ndarray] = {}

    def at(kind: str, dr: int, dc: int) -> np.ndarray:
        """Per cell, what the cell ``(dr, dc)`` away allows as a shape's ``kind``."""
        key = (kind, dr, dc)
        if key not in made:
            rows, cols = slice(2 + dr, 2 + dr + h), slice(2 + dc, 2 + dc + w)
            if kind == "unknown":
                made[key] = unknown_wall[rows, cols]
            elif kind in ("mine", "wall"):
                got = (inside if kind == "mine" else wall)[rows, cols]
                if prob is not None:
                    got = got & (likelier[rows, cols] >= risk)
                made[key] = got
            else:  # a safe cell of the shape
                got = inside[rows, cols]
                if prob is not None:
                    got = got & (1.0 - likelier[rows, cols] >= risk)
                made[key] = got
        return made[key]

    out = np.zeros((h, w), dtype=bool)
    for n, (mines, safe, walls) in enumerate(_SHAPES):
        ok = hidden.reshape(h, w).copy()  # mines[0] is (0, 0), the cell itself
        for dr, dc in mines[1:]:
            ok &= at("mine", dr, dc)
        for dr, dc in safe:
            ok &= at("safe", dr, dc)
        unknown = np.zeros((h, w), dtype=np.int16)
        for dr, dc in walls:
            ok &= at("wall", dr, dc)
            unknown += at("unknown", dr, dc)
        limit = limits[0] if n < _PAIRS else limits[1]
        out |= ok & (unknown <= limit) & (unknown + len(mines) <= mines_left)
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
