"""Advice for a position: the move ``best`` would play and why, and what each cell may show.

Every figure is exact: a ratio of exact layout counts (every layout that agrees with
the position is equally likely, as in :mod:`minesolver.analysis`), turned into a float
only when printed.

* :func:`advise`: ``best``'s move (:mod:`minesolver.strategies.best`) with its reason
  (``deduction``, ``endgame`` with the exact win chance, ``forced`` 50/50, ``fifty``:
  a cell that is a mine only as one of a 50/50 no number will settle, ``guess``)
  and the :class:`Outlook` of its cell.  Where the endgame search cannot run compiled
  (numba missing, or a memory-capped process such as the web app's sandbox, which
  counts in Python), ``best`` searches only up to its Python range
  (:data:`~minesolver.strategies.best.PYTHON_ENDGAME`), so that one hint stays
  within a second or so rather than up to a minute.
* :func:`outlook`: what opening one cell may bring: the chance of each number it may
  show, of a zero, of new certainly-safe cells, and of surviving it *and* the next
  move (the safest cell of the position it leads to; certain when that has a safe cell).
* :mod:`minesolver.survey` adds the per-cell figures: chance of a zero, dead cells,
  50/50 pairs.

>>> from minesolver.position import Position
>>> advice = advise(Position.from_text("3x1x1\\n1HH\\n"))
>>> advice.cell, advice.reason, advice.probability
((0, 2), 'deduction', Fraction(0, 1))
>>> coin = advise(Position.from_text("2x1x1\\nHH\\n"))
>>> coin.reason, coin.win_chance, coin.outlook.dead
('endgame', 0.5, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .analysis import Engine
from .codes import COVERED
from .errors import InconsistentPositionError, percent
from .position import Position
from .strategies import Reason
from .strategies.best import Best
from .strategies.forced import forced_guess
from .survey import min_probability

__all__ = ["Advice", "Outlook", "advise", "outlook", "percent"]


@dataclass(frozen=True)
class Outlook:
    """What opening ``cell`` may bring, from exact layout counts.

    ``shows[v]``: the chance the cell is safe and shows ``v``; ``progress``: the
    chance it is safe and the position after it has a certainly-safe cell (a zero
    always does); ``survive_two``: the chance it is safe and so is the next move,
    that move being a certainly-safe cell when there is one, else the safest cell.

    >>> look = outlook(Position.from_text("3x1x1\\nHHH\\n"), (0, 0))
    >>> look.safety, look.zero, look.survive_two
    (Fraction(2, 3), Fraction(1, 3), Fraction(2, 3))
    """

    cell: tuple[int, int]
    probability: Fraction
    shows: dict[int, Fraction]
    progress: Fraction
    survive_two: Fraction

    @property
    def safety(self) -> Fraction:
        """The chance the cell is safe."""
        return 1 - self.probability

    @property
    def zero(self) -> Fraction:
        """The chance the cell shows a zero (it and all its neighbours are safe)."""
        return self.shows.get(0, Fraction(0))

    @property
    def dead(self) -> bool:
        """True when the cell may be a mine yet can show only one number: opening it
        risks a mine and teaches nothing (a certainly safe cell is never dead)."""
        return self.probability > 0 and len(self.shows) <= 1


@dataclass(frozen=True)
class Advice:
    """The move ``best`` would play, why, and what it may bring.

    ``win_chance``: the exact chance to win with perfect play from here (endgame
    moves only); ``group``: every cell of a forced guess (a group no number can ever
    tell apart, one of which must be opened), ``pair`` the other cell when it is a
    50/50 pair; ``safe_cells``: how many covered cells are certainly safe.
    """

    cell: tuple[int, int]
    reason: Reason
    probability: Fraction
    outlook: Outlook
    safe_cells: int
    win_chance: float | None = None
    pair: tuple[int, int] | None = None
    group: tuple[tuple[int, int], ...] = ()

    @property
    def text(self) -> str:
        """One line for people."""
        head = f"open {self.cell}: "
        look = self.outlook
        if self.reason == "deduction":
            more = f"{self.safe_cells} safe cell{'' if self.safe_cells == 1 else 's'}"
            return head + f"certainly safe (a deduction; {more} in all)"
        if self.reason == "forced" and self.pair is not None:
            return head + (
                f"an unavoidable 50/50 with {self.pair}; nothing can ever tell them apart"
            )
        if self.reason == "forced":
            others = ", ".join(str(cell) for cell in self.group if cell != self.cell)
            return head + (
                f"an unavoidable guess, {percent(self.outlook.safety)} safe, with "
                f"{others}; nothing can ever tell them apart, so one must be opened"
            )
        figures = (
            f"{percent(look.safety)} safe, {percent(look.survive_two)} to survive this "
            f"and the next move, {percent(look.zero)} a zero, {percent(look.progress)} "
            "new safe cells"
        )
        if self.reason == "fifty":
            return head + (
                "a mine only as one of a 50/50 that no number will ever settle, a risk "
                f"the game would ask for anyway; {figures}"
            )
        if self.reason == "endgame":
            assert self.win_chance is not None
            return head + (f"the endgame's best move, win chance {percent(self.win_chance)}; "
                           f"{figures}")
        return head + f"a guess: {figures}"


def outlook(position: Position, cell: tuple[int, int], *, engine: Engine | None = None
            ) -> Outlook:
    """What opening ``cell`` may bring (see :class:`Outlook`); exact.

    ``engine``: an :class:`~minesolver.analysis.Engine` of ``position`` (exact clues,
    the mine count: no noise, no density) to ask
    (:meth:`~minesolver.analysis.Engine.outcomes`: each number the cell may show is a
    hypothesis on it, rebuilding only the fronts next to the cell), made here if not
    given.
    """
    engine = engine if engine is not None else Engine(position)
    if engine.position != position:
        raise ValueError("the engine given analyses another position")
    if engine.noise is not None or engine.soft is not None or engine.density is not None:
        raise ValueError("the outlook needs an engine of exact clues and the mine count")
    index = position.index(*cell)
    if position.cells[index] != COVERED:
        raise InconsistentPositionError(f"cell {cell} is not a covered, unflagged cell", None)
    shows: dict[int, Fraction] = {}
    progress = survive = Fraction(0)
    for outcome in engine.outcomes(cell):
        chance, after = outcome.probability, outcome.analysis
        shows[outcome.shown] = chance
        if len(after.safe_indices):
            progress += chance
            survive += chance
        else:
            lowest = min_probability(after)
            survive += chance * (1 if lowest is None else 1 - lowest)
    return Outlook(cell, engine.analysis.probability(*cell), shows, progress, survive)


def advise(position: Position) -> Advice | None:
    """The move ``best`` would play in ``position`` and why; ``None`` when no covered
    cell is left to open (every covered cell, if any, is a certain mine).

    Raises :class:`~minesolver.errors.InconsistentPositionError` when no layout agrees
    with the position.

    >>> advice = advise(Position.from_text("3x2x1\\nHHH\\n1HH\\n"))
    >>> advice.cell, advice.reason
    ((0, 2), 'deduction')
    >>> advice.text
    'open (0, 2): certainly safe (a deduction; 2 safe cells in all)'
    """
    engine = Engine(position)
    analysis = engine.analysis
    if min_probability(analysis) is None:
        return None
    best = Best().within_python_range()
    move = best.moves(position)[0]
    pair = None
    group: tuple[tuple[int, int], ...] = ()
    if move.reason == "forced":
        group = tuple(position.coords(i)
                      for i in forced_guess(position, analysis, walled=best.walled,
                                           pseudo=best.pseudo))
        if len(group) == 2:
            pair = group[1] if group[0] == move.cell else group[0]
    return Advice(
        cell=move.cell,
        reason=move.reason,
        probability=analysis.probability(*move.cell),
        outlook=outlook(position, move.cell, engine=engine),
        safe_cells=len(analysis.safe_indices),
        win_chance=move.win_chance,
        pair=pair,
        group=group,
    )
