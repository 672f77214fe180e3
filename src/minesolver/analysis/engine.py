"""The exact engine: mine probabilities of every cell of a position.

Every layout of mines that agrees with the position is equally likely (the uniform
prior of a random board; the first-click rule is not modelled).  The engine

1. turns the position into clues over unknown cells and settles what the trivial
   rules settle (:mod:`.system`);
2. groups the rest into boxes and independent fronts (:mod:`.fronts`);
3. counts each front by number of mines, exactly, by dynamic programming along it
   (:mod:`.counting`);
4. joins the fronts and the off-front cells through the total mine count: if the
   fronts hold ``t`` mines, the ``O`` off-front cells hold the other ``R - t`` in
   ``comb(O, R - t)`` ways.  All weights are Python integers, so a 100x100 board
   with ~10**2000 layouts is still exact.

>>> a = analyze(Position.from_text("3x1x1\\n1HH\\n"))
>>> a.probability(0, 1), a.solutions
(Fraction(1, 1), 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb

import numpy as np

from ..position import COVERED, FLAG, MINE, Position
from .counting import FrontCount, count_front
from .fronts import Front, split_fronts
from .system import InconsistentPositionError, SoftClue, build_system

__all__ = ["Analysis", "FrontSummary", "analyze", "front_weights"]


@dataclass(frozen=True)
class FrontSummary:
    """One independent front, as reported to users.

    >>> a = analyze(Position.from_text("3x1x1\\n1HH\\n"))
    >>> a.fronts
    []
    """

    cells: list[tuple[int, int]]
    clues: list[tuple[int, int]]
    boxes: int
    min_mines: int
    max_mines: int
    width: int  # most clues open at once while counting


@dataclass(frozen=True)
class Analysis:
    """Exact mine probabilities of a position.

    ``solutions`` is the exact number of layouts (weighted by the clues'
    likelihoods for noisy clues).  Probabilities are exact fractions; ``prob`` is
    the same as floats, one row per board row.
    """

    position: Position
    solutions: int
    fronts: list[FrontSummary]
    seconds: float
    # per cell: index into _nums/_dens, or -1 revealed (0), -2 mine (1)
    _cell_group: np.ndarray = field(repr=False)
    _nums: list[int] = field(repr=False)
    _dens: list[int] = field(repr=False)

    def probability(self, row: int, col: int) -> Fraction:
        """Exact mine probability of ``(row, col)`` (revealed: 0, flagged: 1)."""
        g = int(self._cell_group[self.position.index(row, col)])
        if g == -1:
            return Fraction(0)
        if g == -2:
            return Fraction(1)
        return Fraction(self._nums[g], self._dens[g])

    @cached_property
    def prob(self) -> np.ndarray:
        """Float mine probabilities, shape ``(height, width)``."""
        values = np.array(
            [1.0, 0.0] + [n / d if n else 0.0 for n, d in zip(self._nums, self._dens, strict=True)]
        )
        out: np.ndarray = values[self._cell_group + 2].reshape(self.position.shape)
        return out

    @cached_property
    def safe(self) -> list[tuple[int, int]]:
        """Covered cells that are certainly safe, row-major."""
        cells = self.position.cells
        w = self.position.width
        return [
            divmod(i, w)
            for i, g in enumerate(self._cell_group.tolist())
            if g >= 0 and self._nums[g] == 0 and cells[i] == COVERED
        ]

    @cached_property
    def mines(self) -> list[tuple[int, int]]:
        """Covered cells that are certainly mines, flags included, row-major."""
        w = self.position.width
        nums, dens = self._nums, self._dens
        return [
            divmod(i, w)
            for i, g in enumerate(self._cell_group.tolist())
            if g == -2 or (g >= 0 and nums[g] == dens[g])
        ]

    def group_of(self, index: int) -> int:
        """Cells with the same group share one probability (-1 open, -2 mine)."""
        return int(self._cell_group[index])

    def exact(self, index: int) -> tuple[int, int]:
        """``(numerator, denominator)`` of a covered cell's mine probability."""
        g = int(self._cell_group[index])
        if g == -1:
            return (0, 1)
        if g == -2:
            return (1, 1)
        return (self._nums[g], self._dens[g])


def analyze(position: Position, *, soft: SoftClue | None = None) -> Analysis:
    """Exact mine probability of every cell of ``position``.

    Raises :class:`InconsistentPositionError` when no layout agrees with it.

    >>> p = Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")
    >>> a = analyze(p)
    >>> a.solutions, a.probability(1, 1), a.probability(0, 0)
    (3, Fraction(2, 3), Fraction(0, 1))
    """
    start = time.perf_counter()
    system = build_system(position, soft=soft)
    fronts, off_front = split_fronts(system)
    counts = [count_front(f) for f in fronts]
    polys = [c.poly for c in counts]
    n_out = len(off_front)
    remaining = system.remaining

    def outside(t: int) -> int:
        r = remaining - t
        return comb(n_out, r) if 0 <= r <= n_out else 0

    total_front = sum(len(p) - 1 for p in polys)
    w_out = [outside(t) for t in range(total_front + 1)]
    gs, prefix_all, _ = front_weights(polys, w_out)
    z = sum(p * w for p, w in zip(prefix_all, w_out, strict=False))
    if z == 0:
        _explain_mine_count(counts, remaining, n_out, position)

    group = np.full(position.width * position.height, -1, dtype=np.int64)
    cells = position.cells
    for i, code in enumerate(cells):
        if code in (FLAG, MINE):
            group[i] = -2
    nums: list[int] = []
    dens: list[int] = []

    # settled by the trivial rules
    for i in system.settled_mines:
        group[i] = -2
    if system.settled_safe:
        nums.append(0)
        dens.append(1)
        group[system.settled_safe] = len(nums) - 1

    for fc, g in zip(counts, gs, strict=True):
        zf, box_nums = fc.box_weights(g)
        assert zf == z, "front total disagrees with the board total"
        for box, num in zip(fc.front.boxes, box_nums, strict=True):
            nums.append(num)
            dens.append(z * box.size)
            group[box.cells] = len(nums) - 1
    if off_front:
        num_out = sum(
            p * w * (remaining - t)
            for t, (p, w) in enumerate(zip(prefix_all, w_out, strict=False))
        )
        nums.append(num_out)
        dens.append(z * n_out)
        group[off_front] = len(nums) - 1
    # normalise settled-as-certain groups: 0 stays 0; num == den marks a certain mine
    summaries = [_summary(f, c) for f, c in zip(fronts, counts, strict=True)]
    return Analysis(
        position,
        z,
        summaries,
        time.perf_counter() - start,
        group,
        nums,
        dens,
    )


def front_weights(
    polys: list[list[int]], w_out: list[int]
) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """Join the fronts through the mine count.

    Returns ``(g, product, tails)``: for each front c, ``g[c][k]`` is the weight of
    everything else when front c holds k mines,
    ``g_c[k] = sum_t P_{<c}[t] * T_{>c}[t + k]`` where ``P_{<c}`` is the product of the
    fronts before ``c`` and ``tails[c + 1][u]`` (``T_{>c}``) the weight of the fronts
    after ``c`` and the off-front cells when the fronts up to ``c`` hold ``u`` mines;
    ``product`` is the mine-count polynomial of all fronts together.
    """
    n = len(polys)
    prefixes = [[1]]
    for p in polys:
        prefixes.append(_convolve(prefixes[-1], p))
    tails: list[list[int]] = [w_out]  # tails[j] = T after fronts n-j..n-1 are folded in
    for p in reversed(polys):
        tails.append(_correlate(p, tails[-1]))
    tails.reverse()  # tails[c] = weight given mines in fronts < c
    gs = []
    for c in range(n):
        # T_{>c}: tails[c + 1] indexed by mines in fronts <= c
        gs.append(_correlate(prefixes[c], tails[c + 1], len(polys[c])))
    return gs, prefixes[n], tails


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _correlate(a: list[int], t: list[int], length: int | None = None) -> list[int]:
    """``out[u] = sum_m a[m] * t[u + m]`` for ``u`` in ``range(length)``."""
    if length is None:
        length = len(t) - len(a) + 1
    out = []
    for u in range(length):
        tail = t[u : u + len(a)]
        out.append(sum(x * y for x, y in zip(a, tail, strict=False)))
    return out


def _summary(front: Front, count: FrontCount) -> FrontSummary:
    return FrontSummary(
        cells=[front.coords(c) for c in sorted(front.cells)],
        clues=[front.coords(c.at) for c in front.clues],
        boxes=len(front.boxes),
        min_mines=count.min_mines,
        max_mines=count.max_mines,
        width=front.width(),
    )


def _explain_mine_count(
    counts: list[FrontCount], remaining: int, n_out: int, position: Position
) -> None:
    lo = sum(c.min_mines for c in counts)
    hi = sum(c.max_mines for c in counts)
    where = ""
    if counts:
        first = counts[0].front
        where = f" (fronts such as the one at clue {first.coords(first.clues[0].at)})"
        clue: tuple[int, int] | None = first.coords(first.clues[0].at)
    else:
        clue = None
    raise InconsistentPositionError(
        f"no layout has {position.mines} mines: the clues{where} need {lo} to {hi} mines "
        f"on the front, leaving {remaining - hi} to {remaining - lo} for {n_out} other cells",
        clue,
    )


Analyzer = Callable[[Position], Analysis]
