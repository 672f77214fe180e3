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

import os
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

from ..game import Layout
from ..position import COVERED, FLAG, Position
from ..rng import SplitMix64
from ..rules import Rules, neighbour_table, neighbours

__all__ = [
    "BOMB_SIZE",
    "FLAGS",
    "FlagsError",
    "FlagsGame",
    "FlagsMove",
    "FlagsTurn",
    "FlagsView",
    "bomb_square",
]

FLAGS = Rules(16, 16, 51, first_click="none")
BOMB_SIZE = 5  # the bomb opens a BOMB_SIZE x BOMB_SIZE square

MoveKind = Literal["open", "bomb"]


class FlagsError(ValueError):
    """A move the Flags game cannot take, or rules it cannot be played under."""


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
        minesolver.variants.flags.FlagsError: cannot read move 'x': expected ROW,COL or ...
        """
        match = re.fullmatch(
            r"\s*(bomb\s+|b\s+)?\(?\s*(\d+)\s*[,\s]\s*(\d+)\s*\)?\s*", text.lower()
        )
        if match is None:
            raise FlagsError(
                f"cannot read move {text!r}: expected ROW,COL or bomb ROW,COL (like 3,4)"
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
                else f" at {self.probability:.1%}"
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

    def __init__(self, rules: Rules = FLAGS, *, seed: int | None = None, first: int = 0) -> None:
        self._setup(rules, seed, first)
        self._lay(sorted(SplitMix64(self.seed).sample(rules.cells, rules.mines)))

    @classmethod
    def from_layout(cls, layout: Layout, *, first: int = 0) -> FlagsGame:
        """A game on a fixed layout (tests, replays).

        >>> FlagsGame.from_layout(Layout(2, 2, (3,))).layout.mines
        (3,)
        """
        rules = Rules(layout.width, layout.height, len(layout.mines), first_click="none")
        game = cls.__new__(cls)
        game._setup(rules, 0, first)
        game._lay(list(layout.mines))
        return game

    def _setup(self, rules: Rules, seed: int | None, first: int) -> None:
        if rules.noise is not None:
            raise FlagsError(f"Minesweeper Flags is played with exact clues, not {rules.noise}")
        if rules.mines < 1:
            raise FlagsError("Minesweeper Flags needs at least one mine")
        if first not in (0, 1):
            raise FlagsError(f"the first player is seat 0 or 1, got {first!r}")
        self.rules = rules.with_first_click("none")  # mines are laid before any click
        self.seed = int.from_bytes(os.urandom(8), "little") if seed is None else seed
        self.first = first
        cells = rules.cells
        self._table = neighbour_table(rules.width, rules.height)
        self._open = bytearray(cells)
        self._owner = [-1] * cells  # seat that claimed a mine
        self._scores = [0, 0]
        self._bombs = [False, False]
        self._turn: int | None = first
        self._winner: int | None = None
        self._over = False
        self.history: list[FlagsTurn] = []

    def _lay(self, mines: list[int]) -> None:
        self._mine = bytearray(self.rules.cells)
        for m in mines:
            self._mine[m] = 1
        self._count = bytes(
            sum(self._mine[j] for j in self._nbrs(i)) for i in range(self.rules.cells)
        )

    def _nbrs(self, index: int) -> tuple[int, ...] | list[int]:
        if self._table is not None:
            return self._table[index]
        return neighbours(index, self.rules.width, self.rules.height)

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
        w, h = self.rules.width, self.rules.height
        return Layout(w, h, tuple(i for i, m in enumerate(self._mine) if m))

    def owner(self, row: int, col: int) -> int | None:
        """The seat that claimed the mine at ``(row, col)``, if any."""
        seat = self._owner[self._index(row, col)]
        return None if seat < 0 else seat

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
        index = self._index(row, col)
        player = self._playing()
        if self._open[index]:
            what = "claimed" if self._mine[index] else "open"
            raise FlagsError(f"cell ({row}, {col}) is already {what}")
        opened: list[int] = []
        claimed: list[int] = []
        if self._mine[index]:
            self._claim(index, player, claimed)
        else:
            self._reveal(index, opened)
        return self._finish(player, move or FlagsMove((row, col)), opened, claimed,
                            again=bool(claimed))

    def bomb(self, row: int, col: int, *, move: FlagsMove | None = None) -> FlagsTurn:
        """Drop the player's bomb on the 5x5 square centred on ``(row, col)``."""
        index = self._index(row, col)
        player = self._playing()
        if self._bombs[player]:
            raise FlagsError(f"P{player + 1} has already used the bomb")
        if self._scores[player] >= self._scores[1 - player]:
            a, b = self._scores[player], self._scores[1 - player]
            raise FlagsError(f"P{player + 1} may bomb only while behind (score {a}-{b})")
        square = self.square(index)
        if all(self._open[i] for i in square):
            raise FlagsError(f"the 5x5 square around ({row}, {col}) has no covered cell")
        self._bombs[player] = True
        opened: list[int] = []
        claimed: list[int] = []
        for i in square:
            if not self._open[i]:
                if self._mine[i]:
                    self._claim(i, player, claimed)
                else:
                    self._reveal(i, opened)
        return self._finish(player, move or FlagsMove((row, col), "bomb"), opened, claimed,
                            again=False)

    def square(self, index: int) -> list[int]:
        """Flat indices of the bomb square centred on ``index``, clipped at the edges.

        >>> FlagsGame(Rules(3, 3, 1), seed=0).square(0)
        [0, 1, 2, 3, 4, 5, 6, 7, 8]
        """
        w, h = self.rules.width, self.rules.height
        return bomb_square(index, w, h)

    def _index(self, row: int, col: int) -> int:
        w, h = self.rules.width, self.rules.height
        if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < h and 0 <= col < w):
            raise FlagsError(f"cell ({row}, {col}) is off the {w}x{h} board")
        return row * w + col

    def _playing(self) -> int:
        if self._turn is None:
            result = "a draw" if self._winner is None else f"P{self._winner + 1} won"
            raise FlagsError(f"the game is over ({result})")
        return self._turn

    def _claim(self, index: int, player: int, claimed: list[int]) -> None:
        self._open[index] = 1
        self._owner[index] = player
        self._scores[player] += 1
        claimed.append(index)

    def _reveal(self, start: int, opened: list[int]) -> None:
        if self._open[start]:
            return
        self._open[start] = 1
        opened.append(start)
        queue = deque([start]) if self._count[start] == 0 else deque()
        while queue:
            for j in self._nbrs(queue.popleft()):
                if not self._open[j]:  # a zero has no mine around it
                    self._open[j] = 1
                    opened.append(j)
                    if self._count[j] == 0:
                        queue.append(j)

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
        w = self.rules.width
        turn = FlagsTurn(
            player=player,
            move=move,
            opened=tuple(divmod(i, w) for i in opened),
            claimed=tuple(divmod(i, w) for i in claimed),
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
        cells = bytes(
            (FLAG if self._mine[i] else self._count[i]) if self._open[i] else COVERED
            for i in range(self.rules.cells)
        )
        return Position(self.rules.width, self.rules.height, self.rules.mines, cells)

    def view(self) -> FlagsView:
        """What the player to move sees (players choose their moves from this)."""
        if self._turn is None:
            raise FlagsError("the game is over: nobody is to move")
        return FlagsView(self.position(), self._turn, self.scores, self.bombs_used)

    def state(self) -> dict[str, Any]:
        """The game as JSON-ready data; unclaimed mines appear only once it is over.

        ``board`` holds ``.mine`` rows (``H`` covered, ``F`` claimed, digits);
        ``claimed[s]`` the cells seat ``s`` claimed; ``mine_cells`` every mine,
        only when the game is over.

        >>> state = FlagsGame.from_layout(Layout(2, 1, (1,))).state()
        >>> state["board"], state["turn"], "mine_cells" in state
        (['HH'], 0, False)
        """
        w = self.rules.width
        text = self.position().to_text().splitlines()[1:]
        claimed: list[list[list[int]]] = [[], []]
        for i, seat in enumerate(self._owner):
            if seat >= 0:
                claimed[seat].append(list(divmod(i, w)))
        last = self.history[-1] if self.history else None
        data: dict[str, Any] = {
            "rules": str(self.rules),
            "width": w,
            "height": self.rules.height,
            "mines": self.rules.mines,
            "to_win": self.rules.mines // 2 + 1,
            "board": text,
            "claimed": claimed,
            "scores": list(self.scores),
            "mines_left": self.mines_left,
            "bombs_used": list(self.bombs_used),
            "can_bomb": [self.can_bomb(0), self.can_bomb(1)],
            "first": self.first,
            "turn": self._turn,
            "over": self._over,
            "winner": self._winner,
            "draw": self.is_draw,
            "last_move": None
            if last is None
            else {
                "player": last.player,
                "move": last.move.text(),
                "kind": last.move.kind,
                "cell": list(last.move.cell),
                "reason": last.move.reason,
                "opened": [list(c) for c in last.opened],
                "claimed": [list(c) for c in last.claimed],
            },
        }
        if self._over:
            data["mine_cells"] = [list(c) for c in self.layout.mine_cells()]
        return data

    def __repr__(self) -> str:
        status = "over" if self._over else f"P{(self._turn or 0) + 1} to move"
        a, b = self._scores
        return f"<FlagsGame {self.rules} seed={self.seed} {a}-{b} {status}>"


def bomb_square(index: int, width: int, height: int) -> list[int]:
    """Flat indices of the 5x5 square centred on ``index``, clipped at the board's edges.

    >>> bomb_square(0, 4, 4)
    [0, 1, 2, 4, 5, 6, 8, 9, 10]
    """
    row, col = divmod(index, width)
    half = BOMB_SIZE // 2
    return [
        r * width + c
        for r in range(max(0, row - half), min(height, row + half + 1))
        for c in range(max(0, col - half), min(width, col + half + 1))
    ]
