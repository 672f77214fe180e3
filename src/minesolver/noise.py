"""Noisy clues: what a revealed cell shows, and the likelihood of what it shows.

Models (``--noise``):

* ``withheld:P`` — a revealed safe cell shows its number with probability ``P``,
  otherwise nothing (``.`` in ``.mine`` text);
* ``optimistic`` — the number shown is uniform between 0 and the true count;
* ``cautious`` — the number shown is uniform between the true count and the
  number of the cell's neighbours.

Zeros flood as usual: a cell whose *true* count is 0 opens its neighbours.  So a
revealed cell that still has covered neighbours has a true count of at least 1,
whatever it shows; the likelihoods include that fact.

The engine uses a clue's likelihood as a factor over the number of mines among
its unknown neighbours (:func:`soft_clue`); a hard clue is the factor that is 1
at its value and 0 elsewhere, so one counting code serves both.  Factors are
scaled to integers (by 2520, the least common multiple of 1..9) to stay exact.

>>> model = parse_noise("optimistic")
>>> model.likelihood(shown=1, true=2, neighbours=8, covered=3)
Fraction(1, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .codes import BLANK
from .errors import OptionError
from .rng import SplitMix64, derive_seed

__all__ = ["NOISE_KINDS", "NoiseError", "NoiseModel", "parse_noise", "soft_clue"]

SCALE = 2520  # lcm(1..9): every likelihood times SCALE is an integer
_SALT = 0x0015E

NoiseKind = Literal["withheld", "optimistic", "cautious"]
NOISE_KINDS: tuple[NoiseKind, ...] = ("withheld", "optimistic", "cautious")


class NoiseError(OptionError):
    """An unreadable noise model."""


@dataclass(frozen=True)
class NoiseModel:
    """A noise model: ``kind`` is withheld, optimistic or cautious; ``p`` for withheld.

    >>> parse_noise("withheld:0.25")
    NoiseModel(kind='withheld', p=0.25)
    """

    kind: NoiseKind
    p: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in NOISE_KINDS:
            raise NoiseError(
                f"unknown noise model {self.kind!r}: expected withheld:P, optimistic or cautious"
            )
        if not 0.0 <= self.p <= 1.0:  # also refuses nan
            raise NoiseError(f"withheld:P needs 0 <= P <= 1, got {self.p!r}")

    def __str__(self) -> str:
        if self.kind != "withheld":
            return self.kind
        short = f"{self.p:g}"  # withheld:0.5, not 0.5000; but never a rounded P
        return f"withheld:{short if float(short) == self.p else repr(self.p)}"

    @property
    def exact_p(self) -> Fraction:
        """``p`` as the decimal it was written as (``0.1`` is 1/10), exactly."""
        return Fraction(repr(self.p))

    def show(self, true: int, neighbours: int, seed: int, cell: int) -> int:
        """What cell ``cell`` shows (a number or ``BLANK``), drawn from its own seed.

        The draw depends only on the game seed and the cell, never on the order of
        play, so a replay shows the same numbers.
        """
        rng = SplitMix64(derive_seed(seed, _SALT, cell))
        if self.kind == "withheld":
            return true if rng.random() < self.p else BLANK
        if self.kind == "optimistic":
            return rng.below(true + 1)
        return true + rng.below(neighbours - true + 1)

    def likelihood(self, shown: int, true: int, neighbours: int, covered: int) -> Fraction:
        """P(the cell shows ``shown`` | its true count), given it has ``covered``
        covered neighbours (then it did not flood, so ``true >= 1``)."""
        if covered and true == 0:
            return Fraction(0)
        if self.kind == "withheld":
            if shown == BLANK:
                return 1 - self.exact_p
            return self.exact_p if shown == true else Fraction(0)
        if shown == BLANK or shown > neighbours:
            return Fraction(0)
        if self.kind == "optimistic":
            return Fraction(1, true + 1) if shown <= true else Fraction(0)
        return Fraction(1, neighbours - true + 1) if shown >= true else Fraction(0)


def parse_noise(text: str | None) -> NoiseModel | None:
    """``None``/``none`` for the classic game, else a :class:`NoiseModel`
    (``withheld`` alone is ``withheld:0.5``).

    >>> parse_noise("cautious").kind, parse_noise("withheld").p
    ('cautious', 0.5)
    """
    if text is None:
        return None
    key = text.strip().lower()
    if key in ("", "none"):
        return None
    if key in ("optimistic", "cautious"):
        return NoiseModel("optimistic" if key == "optimistic" else "cautious")
    if key == "withheld":
        return NoiseModel("withheld", 0.5)
    if key.startswith("withheld:"):
        value = key.removeprefix("withheld:")
        try:
            p = float(value)
        except ValueError:
            raise NoiseError(f"withheld:P needs a number P, got {text!r}") from None
        if not 0.0 <= p <= 1.0:
            raise NoiseError(f"withheld:P needs 0 <= P <= 1, got {text!r}")
        return NoiseModel("withheld", p)
    raise NoiseError(
        f"unknown noise model {text!r}: expected withheld:P, optimistic, cautious or none"
    )


SoftClue = Callable[[int, int, int, int], "tuple[int, ...] | None"]


def soft_clue(model: NoiseModel | None) -> SoftClue | None:
    """The engine's clue factor for a model (``None`` for the classic game).

    The returned function takes ``(shown, flags around, unknown around, neighbours)``
    and returns ``factor[n]`` for ``n`` mines among the unknown neighbours, scaled
    to integers; ``None`` means "a hard clue" (exactly ``shown`` mines).
    """
    if model is None:
        return None

    def factor(shown: int, flagged: int, unknown: int, neighbours: int) -> tuple[int, ...] | None:
        covered = flagged + unknown
        if model.kind == "withheld" and shown != BLANK and not (covered and shown == 0):
            if model.p == 0:  # this model never shows a number
                return (0,) * (unknown + 1)
            return None  # a shown number is exact
        if model.kind == "withheld" and shown == BLANK:
            # 1 - P whatever the count (but a zero, which would have flooded): a factor
            # the same in every layout, which only matters when it is 0
            blank = 0 if model.p == 1 else 1
            return tuple(0 if covered and n + flagged == 0 else blank for n in range(unknown + 1))
        return tuple(
            int(model.likelihood(shown, n + flagged, neighbours, covered) * SCALE * 10**6)
            for n in range(unknown + 1)
        )

    return factor
