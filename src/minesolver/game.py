"""Game: the hidden layout, and reveal / flag / chord on it.

Mines are laid when the first cell is opened, uniformly at random among the
layouts the first-click rule allows.  The generator is documented in
:mod:`minesolver.rng`: ``SplitMix64(seed).sample(n, mines)`` draws mine slots
among the ``n`` cells the first click leaves unprotected (cells in row-major
order, protected cells skipped), so the same seed gives the same board on every
machine, process and Python version.

>>> game = Game(Rules(9, 9, 10), seed=1)
>>> opened = game.reveal(0, 0)
>>> game.status, len(opened) > 0
('playing', True)
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .position import COVERED, FLAG, MINE, Position
from .rng import SplitMix64
from .rules import FirstClick, Rules, RulesError, neighbour_table, neighbours, protected_cells

__all__ = ["Game", "GameError", "Layout", "Status"]

Status = Literal["ready", "playing", "won", "lost"]

_HIDDEN, _OPEN, _FLAGGED = 0, 1, 2


class GameError(ValueError):
    """A move the game cannot take (off the board, or after the game ended)."""


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
        if self.width < 1 or self.height < 1:
            raise RulesError(f"board size must be positive, got {self.width}x{self.height}")
        cells = self.width * self.height
        if any(not 0 <= m < cells for m in self.mines):
            bad = next(m for m in self.mines if not 0 <= m < cells)
            raise RulesError(f"mine index {bad} is off the {self.width}x{self.height} board")
        if len(set(self.mines)) != len(self.mines):
            raise RulesError("a mine index appears twice in the layout")
        if list(self.mines) != sorted(self.mines):
            object.__setattr__(self, "mines", tuple(sorted(self.mines)))

    @classmethod
    def from_cells(cls, width: int, height: int, cells: list[tuple[int, int]]) -> Layout:
        """Build from ``(row, col)`` pairs."""
        for row, col in cells:
            if not (0 <= row < height and 0 <= col < width):
                raise RulesError(f"mine ({row}, {col}) is off the {width}x{height} board")
        return cls(width, height, tuple(sorted(r * width + c for r, c in cells)))

    def mine_cells(self) -> list[tuple[int, int]]:
        """``(row, col)`` of every mine."""
        return [divmod(m, self.width) for m in self.mines]

    def to_text(self) -> str:
        """The layout as ``*`` / ``.`` rows (the fixtures' ``mines.txt`` form)."""
        mask = bytearray(b"." * (self.width * self.height))
        for m in self.mines:
            mask[m] = ord("*")
        w = self.width
        return "".join(mask[r * w : (r + 1) * w].decode() + "\n" for r in range(self.height))


class Game:
    """One game of Minesweeper.  Mutable: moves change it in place.

    >>> game = Game.from_layout(Layout(3, 1, (2,)))
    >>> game.reveal(0, 0)
    [(0, 0), (0, 1)]
    >>> game.status
    'won'
    """

    def __init__(self, rules: Rules, *, seed: int | None = None) -> None:
        self.rules = rules
        self.seed = int.from_bytes(os.urandom(8), "little") if seed is None else seed
        cells = rules.cells
        self._state = bytearray(cells)
        self._mine: bytearray | None = None
        self._count: bytes = b""
        self._status: Status = "ready"
        self._shown = bytearray(cells)  # what each open cell shows (noisy variants)
        from .noise import parse_noise

        self._noise = parse_noise(rules.noise)
        self._safe_left = cells - rules.mines
        self._table = neighbour_table(rules.width, rules.height)
        self.first_click: tuple[int, int] | None = None
        self.exploded: tuple[int, int] | None = None
        self.clicks = 0
        self._flags = 0

    @classmethod
    def from_layout(
        cls,
        layout: Layout,
        *,
        first_click: FirstClick = "none",
        noise: str | None = None,
        seed: int = 0,
    ) -> Game:
        """A game on a fixed layout; the first click gets no protection.

        ``first_click`` is recorded in ``game.rules`` for reference only; ``seed``
        only drives what noisy clues show.
        """
        rules = Rules(layout.width, layout.height, len(layout.mines), first_click="none")
        game = cls(rules.with_noise(noise), seed=seed)
        with contextlib.suppress(RulesError):  # a dense board: the rule is only a label
            game.rules = game.rules.with_first_click(first_click)
        game._lay(layout.mines)
        return game

    # ----------------------------------------------------------------- layout
    def _nbrs(self, index: int) -> tuple[int, ...] | list[int]:
        if self._table is not None:
            return self._table[index]
        return neighbours(index, self.rules.width, self.rules.height)

    def _lay(self, mines: tuple[int, ...] | list[int]) -> None:
        rules = self.rules
        mine = bytearray(rules.cells)
        for m in mines:
            mine[m] = 1
        self._mine = mine
        self._count = _neighbour_counts(mine, rules.width, rules.height)

    def _lay_random(self, first: int) -> None:
        rules = self.rules
        keep = protected_cells(rules, first)
        n = rules.cells - len(keep)
        slots = SplitMix64(self.seed).sample(n, rules.mines)
        mines = []
        for s in slots:
            cell = s
            for p in keep:  # keep is sorted: skip protected cells in order
                if p <= cell:
                    cell += 1
            mines.append(cell)
        self._lay(mines)

    def _show(self, index: int) -> None:
        true = self._count[index]
        if self._noise is None:
            self._shown[index] = true
        else:
            total = len(self._nbrs(index))
            self._shown[index] = self._noise.show(true, total, self.seed, index)

    @property
    def layout(self) -> Layout | None:
        """The mine layout, or ``None`` before the first click of a random game."""
        if self._mine is None:
            return None
        return Layout(
            self.rules.width,
            self.rules.height,
            tuple(i for i, m in enumerate(self._mine) if m),
        )

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> Status:
        """``ready`` (nothing opened), ``playing``, ``won`` or ``lost``."""
        return self._status

    @property
    def is_over(self) -> bool:
        """True once the game is won or lost."""
        return self._status in ("won", "lost")

    @property
    def is_won(self) -> bool:
        """True when every safe cell is open."""
        return self._status == "won"

    @property
    def is_lost(self) -> bool:
        """True after opening a mine."""
        return self._status == "lost"

    @property
    def safe_left(self) -> int:
        """Safe cells still covered."""
        return self._safe_left

    def _index(self, row: int, col: int) -> int:
        w, h = self.rules.width, self.rules.height
        if not (isinstance(row, int) and isinstance(col, int)) or not (
            0 <= row < h and 0 <= col < w
        ):
            raise GameError(f"cell ({row}, {col}) is off the {w}x{h} board")
        return row * w + col

    def _check_playable(self) -> None:
        if self.is_over:
            raise GameError(f"the game is over ({self._status})")

    def is_revealed(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` is open."""
        return self._state[self._index(row, col)] == _OPEN

    def is_flagged(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` carries a flag."""
        return self._state[self._index(row, col)] == _FLAGGED

    def is_mine(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` holds a mine (the hidden truth; for referees)."""
        if self._mine is None:
            raise GameError("no mines are laid before the first click")
        return bool(self._mine[self._index(row, col)])

    # ------------------------------------------------------------------ moves
    def reveal(self, row: int, col: int) -> list[tuple[int, int]]:
        """Open a cell; zeros flood to their neighbours.

        Returns the cells opened, in opening order (the mine itself if it was one).
        Opening an open or flagged cell does nothing and returns ``[]``.
        """
        index = self._index(row, col)
        self._check_playable()
        if self._state[index] != _HIDDEN:
            return []
        if self._mine is None:
            self._lay_random(index)
            self.first_click = (row, col)
        self.clicks += 1
        if self._status == "ready":
            self._status = "playing"
        opened = self._open_from([index])
        return [divmod(i, self.rules.width) for i in opened]

    def chord(self, row: int, col: int) -> list[tuple[int, int]]:
        """Open every unflagged neighbour of an open number whose flags match it.

        Does nothing (returns ``[]``) when the flags around it do not match.
        """
        index = self._index(row, col)
        self._check_playable()
        if self._state[index] != _OPEN or self._mine is None:
            return []
        around = self._nbrs(index)
        state = self._state
        if sum(1 for j in around if state[j] == _FLAGGED) != self._count[index]:
            return []
        targets = [j for j in around if state[j] == _HIDDEN]
        if not targets:
            return []
        self.clicks += 1
        opened = self._open_from(targets)
        return [divmod(i, self.rules.width) for i in opened]

    def _open_from(self, starts: list[int]) -> list[int]:
        assert self._mine is not None
        state, mine, count = self._state, self._mine, self._count
        opened: list[int] = []
        for start in starts:
            if state[start] != _HIDDEN:
                continue
            if mine[start]:
                state[start] = _OPEN
                self._shown[start] = MINE  # the exploded mine shows as a mine
                opened.append(start)
                self._status = "lost"
                self.exploded = divmod(start, self.rules.width)
                return opened
            state[start] = _OPEN
            opened.append(start)
            self._show(start)
            if count[start] == 0:
                self._flood(start, opened)
        self._safe_left -= len(opened)
        if self._safe_left == 0:
            self._status = "won"
        return opened

    def _flood(self, start: int, opened: list[int]) -> None:
        """Open everything a zero at ``start`` reaches, breadth first, neighbours in
        row-major order.  The hot loop of huge boards: neighbours are computed
        inline when the board is too big for the cached table."""
        state, count, shown = self._state, self._count, self._shown
        noisy = self._noise is not None
        table = self._table
        w, h = self.rules.width, self.rules.height
        queue = deque([start])
        while queue:
            i = queue.popleft()
            if table is not None:
                around: Iterable[int] = table[i]
            else:
                r, c = divmod(i, w)
                lo, hi = (c - 1 if c else 0), (c + 2 if c + 1 < w else w)
                around = [
                    j
                    for rr in range(r - 1 if r else 0, r + 2 if r + 1 < h else h)
                    for j in range(rr * w + lo, rr * w + hi)
                    if j != i
                ]
            for j in around:
                if state[j] == _HIDDEN:
                    state[j] = _OPEN
                    opened.append(j)
                    if noisy:
                        self._show(j)
                    else:
                        shown[j] = count[j]
                    if count[j] == 0:
                        queue.append(j)

    def flag(self, row: int, col: int) -> bool:
        """Put a flag on a covered cell; returns whether anything changed."""
        index = self._index(row, col)
        self._check_playable()
        if self._state[index] != _HIDDEN:
            return False
        self._state[index] = _FLAGGED
        self._flags += 1
        return True

    def unflag(self, row: int, col: int) -> bool:
        """Remove a flag; returns whether anything changed."""
        index = self._index(row, col)
        self._check_playable()
        if self._state[index] != _FLAGGED:
            return False
        self._state[index] = _HIDDEN
        self._flags -= 1
        return True

    def toggle_flag(self, row: int, col: int) -> bool:
        """Flag a covered cell or unflag a flagged one; returns the new flag state."""
        if self.is_flagged(row, col):
            self.unflag(row, col)
            return False
        self.flag(row, col)
        return self.is_flagged(row, col)

    # ------------------------------------------------------------------ views
    def position(self) -> Position:
        """What the player sees now.

        >>> Game(Rules(2, 2, 1), seed=3).position().to_text()
        '2x2x1\\nHH\\nHH\\n'
        """
        rules = self.rules
        state = np.frombuffer(self._state, dtype=np.uint8)
        shown = np.frombuffer(self._shown, dtype=np.uint8)
        covered = np.where(state == _FLAGGED, FLAG, COVERED).astype(np.uint8)
        cells = np.where(state == _OPEN, shown, covered).tobytes()
        return Position(rules.width, rules.height, rules.mines, cells)

    def number(self, row: int, col: int) -> int:
        """The number under an open cell (for referees and variants)."""
        index = self._index(row, col)
        if self._mine is None:
            raise GameError("no mines are laid before the first click")
        return self._count[index]

    def bbbv(self) -> int:
        """The board's 3BV: openings plus safe numbers that border no zero.

        >>> Game.from_layout(Layout(3, 1, (2,))).bbbv()
        1
        """
        if self._mine is None:
            raise GameError("no mines are laid before the first click")
        mine, count = self._mine, self._count
        seen = bytearray(len(mine))
        total = 0
        for i in range(len(mine)):
            if mine[i] or count[i] != 0 or seen[i]:
                continue
            total += 1
            seen[i] = 1
            queue = [i]
            while queue:
                j = queue.pop()
                for k in self._nbrs(j):
                    if not seen[k]:
                        seen[k] = 1
                        if count[k] == 0:
                            queue.append(k)
        for i in range(len(mine)):
            if not mine[i] and not seen[i]:
                total += 1
        return total

    def __repr__(self) -> str:
        return f"<Game {self.rules!r} seed={self.seed} {self._status}>"


def _neighbour_counts(mine: bytearray, width: int, height: int) -> bytes:
    """Number of adjacent mines for every cell (numpy: fast on huge boards)."""
    grid = np.frombuffer(bytes(mine), dtype=np.uint8).reshape(height, width)
    padded = np.zeros((height + 2, width + 2), dtype=np.uint8)
    padded[1:-1, 1:-1] = grid
    total = np.zeros((height, width), dtype=np.uint8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr == 1 and dc == 1:
                continue
            total += padded[dr : dr + height, dc : dc + width]
    return total.tobytes()
