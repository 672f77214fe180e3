"""A small, fully specified random number generator for reproducible boards.

Python's :mod:`random` only promises that ``random()`` keeps its sequence across
versions; ``sample`` and ``randrange`` may change.  Boards must be the same on every
machine, process and Python version, so minesolver uses its own generator:

* **SplitMix64** (Steele, Lea & Flood 2014): the state is a 64-bit integer; each
  step adds ``0x9E3779B97F4A7C15`` and mixes the result with two xor-shift-multiply
  rounds.  It is a few lines in any language, so another solver can rebuild our
  boards bit for bit.
* Integers below ``n`` are drawn by rejection: take 64-bit outputs, reject those at
  or above the largest multiple of ``n`` that fits, return the remainder.  No bias.
* A seed of any size is folded to 64 bits by taking it modulo ``2**64``.

>>> rng = SplitMix64(42)
>>> [rng.below(10) for _ in range(5)]
[3, 1, 8, 4, 0]
"""

from __future__ import annotations

import secrets

__all__ = ["SplitMix64", "derive_seed", "new_seed"]

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class SplitMix64:
    """SplitMix64 generator; mutable, not thread-safe.

    >>> SplitMix64(0).next64()
    16294208416658607535
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + _GAMMA) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (``n`` up to 2**64)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Return a float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def sample(self, population: int, k: int) -> list[int]:
        """Choose ``k`` distinct integers from ``range(population)``, uniformly.

        A partial Fisher-Yates shuffle over a sparse map of swapped slots: time and
        memory grow with ``k``, not with ``population``.  The result is in draw
        order.

        >>> sorted(SplitMix64(1).sample(10, 3))
        [1, 5, 8]
        """
        if not 0 <= k <= population:
            raise ValueError(f"cannot choose {k} of {population}")
        swapped: dict[int, int] = {}
        out = []
        for i in range(k):
            j = i + self.below(population - i)
            vj = swapped.get(j, j)
            swapped[j] = swapped.get(i, i)
            out.append(vj)
        return out


def derive_seed(seed: int, *keys: int) -> int:
    """Derive an independent 64-bit seed from ``seed`` and integer keys.

    Used to give game ``i`` of a run the seed ``derive_seed(run_seed, i)``, so every
    game can be replayed on its own, by any worker, in any order.

    >>> derive_seed(7, 0) != derive_seed(7, 1)
    True
    """
    z = seed & _MASK
    for key in keys:
        z = _mix((z + _GAMMA * (1 + (key & _MASK))) & _MASK)
    return _mix((z + _GAMMA) & _MASK)


def new_seed(bits: int = 32) -> int:
    """A fresh random seed; 32 bits by default, short enough to type back.

    >>> 0 <= new_seed() < 2**32
    True
    """
    return secrets.randbits(bits)
