"""The minefield under every game: a mine layout, its numbers, and which cells are open.

* :class:`Layout` is a value: the board size and where the mines are, with what
  follows from that alone (the numbers, the openings, the 3BV).
* :class:`Minefield` is a laid board being played: each cell hidden, open or
  flagged; opening a safe cell floods from zeros.  Both :class:`~minesolver.game.Game`
  and Minesweeper Flags' game are built on it.

>>> layout = Layout(3, 1, (2,))
>>> layout.counts.tolist(), layout.bbbv()
([0, 1, 0], 1)
>>> field = Minefield(layout)
>>> field.open(0)
[0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from operator import lt

import numpy as np

from .errors import InputError, OffBoardError, is_whole, make_whole
from .geometry import Grid, neighbour_sum

__all__ = ["FLAGGED", "HIDDEN", "OPEN", "Layout", "Minefield"]

HIDDEN, OPEN, FLAGGED = 0, 1, 2


@dataclass(frozen=True)
class Layout:
    """A mine layout: board size and the flat indices of its mines (sorted).

    >>> Layout.from_cells(3, 2, [(1, 2), (0, 0)]).mines
    (0, 5)
    """

    width: int
    height: int
    mines: tuple[int, ...]

    def __post_init__(self) -> None:
        make_whole(self, ("width", "height"), InputError, "the layout's ")
        if self.width < 1 or self.height < 1:
            raise InputError(f"board size must be positive, got {self.width}x{self.height}")
        # a value: a sorted tuple of ints, whatever sequence (a list, an array) was given
        mines = self.mines
        if type(mines) is not tuple or not set(map(type, mines)) <= {int}:
            mines = tuple(mines)
            odd = next((m for m in mines if not is_whole(m)), None)
            if odd is not None:
                raise InputError(f"a mine index must be an integer, got {odd!r}")
            mines = tuple(int(m) for m in mines)
        rising = all(map(lt, mines, mines[1:]))  # sorted, and no index twice
        if not rising:
            mines = tuple(sorted(mines))
        cells = self.width * self.height
        if mines and (mines[0] < 0 or mines[-1] >= cells):  # sorted: the ends tell
            bad = next(m for m in mines if not 0 <= m < cells)
            raise OffBoardError(f"mine index {bad} is off the {self.width}x{self.height} board")
        if not rising and len(set(mines)) != len(mines):
            raise InputError("a mine index appears twice in the layout")
        object.__setattr__(self, "mines", mines)

    @classmethod
    def from_cells(cls, width: int, height: int, cells: list[tuple[int, int]]) -> Layout:
        """Build from ``(row, col)`` pairs."""
        grid = Grid(width, height)
        mines = []
        for r, c in cells:
            try:
                mines.append(grid.index(r, c))
            except OffBoardError:
                raise OffBoardError(f"mine ({r}, {c}) is off the {width}x{height} board") from None
        return cls(width, height, tuple(sorted(mines)))

    @property
    def grid(self) -> Grid:
        """The board's geometry."""
        return Grid(self.width, self.height)

    def mine_cells(self) -> list[tuple[int, int]]:
        """``(row, col)`` of every mine."""
        return self.grid.coords_of(self.mines)

    @cached_property
    def mask(self) -> np.ndarray:
        """One ``uint8`` per cell, 1 on mines (flat)."""
        mask = np.zeros(self.width * self.height, dtype=np.uint8)
        mask[list(self.mines)] = 1
        mask.flags.writeable = False  # kept: a change would change the board
        return mask

    @cached_property
    def counts(self) -> np.ndarray:
        """The number each cell shows: adjacent mines (flat ``uint8``; mines count
        their neighbouring mines too)."""
        counts = self.grid.neighbour_counts(self.mask)
        counts.flags.writeable = False
        return counts

    def openings(self) -> tuple[np.ndarray, int]:
        """Label each safe zero by its opening (8-connected zeros): ``(labels, count)``."""
        zeros = (self.counts == 0) & (self.mask == 0)
        return self.grid.components(zeros)

    def bbbv(self) -> int:
        """The board's 3BV: openings plus safe numbers that border no opening.

        >>> Layout(3, 3, (4,)).bbbv()
        8
        """
        _, openings = self.openings()
        zeros = ((self.counts == 0) & (self.mask == 0)).reshape(self.height, self.width)
        beside_zero = neighbour_sum(zeros).ravel() > 0
        safe = self.mask == 0
        lone = safe & ~zeros.ravel() & ~beside_zero
        return openings + int(np.count_nonzero(lone))

    def to_text(self) -> str:
        """The layout as ``*`` / ``.`` rows (the fixtures' ``mines.txt`` form)."""
        mask = bytearray(b"." * (self.width * self.height))
        for m in self.mines:
            mask[m] = ord("*")
        w = self.width
        return "".join(mask[r * w : (r + 1) * w].decode() + "\n" for r in range(self.height))


class Minefield:
    """A laid board being played.  Mutable.

    ``state[i]`` is :data:`HIDDEN`, :data:`OPEN` or :data:`FLAGGED`; a flag is the
    player's mark only and never stops anything but a flood.

    >>> field = Minefield(Layout(4, 1, (3,)))
    >>> field.open(0), field.safe_left
    ([0, 1, 2], 0)
    """

    __slots__ = ("count", "grid", "layout", "mine", "safe_left", "state", "zero")

    def __init__(self, layout: Layout, state: bytearray | None = None) -> None:
        self.layout = layout
        self.grid = layout.grid
        cells = self.grid.cells
        self.mine = layout.mask.tobytes()
        self.count = layout.counts.tobytes()
        self.zero = ((layout.counts == 0) & (layout.mask == 0)).astype(np.uint8).tobytes()
        self.state = state if state is not None else bytearray(cells)
        hidden_safe = (np.frombuffer(self.state, dtype=np.uint8) != OPEN) & (layout.mask == 0)
        self.safe_left = int(np.count_nonzero(hidden_safe))

    def is_mine(self, index: int) -> bool:
        """True if ``index`` holds a mine."""
        return bool(self.mine[index])

    def open(self, index: int) -> list[int]:
        """Open a hidden safe cell and flood from zeros; the cells opened, in order.

        Opening a mine only marks it open (the caller decides what that means)."""
        state = self.state
        if state[index] != HIDDEN:
            return []
        state[index] = OPEN
        opened = [index]
        if self.mine[index]:
            return opened
        if self.zero[index]:
            self.grid.flood(index, self.zero, state, opened, closed=HIDDEN, value=OPEN)
        self.safe_left -= len(opened)
        return opened
