"""Game rules: board size, mine count, first-click policy, and board geometry.

Coordinates are ``(row, col)`` from the top-left corner everywhere in minesolver;
a flat cell index is ``row * width + col``.

>>> EXPERT
Rules(30, 16, 99, first_click='safe')
>>> Rules.from_string("16x16x40", first_click="opening").cells
256
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, get_args

__all__ = [
    "BEGINNER",
    "EXPERT",
    "INTERMEDIATE",
    "PRESETS",
    "FirstClick",
    "Rules",
    "RulesError",
    "neighbour_table",
    "neighbours",
    "protected_cells",
]

FirstClick = Literal["safe", "opening", "none"]
FIRST_CLICK_RULES: tuple[str, ...] = get_args(FirstClick)


class RulesError(ValueError):
    """Rules that cannot describe a playable game (sizes, mine count, names)."""


@dataclass(frozen=True)
class Rules:
    """Width x height x mines, plus what the first click is guaranteed.

    ``first_click``:

    * ``"safe"``: the first cell opened is never a mine;
    * ``"opening"``: the first cell and all its neighbours are mine-free, so the
      first click always opens an area (Windows 7 / modern clones);
    * ``"none"``: no protection.

    >>> Rules(9, 9, 10).density
    0.12345679012345678
    >>> Rules(3, 3, 9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minesolver.rules.RulesError: 9 mines do not fit on a 3x3 board ...: at most 8
    """

    width: int
    height: int
    mines: int
    first_click: FirstClick = field(default="safe", kw_only=True)
    noise: str | None = field(default=None, kw_only=True)  # see minesolver.noise

    def __post_init__(self) -> None:
        for name in ("width", "height", "mines"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be an integer, got {value!r}")
        if self.width < 1 or self.height < 1:
            raise RulesError(f"board size must be positive, got {self.width}x{self.height}")
        if self.mines < 0:
            raise RulesError(f"mine count must not be negative, got {self.mines}")
        if self.first_click not in FIRST_CLICK_RULES:
            raise RulesError(
                f"unknown first-click rule {self.first_click!r}: "
                f"expected one of {', '.join(FIRST_CLICK_RULES)}"
            )
        if self.noise is not None:
            from .noise import parse_noise

            model = parse_noise(self.noise)  # raises NoiseError (a ValueError) if unreadable
            object.__setattr__(self, "noise", None if model is None else str(model))
        most = self.max_mines()
        if self.mines > most:
            guarantee = {
                "safe": "whose first click is safe",
                "opening": "whose first click opens an area",
                "none": "with at least one safe cell",
            }[self.first_click]
            raise RulesError(
                f"{self.mines} mines do not fit on a {self.width}x{self.height} board "
                f"{guarantee}: at most {most}"
            )

    def max_mines(self) -> int:
        """The most mines these dimensions and first-click rule allow."""
        cells = self.width * self.height
        if self.first_click == "none":
            return cells - 1
        if self.first_click == "safe":
            return cells - 1
        # an opening protects up to a 3x3 block; on narrow boards the block is smaller
        return cells - min(3, self.width) * min(3, self.height)

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.width * self.height

    @property
    def density(self) -> float:
        """Mines per cell."""
        return self.mines / self.cells

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``, the shape of arrays over the board."""
        return (self.height, self.width)

    def with_first_click(self, first_click: FirstClick) -> Rules:
        """The same board with another first-click rule."""
        return Rules(
            self.width, self.height, self.mines, first_click=first_click, noise=self.noise
        )

    def with_noise(self, noise: str | None) -> Rules:
        """The same board with a noise model (``None`` for the classic game)."""
        return Rules(
            self.width, self.height, self.mines, first_click=self.first_click, noise=noise
        )

    def __str__(self) -> str:
        return f"{self.width}x{self.height}x{self.mines}"

    def __repr__(self) -> str:
        noise = f", noise={self.noise!r}" if self.noise is not None else ""
        return (
            f"Rules({self.width}, {self.height}, {self.mines}, "
            f"first_click={self.first_click!r}{noise})"
        )

    @classmethod
    def from_string(
        cls, text: str, *, first_click: FirstClick = "safe", noise: str | None = None
    ) -> Rules:
        """Parse a preset name (``expert``) or ``WxHxM`` (also ``WxH/M``).

        >>> Rules.from_string("Beginner")
        Rules(9, 9, 10, first_click='safe')
        >>> Rules.from_string("30x16/99", first_click="opening")
        Rules(30, 16, 99, first_click='opening')
        """
        key = text.strip().lower()
        if key in PRESETS:
            return PRESETS[key].with_first_click(first_click).with_noise(noise)
        match = re.fullmatch(r"(\d+)\s*[x×]\s*(\d+)\s*[x×/]\s*(\d+)", key)
        if match is None:
            names = ", ".join(PRESETS)
            raise RulesError(f"cannot read rules {text!r}: expected {names} or WxHxM like 30x16x99")
        width, height, mines = (int(g) for g in match.groups())
        return cls(width, height, mines, first_click=first_click, noise=noise)


BEGINNER = Rules(9, 9, 10)
INTERMEDIATE = Rules(16, 16, 40)
EXPERT = Rules(30, 16, 99)
PRESETS: dict[str, Rules] = {
    "beginner": BEGINNER,
    "intermediate": INTERMEDIATE,
    "expert": EXPERT,
}


def neighbours(index: int, width: int, height: int) -> list[int]:
    """Flat indices of the (up to 8) cells around ``index``, in row-major order.

    >>> neighbours(0, 3, 3)
    [1, 3, 4]
    """
    row, col = divmod(index, width)
    out = []
    for r in range(max(0, row - 1), min(height, row + 2)):
        base = r * width
        for c in range(max(0, col - 1), min(width, col + 2)):
            if r != row or c != col:
                out.append(base + c)
    return out


# Boards up to this many cells get a cached neighbour table; larger boards compute
# neighbours on the fly so memory stays proportional to the board.
_TABLE_LIMIT = 250_000


@lru_cache(maxsize=16)
def _table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(neighbours(i, width, height)) for i in range(width * height))


def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...] | None:
    """A cached tuple of neighbour tuples for every cell, or ``None`` on huge boards.

    >>> neighbour_table(2, 2)[0]
    (1, 2, 3)
    """
    if width * height > _TABLE_LIMIT:
        return None
    return _table(width, height)


def protected_cells(rules: Rules, index: int) -> list[int]:
    """Cells the first click at ``index`` guarantees free of mines, under ``rules``.

    >>> protected_cells(Rules(4, 3, 1, first_click="opening"), 0)
    [0, 1, 4, 5]
    """
    if rules.first_click == "none":
        return []
    if rules.first_click == "safe":
        return [index]
    return sorted([index, *neighbours(index, rules.width, rules.height)])
