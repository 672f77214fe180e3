"""AI players for Minesweeper Flags, found by name like strategies.

* ``mc`` — the classic approach: rejection sampling of whole boards consistent
  with what is shown (``tries`` proposals per move, at most ``samples`` kept),
  then the cell most often a mine.  When no proposal fits, each cell's chance is
  the naive density: the largest ``mines still needed / covered cells`` among
  the numbers around it (mines left over covered cells, away from numbers).
* ``exact`` — exact mine probabilities from the engine; opens the likeliest mine.
* ``hard`` — exact probabilities plus strategy (:mod:`.flags_hard`).

Players see only a :class:`~minesolver.variants.flags.FlagsView` and return a
:class:`~minesolver.variants.flags.FlagsMove` with a reason.  Their random
choices come from a generator reseeded by :meth:`FlagsPlayer.new_game`.

>>> from minesolver.variants.flags import FlagsGame, find_flags_player
>>> player = find_flags_player("exact")
>>> player.new_game(seed=1)
>>> player.choose(FlagsGame(seed=5).view()).kind
'open'
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import Counter
from typing import Annotated, ClassVar

import numpy as np

from ...analysis import Analysis, analyze
from ...analysis.sampling import rejection_layouts
from ...codes import COVERED, FLAG, MINE, is_number
from ...options import Range
from ...position import Position
from ...registry import Registry
from ...rng import SplitMix64
from .game import FlagsMove, FlagsPlayerError, FlagsSetupError, FlagsView

__all__ = [
    "FLAGS_PLAYERS",
    "Exact",
    "FlagsPlayer",
    "MonteCarlo",
    "find_flags_player",
    "likeliest_cells",
    "naive_density",
    "register_flags_player",
]


class FlagsPlayer(ABC):
    """Base class: choose a move from what the player to move sees."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def __init__(self) -> None:
        self.label = self.name  # name plus options, as given to find_flags_player
        self.rng = SplitMix64(0)

    def new_game(self, seed: int) -> None:
        """Forget the previous game; ``seed`` drives tie-breaks and sampling."""
        self.rng = SplitMix64(seed)

    @abstractmethod
    def choose(self, view: FlagsView) -> FlagsMove:
        """The next move (the game is not over, so a covered cell exists)."""

    def pick(self, items: list[tuple[int, int]]) -> tuple[int, int]:
        """A seeded uniform pick, for tie-breaks."""
        return items[self.rng.below(len(items))]

    def work(self) -> dict[str, float]:
        """What the player did this game beyond its moves, for the store (``mc``: the
        boards it sampled and the seconds sampling took); empty by default."""
        return {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


FLAGS_PLAYERS = Registry[FlagsPlayer]("Flags player", FlagsPlayerError)
register_flags_player = FLAGS_PLAYERS.register


def find_flags_player(name: str) -> FlagsPlayer:
    """A new player called ``name``; options follow a colon: ``hard:bomb=off,endgame=0``.

    >>> find_flags_player("mc:samples=50").samples
    50
    >>> find_flags_player("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minesolver.variants.flags.game.FlagsPlayerError: unknown Flags player 'nope': ...
    """
    return FLAGS_PLAYERS.find(name)


def likeliest_cells(position: Position, analysis: Analysis) -> list[tuple[int, int]]:
    """Covered cells whose exact mine probability is the highest (ties all kept).

    >>> from minesolver.analysis import analyze
    >>> p = Position.from_text("3x1x1\\n1HH\\n")
    >>> likeliest_cells(p, analyze(p))
    [(0, 1)]
    """
    covered = np.frombuffer(position.cells, dtype=np.uint8).reshape(position.shape) == COVERED
    prob = np.where(covered, analysis.prob, -1.0)
    top = float(prob.max())
    rows, cols = np.nonzero(prob >= top - 1e-12)
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


@register_flags_player
class Exact(FlagsPlayer):
    """Exact probabilities: always open the likeliest mine."""

    name = "exact"
    summary = "exact mine probabilities: open the likeliest mine"

    def choose(self, view: FlagsView) -> FlagsMove:
        analysis = analyze(view.position)
        cell = self.pick(likeliest_cells(view.position, analysis))
        p = float(analysis.prob[cell])
        reason = "certain mine" if p == 1.0 else "likeliest mine"
        return FlagsMove(cell, reason=reason, probability=p)


@register_flags_player
class MonteCarlo(FlagsPlayer):
    """Rejection-sampled boards; open the cell most often a mine."""

    name = "mc"
    summary = "classic Monte Carlo: sampled consistent boards, the cell most often a mine"

    def __init__(
        self,
        *,
        samples: Annotated[int, Range(1, 100_000)] = 100,
        tries: Annotated[int, Range(1, 1_000_000)] = 1000,
    ) -> None:
        super().__init__()
        if samples < 1 or tries < 1:
            raise FlagsSetupError(
                f"mc needs positive samples and tries, got {samples} and {tries}"
            )
        self.samples = samples
        self.tries = tries
        self.boards = 0  # boards proposed this game
        self.sampling = 0.0  # seconds spent proposing them

    def new_game(self, seed: int) -> None:
        super().new_game(seed)
        self.boards = 0
        self.sampling = 0.0

    def work(self) -> dict[str, float]:
        """Boards sampled (proposed, kept or not) this game and the seconds it took.

        >>> from minesolver.variants.flags import FlagsGame
        >>> player = find_flags_player("mc:tries=20")
        >>> player.new_game(seed=1)
        >>> _ = player.choose(FlagsGame(seed=5).view())
        >>> player.work()["boards"]
        20
        """
        return {"boards": self.boards, "sampling_seconds": self.sampling}

    def choose(self, view: FlagsView) -> FlagsMove:
        position = view.position
        start = time.perf_counter()
        layouts, used = rejection_layouts(position, self.tries, self.rng, want=self.samples)
        self.sampling += time.perf_counter() - start
        self.boards += used
        covered = [i for i, code in enumerate(position.cells) if code == COVERED]
        if layouts:
            hits = Counter(c for layout in layouts for c in layout)
            estimate = {i: hits[i] / len(layouts) for i in covered}
            reason = (f"most often a mine in {len(layouts)} sampled boards" if len(layouts) > 1
                      else "a mine in the one board sampled (a guess, not a certainty)")
        else:
            estimate = naive_density(position)
            reason = "highest naive density (no sampled board fitted)"
        top = max(estimate[i] for i in covered)
        cell = self.pick([position.coords(i) for i in covered if estimate[i] >= top - 1e-12])
        return FlagsMove(cell, reason=reason, probability=top)


def naive_density(position: Position) -> dict[int, float]:
    """Each covered cell's naive mine chance: the largest ``needed / covered`` of the
    numbers around it, else the mines left over the covered cells.

    >>> naive_density(Position.from_text("4x1x2\\nH1HH\\n"))
    {0: 0.5, 2: 0.5, 3: 0.6666666666666666}
    """
    cells = position.cells
    grid = position.grid
    covered = [i for i, code in enumerate(cells) if code == COVERED]
    base = max(0.0, position.mines_left / len(covered)) if covered else 0.0
    estimate = dict.fromkeys(covered, base)
    touched: set[int] = set()
    for i, code in enumerate(cells):
        if not is_number(code):
            continue
        around = grid.neighbours(i)
        unknown = [j for j in around if cells[j] == COVERED]
        if not unknown:
            continue
        flagged = sum(1 for j in around if cells[j] in (FLAG, MINE))
        ratio = max(0.0, min(1.0, (code - flagged) / len(unknown)))
        for j in unknown:
            estimate[j] = ratio if j not in touched else max(estimate[j], ratio)
            touched.add(j)
    return estimate
