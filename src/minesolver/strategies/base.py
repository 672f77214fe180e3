"""What a strategy is, what it returns, and the registry that finds one by name.

A strategy sees only what a player sees (a :class:`~minesolver.position.Position`)
and returns the next moves.  Strategies register themselves with
:func:`register`, exactly as an outside plug-in would, and are found with
:func:`find_strategy`.

>>> find_strategy("tank").name
'tank'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

import numpy as np

from ..analysis import Analysis, Engine
from ..analysis.cache import FrontCache
from ..analysis.counting import FrontCount
from ..codes import COVERED, FLAG, MINE
from ..errors import OptionError, percent
from ..noise import NoiseModel, SoftClue, soft_clue
from ..position import Position
from ..registry import Registry
from ..rng import SplitMix64
from ..rules import Rules

__all__ = [
    "STRATEGIES",
    "Move",
    "Reason",
    "Strategy",
    "StrategyError",
    "find_strategy",
    "register",
]

Reason = Literal["first", "deduction", "guess", "forced", "fifty", "region", "endgame"]


class StrategyError(OptionError):
    """An unknown strategy name, or an option it does not take."""


@dataclass(frozen=True)
class Move:
    """One move: open (``reveal``) or ``flag`` a cell, and why.

    ``probability`` is the cell's mine probability when chosen (0 for a
    deduction); ``win_chance`` is the exact chance to win from here when an
    endgame search chose the move.

    >>> Move((2, 3), reason="guess", probability=0.25)
    Move(cell=(2, 3), action='reveal', reason='guess', probability=0.25, win_chance=None)
    """

    cell: tuple[int, int]
    action: Literal["reveal", "flag"] = "reveal"
    reason: Reason = "deduction"
    probability: float | None = None
    win_chance: float | None = None

    def describe(self) -> str:
        """One line for people: ``open (3, 4): guess at 12.5%``."""
        verb = "open" if self.action == "reveal" else "flag"
        text = f"{verb} {self.cell}: {self.reason}"
        risky = self.reason in ("guess", "forced", "fifty", "region", "endgame")
        if risky and self.probability is not None:
            text += f" at {percent(self.probability)} mine risk"
        if self.win_chance is not None:
            text += f", win chance {percent(self.win_chance)}"
        return text


class Strategy(ABC):
    """Base class: pick moves for a position.

    Subclasses set ``name`` and ``summary`` and implement :meth:`moves`.  A
    strategy may keep state within a game; :meth:`new_game` resets it and
    reseeds its random generator, so the same game seed replays the same game.
    Asked about a position that cannot follow the last one (another board, a shown
    cell changed), it forgets what the last game proved.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def __init__(self) -> None:
        self.label = self.name  # name plus options, as given to find_strategy
        self.rng = SplitMix64(0)
        self.rules: Rules | None = None
        self.noise: NoiseModel | None = None
        self.soft: SoftClue | None = None
        self._last_analysis: Analysis | None = None
        self._unanalysed: Position | None = None  # see :meth:`defer_analysis`
        self.known_mines: set[int] = set()  # proven mines of the current game
        self.cache = FrontCache[FrontCount]()  # front counts, kept from game to game
        self._engine: Engine | None = None  # the current game's engine
        self._seen: Position | None = None  # the game's position analyze() saw last
        # a prior mine density instead of the total mine count (``tank:total=off``)
        self.density: Fraction | None = None

    def new_game(self, rules: Rules, seed: int) -> None:
        """Forget the previous game; ``seed`` drives tie-breaks and sampling.

        Noisy rules (``rules.noise``) switch :meth:`analyze` to the exact posterior
        of that noise model.
        """
        self.rules = rules
        self.rng = SplitMix64(seed)
        self.noise = rules.noise
        self.soft = soft_clue(self.noise)
        self.last_analysis = None
        self.known_mines = set()
        self._engine = None
        self._seen = None

    @property
    def last_analysis(self) -> Analysis | None:
        """The exact analysis of the position :meth:`moves` saw last (``None`` before
        the first), for observers such as the web app's Watch.  A strategy that
        answered that position without the engine (:meth:`defer_analysis`) has it
        computed here, when somebody asks."""
        if self._unanalysed is not None:
            position, self._unanalysed = self._unanalysed, None
            self._last_analysis = self.analyze(position, remember=True)
        return self._last_analysis

    @last_analysis.setter
    def last_analysis(self, analysis: Analysis | None) -> None:
        self._last_analysis = analysis
        self._unanalysed = None

    def defer_analysis(self, position: Position) -> None:
        """Note that :meth:`moves` answered ``position`` without an analysis; one is
        made only if :attr:`last_analysis` is read before the next position."""
        self._last_analysis = None
        self._unanalysed = position

    def analyze(self, position: Position, *, remember: bool = False) -> Analysis:
        """Exact analysis of ``position`` under this game's rules (noise included).

        Cells proven to be mines earlier in the game stay mines: they are passed
        to the engine as known mines, which saves it re-deriving them.  With
        ``remember`` (only for positions of the real game, never hypothetical
        ones) the mines this analysis proves join them.
        """
        if self._seen is not None and not _continues(self._seen, position, self.known_mines):
            # another game's position (a strategy asked about unrelated positions, or
            # a flag taken back): what this game proved does not hold there
            self.known_mines = set()
            self._engine = None
        self._seen = position
        known = self.known_mines
        if known:
            # arrays: a big board's game proves a hundred thousand mines
            cells = np.frombuffer(position.cells, dtype=np.uint8)
            at = np.fromiter(known, dtype=np.int64, count=len(known))
            at = at[cells[at] == COVERED]
            if len(at):
                marked = cells.copy()
                marked[at] = MINE
                position = Position(
                    position.width, position.height, position.mines, marked.tobytes()
                )
        if self._engine is None or self._engine.density != self.density:
            self._engine = Engine(
                position, noise=self.noise, cache=self.cache, density=self.density
            )
            analysis = self._engine.analysis
        else:
            analysis = self._engine.update(position)
        if remember:
            known.update(analysis.mine_indices.tolist())
        return analysis

    @property
    def analysis_engine(self) -> Engine:
        """The engine of the position :meth:`analyze` saw last (one per game: each
        call updates it with the cells that changed)."""
        if self._engine is None:
            raise RuntimeError("no position analysed yet in this game")
        return self._engine

    @abstractmethod
    def moves(self, position: Position) -> list[Move]:
        """The next moves for ``position`` (at least one while cells are covered)."""

    def choice(self, items: list[tuple[int, int]]) -> tuple[int, int]:
        """A seeded uniform pick, for tie-breaks."""
        return items[self.rng.below(len(items))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _continues(before: Position, after: Position, known: set[int]) -> bool:
    """Whether ``after`` can follow ``before`` in one game: the same board, only
    covered cells changed, and no proven mine among them shown open."""
    if (before.width, before.height, before.mines) != (after.width, after.height, after.mines):
        return False
    old = np.frombuffer(before.cells, dtype=np.uint8)
    new = np.frombuffer(after.cells, dtype=np.uint8)
    changed = np.flatnonzero(old != new)
    if bool((old[changed] != COVERED).any()):
        return False
    return all(new[i] in (FLAG, MINE) for i in changed.tolist() if i in known)


STRATEGIES = Registry[Strategy]("strategy", StrategyError)
register = STRATEGIES.register


def find_strategy(name: str) -> Strategy:
    """A new instance of the strategy called ``name``.

    Options follow a colon, comma separated: ``best:endgame=off,cutoff=0.8``
    (booleans take on/off, true/false, 1/0).

    >>> find_strategy("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minesolver.strategies.base.StrategyError: unknown strategy 'nope': expected one of best, ...
    """
    return STRATEGIES.find(name)
