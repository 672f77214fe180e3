"""The board's geometry: flat indices, neighbours, floods and neighbour counts.

Coordinates are ``(row, col)`` from the top-left corner; a flat index is
``row * width + col``.  :class:`Grid` is the one home for everything that only
depends on the board's size; each operation is a thin typed wrapper around one
small fast kernel (a neighbour table, a breadth-first flood, a numpy sum of
shifted masks).

Neighbour tables are cached, the cache bounded by the cells it holds (not by
the number of boards), so a server that sees many board sizes keeps flat
memory; boards too large for the cache compute neighbours on the fly.

>>> g = Grid(3, 2)
>>> g.neighbours(0), g.coords(5), g.index(1, 2)
((1, 3, 4), (1, 2), 5)
>>> g.index(2, 0)
Traceback (most recent call last):
...
minesolver.errors.OffBoardError: cell (2, 0) is off the 3x2 board
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence

import numpy as np

from .errors import InputError, OffBoardError

__all__ = ["TABLE_CELLS", "Grid", "neighbour_sum"]

# The neighbour tables kept at once hold at most this many cells in total (a table
# costs about 360 bytes a cell: 200x200 is 14 MB).
TABLE_CELLS = 160_000

_OFFSETS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)

Table = tuple[tuple[int, ...], ...]


class Grid:
    """A ``width`` x ``height`` board's geometry.  Immutable.

    >>> Grid(2, 2).neighbour_counts(np.array([1, 0, 0, 0], dtype=np.uint8)).tolist()
    [0, 1, 1, 1]
    """

    __slots__ = ("cells", "height", "width")

    def __init__(self, width: int, height: int) -> None:
        if width < 1 or height < 1:
            raise InputError(f"board size must be positive, got {width}x{height}")
        self.width = width
        self.height = height
        self.cells = width * height

    def __repr__(self) -> str:
        return f"Grid({self.width}, {self.height})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and (self.width, self.height) == (
            other.width,
            other.height,
        )

    def __hash__(self) -> int:
        return hash((self.width, self.height))

    # ------------------------------------------------------------------ cells
    def contains(self, row: int, col: int) -> bool:
        """True when ``(row, col)`` is on the board."""
        return 0 <= row < self.height and 0 <= col < self.width

    def index(self, row: int, col: int) -> int:
        """Flat index of ``(row, col)``; :class:`OffBoardError` off the board."""
        if not (
            isinstance(row, int | np.integer)
            and isinstance(col, int | np.integer)
            and 0 <= row < self.height
            and 0 <= col < self.width
        ):
            raise OffBoardError(
                f"cell ({row}, {col}) is off the {self.width}x{self.height} board"
            )
        return int(row) * self.width + int(col)

    def coords(self, index: int) -> tuple[int, int]:
        """``(row, col)`` of a flat index."""
        return divmod(index, self.width)

    def coords_of(self, indices: Iterable[int]) -> list[tuple[int, int]]:
        """``(row, col)`` of each flat index."""
        w = self.width
        return [divmod(int(i), w) for i in indices]

    # ------------------------------------------------------------------ neighbours
    def table(self) -> Table | None:
        """Neighbour tuples of every cell (cached), or ``None`` on boards too large
        for the cache."""
        return _table(self.width, self.height)

    def neighbours(self, index: int) -> tuple[int, ...]:
        """Flat indices of the (up to 8) cells around ``index``, in row-major order."""
        table = _table(self.width, self.height)
        if table is not None:
            return table[index]
        return self._around(index)

    def neighbour_rows(self, indices: Sequence[int]) -> list[tuple[int, ...]]:
        """:meth:`neighbours` of each of ``indices``, found together (a board too big
        for the table then costs a few array operations, not a loop per cell).

        >>> Grid(3, 2).neighbour_rows([0, 4])
        [(1, 3, 4), (0, 1, 2, 3, 5)]
        """
        table = _table(self.width, self.height)
        if table is not None:
            return [table[i] for i in indices]
        rows = self.neighbour_array(indices)
        cut = np.any(rows < 0, axis=1)
        edge: list[bool] = cut.tolist()
        return [
            tuple(j for j in row if j >= 0) if on_edge else tuple(row)
            for row, on_edge in zip(rows.tolist(), edge, strict=True)
        ]

    def neighbour_array(self, indices: Sequence[int] | np.ndarray) -> np.ndarray:
        """The cells around each of ``indices`` as rows of 8, in row-major order, ``-1``
        where a neighbour would be off the board.

        >>> Grid(3, 2).neighbour_array([0]).tolist()
        [[-1, -1, -1, -1, 1, -1, 3, 4]]
        """
        w, h = self.width, self.height
        at = np.asarray(indices, dtype=np.int64).reshape(-1)
        r, c = np.divmod(at, w)
        dr = np.array([-1, -1, -1, 0, 0, 1, 1, 1])
        dc = np.array([-1, 0, 1, -1, 1, -1, 0, 1])
        rr, cc = r[:, None] + dr, c[:, None] + dc
        off = (rr < 0) | (rr >= h) | (cc < 0) | (cc >= w)
        out: np.ndarray = np.where(off, -1, at[:, None] + dr * w + dc)
        return out

    def _around(self, index: int) -> tuple[int, ...]:
        w, h = self.width, self.height
        r, c = divmod(index, w)
        if 0 < r < h - 1 and 0 < c < w - 1:  # most cells of a big board: no edge to cut
            up, down = index - w, index + w
            return (up - 1, up, up + 1, index - 1, index + 1, down - 1, down, down + 1)
        lo, hi = (c - 1 if c else 0), (c + 2 if c + 1 < w else w)
        return tuple(
            j
            for rr in range(r - 1 if r else 0, r + 2 if r + 1 < h else h)
            for j in range(rr * w + lo, rr * w + hi)
            if j != index
        )

    def degree(self, index: int) -> int:
        """How many neighbours ``index`` has (3 in a corner, 5 on an edge, else 8)."""
        r, c = divmod(index, self.width)
        rows = 1 + (r > 0) + (r + 1 < self.height)
        cols = 1 + (c > 0) + (c + 1 < self.width)
        return rows * cols - 1

    def square(self, index: int, radius: int) -> list[int]:
        """Flat indices of the ``(2 radius + 1)``-wide square centred on ``index``,
        clipped at the edges, row-major.

        >>> Grid(4, 4).square(0, 2)
        [0, 1, 2, 4, 5, 6, 8, 9, 10]
        """
        w, h = self.width, self.height
        row, col = divmod(index, w)
        return [
            r * w + c
            for r in range(max(0, row - radius), min(h, row + radius + 1))
            for c in range(max(0, col - radius), min(w, col + radius + 1))
        ]

    # ------------------------------------------------------------------ kernels
    def neighbour_counts(self, mask: np.ndarray | bytes | bytearray) -> np.ndarray:
        """For every cell, how many of its neighbours are set in ``mask`` (flat,
        one value per cell); returns a flat ``uint8`` array."""
        flat = np.frombuffer(mask, dtype=np.uint8) if isinstance(mask, bytes | bytearray) else mask
        grid = np.asarray(flat).reshape(self.height, self.width)
        return neighbour_sum(grid).astype(np.uint8).ravel()

    def flood(
        self,
        start: int,
        zero: Sequence[int] | bytes,
        state: bytearray,
        opened: list[int],
        *,
        closed: int = 0,
        value: int = 1,
    ) -> None:
        """Open what a zero at ``start`` reaches, breadth first, neighbours in row-major
        order: every neighbour whose ``state`` is ``closed`` becomes ``value`` and is
        appended to ``opened``; those with a true ``zero`` flood on.

        ``start`` itself must be open already.

        >>> state = bytearray([1, 0, 0, 0])
        >>> opened = []
        >>> Grid(4, 1).flood(0, b"\\x01\\x01\\x00\\x00", state, opened)
        >>> opened, list(state)
        ([1, 2], [1, 1, 1, 0])
        """
        table = _table(self.width, self.height)
        around = table.__getitem__ if table is not None else self._around
        queue = deque([start])
        pop, push = queue.popleft, queue.append
        while queue:
            for j in around(pop()):
                if state[j] == closed:
                    state[j] = value
                    opened.append(j)
                    if zero[j]:
                        push(j)

    def components(self, members: np.ndarray) -> tuple[np.ndarray, int]:
        """Label the 8-connected components of the cells set in ``members`` (flat).

        Returns ``(labels, count)``: ``labels[i]`` is 1..count for members, 0 otherwise.

        >>> labels, n = Grid(4, 1).components(np.array([1, 0, 1, 1], dtype=bool))
        >>> labels.tolist(), n
        ([1, 0, 2, 2], 2)
        """
        labels = np.zeros(self.cells, dtype=np.int64)
        member = np.asarray(members, dtype=bool).ravel().tolist()
        out = labels.tolist()
        count = 0
        for i in range(self.cells):
            if not member[i] or out[i]:
                continue
            count += 1
            out[i] = count
            stack = [i]
            while stack:
                for j in self.neighbours(stack.pop()):
                    if member[j] and not out[j]:
                        out[j] = count
                        stack.append(j)
        return np.array(out, dtype=np.int64), count


def neighbour_sum(mask: np.ndarray) -> np.ndarray:
    """For every cell of a 2-D ``mask``, the sum of its 8 neighbours (``int16``)."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), dtype=np.int16)
    padded[1:-1, 1:-1] = mask
    total = np.zeros((h, w), dtype=np.int16)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                total += padded[dr : dr + h, dc : dc + w]
    return total


# ---------------------------------------------------------------------- the table cache
_TABLES: OrderedDict[tuple[int, int], Table] = OrderedDict()
_TABLES_LOCK = threading.Lock()


def _table(width: int, height: int) -> Table | None:
    key = (width, height)
    table = _TABLES.get(key)
    if table is not None:
        return table
    cells = width * height
    if cells > TABLE_CELLS:
        return None
    table = _build(width, height)
    with _TABLES_LOCK:
        _TABLES[key] = table
        held = sum(w * h for w, h in _TABLES)
        while held > TABLE_CELLS:
            (w, h), _ = _TABLES.popitem(last=False)
            held -= w * h
    return table


def cached_cells() -> int:
    """Cells held by the cached neighbour tables now (at most :data:`TABLE_CELLS`)."""
    return sum(w * h for w, h in list(_TABLES))


def _build(width: int, height: int) -> Table:
    """Every cell's neighbour tuple, built with numpy (40,000 cells in ~50 ms)."""
    rows = np.repeat(np.arange(height), width)
    cols = np.tile(np.arange(width), height)
    columns = []
    for dr, dc in _OFFSETS:
        r, c = rows + dr, cols + dc
        inside = (r >= 0) & (r < height) & (c >= 0) & (c < width)
        columns.append(np.where(inside, r * width + c, -1))
    around = np.stack(columns, axis=1)
    full = np.all(around >= 0, axis=1).tolist()
    return tuple(
        tuple(row) if whole else tuple(j for j in row if j >= 0)
        for row, whole in zip(around.tolist(), full, strict=True)
    )
