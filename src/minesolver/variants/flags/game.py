"""Minesweeper Flags: two players race to claim more than half of the mines.

Rules as implemented (16x16 with 51 mines by default; any size works):

* Mines are laid when the game is created, uniformly at random (there is no
  first-click protection: the first click may hit a mine, which is good news in
  this game).  ``FlagsGame(rules, seed=s)`` lays ``SplitMix64(s).sample(cells,
  mines)``, so a seed gives the same board everywhere.
* Players (seats 0 and 1) alternate.  Opening a mine claims it for the player,
  who moves again; opening a safe cell shows its number (zeros flood as usual)
  and passes the turn.
* Claimed mines are shown to both players (``F`` in :meth:`FlagsGame.position`).
* Once per game, and only while strictly behind on score, a player may drop a
  **bomb** instead of opening a cell: every covered cell of the 5x5 square
  centred on the chosen cell (clipped at the edges) opens; its mines are claimed
  by the bomber, its safe cells show their numbers and zeros flood.  The bomb
  ends the turn, whatever it finds.  The square must hold a covered cell.
* The game ends as soon as the trailing player can no longer catch up (the
  leader has more than the trailer plus every unclaimed mine), in particular
  when a player holds more than half of the mines.  With an even mine count the
  players may share the mines equally: a draw.

Coordinates are ``(row, col)``; players are seat 0 and seat 1 (shown to people
as P1 and P2).

>>> game = FlagsGame.from_layout(Layout(3, 1, (0, 2)))
>>> game.open(0, 0).claimed, game.turn
(((0, 0),), 0)
>>> game.open(0, 1).opened, game.turn
(((0, 1),), 1)
>>> game.open(0, 2).claimed, game.is_over, game.is_draw
(((0, 2),), True, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ...codes import COVERED, FLAG
from ...errors import (
    GameOverError,
    IllegalMoveError,
    InputError,
    MinesolverError,
    OptionError,
    percent,
    quote,
)
from ...geometry import Grid
from ...minefield import HIDDEN, OPEN, Layout, Minefield
from ...position import Position
from ...rng import SplitMix64, new_seed
from ...rules import Rules

__all__ = [
    "BOMB_SIZE",
    "FLAGS",
    "FlagsError",
    "FlagsGame",
    "FlagsMove",
    "FlagsMoveError",
    "FlagsOverError",
    "FlagsPlayerError",
    "FlagsSetupError",
    "FlagsTurn",
    "FlagsView",
    "bomb_square",
]

FLAGS = Rules(16, 16, 51, first_click="none")
BOMB_SIZE = 5  # the bomb opens a BOMB_SIZE x BOMB_SIZE square

MoveKind = Literal["open", "bomb"]


class FlagsError(MinesolverError, ValueError):
    """Anything Minesweeper Flags refuses (one of the three kinds below)."""


class FlagsSetupError(FlagsError, InputError):
    """Rules, seats, players or move text the game cannot be played with."""


class FlagsPlayerError(FlagsSetupError, OptionError):
    """An unknown Flags player, or an option it does not take."""


class FlagsMoveError(FlagsError, IllegalMoveError):
    """A move the game cannot take now (an open cell, a bomb not allowed)."""


class FlagsOverError(FlagsMoveError, GameOverError):
    """A move after the game has ended."""


@dataclass(frozen=True)
class FlagsMove:
    """Open a cell, or drop the bomb centred on a cell; with the reason it was chosen.

    ``probability`` is the chosen cell's mine chance (for a bomb: the expected
    number of mines in its square), when the player knows it.

    >>> FlagsMove.from_text("bomb 3,4")
    FlagsMove((3, 4), 'bomb')
    >>> FlagsMove((0, 2)).text()
    '0,2'
    """

    cell: tuple[int, int]
    kind: MoveKind = "open"
    reason: str = ""
    probability: float | None = None

    def text(self) -> str:
        """``r,c`` for an open, ``bomb r,c`` for a bomb (what :meth:`from_text` reads)."""
        where = f"{self.cell[0]},{self.cell[1]}"
        return f"bomb {where}" if self.kind == "bomb" else where

    @classmethod
    def from_text(cls, text: str) -> FlagsMove:
        """Read ``r,c`` (also ``r c`` or ``(r, c)``) or ``bomb r,c``.

        >>> FlagsMove.from_text("x")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        minesolver.variants.flags.game.FlagsSetupError: cannot read move 'x': ...
        """
        match = re.fullmatch(
            r"\s*(bomb\s+|b\s+)?\(?\s*(\d{1,9})\s*[,\s]\s*(\d{1,9})\s*\)?\s*", text.lower()
        )
        if match is None:
            raise FlagsSetupError(
                f"cannot read move {quote(text, 40)}: expected ROW,COL or bomb ROW,COL (like 3,4)"
            )
        kind: MoveKind = "bomb" if match.group(1) else "open"
        return cls((int(match.group(2)), int(match.group(3))), kind)

    def describe(self) -> str:
        """One line for people: ``open (3, 4): likeliest mine at 62.5%``."""
        verb = "bomb around" if self.kind == "bomb" else "open"
        text = f"{verb} {self.cell}"
        if self.reason:
            text += f": {self.reason}"
        if self.probability is not None:
            text += (
                f", {self.probability:.2f} mines expected"
                if self.kind == "bomb"
                else f" at {percent(self.probability)}"
            )
        return text

    def __repr__(self) -> str:
        extra = "" if self.kind == "open" else f", {self.kind!r}"
        return f"FlagsMove({self.cell}{extra})"


@dataclass(frozen=True)
class FlagsTurn:
    """What one move did: who played it, the safe cells opened, the mines claimed."""

    player: int
    move: FlagsMove
    opened: tuple[tuple[int, int], ...]
    claimed: tuple[tuple[int, int], ...]
    next_turn: int | None  # None once the game is over


@dataclass(frozen=True)
class FlagsView:
    """What the player to move sees: the board, the scores and the bombs used.

    >>> view = FlagsGame(seed=1).view()
    >>> view.player, view.scores, view.to_win, view.can_bomb
    (0, (0, 0), 26, False)
    """

    position: Position
    player: int
    scores: tuple[int, int]
    bombs_used: tuple[bool, bool]

    @property
    def mines_left(self) -> int:
        """Mines nobody has claimed yet."""
        return self.position.mines - sum(self.scores)

    @property
    def to_win(self) -> int:
        """Mines that make a win certain: more than half."""
        return self.position.mines // 2 + 1

    @property
    def can_bomb(self) -> bool:
        """True when the player to move may drop the bomb now."""
        me, them = self.scores[self.player], self.scores[1 - self.player]
        return not self.bombs_used[self.player] and me < them


class FlagsGame:
    """One game of Minesweeper Flags.  Mutable: moves change it in place.

    ``first`` is the seat that moves first.  The hidden layout is laid at once.

    >>> game = FlagsGame(Rules(4, 4, 5), seed=7)
    >>> game.turn, game.scores, game.position().covered_count
    (0, (0, 0), 16)
    """

    def __init__(
        self,
        rules: Rules = FLAGS,
        *,
        seed: int | None = None,
        first: int = 0,
        layout: Layout | None = None,
    ) -> None:
        if rules.noise is not None:
            raise FlagsSetupError(
                f"Minesweeper Flags is played with exact clues, not {rules.noise}"
            )
        if rules.mines < 1:
            raise FlagsSetupError(f"Minesweeper Flags needs at least one mine, not {rules}")
        if first not in (0, 1):
            raise FlagsSetupError(f"the first player is seat 0 or 1, got {first!r}")
        self.rules = rules.with_first_click("none")  # mines are laid before any click
        self.seed = new_seed() if seed is None else seed
        self.first = first
        self.grid = Grid(rules.width, rules.height)
        if layout is None:
            mines = SplitMix64(self.seed).sample(rules.cells, rules.mines)
            layout = Layout(rules.width, rules.height, tuple(sorted(mines)))
        self._field = Minefield(layout)
        self._owner = [-1] * rules.cells  # seat that claimed a mine
        self._scores = [0, 0]
        self._bombs = [False, False]
        self._turn: int | None = first
        self._winner: int | None = None
        self._over = False
        self.history: list[FlagsTurn] = []

    @classmethod
    def from_layout(cls, layout: Layout, *, first: int = 0) -> FlagsGame:
        """A game on a fixed layout (tests, replays).

        >>> FlagsGame.from_layout(Layout(2, 2, (3,))).layout.mines
        (3,)
        """
        rules = Rules(layout.width, layout.height, len(layout.mines), first_click="none")
        return cls(rules, seed=0, first=first, layout=layout)

    # ------------------------------------------------------------------ state
    @property
    def turn(self) -> int | None:
        """The seat to move, or ``None`` once the game is over."""
        return self._turn

    @property
    def scores(self) -> tuple[int, int]:
        """Mines claimed by seat 0 and seat 1."""
        return (self._scores[0], self._scores[1])

    @property
    def bombs_used(self) -> tuple[bool, bool]:
        """Whether seat 0 and seat 1 have dropped their bomb."""
        return (self._bombs[0], self._bombs[1])

    @property
    def winner(self) -> int | None:
        """The winning seat, or ``None`` while playing or after a draw."""
        return self._winner

    @property
    def is_over(self) -> bool:
        """True once the result is decided."""
        return self._over

    @property
    def is_draw(self) -> bool:
        """True when the game ended with the mines shared equally."""
        return self._over and self._winner is None

    @property
    def mines_left(self) -> int:
        """Mines nobody has claimed yet."""
        return self.rules.mines - sum(self._scores)

    @property
    def layout(self) -> Layout:
        """The hidden layout (for referees and replays; players use :meth:`view`)."""
        return self._field.layout

    def owner(self, row: int, col: int) -> int | None:
        """The seat that claimed the mine at ``(row, col)``, if any."""
        seat = self._owner[self.grid.index(row, col)]
        return None if seat < 0 else seat

    def claimed(self, seat: int) -> list[tuple[int, int]]:
        """``(row, col)`` of every mine ``seat`` claimed, row-major."""
        return self.grid.coords_of(i for i, s in enumerate(self._owner) if s == seat)

    def can_bomb(self, player: int) -> bool:
        """True when ``player`` may drop the bomb now (unused and strictly behind)."""
        return (
            not self._over
            and not self._bombs[player]
            and self._scores[player] < self._scores[1 - player]
        )

    # ------------------------------------------------------------------ moves
    def play(self, move: FlagsMove) -> FlagsTurn:
        """Play a move for the player whose turn it is."""
        if move.kind == "bomb":
            return self.bomb(*move.cell, move=move)
        return self.open(*move.cell, move=move)

    def open(self, row: int, col: int, *, move: FlagsMove | None = None) -> FlagsTurn:
        """Open a covered cell for the player to move."""
        index = self.grid.index(row, col)
        player = self._playing()
        field = self._field
        if field.state[index] != HIDDEN:
            what = "claimed" if field.mine[index] else "open"
            raise FlagsMoveError(f"cell ({row}, {col}) is already {what}")
        opened: list[int] = []
        claimed: list[int] = []
        if field.mine[index]:
            self._claim(index, player, claimed)
        else:
            opened = field.open(index)
        return self._finish(player, move or FlagsMove((row, col)), opened, claimed,
                            again=bool(claimed))

    def bomb(self, row: int, col: int, *, move: FlagsMove | None = None) -> FlagsTurn:
        """Drop the player's bomb on the 5x5 square centred on ``(row, col)``."""
        index = self.grid.index(row, col)
        player = self._playing()
        field = self._field
        if self._bombs[player]:
            raise FlagsMoveError(f"P{player + 1} has already used the bomb")
        if self._scores[player] >= self._scores[1 - player]:
            a, b = self._scores[player], self._scores[1 - player]
            raise FlagsMoveError(f"P{player + 1} may bomb only while behind (score {a}-{b})")
        square = self.square(index)
        if all(field.state[i] != HIDDEN for i in square):
            raise FlagsMoveError(f"the 5x5 square around ({row}, {col}) has no covered cell")
        self._bombs[player] = True
        opened: list[int] = []
        claimed: list[int] = []
        for i in square:
            if field.state[i] == HIDDEN:
                if field.mine[i]:
                    self._claim(i, player, claimed)
                else:
                    opened.extend(field.open(i))
        return self._finish(player, move or FlagsMove((row, col), "bomb"), opened, claimed,
                            again=False)

    def square(self, index: int) -> list[int]:
        """Flat indices of the bomb square centred on ``index``, clipped at the edges.

        >>> FlagsGame(Rules(3, 3, 1), seed=0).square(0)
        [0, 1, 2, 3, 4, 5, 6, 7, 8]
        """
        return self.grid.square(index, BOMB_SIZE // 2)

    def _playing(self) -> int:
        if self._turn is None:
            result = "a draw" if self._winner is None else f"P{self._winner + 1} won"
            raise FlagsOverError(f"the game is over ({result})")
        return self._turn

    def _claim(self, index: int, player: int, claimed: list[int]) -> None:
        self._field.state[index] = OPEN
        self._owner[index] = player
        self._scores[player] += 1
        claimed.append(index)

    def _finish(
        self, player: int, move: FlagsMove, opened: list[int], claimed: list[int], *, again: bool
    ) -> FlagsTurn:
        lead, trail = max(self._scores), min(self._scores)
        if lead > trail + self.mines_left:
            self._over = True
            self._winner = self._scores.index(lead)
        elif self.mines_left == 0:
            self._over = True  # the mines are shared equally
        self._turn = None if self._over else (player if again else 1 - player)
        turn = FlagsTurn(
            player=player,
            move=move,
            opened=tuple(self.grid.coords_of(opened)),
            claimed=tuple(self.grid.coords_of(claimed)),
            next_turn=self._turn,
        )
        self.history.append(turn)
        return turn

    # ------------------------------------------------------------------ views
    def position(self) -> Position:
        """What both players see: numbers, claimed mines as flags, covered cells.

        >>> FlagsGame.from_layout(Layout(2, 1, (1,))).position().to_text()
        '2x1x1\\nHH\\n'
        """
        field = self._field
        layout = field.layout
        is_open = np.frombuffer(field.state, dtype=np.uint8) == OPEN
        shown = np.where(layout.mask == 1, FLAG, layout.counts)
        cells = np.where(is_open, shown, COVERED).astype(np.uint8).tobytes()
        return Position(self.rules.width, self.rules.height, self.rules.mines, cells)

    def view(self) -> FlagsView:
        """What the player to move sees (players choose their moves from this)."""
        if self._turn is None:
            raise FlagsOverError("the game is over: nobody is to move")
        return FlagsView(self.position(), self._turn, self.scores, self.bombs_used)

    def __repr__(self) -> str:
        status = "over" if self._over else f"P{(self._turn or 0) + 1} to move"
        a, b = self._scores
        return f"<FlagsGame {self.rules} seed={self.seed} {a}-{b} {status}>"


def bomb_square(index: int, width: int, height: int) -> list[int]:
    """Flat indices of the 5x5 square centred on ``index``, clipped at the board's edges.

    >>> bomb_square(0, 4, 4)
    [0, 1, 2, 4, 5, 6, 8, 9, 10]
    """
    return Grid(width, height).square(index, BOMB_SIZE // 2)
