"""Statistics for win rates: Wilson intervals and McNemar's paired test.

>>> lo, hi = wilson(40, 100)
>>> round(lo, 4), round(hi, 4)
(0.3094, 0.498)
>>> r = mcnemar(30, 10, 1000)
>>> round(r.diff, 3), round(r.p_value, 5)
(0.02, 0.00222)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Mcnemar", "mcnemar", "percentile", "wilson"]

Z95 = 1.959963984540054


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Well behaved at 0 and ``games`` wins, unlike the normal approximation.

    >>> lo, hi = wilson(41, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.319, 0.508)
    """
    if games <= 0:
        return (0.0, 1.0)
    if not 0 <= wins <= games:
        raise ValueError(f"wins must be between 0 and {games}, got {wins}")
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    # at 0 and ``games`` wins the ends are exactly 0 and 1; rounding would leave ~1e-17
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True)
class Mcnemar:
    """Paired comparison of strategies A and B on the same games.

    ``a_only``: games A won and B lost; ``b_only``: the reverse.  ``diff`` is
    A's win rate minus B's, ``ci95`` its 95% interval (Wald interval for paired
    proportions), ``statistic`` McNemar's chi-square with continuity correction
    and ``p_value`` the exact two-sided binomial p-value.
    """

    a_only: int
    b_only: int
    games: int
    diff: float
    ci95: tuple[float, float]
    statistic: float
    p_value: float


def mcnemar(a_only: int, b_only: int, games: int, z: float = Z95) -> Mcnemar:
    """McNemar's test from the discordant pair counts over ``games`` paired games: A
    won 30 boards B lost and B 12 that A lost, of 1,000.

    >>> m = mcnemar(30, 12, 1000)
    >>> m.diff, round(m.p_value, 4)
    (0.018, 0.0079)
    """
    if min(a_only, b_only) < 0 or a_only + b_only > games:
        raise ValueError("discordant counts must be non-negative and at most the games played")
    n = games
    discordant = a_only + b_only
    diff = (a_only - b_only) / n if n else 0.0
    if n:
        var = max(0.0, discordant - (a_only - b_only) ** 2 / n) / (n * n)
        half = z * math.sqrt(var)
    else:
        half = 1.0
    statistic = (
        (abs(a_only - b_only) - 1) ** 2 / discordant if discordant else 0.0
    )
    return Mcnemar(
        a_only=a_only,
        b_only=b_only,
        games=n,
        diff=diff,
        ci95=(diff - half, diff + half),
        statistic=statistic,
        p_value=_binomial_two_sided(min(a_only, b_only), discordant),
    )


def _binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of seeing ``k`` or fewer of ``n`` fair coin flips."""
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return float(min(1.0, 2 * tail / 2**n))


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (``q`` in 0..100) of ``values``.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 95)
    5.0
    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50)
    3.0
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil
    return ordered[int(rank) - 1]
