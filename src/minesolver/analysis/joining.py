"""Joining independent fronts through the total mine count.

If the fronts hold ``t`` mines, the ``O`` off-front cells hold the other ``R - t``
in ``comb(O, R - t)`` ways.  For every front, the weight of everything else as a
function of its own mine count is a correlation of the other fronts' product with
these binomials (prefix products and suffix "tails").

On a big board these binomials are huge (``comb(850000, 150000)`` has 600,000 bits)
but the ones the fronts can reach share almost all of it: :func:`scaled_weights`
leaves one common factor (a :class:`Scale`) out, so the join runs on integers of
about 20 bits per mine the fronts' counts may vary by, and the factor cancels in
every probability.  :func:`outside_weights` is the plain reference.

>>> outside_weights(5, 3, 4)
[10, 10, 5, 1, 0]
>>> w, scale = scaled_weights(5, 3, 1, 4, whole=False)
>>> w, scale.value(), [x * scale.value() for x in w] == [0, 10, 5, 1, 0]
([0, 20, 10, 2, 0], Fraction(1, 2), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, lgamma, log, prod

import numpy as np

__all__ = [
    "ONE",
    "Binomials",
    "Scale",
    "density_weights",
    "front_weights",
    "least_mines",
    "objects",
    "outside_weights",
    "scaled_weights",
]


class Binomials:
    """``comb(n, r)`` remembered, and reached from a remembered neighbour in a few exact
    steps of one multiplication and one division by small integers each.

    A 1000x1000 board's off-front cells make ``comb(850000, 150000)``, a number of
    600,000 bits that ``math.comb`` takes most of a second to build; the next position
    (a move, a hypothesis) needs a binomial a few steps away from it.

    >>> b = Binomials()
    >>> b.comb(10, 4), b.comb(12, 3), b.comb(12, 3) == comb(12, 3)
    (210, 220, True)
    """

    def __init__(self, keep: int = 8, reach: int = 2048) -> None:
        self.keep = keep  # binomials remembered
        self.reach = reach  # most steps taken from one of them
        self._known: dict[tuple[int, int], int] = {}

    def __getstate__(self) -> dict[str, int]:
        return {"keep": self.keep, "reach": self.reach}  # travels empty, like the cache

    def __setstate__(self, state: dict[str, int]) -> None:
        self.__init__(state["keep"], state["reach"])  # type: ignore[misc]

    def comb(self, n: int, r: int) -> int:
        """``comb(n, r)`` (0 when ``r`` is outside ``0..n``)."""
        if r < 0 or r > n:
            return 0
        got = self._known.get((n, r))
        if got is not None:
            return got
        near = min(
            self._known, key=lambda k: abs(k[0] - n) + abs(k[1] - r), default=None
        )
        if near is None or abs(near[0] - n) + abs(near[1] - r) > self.reach or not (
            0 < near[1] < near[0] and 0 < r < n
        ):
            value = comb(n, r)
        else:
            value = self._walk(near, self._known[near], n, r)
        if len(self._known) >= self.keep:
            self._known.pop(next(iter(self._known)))
        self._known[(n, r)] = value
        return value

    @staticmethod
    def _walk(start: tuple[int, int], value: int, n: int, r: int) -> int:
        steps = _steps(start, (n, r))
        if steps is None:
            return comb(n, r)
        for mul, div in steps:
            value = value * mul // div
        return value


def _steps(start: tuple[int, int], end: tuple[int, int]) -> list[tuple[int, int]] | None:
    """The small factors ``(mul, div)`` taking ``comb(*start)`` to ``comb(*end)`` one
    step at a time, each division exact (``None`` when a step would leave
    ``0 < k < m``)."""
    m, k = start
    n, r = end
    out = []
    # keep 0 < k < m on the way: move r before n when n shrinks, after when it grows
    while (m, k) != (n, r):
        if k < r and k + 1 < m:
            out.append((m - k, k + 1))  # comb(m, k + 1)
            k += 1
        elif k > r:
            out.append((k, m - k + 1))  # comb(m, k - 1)
            k -= 1
        elif m < n:
            out.append((m + 1, m + 1 - k))  # comb(m + 1, k)
            m += 1
        elif m > n and m - 1 > k:
            out.append((m - k, m))  # comb(m - 1, k)
            m -= 1
        else:
            return None
    return out


def outside_weights(
    n_out: int, remaining: int, total_front: int, binomials: Binomials | None = None
) -> list[int]:
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
    value = binomials.comb(n_out, r) if binomials is not None else comb(n_out, r)
    w[lo] = value
    for t in range(lo + 1, hi + 1):
        # comb(n, r - 1) = comb(n, r) * r / (n - r + 1)
        value = value * r // (n_out - r + 1)
        r -= 1
        w[t] = value
    return w


@dataclass(frozen=True)
class Scale:
    """The factor :func:`scaled_weights` leaves out of the off-front weights:
    ``comb(n_out, low) / ((low + 1) * (low + 2) * ... * high)``.

    >>> Scale(5, 0, 2).value(), Scale(5, 1, 2).ratio(Scale(4, 1, 1))
    (Fraction(1, 2), Fraction(5, 8))
    """

    n_out: int
    low: int  # fewest mines the off-front cells can hold
    high: int  # most

    def value(self, binomials: Binomials | None = None) -> Fraction:
        """The factor, exactly (a huge binomial on a big board: remembered by
        ``binomials``)."""
        top = comb(self.n_out, self.low) if binomials is None else binomials.comb(
            self.n_out, self.low
        )
        return Fraction(top, _rising(self.low + 1, self.high))

    def ratio(self, other: Scale, reach: int = 4096) -> Fraction:
        """``self.value() / other.value()``, in small steps when the binomials are near."""
        start, end = (other.n_out, other.low), (self.n_out, self.low)
        near = abs(start[0] - end[0]) + abs(start[1] - end[1]) <= reach
        steps = _steps(start, end) if near else None
        if steps is None:
            return self.value() / other.value()
        num = den = 1
        for mul, div in steps:
            num *= mul
            den *= div
        return Fraction(
            num * _rising(other.low + 1, other.high), den * _rising(self.low + 1, self.high)
        )

    def log2(self) -> float:
        """``log2(self.value())``, approximately (a float; no huge integers)."""
        n, lo, hi = self.n_out, self.low, self.high
        nats = lgamma(n + 1) - lgamma(lo + 1) - lgamma(n - lo + 1) - lgamma(hi + 1) + lgamma(lo + 1)
        return nats / log(2)


ONE = Scale(0, 0, 0)  # the factor 1: weights left whole


def _rising(first: int, last: int) -> int:
    return prod(range(first, last + 1))


def scaled_weights(
    n_out: int, remaining: int, least: int, total_front: int, *, whole: bool | None = None
) -> tuple[list[int], Scale]:
    """The off-front weights for front mine counts ``t`` in ``least..total_front`` up
    to one common factor: ``comb(n_out, remaining - t) = w[t] * scale.value()``
    (``w[t]`` is 0 below ``least``, where the fronts' product is 0 anyway).

    ``w[t]`` is a product of ``high - low`` integers of at most ``n_out``: small when
    the fronts' counts vary by little.  When the whole binomials are smaller they are
    returned with the factor 1 (``whole``: always / never, for the tests).

    >>> scaled_weights(5, 3, 1, 4, whole=False)
    ([0, 20, 10, 2, 0], Scale(n_out=5, low=0, high=2))
    >>> scaled_weights(5, 3, 1, 4)  # small enough whole
    ([10, 10, 5, 1, 0], Scale(n_out=0, low=0, high=0))
    """
    w = [0] * (total_front + 1)
    lo = max(least, remaining - n_out, 0)  # below: too many mines outside
    hi = min(total_front, remaining)
    if lo > hi:
        return w, ONE
    low, high = remaining - hi, remaining - lo
    if whole is None:  # bits of the scaled weights against the whole binomials'
        whole = (high - low) * log(max(2, n_out)) >= Scale(n_out, low, low).log2() * log(2)
    if whole:
        return outside_weights(n_out, remaining, total_front), ONE
    # r = remaining - t mines outside: w = prod(n_out - j + 1, j = low+1..r) * prod(r+1..high)
    left = [1] * (high - low + 1)
    for r in range(low, high):
        left[r - low + 1] = left[r - low] * (n_out - r)
    right = 1
    for r in range(high, low - 1, -1):
        w[remaining - r] = left[r - low] * right
        right *= r
    return w, Scale(n_out, low, high)


def density_weights(density: Fraction, total_front: int) -> list[int]:
    """``w[t] = a**t * b**(total_front - t)`` for a prior mine probability ``a / (a + b)``:
    the relative weight of ``t`` mines on the fronts when cells are independent.

    >>> density_weights(Fraction(1, 4), 2)
    [9, 3, 1]
    """
    a = density.numerator
    b = density.denominator - a
    return [a**t * b ** (total_front - t) for t in range(total_front + 1)]


#: the fronts' least mine count from which taking it out first pays: below it the
#: copies cost more than the shorter join saves (expert positions' joins of 20 or 30
#: mines and small numbers; ``engine_bench.py --joins`` times the join always shifted)
SHIFT_MIN = 48


def least_mines(poly: list[int]) -> int:
    """The least mine count a front's polynomial allows (its first nonzero term; the
    last when none is: a front with no layout).

    >>> least_mines([0, 0, 3, 1]), least_mines([0, 0])
    (2, 1)
    """
    return next((k for k, v in enumerate(poly) if v), len(poly) - 1)


def front_weights(
    polys: list[list[int]], w_out: list[int], *, shift: bool | None = None
) -> tuple[list[np.ndarray], np.ndarray, list[np.ndarray]]:
    """Join the fronts through the mine count.

    Returns ``(g, product, tails)``: for each front c, ``g[c][k]`` is the weight of
    everything else when front c holds k mines,
    ``g_c[k] = sum_t P_{<c}[t] * T_{>c}[t + k]`` where ``P_{<c}`` is the product of the
    fronts before ``c`` and ``tails[c + 1][u]`` (``T_{>c}``) the weight of the fronts
    after ``c`` and the off-front cells when the fronts up to ``c`` hold ``u`` mines;
    ``product`` is the mine-count polynomial of all fronts together.  The arrays hold
    Python integers (numpy's loops over object arrays call the same operations
    without the interpreter between them).

    ``shift``: take each front's least mine count out first, so the join runs over the
    counts the fronts can really hold rather than from 0 (on boards of hundreds of small
    fronts the join takes 2-3x less time); ``None``, the default, does so when the least
    counts add up to :data:`SHIFT_MIN` or more.  Only when ``w_out`` has one weight per
    front mine count.  ``g[c][k]`` and ``tails[c][u]`` are then 0 below the least count
    of front ``c`` (of the fronts before ``c``): weights no layout meets.
    ``shift=False`` is the plain join, the reference.

    >>> g, product, _ = front_weights([[1, 2]], [3, 1])
    >>> g[0].tolist(), product.tolist()
    ([3, 1], [1, 2])
    >>> polys, w = [[0, 1, 2], [0, 3]], [0, 0, 5, 7]  # each front holds 1 mine or more
    >>> [x.tolist() for x in front_weights(polys, w, shift=True)[0]]
    [[0, 15, 21], [0, 19]]
    >>> [x.tolist() for x in front_weights(polys, w, shift=False)[0]]
    [[0, 15, 21], [10, 19]]
    """
    total = sum(len(p) - 1 for p in polys)
    lows: list[int] = []  # each front's least count: not looked for when it cannot pay
    if shift or (shift is None and total >= SHIFT_MIN):
        lows = [least_mines(p) for p in polys]
    least = sum(lows)
    if least < (SHIFT_MIN if shift is None else 1) or len(w_out) != total + 1:
        return _join([objects(p) for p in polys], objects(w_out))
    gs, product, tails = _join(
        [objects(p[low:]) for p, low in zip(polys, lows, strict=True)], objects(w_out[least:])
    )
    before = 0  # the least count of the fronts before c
    for c, low in enumerate(lows):
        gs[c] = _pad(low, gs[c])
        tails[c] = _pad(before, tails[c])
        before += low
    tails[-1] = _pad(before, tails[-1])
    return gs, _pad(least, product), tails


def _join(
    arrays: list[np.ndarray], w_out: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray, list[np.ndarray]]:
    """:func:`front_weights` on the arrays as given (the plain join)."""
    n = len(arrays)
    prefixes = [objects([1])]
    for p in arrays:
        prefixes.append(np.convolve(prefixes[-1], p))
    tails = [w_out]  # tails[j] = T after fronts n-j..n-1 are folded in
    for p in reversed(arrays):
        tails.append(_correlate(p, tails[-1], len(tails[-1]) - len(p) + 1))
    tails.reverse()  # tails[c] = weight given mines in fronts < c
    gs = []
    for c in range(n):
        # T_{>c}: tails[c + 1] indexed by mines in fronts <= c
        gs.append(_correlate(prefixes[c], tails[c + 1], len(arrays[c])))
    return gs, prefixes[n], tails


def _pad(zeros: int, values: np.ndarray) -> np.ndarray:
    """``values`` after ``zeros`` zeros (Python integers)."""
    if not zeros:
        return values
    out = np.zeros(zeros + len(values), dtype=object)  # the int 0, as objects() holds
    out[zeros:] = values
    return out


def _correlate(a: np.ndarray, t: np.ndarray, length: int) -> np.ndarray:
    """``out[u] = sum_m a[m] * t[u + m]`` for ``u`` in ``range(length)`` (``t`` is
    taken as zero past its end)."""
    need = len(a) + length - 1
    if len(t) < need:
        t = np.concatenate([t, objects([0] * (need - len(t)))])
    out: np.ndarray = np.correlate(t[:need], a, "valid")
    return out


def objects(values: list[int]) -> np.ndarray:
    """A 1-D numpy array of Python integers (exact, any size).

    >>> objects([2**70, 1]).tolist()
    [1180591620717411303424, 1]
    """
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out
