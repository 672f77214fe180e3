"""Game: the hidden layout, and reveal / flag / chord on it.

Mines are laid when the first cell is opened, uniformly at random among the
layouts the first-click rule allows (:func:`random_layout`).  The generator is
documented in :mod:`minesolver.rng`: ``SplitMix64(seed).sample(n, mines)`` draws
mine slots among the ``n`` cells the first click leaves unprotected (cells in
row-major order, protected cells skipped), so the same seed gives the same board on
every machine, process and Python version.

Another way of laying the mines is passed in as ``lay`` (a :data:`Layer`): no-guess
boards (``rules.no_guess``) are laid by :func:`minesolver.noguess.no_guess_layout`,
which needs the exact engine, a layer above this module.

>>> game = Game(Rules(9, 9, 10), seed=1)
>>> opened = game.reveal(0, 0)
>>> game.status, len(opened) > 0
('playing', True)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Literal

import numpy as np

from .codes import COVERED, FLAG, MINE
from .errors import GameOverError, IllegalMoveError, InputError, is_whole
from .geometry import Grid
from .minefield import FLAGGED, HIDDEN, OPEN, Layout, Minefield
from .noise import NoiseModel
from .position import Position
from .rng import SplitMix64, derive_seed, new_seed
from .rules import FIRST_CLICK_RULES, FirstClick, Rules, RulesError

__all__ = [
    "Game", "GameError", "Layer", "Layout", "Status", "first_click_broken", "paired_layout",
    "protected_cells", "random_layout",
]

Status = Literal["ready", "playing", "won", "lost"]

# lays the mines of a game: (rules, seed, the first click's flat index) -> layout
Layer = Callable[[Rules, int, int], Layout]


def protected_cells(rules: Rules, index: int) -> list[int]:
    """Cells the first click at ``index`` guarantees free of mines under ``rules``, sorted.

    >>> protected_cells(Rules(4, 3, 1, first_click="opening"), 0)
    [0, 1, 4, 5]
    """
    if rules.first_click == "none":
        return []
    if rules.first_click == "safe":
        return [index]
    return sorted([index, *Grid(rules.width, rules.height).neighbours(index)])


def first_click_broken(rules: Rules, layout: Layout, start: tuple[int, int]) -> str:
    """How ``layout`` breaks ``rules``' first-click promise for a first click at
    ``start``, or ``""`` when it keeps it (a game on such a board is lost by no
    fault of the player's, yet would be recorded as played under the rule).

    >>> first_click_broken(Rules(3, 1, 1), Layout(3, 1, (0,)), (0, 0))
    'has a mine at (0, 0), which --first-click safe forbids for the start (0, 0)'
    """
    mines = set(layout.mines)
    index = start[0] * layout.width + start[1]
    mine = next((c for c in protected_cells(rules, index) if c in mines), None)
    if mine is None:
        return ""
    return (f"has a mine at {divmod(mine, layout.width)}, which --first-click "
            f"{rules.first_click} forbids for the start {start}")


_PAIR_SALT = 0x9A1D  # the fallback draw of a paired layout, independent of the shared one


def paired_layout(rules: Rules, seed: int, first: int) -> Layout:
    """A layout shared by every first-click rule it satisfies: the seed's layout
    under no first-click rule when it keeps this rule's protected cells free, else
    this rule's own draw (from a salted seed).  Still uniform among the layouts the
    rule allows (a rejected shared draw is replaced by an independent uniform one),
    and the same seed gives the same board to ``safe`` and ``opening`` games
    whenever the first click's neighbourhood holds no mine.

    >>> a = paired_layout(Rules(9, 9, 10), seed=3, first=40)
    >>> a == paired_layout(Rules(9, 9, 10, first_click="opening"), seed=3, first=40)
    True
    """
    shared = random_layout(rules.with_first_click("none"), seed, first)
    mines = set(shared.mines)
    if not any(cell in mines for cell in protected_cells(rules, first)):
        return shared
    return random_layout(rules, derive_seed(seed, _PAIR_SALT), first)


def random_layout(rules: Rules, seed: int, first: int) -> Layout:
    """The seeded layout of a game whose first click is at flat index ``first``: uniform
    among the layouts the first-click rule allows.

    >>> random_layout(Rules(3, 1, 1), seed=1, first=0)
    Layout(width=3, height=1, mines=(2,))
    """
    keep = protected_cells(rules, first)
    slots = SplitMix64(seed).sample(rules.cells - len(keep), rules.mines)
    mines = []
    for cell in slots:
        for p in keep:  # keep is sorted: skip protected cells in order
            if p <= cell:
                cell += 1
        mines.append(cell)
    return Layout(rules.width, rules.height, tuple(mines))


class GameError(IllegalMoveError):
    """A move the game cannot take (a referee's question before the mines are laid)."""


class Game:
    """One game of Minesweeper.  Mutable: moves change it in place.

    >>> game = Game.from_layout(Layout(3, 1, (2,)))
    >>> game.reveal(0, 0)
    [(0, 0), (0, 1)]
    >>> game.status
    'won'
    """

    def __init__(
        self, rules: Rules, *, seed: int | None = None, lay: Layer | None = None
    ) -> None:
        if rules.no_guess and lay is None:
            raise RulesError(
                "a no-guess game needs its boards laid by minesolver.noguess: "
                "Game(rules, lay=no_guess_layout), as play_game does"
            )
        self.rules = rules
        self._layer: Layer = lay or random_layout
        self.grid = Grid(rules.width, rules.height)
        if seed is not None and (not is_whole(seed) or not 0 <= seed < 2**64):
            raise InputError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
        self.seed = new_seed() if seed is None else int(seed)
        self._state = bytearray(rules.cells)  # HIDDEN / OPEN / FLAGGED; the field's once laid
        self._field: Minefield | None = None
        self._status: Status = "ready"
        self._noise: NoiseModel | None = rules.noise
        # what each open cell shows, kept only when clues are noisy (else: its number)
        self._shown: bytearray | None = None
        self.first_click: tuple[int, int] | None = None
        self.exploded: tuple[int, int] | None = None
        self.clicks = 0

    @classmethod
    def from_layout(
        cls,
        layout: Layout,
        *,
        first_click: FirstClick = "none",
        noise: NoiseModel | str | None = None,
        seed: int = 0,
    ) -> Game:
        """A game on a fixed layout; the first click gets no protection.

        ``first_click`` is recorded in ``game.rules`` for reference only; ``seed``
        only drives what noisy clues show.
        """
        if first_click not in FIRST_CLICK_RULES:
            raise RulesError(f"unknown first-click rule {first_click!r}: expected one of "
                             f"{', '.join(FIRST_CLICK_RULES)}")
        rules = Rules(layout.width, layout.height, len(layout.mines), first_click="none")
        game = cls(rules.with_noise(noise), seed=seed)
        with contextlib.suppress(RulesError):  # a dense board: the rule is only a label
            game.rules = game.rules.with_first_click(first_click)
        game._lay(layout)
        return game

    # ----------------------------------------------------------------- layout
    def _lay(self, layout: Layout) -> None:
        self._field = Minefield(layout, self._state)
        if self._noise is not None:
            self._shown = bytearray(self.rules.cells)

    def _lay_random(self, first: int) -> None:
        rules = self.rules
        layout = self._layer(rules, self.seed, first)
        mined = set(layout.mines)
        if (layout.width, layout.height, len(mined)) != (rules.width, rules.height, rules.mines) \
                or any(p in mined for p in protected_cells(rules, first)):
            raise RuntimeError(f"the layer laid a board that breaks the rules {rules!r}")
        self._lay(layout)

    @property
    def layout(self) -> Layout | None:
        """The mine layout, or ``None`` before the first click of a random game."""
        return None if self._field is None else self._field.layout

    def _laid(self) -> Minefield:
        if self._field is None:
            raise GameError("no mines are laid before the first click")
        return self._field

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
        if self._field is None:
            return self.rules.cells - self.rules.mines
        return self._field.safe_left

    def _check_playable(self) -> None:
        if self.is_over:
            raise GameOverError(f"the game is over ({self._status})")

    def is_revealed(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` is open."""
        return self._state[self.grid.index(row, col)] == OPEN

    def is_flagged(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` carries a flag."""
        return self._state[self.grid.index(row, col)] == FLAGGED

    def is_mine(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` holds a mine (the hidden truth; for referees)."""
        index = self.grid.index(row, col)
        return self._laid().is_mine(index)

    # ------------------------------------------------------------------ moves
    def reveal(self, row: int, col: int) -> list[tuple[int, int]]:
        """Open a cell; zeros flood to their neighbours.

        Returns the cells opened, in opening order (the mine itself if it was one).
        Opening an open or flagged cell does nothing and returns ``[]``.
        """
        index = self.grid.index(row, col)
        self._check_playable()
        if self._state[index] != HIDDEN:
            return []
        if self._field is None:
            self._lay_random(index)
            self.first_click = (row, col)
        self.clicks += 1
        if self._status == "ready":
            self._status = "playing"
        return self.grid.coords_of(self._open_from([index]))

    def chord(self, row: int, col: int) -> list[tuple[int, int]]:
        """Open every unflagged neighbour of an open number whose flags match it.

        Does nothing (returns ``[]``) when the flags around it do not match.  With noisy
        clues the number is the one shown (a cell that shows none never chords): the
        true count would give away what the player cannot see.
        """
        index = self.grid.index(row, col)
        self._check_playable()
        field = self._field
        if field is None or self._state[index] != OPEN:
            return []
        around = self.grid.neighbours(index)
        state = self._state
        number = field.count[index] if self._shown is None else self._shown[index]
        if sum(1 for j in around if state[j] == FLAGGED) != number:  # a blank (12): never
            return []
        targets = [j for j in around if state[j] == HIDDEN]
        if not targets:
            return []
        self.clicks += 1
        return self.grid.coords_of(self._open_from(targets))

    def _open_from(self, starts: list[int]) -> list[int]:
        field = self._laid()
        opened: list[int] = []
        for start in starts:
            got = field.open(start)
            if got and field.mine[start]:
                opened.append(start)
                self._status = "lost"
                self.exploded = self.grid.coords(start)
                return opened
            opened.extend(got)
        if self._shown is not None:
            self._show(opened)
        if field.safe_left == 0:
            self._status = "won"
        return opened

    def _show(self, opened: list[int]) -> None:
        """Draw what each newly opened cell shows under the noise model."""
        assert self._field is not None and self._noise is not None and self._shown is not None
        count, grid = self._field.count, self.grid
        for i in opened:
            self._shown[i] = self._noise.show(count[i], grid.degree(i), self.seed, i)

    def flag(self, row: int, col: int) -> bool:
        """Put a flag on a covered cell; returns whether anything changed."""
        index = self.grid.index(row, col)
        self._check_playable()
        if self._state[index] != HIDDEN:
            return False
        self._state[index] = FLAGGED
        return True

    def unflag(self, row: int, col: int) -> bool:
        """Remove a flag; returns whether anything changed."""
        index = self.grid.index(row, col)
        self._check_playable()
        if self._state[index] != FLAGGED:
            return False
        self._state[index] = HIDDEN
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
        covered = np.where(state == FLAGGED, FLAG, COVERED).astype(np.uint8)
        if self._field is None:
            return Position(rules.width, rules.height, rules.mines, covered.tobytes())
        if self._shown is not None:
            shown = np.frombuffer(self._shown, dtype=np.uint8)
        else:
            shown = self._field.layout.counts
        cells = np.where(state == OPEN, shown, covered).astype(np.uint8)
        if self.exploded is not None:
            cells[self.grid.index(*self.exploded)] = MINE  # the exploded mine shows as a mine
        return Position(rules.width, rules.height, rules.mines, cells.tobytes())

    def number(self, row: int, col: int) -> int:
        """The number under a cell (for referees and variants)."""
        index = self.grid.index(row, col)
        return self._laid().count[index]

    def bbbv(self) -> int:
        """The board's 3BV (see :meth:`Layout.bbbv`).

        >>> Game.from_layout(Layout(3, 1, (2,))).bbbv()
        1
        """
        return self._laid().layout.bbbv()

    def __repr__(self) -> str:
        return f"<Game {self.rules!r} seed={self.seed} {self._status}>"
