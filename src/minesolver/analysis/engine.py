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
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb

import numpy as np

from ..codes import COVERED, FLAG, MINE
from ..position import Position
from .counting import FrontCount, count_front
from .fronts import Front, split_fronts
from .system import InconsistentPositionError, SoftClue, build_system

__all__ = [
    "Analysis",
    "FrontSummary",
    "analyze",
    "clear_cache",
    "density_weights",
    "front_weights",
    "outside_weights",
]


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
    seconds: float
    # per cell: index into _nums/_dens, or -1 revealed (0), -2 mine (1)
    _cell_group: np.ndarray = field(repr=False)
    _nums: list[int] = field(repr=False)
    _dens: list[int] = field(repr=False)
    _front_data: list[tuple[Front, int, int]] = field(repr=False, default_factory=list)

    @cached_property
    def fronts(self) -> list[FrontSummary]:
        """The independent fronts the counting found (after the trivial rules)."""
        return [_summary(front, lo, hi) for front, lo, hi in self._front_data]

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
        w = self.position.width
        return [divmod(i, w) for i in self.safe_indices.tolist()]

    @cached_property
    def safe_indices(self) -> np.ndarray:
        """Flat indices of the covered cells that are certainly safe."""
        zero = np.array([False, False] + [n == 0 for n in self._nums], dtype=bool)
        covered = np.frombuffer(self.position.cells, dtype=np.uint8) == COVERED
        out: np.ndarray = np.flatnonzero(zero[self._cell_group + 2] & covered)
        return out

    @cached_property
    def mines(self) -> list[tuple[int, int]]:
        """Covered cells that are certainly mines, flags included, row-major."""
        w = self.position.width
        return [divmod(i, w) for i in self.mine_indices.tolist()]

    @cached_property
    def mine_indices(self) -> np.ndarray:
        """Flat indices of the cells that are certainly mines, flags included."""
        certain = np.array(
            [True, False] + [n == d for n, d in zip(self._nums, self._dens, strict=True)],
            dtype=bool,
        )
        out: np.ndarray = np.flatnonzero(certain[self._cell_group + 2])
        return out

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


def analyze(
    position: Position, *, soft: SoftClue | None = None, density: Fraction | None = None
) -> Analysis:
    """Exact mine probability of every cell of ``position``.

    Raises :class:`InconsistentPositionError` when no layout agrees with it.

    ``density`` drops the total mine count: every covered cell is then a mine
    independently with that prior probability, so a front layout with ``k`` of
    its ``n`` cells mined weighs ``d**k * (1 - d)**(n - k)`` and the cells away
    from the clues keep ``d`` (what a player who ignores the mine counter knows).

    >>> p = Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")
    >>> a = analyze(p)
    >>> a.solutions, a.probability(1, 1), a.probability(0, 0)
    (3, Fraction(2, 3), Fraction(0, 1))
    >>> q = Position.from_text("3x1x1\\n1HH\\n")  # the counter says (0, 2) is safe
    >>> analyze(q).probability(0, 2), analyze(q, density=Fraction(1, 5)).probability(0, 2)
    (Fraction(0, 1), Fraction(1, 5))
    """
    start = time.perf_counter()
    system = build_system(position, soft=soft)
    fronts, off_front = split_fronts(system)
    counts = [_count_cached(f) for f in fronts]
    polys = [c.poly for c in counts]
    n_out = len(off_front)
    remaining = system.remaining

    total_front = sum(len(p) - 1 for p in polys)
    if density is None:
        w_out = outside_weights(n_out, remaining, total_front)
    else:
        w_out = density_weights(density, total_front)
    gs, prefix_all, _ = front_weights(polys, w_out)
    z = sum(p * w for p, w in zip(prefix_all, w_out, strict=False))
    if z == 0:
        _explain_mine_count(counts, remaining, n_out, position)

    grid = np.frombuffer(position.cells, dtype=np.uint8)
    group = np.where((grid == FLAG) | (grid == MINE), -2, -1).astype(np.int64)
    nums: list[int] = []
    dens: list[int] = []

    # settled by the trivial rules
    if system.settled_mines:
        group[system.settled_mines] = -2
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
    if off_front and density is not None:
        nums.append(density.numerator)
        dens.append(density.denominator)
        group[off_front] = len(nums) - 1
    elif off_front:
        num_out = sum(
            p * w * (remaining - t)
            for t, (p, w) in enumerate(zip(prefix_all, w_out, strict=False))
        )
        nums.append(num_out)
        dens.append(z * n_out)
        group[off_front] = len(nums) - 1
    return Analysis(
        position,
        z,
        time.perf_counter() - start,
        group,
        nums,
        dens,
        [(c.front, c.min_mines, c.max_mines) for c in counts],
    )


# Fronts recur: hypothetical positions differ from the real one in one cell, and
# successive positions of a game share most fronts.  A front's count depends only
# on its clues, so counts are kept in a small LRU keyed by them.
_CACHE: OrderedDict[tuple[object, ...], FrontCount] = OrderedDict()
_CACHE_SIZE = 2048


def clear_cache() -> None:
    """Forget every cached front count (benchmarks time cold calls with it)."""
    _CACHE.clear()


def _count_cached(front: Front) -> FrontCount:
    key = (
        front.board_width,
        *((c.at, tuple(c.cells), c.need, c.factor) for c in front.clues),
    )
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    counted = count_front(front)
    _CACHE[key] = counted
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return counted


def outside_weights(n_out: int, remaining: int, total_front: int) -> list[int]:
    """``w[t] = comb(n_out, remaining - t)`` for ``t`` in ``0..total_front``.

    Consecutive binomials differ by a small ratio, so after one ``comb`` each term
    costs one multiplication and one exact division.

    >>> outside_weights(5, 3, 4)
    [10, 10, 5, 1, 0]
    """
    w = [0] * (total_front + 1)
    lo = max(0, remaining - n_out)  # t below this leaves too many mines outside
    hi = min(total_front, remaining)
    if lo > hi:
        return w
    r = remaining - lo
    value = comb(n_out, r)
    w[lo] = value
    for t in range(lo + 1, hi + 1):
        # comb(n, r - 1) = comb(n, r) * r / (n - r + 1)
        value = value * r // (n_out - r + 1)
        r -= 1
        w[t] = value
    return w


def density_weights(density: Fraction, total_front: int) -> list[int]:
    """``w[t] = a**t * b**(total_front - t)`` for a prior mine probability ``a / (a + b)``:
    the relative weight of ``t`` mines on the fronts when cells are independent.

    >>> density_weights(Fraction(1, 4), 2)
    [9, 3, 1]
    """
    a = density.numerator
    b = density.denominator - a
    return [a**t * b ** (total_front - t) for t in range(total_front + 1)]


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


def _summary(front: Front, min_mines: int, max_mines: int) -> FrontSummary:
    return FrontSummary(
        cells=[front.coords(c) for c in sorted(front.cells)],
        clues=[front.coords(c.at) for c in front.clues],
        boxes=len(front.boxes),
        min_mines=min_mines,
        max_mines=max_mines,
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
