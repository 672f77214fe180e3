"""Review of a played game: every click against what the player could know, and the figures.

The game's clicks (:class:`~minesolver.replay.Replay`) are played again on minesolver's
own game.  Before each ``open`` and ``chord`` the position the player saw is analysed
with the player's flags taken off (flags are guesses, not information):

* the click's exact chance of hitting a mine (a chord: of any cell it opens);
* whether a certainly-safe cell was there (a guess while one was is **needless**);
* the safest cell's chance and, at a guess, the move ``best`` would have played
  (:func:`minesolver.advice.advise`);
* where few layouts are left (the endgame search's range), the exact win chance with
  perfect play before the click and after it: the chance the guess **gave up**.

At the end: the board's 3BV, openings, islands, ZiNi and HZiNi, and the game's 3BV
solved, time, 3BV/s, clicks, IOE, efficiency, correctness and throughput
(:mod:`minesolver.metrics`).  Everything is exact (ratios of exact layout counts; win
chances from the exhaustive endgame search) under the engine's model: every layout
that agrees with what is seen is equally likely; the game's first-click rule is not
modelled, and the first click is not judged.

>>> from minesolver.minefield import Layout
>>> from minesolver.replay import Click, ClickCounts, Replay
>>> clicks = (Click("open", (0, 0)), Click("open", (0, 3)))
>>> replay = Replay(Layout(4, 1, (1,)), clicks, 1.0, ClickCounts(2, 0, 0, 2), "log")
>>> review = review_game(replay)
>>> [(c.cell, c.probability, c.needless) for c in review.clicks]
[((0, 0), None, False), ((0, 3), Fraction(0, 1), False)]
>>> review.outcome, review.stats.bbbv, review.bbbv_solved
('won', 2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

import numpy as np

from .advice import Advice, advise
from .analysis import Analysis, analyze
from .codes import BLANK, COVERED, FLAG, is_number
from .errors import InconsistentPositionError, percent
from .game import Game
from .metrics import BoardStats, bbbv_solved, board_stats
from .position import Position
from .replay import Click, Replay, ReplayError
from .strategies.endgame import BudgetExceeded
from .strategies.worth import win_chances
from .survey import count_with, min_probability

__all__ = ["REVIEW_LAYOUTS", "ClickReview", "Review", "review_game"]

# the exact win chances go up to this many layouts: they come from the plain-Python
# search (every click's value, not only the best move's, which the compiled search
# does not give), whose cost past it grows fast; ``best`` plays its own search
# further (ENDGAME_LAYOUTS)
REVIEW_LAYOUTS = 1000


@dataclass(frozen=True)
class ClickReview:
    """One ``open`` or ``chord`` against the position the player saw before it.

    ``probability``: the exact chance it hits a mine (``None`` for the game's first
    click); ``safe_cells``: certainly-safe covered cells there were; ``needless``: a
    guess while there were; ``safest``: the lowest mine chance of any covered cell, and
    ``safest_cells`` (at most 8) the cells with it; ``advice``: ``best``'s move, at a
    guess; ``best_win`` / ``win``: the exact win chance with perfect play before the
    click and after it, where the endgame search reaches (else ``None``).
    """

    index: int  # position in the replay's clicks
    seen: Position  # what the player saw before it, flags included
    kind: str
    cell: tuple[int, int]
    time: float | None
    first: bool
    probability: Fraction | None = None
    safe_cells: int = 0
    safest: Fraction | None = None
    safest_cells: tuple[tuple[int, int], ...] = ()
    advice: Advice | None = None
    best_win: float | None = None
    win: float | None = None
    opened: int = 0  # cells it opened
    exploded: bool = False

    @property
    def guess(self) -> bool:
        """True when the click risked a mine."""
        return bool(self.probability)

    @property
    def needless(self) -> bool:
        """A guess while a certainly-safe cell was there to open."""
        return self.guess and self.safe_cells > 0

    @property
    def given_up(self) -> float | None:
        """The exact win chance this click gave up (0 for a perfect move)."""
        if self.best_win is None or self.win is None:
            return None
        return max(0.0, self.best_win - self.win)

    @property
    def text(self) -> str:
        """One line for people."""
        when = f" at {self.time:.2f} s" if self.time is not None else ""
        head = f"click {self.index + 1} {self.kind} {self.cell}{when}: "
        if self.first:
            lost = "; it hit a mine" if self.exploded else ""
            return head + f"the first click (not judged: the game's first-click rule decides){lost}"
        assert self.probability is not None
        if not self.guess:
            return head + "safe, a deduction"
        text = f"a guess at {percent(self.probability)} mine risk"
        safest = False  # no covered cell was safer than the one clicked
        if self.needless:
            were = "cell was" if self.safe_cells == 1 else "cells were"
            text += f"; needless: {self.safe_cells} certainly-safe {were} there"
        elif self.safest is not None and self.safest < self.probability:
            text += f"; the safest cell had {percent(self.safest)}"
        elif self.safest is not None:
            safest = True
            text += "; no cell was safer"
        if self.advice is not None and self.advice.cell != self.cell:
            if safest and self.advice.probability > self.probability:
                # best's lookahead weighs what a cell opens next, not its risk alone
                text += f"; best would risk more for what its cell may open: {self.advice.text}"
            else:
                text += f"; best: {self.advice.text}"
        elif self.advice is not None:
            text += f"; best's move too ({self.advice.reason})"
        if self.given_up is not None:
            assert self.best_win is not None and self.win is not None  # set together
            text += f"; win chance {percent(self.best_win)} best, {percent(self.win)} after this"
        if self.exploded:
            text += "; it hit a mine"
        return head + text


@dataclass(frozen=True)
class Review:
    """A game's clicks reviewed, and its figures."""

    replay: Replay
    clicks: tuple[ClickReview, ...]
    stats: BoardStats
    bbbv_solved: int
    won: bool

    @property
    def outcome(self) -> Literal["won", "lost", "unfinished"]:
        """``"won"``, ``"lost"`` (a click hit a mine) or ``"unfinished"`` (neither: the
        file ends with safe cells still covered)."""
        if self.won:
            return "won"
        return "lost" if any(c.exploded for c in self.clicks) else "unfinished"

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV solved per second of the game's time."""
        seconds = self.replay.seconds
        return self.bbbv_solved / seconds if seconds > 0 else None

    @property
    def ioe(self) -> float | None:
        """3BV solved per click (the index of efficiency)."""
        total = self.replay.counts.total
        return self.bbbv_solved / total if total else None

    @property
    def correctness(self) -> float | None:
        """Effective clicks per click."""
        counts = self.replay.counts
        return counts.effective / counts.total if counts.total else None

    @property
    def throughput(self) -> float | None:
        """3BV solved per effective click."""
        effective = self.replay.counts.effective
        return self.bbbv_solved / effective if effective else None

    @property
    def time_note(self) -> str | None:
        """A word of doubt when the file's time is far from its last click's (a damaged
        header: every per-second figure would be wrong), else ``None``.  The readers'
        times and last clicks agree to a tenth of a second on every sample replay."""
        times = [c.time for c in self.replay.clicks if c.time is not None]
        if not times:
            return None
        last, seconds = max(times), self.replay.seconds
        if abs(seconds - last) <= max(1.0, 0.05 * last):
            return None
        return (f"the file's time, {seconds:.3f} s, is far from its last click's, "
                f"{last:.3f} s: its header may be damaged")

    @property
    def guesses(self) -> list[ClickReview]:
        """The clicks that risked a mine."""
        return [c for c in self.clicks if c.guess]

    @property
    def survival(self) -> Fraction:
        """The exact chance of surviving every guess the player took."""
        chance = Fraction(1)
        for click in self.guesses:
            assert click.probability is not None
            chance *= 1 - click.probability
        return chance


def review_game(replay: Replay, *, endgame_layouts: int = REVIEW_LAYOUTS) -> Review:
    """Review every ``open`` and ``chord`` of ``replay`` (see the module's docstring).

    Raises :class:`~minesolver.replay.ReplayError` when the clicks cannot be followed
    on the board (the file's own replay opened other cells).
    """
    layout = replay.layout
    game = Game.from_layout(layout)
    reviewed: list[ClickReview] = []
    started = False
    for index, click in enumerate(replay.clicks):
        if game.is_over:
            break
        if click.kind in ("flag", "unflag"):
            (game.flag if click.kind == "flag" else game.unflag)(*click.cell)
            continue
        before = game.position()
        if click.kind == "open" and before.cells[before.index(*click.cell)] != COVERED:
            continue  # on a flag or an open cell: the click does nothing, nothing to judge
        if click.kind == "chord":
            targets = _chord_targets(before, click.cell)
            opened = game.chord(*click.cell)
        else:
            targets = [before.index(*click.cell)]
            opened = game.reveal(*click.cell)
        judged = _judge(before, click, index, targets, first=not started,
                        layouts=endgame_layouts)
        reviewed.append(_finish(judged, len(opened), game.is_lost))
        started = True
        _check(game, click, index, replay.name)
    position = game.position()
    opened_mask = np.array([is_number(code) for code in position.cells])
    return Review(
        replay=replay,
        clicks=tuple(reviewed),
        stats=board_stats(layout),
        bbbv_solved=bbbv_solved(layout, opened_mask),
        won=game.is_won,
    )


def _finish(judged: ClickReview, opened: int, exploded: bool) -> ClickReview:
    return replace(judged, opened=opened, exploded=exploded)


def _check(game: Game, click: Click, index: int, name: str) -> None:
    """The file's own replay opened as many cells after this click as ours did."""
    if click.opened is None or game.is_lost:  # a losing chord: readers differ in what shows
        return
    ours = sum(1 for code in game.position().cells if is_number(code))
    if ours != click.opened:
        raise ReplayError(
            f"{name}: cannot follow click {index + 1} ({click.kind} {click.cell}): "
            f"the file shows {click.opened} open cells after it, the board {ours}"
        )


def _chord_targets(position: Position, cell: tuple[int, int]) -> list[int]:
    """The covered, unflagged cells a chord on ``cell`` opens (when it opens any)."""
    cells = position.cells
    return [j for j in position.grid.neighbours(position.index(*cell)) if cells[j] == COVERED]


def _unflagged(position: Position) -> Position:
    cells = position.cells.replace(bytes([FLAG]), bytes([COVERED]))
    return Position(position.width, position.height, position.mines, cells)


def _judge(
    seen: Position, click: Click, index: int, targets: list[int], *, first: bool, layouts: int
) -> ClickReview:
    blank = ClickReview(index, seen, click.kind, click.cell, click.time, first)
    if first or not targets:
        return blank
    position = _unflagged(seen)
    try:
        analysis = analyze(position)
    except InconsistentPositionError:  # cannot happen on a real board: a bug, said plainly
        raise ReplayError(f"click {index + 1}: the position before it has no layout") from None
    total = analysis.solutions
    if len(targets) == 1:
        risk = analysis.probability(*position.coords(targets[0]))
    else:  # a chord is safe only if every cell it opens is
        safe = count_with(position.with_cells([(j, BLANK) for j in targets[1:]]), targets[0],
                          BLANK)[0]
        risk = 1 - Fraction(safe, total)
    safest = min_probability(analysis)
    safest_cells = tuple(_cells_at(analysis, safest))[:8] if safest is not None else ()
    advice = best_win = win = None
    if risk:
        advice = advise(position)
        if click.kind == "open" and total <= layouts:
            best_win, win = _win_chances(position, targets[0], layouts)
    return replace(blank, probability=risk, safe_cells=len(analysis.safe_indices), safest=safest,
                   safest_cells=safest_cells, advice=advice, best_win=best_win, win=win)


def _cells_at(analysis: Analysis, chance: Fraction) -> list[tuple[int, int]]:
    position = analysis.position
    out = []
    for i, code in enumerate(position.cells):
        if code == COVERED:
            num, den = analysis.exact(i)
            if num * chance.denominator == den * chance.numerator:
                out.append(position.coords(i))
    return out


def _win_chances(position: Position, index: int, layouts: int) -> tuple[float | None, float | None]:
    """The exact win chance with perfect play, and after opening ``index`` and playing
    perfectly from then on (both ``None`` when the search is too big)."""
    try:
        best, (after,) = win_chances(position, [position.coords(index)], max_layouts=layouts)
    except (ValueError, BudgetExceeded):
        return None, None
    return best, after
