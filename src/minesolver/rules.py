"""Game rules: board size, mine count, first-click policy, noise model, no-guess boards.

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
from typing import Literal, get_args

from .errors import InputError, counted, make_whole, quote
from .noise import NoiseModel, parse_noise

__all__ = [
    "BEGINNER",
    "EXPERT",
    "FIRST_CLICK_RULES",
    "INTERMEDIATE",
    "MAX_CELLS",
    "PRESETS",
    "FirstClick",
    "Rules",
    "RulesError",
]

FirstClick = Literal["safe", "opening", "none"]
FIRST_CLICK_RULES: tuple[FirstClick, ...] = get_args(FirstClick)

# The largest board any rules describe (a 4000x4000 board); commands and the web
# app set their own, smaller limits.
MAX_CELLS = 16_000_000


class RulesError(InputError):
    """Rules that cannot describe a playable game (sizes, mine count, names)."""


@dataclass(frozen=True)
class Rules:
    """Width x height x mines, plus what the first click is guaranteed.

    ``first_click``:

    * ``"safe"``: the first cell opened is never a mine;
    * ``"opening"``: the first cell and all its neighbours are mine-free, so the
      first click always opens an area (Windows 7 / modern clones);
    * ``"none"``: no protection.

    ``no_guess``: the board can be solved from the first click by deduction alone
    (drawn by :mod:`minesolver.noguess`); it needs exact clues and a protected first
    click.

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
    noise: NoiseModel | None = field(default=None, kw_only=True)  # see minesolver.noise
    no_guess: bool = field(default=False, kw_only=True)  # see minesolver.noguess

    def __post_init__(self) -> None:
        make_whole(self, ("width", "height", "mines"), RulesError)
        if self.width < 1 or self.height < 1:
            raise RulesError(f"board size must be positive, got {self.width}x{self.height}")
        if self.width * self.height > MAX_CELLS:
            raise RulesError(
                f"board {self.width}x{self.height} is too large: at most {MAX_CELLS:,} cells"
            )
        if self.mines < 0:
            raise RulesError(f"mine count must not be negative, got {self.mines}")
        if self.first_click not in FIRST_CLICK_RULES:
            raise RulesError(
                f"unknown first-click rule {self.first_click!r}: "
                f"expected one of {', '.join(FIRST_CLICK_RULES)}"
            )
        if isinstance(self.noise, str):  # a convenience: Rules(..., noise="cautious")
            object.__setattr__(self, "noise", parse_noise(self.noise))
        elif self.noise is not None and not isinstance(self.noise, NoiseModel):
            raise RulesError(f"noise must be a noise model, got {self.noise!r}")
        if not isinstance(self.no_guess, bool):
            raise RulesError(f"no_guess must be true or false, got {self.no_guess!r}")
        if self.no_guess and self.noise is not None:
            raise RulesError(
                "no-guess boards need exact clues: a noisy clue can always leave a guess"
            )
        if self.no_guess and self.first_click == "none":
            raise RulesError(
                "no-guess boards need a protected first click (first click safe or opening): "
                "with none the first click itself is a guess"
            )
        most = self.max_mines()
        if self.mines > most:
            guarantee = {
                "safe": "whose first click is safe",
                "opening": "whose first click opens an area (a 3x3 block kept free)",
                "none": "with at least one safe cell",
            }[self.first_click]
            verb = "does" if self.mines == 1 else "do"
            raise RulesError(
                f"{counted(self.mines, 'mine')} {verb} not fit on a {self.width}x{self.height} "
                f"board {guarantee}: at most {most}"
            )

    def max_mines(self, first_click: FirstClick | None = None) -> int:
        """The most mines these dimensions allow under this first-click rule (or
        ``first_click``'s).

        >>> Rules(9, 9, 10).max_mines(), Rules(9, 9, 10).max_mines("opening")
        (80, 72)
        """
        cells = self.width * self.height
        if (first_click or self.first_click) in ("none", "safe"):
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
            self.width, self.height, self.mines, first_click=first_click, noise=self.noise,
            no_guess=self.no_guess,
        )

    def with_noise(self, noise: NoiseModel | str | None) -> Rules:
        """The same board with a noise model (``None`` for the classic game)."""
        model = parse_noise(noise) if isinstance(noise, str) else noise
        return Rules(
            self.width, self.height, self.mines, first_click=self.first_click, noise=model,
            no_guess=self.no_guess,
        )

    def with_no_guess(self, no_guess: bool = True) -> Rules:
        """The same board, no-guess or not.

        >>> EXPERT.with_no_guess()
        Rules(30, 16, 99, first_click='safe', no_guess=True)
        """
        return Rules(
            self.width, self.height, self.mines, first_click=self.first_click, noise=self.noise,
            no_guess=no_guess,
        )

    def __str__(self) -> str:
        return f"{self.width}x{self.height}x{self.mines}"

    @property
    def noise_text(self) -> str | None:
        """The noise model as ``--noise`` writes it, or ``None`` for exact clues."""
        return None if self.noise is None else str(self.noise)

    def __repr__(self) -> str:
        noise = f", noise={str(self.noise)!r}" if self.noise is not None else ""
        no_guess = ", no_guess=True" if self.no_guess else ""
        return (
            f"Rules({self.width}, {self.height}, {self.mines}, "
            f"first_click={self.first_click!r}{noise}{no_guess})"
        )

    @classmethod
    def from_string(
        cls,
        text: str,
        *,
        first_click: FirstClick = "safe",
        noise: NoiseModel | str | None = None,
        no_guess: bool = False,
    ) -> Rules:
        """Parse a preset name (``expert``) or ``WxHxM`` (also ``WxH/M``).

        >>> Rules.from_string("Beginner")
        Rules(9, 9, 10, first_click='safe')
        >>> Rules.from_string("30x16/99", first_click="opening")
        Rules(30, 16, 99, first_click='opening')
        """
        key = text.strip().lower()
        if key in PRESETS:
            rules = PRESETS[key].with_first_click(first_click).with_noise(noise)
            return rules.with_no_guess(no_guess) if no_guess else rules
        match = re.fullmatch(r"(\d+)\s*[x×]\s*(\d+)\s*[x×/]\s*(\d+)", key)
        if match is None:
            names = ", ".join(PRESETS)
            raise RulesError(
                f"cannot read rules {quote(text)}: expected {names} or WxHxM like 30x16x99"
            )
        if any(len(g) > 9 for g in match.groups()):
            raise RulesError(f"rules {quote(text)} describe a board far too large to play")
        width, height, mines = (int(g) for g in match.groups())
        model = parse_noise(noise) if isinstance(noise, str) else noise
        return cls(width, height, mines, first_click=first_click, noise=model, no_guess=no_guess)


BEGINNER = Rules(9, 9, 10)
INTERMEDIATE = Rules(16, 16, 40)
EXPERT = Rules(30, 16, 99)
PRESETS: dict[str, Rules] = {
    "beginner": BEGINNER,
    "intermediate": INTERMEDIATE,
    "expert": EXPERT,
}

