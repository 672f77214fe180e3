"""The figures players compare: of a board (3BV, openings, islands, ZiNi) and of a game.

* **3BV** (Bechtel's Board Benchmark Value, :meth:`Layout.bbbv`): the fewest left
  clicks that clear the board: one per opening plus one per number next to no opening.
* **openings**: 8-connected areas of zeros; **islands**: 8-connected groups of the
  numbers that touch no opening.
* **ZiNi** (Zimmermann and Nikolaus) estimates the fewest clicks with flags and
  chords: a greedy walk that opens, flags and chords the cell of highest *premium*
  (3BV gained minus clicks spent) until the board is clear; **HZiNi** (human ZiNi)
  first opens every opening and then chords only on open cells.  Both follow the
  original algorithm step for step, cells taken column by column, as the
  community's tools compute it (ms-toollib's ``cal_zini`` and ``cal_hzini``; the
  tests check they agree).
* of a game: **3BV solved** (openings with a zero open, lone numbers open), and from
  it and the clicks: 3BV/s, IOE (3BV solved per click), efficiency (the same in
  percent, as minesweeper.online shows it), correctness (effective clicks per
  click) and throughput (3BV solved per effective click).

>>> layout = Layout.from_cells(4, 3, [(0, 3), (2, 0)])  # two openings, no lone number
>>> stats = board_stats(layout)
>>> stats.bbbv, stats.openings, stats.islands, stats.zini, stats.hzini
(2, 2, 0, 2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .minefield import Layout

__all__ = ["BoardStats", "bbbv_solved", "board_stats", "hzini", "islands", "zini"]


@dataclass(frozen=True)
class BoardStats:
    """What a layout alone says about a board."""

    bbbv: int
    openings: int
    islands: int
    zini: int
    hzini: int
    numbers: tuple[int, ...]  # how many safe cells show 0, 1, ..., 8


def board_stats(layout: Layout) -> BoardStats:
    """3BV, openings, islands, ZiNi, HZiNi and the count of each number."""
    counts = layout.counts[layout.mask == 0]
    _, openings = layout.openings()
    return BoardStats(
        bbbv=layout.bbbv(),
        openings=openings,
        islands=islands(layout),
        zini=zini(layout),
        hzini=hzini(layout),
        numbers=tuple(int(n) for n in np.bincount(counts, minlength=9)[:9]),
    )


def _lone_numbers(layout: Layout) -> np.ndarray:
    """Safe numbers (not zeros) with no zero next to them: each is one 3BV (flat bool)."""
    safe = layout.mask == 0
    zeros = safe & (layout.counts == 0)
    beside_zero = layout.grid.neighbour_counts(zeros.astype(np.uint8)) > 0
    lone: np.ndarray = safe & ~zeros & ~beside_zero
    return lone


def islands(layout: Layout) -> int:
    """The 8-connected groups of numbers that touch no opening.

    >>> islands(Layout.from_cells(5, 1, [(0, 2)]))
    0
    >>> islands(Layout.from_cells(3, 3, [(0, 0), (0, 2), (2, 0), (2, 2)]))
    1
    """
    return layout.grid.components(_lone_numbers(layout))[1]


def bbbv_solved(layout: Layout, opened: np.ndarray) -> int:
    """The 3BV of a game in progress: openings with a zero open (one opening opens
    whole) plus lone numbers open.  ``opened`` is one bool per cell (flat).

    >>> layout = Layout.from_cells(4, 1, [(0, 3)])
    >>> bbbv_solved(layout, np.array([True, True, True, False])), layout.bbbv()
    (1, 1)
    """
    opened = np.asarray(opened, dtype=bool)
    labels, _ = layout.openings()
    solved_openings = len(set(labels[opened & (labels > 0)].tolist()))
    return solved_openings + int(np.count_nonzero(_lone_numbers(layout) & opened))


# ---------------------------------------------------------------------- ZiNi
class _Zini:
    """The greedy ZiNi walk (the original algorithm, cells column by column)."""

    def __init__(self, layout: Layout) -> None:
        w, h = layout.width, layout.height
        self.height = h
        size = w * h
        # cell k is (row k % h, column k // h); numbers count the cell itself too
        mine_rc = layout.mask.reshape(h, w)
        self.mine = mine_rc.T.ravel().astype(bool).tolist()
        padded = np.zeros((h + 2, w + 2), dtype=np.int16)
        padded[1:-1, 1:-1] = mine_rc
        number = sum(
            padded[dr : dr + h, dc : dc + w] for dr in (0, 1, 2) for dc in (0, 1, 2)
        )
        self.number = np.asarray(number).T.ravel().tolist()
        self.around: list[list[int]] = []  # the 3x3 block, the cell included
        for k in range(size):
            r, c = k % h, k // h
            self.around.append([
                cc * h + rr
                for cc in range(max(c - 1, 0), min(c + 2, w))
                for rr in range(max(r - 1, 0), min(r + 2, h))
            ])
        self.opening = [0] * size
        self.opening2 = [0] * size
        self.opened = [False] * size
        self.flagged = [False] * size
        self.premium = [-n - 2 for n in self.number]
        self.closed = size
        self.clicks = 0
        ops = 0
        for k in range(size):
            if not self.mine[k] and self.number[k] == 0 and self.opening[k] == 0:
                ops += 1
                self._mark_opening(ops, k)
        for k in range(size):
            self.premium[k] += self._adjacent_bbbv(k)

    def _mark_opening(self, op: int, start: int) -> None:
        stack = [start]
        self.opening[start] = op
        while stack:
            k = stack.pop()
            for i in self.around[k]:
                if self.number[i] != 0:
                    if self.opening[i] == 0:
                        self.opening[i] = op
                    elif self.opening[i] != op and self.opening2[i] == 0:
                        self.opening2[i] = op
                elif self.opening[i] == 0:
                    self.opening[i] = op
                    stack.append(i)

    def _adjacent_bbbv(self, k: int) -> int:
        if self.number[k] == 0:
            return 1
        out = sum(1 for i in self.around[k] if not self.mine[i] and self.opening[i] == 0)
        return out + (self.opening[k] != 0) + (self.opening2[k] != 0)

    def _open(self, k: int) -> None:
        self.opened[k] = True
        self.premium[k] += 1
        if self.opening[k] == 0:
            for i in self.around[k]:
                self.premium[i] -= 1
        self.closed -= 1

    def _reveal(self, k: int) -> None:
        if self.opened[k] or self.flagged[k]:
            return
        if self.number[k] != 0:
            self._open(k)
            return
        op = self.opening[k]
        for i in range(len(self.mine)):
            if self.opening2[i] == op or self.opening[i] == op:
                if not self.opened[i]:
                    self._open(i)
                self.premium[i] -= 1

    def click(self, k: int) -> None:
        self._reveal(k)
        self.clicks += 1

    def _flag_around(self, k: int) -> None:
        for i in self.around[k]:
            if self.mine[i] and not self.flagged[i]:
                self.clicks += 1
                self.flagged[i] = True
                for j in self.around[i]:
                    self.premium[j] += 1

    def _chord(self, k: int) -> None:
        self.clicks += 1
        for i in self.around[k]:
            self._reveal(i)

    def step(self, human: bool) -> bool:
        best, at = -1, -1
        for k, value in enumerate(self.premium):
            if value > best and not self.mine[k] and (self.opened[k] or not human):
                best, at = value, k
        if at >= 0:
            if not self.opened[at]:
                self.click(at)
            self._flag_around(at)
            self._chord(at)
            return True
        for k in range(len(self.mine)):
            if not self.opened[k] and not self.mine[k] and (
                self.number[k] == 0 or self.opening[k] == 0
            ):
                self.click(k)
                return True
        return False

    def run(self, *, human: bool) -> int:
        if human:  # open every opening first
            for k in range(len(self.mine)):
                if not self.mine[k] and self.number[k] == 0 and not self.opened[k]:
                    self.click(k)
        mines = sum(self.mine)
        while self.closed > mines and self.step(human):
            pass
        return self.clicks


def zini(layout: Layout) -> int:
    """Greedy ZiNi: an estimate of the fewest clicks (left, right and chords) that
    clear the board.

    >>> zini(Layout.from_cells(3, 3, []))
    1
    """
    return _Zini(layout).run(human=False)


def hzini(layout: Layout) -> int:
    """Human ZiNi: every opening opened first, then chords on open cells only.

    >>> hzini(Layout.from_cells(3, 1, [(0, 1)]))
    2
    """
    return _Zini(layout).run(human=True)
