"""The floor and the classic naive baselines.

* ``random``: a uniformly random covered cell that is not a proven mine.
* ``max-constraint`` / ``mean-constraint``: open what the trivial and subset rules
  prove safe (in noisy games, where those rules do not hold, what the exact
  posterior proves safe); otherwise estimate each cell's risk from the clues around it, each
  clue spreading the mines it still needs evenly over its covered neighbours, a
  cell's risk being the max (resp. mean) of these shares; cells away from clues
  get the mines left divided by the covered cells left.  The lowest risk is
  opened (seeded random tie-break).

By default all three also ask the exact engine which cells are proven mines and
never open one: stronger than the baselines of the early CSP-solver literature.
The pure baselines of those studies switch it off (``engine=off``): their only
knowledge is what the cheap rules prove (the trivial and subset rules; ``subset=off``
or ``deduce=trivial`` keeps the trivial rule alone):

* ``random:deduce=subset,engine=off``: deductions, then a random cell;
* ``max-constraint:engine=off`` and ``mean-constraint:engine=off``.

In noisy games the cheap rules do not hold, so without the engine these prove
nothing and only guess.  A guess chosen without the engine is still reported with
its exact risk (the engine is asked after the choice, never before it).

>>> from minesolver.strategies import find_strategy
>>> find_strategy("max-constraint:engine=off").engine
False
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..analysis import Analysis, analyze
from ..analysis.deduce import Deductions, deduce
from ..analysis.partial import front_risks
from ..codes import COVERED, FLAG, MINE, is_number
from ..position import Position
from .base import Move, Strategy, StrategyError, register

__all__ = ["MaxConstraint", "MeanConstraint", "RandomStrategy", "fallback_moves"]


def not_proven_mines(position: Position, analysis: Analysis) -> list[tuple[int, int]]:
    """Covered, unflagged cells the exact analysis does not prove to be mines."""
    out = []
    for r, c in position.covered_cells():
        num, den = analysis.exact(r * position.width + c)
        if num != den:
            out.append((r, c))
    return out


DEDUCE = ("none", "trivial", "subset")


def _check_deduce(deduce: str) -> str:
    if deduce not in DEDUCE:
        raise StrategyError(f"deduce must be one of {', '.join(DEDUCE)}, not {deduce!r}")
    return deduce


def cheap_rules(position: Position, deduce_with: str, noisy: bool) -> Deductions:
    """What the cheap rules alone prove (``deduce_with``: none, trivial or subset);
    nothing in noisy games, where those rules do not hold."""
    if deduce_with == "none" or noisy:
        return Deductions([], [])
    return deduce(position, subset=deduce_with == "subset")


def reported_guess(strategy: Strategy, position: Position, cell: tuple[int, int]) -> Move:
    """A guess chosen without the exact engine (or, for ``tank:total=off``, without
    the mine counter), reported with its exact risk: the engine is asked only after
    the choice, so that the risks a game records mean the same for every strategy."""
    analysis = analyze(position, soft=strategy.soft)
    strategy.last_analysis = analysis
    return Move(cell, reason="guess", probability=float(analysis.prob[cell]))


@register
class RandomStrategy(Strategy):
    """Open a random covered cell (never a proven mine): the floor.

    ``engine=off`` stops asking the exact engine which cells are proven mines;
    ``deduce=trivial`` (or ``subset``) first opens what those rules prove safe
    and never opens what they prove mined.  ``random:deduce=trivial,engine=off``
    is the studies' "deductions, then a random guess" baseline.
    """

    name = "random"
    summary = "a random covered cell that is not a proven mine (the floor)"

    def __init__(self, *, deduce: str = "none", engine: bool = True) -> None:
        super().__init__()
        self.deduce = _check_deduce(deduce)
        self.engine = engine

    def moves(self, position: Position) -> list[Move]:
        found = cheap_rules(position, self.deduce, self.noise is not None)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        if self.engine:
            analysis = self.analyze(position)
            self.last_analysis = analysis
            cell = self.choice(not_proven_mines(position, analysis))
            return [Move(cell, reason="guess", probability=float(analysis.prob[cell]))]
        mines = set(found.mines)
        cell = self.choice([c for c in position.covered_cells() if c not in mines])
        return [reported_guess(self, position, cell)]


def _max(values: list[float]) -> float:
    return max(values)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def cheap_first(
    strategy: Strategy, position: Position, *, subset: bool = True
) -> tuple[Analysis, Deductions | Analysis]:
    """The exact analysis (kept to never open a proven mine) and what the cheap
    rules find (the trivial rule, and the subset rule unless ``subset=False``); in
    noisy games, where those rules do not hold, the analysis itself."""
    analysis = strategy.analyze(position, remember=True)
    strategy.last_analysis = analysis
    if strategy.noise is not None:
        return analysis, analysis
    return analysis, deduce(position, subset=subset)


def lowest_guess(
    strategy: Strategy,
    analysis: Analysis,
    allowed: list[tuple[int, int]],
    risk: Callable[[tuple[int, int]], float],
) -> list[Move]:
    """Open the allowed cell with the lowest estimated ``risk`` (seeded tie-break)."""
    best = min(risk(cell) for cell in allowed)
    cell = strategy.choice([c for c in allowed if risk(c) <= best + 1e-12])
    return [Move(cell, reason="guess", probability=float(analysis.prob[cell]))]


class _ConstraintStrategy(Strategy):
    combine: Callable[[list[float]], float]

    def __init__(self, *, engine: bool = True, subset: bool = True) -> None:
        super().__init__()
        self.engine = engine
        self.subset = subset

    def moves(self, position: Position) -> list[Move]:
        if self.engine:
            analysis, found = cheap_first(self, position, subset=self.subset)
        else:
            found = cheap_rules(position, "subset" if self.subset else "trivial",
                                self.noise is not None)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        w = position.width
        known = {r * w + c for r, c in found.mines}
        risk = naive_risk(position, known, self.combine)
        if self.engine:
            return lowest_guess(self, analysis, not_proven_mines(position, analysis),
                                lambda cell: float(risk[cell]))
        allowed = [c for c in position.covered_cells() if c[0] * w + c[1] not in known]
        best = min(float(risk[c]) for c in allowed)
        cell = self.choice([c for c in allowed if float(risk[c]) <= best + 1e-12])
        return [reported_guess(self, position, cell)]


def naive_risk(
    position: Position, known_mines: set[int], combine: Callable[[list[float]], float]
) -> np.ndarray:
    """Per-cell naive risk estimate (see the module docstring); shape ``(h, w)``."""
    w, h = position.width, position.height
    cells = position.cells
    grid = position.grid
    table = grid.table()
    shares: dict[int, list[float]] = {}
    for i, code in enumerate(cells):
        if not is_number(code):
            continue
        around = table[i] if table is not None else grid.neighbours(i)
        unknown = [j for j in around if cells[j] == COVERED and j not in known_mines]
        if not unknown:
            continue
        flagged = sum(1 for j in around if cells[j] in (FLAG, MINE) or j in known_mines)
        share = max(0.0, (code - flagged) / len(unknown))
        for j in unknown:
            shares.setdefault(j, []).append(share)
    covered = [i for i, code in enumerate(cells) if code == COVERED and i not in known_mines]
    left = position.mines - position.flag_count - len(known_mines)
    default = left / len(covered) if covered else 0.0
    risk = np.ones(w * h)
    for i in covered:
        risk[i] = combine(shares[i]) if i in shares else default
    return risk.reshape(h, w)


@register
class MaxConstraint(_ConstraintStrategy):
    """Naive baseline: a cell's risk is the largest share among its clues."""

    name = "max-constraint"
    summary = "deductions, else the cell whose largest per-clue mine share is lowest"
    combine = staticmethod(_max)


@register
class MeanConstraint(_ConstraintStrategy):
    """Naive baseline: a cell's risk is the mean share of its clues."""

    name = "mean-constraint"
    summary = "deductions, else the cell whose mean per-clue mine share is lowest"
    combine = staticmethod(_mean)


def fallback_moves(strategy: Strategy, position: Position) -> list[Move]:
    """Moves without the whole exact engine, for a position with a front too wide to
    count (:class:`~minesolver.errors.EngineLimitError`): the cheap rules' safe cells
    (exact clues only); else every other front counted exactly, each weighed alone
    with the density of the mines left (:func:`~minesolver.analysis.partial.front_risks`):
    the cells it proves safe, else the cell of lowest risk, the cells of the fronts
    too wide to count and those next to no clue estimated naively (``max-constraint``'s
    estimate).  Known mines of the game, and cells a counted front proves to be mines,
    are never opened.

    >>> from minesolver.strategies import find_strategy
    >>> moves = fallback_moves(find_strategy("best"), Position.from_text("4x2x2\\n1221\\nHHHH\\n"))
    >>> [(m.cell, m.reason) for m in moves]
    [((1, 0), 'deduction'), ((1, 3), 'deduction')]
    """
    known = set(strategy.known_mines)
    if strategy.noise is None:
        found = deduce(position)
        if found.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in found.safe]
        known |= {position.index(r, c) for r, c in found.mines}
    exact = front_risks(position, soft=strategy.soft)
    known |= {position.index(r, c) for (r, c), p in exact.items() if p == 1}
    allowed = [
        (r, c) for r, c in position.covered_cells() if position.index(r, c) not in known
    ]
    safe = [cell for cell in allowed if exact.get(cell) == 0]
    if safe:
        return [Move(cell, reason="deduction", probability=0.0) for cell in safe]
    risk = naive_risk(position, known, _max)
    for cell, p in exact.items():
        risk[cell] = float(p)
    best = min(float(risk[cell]) for cell in allowed)
    cell = strategy.choice([c for c in allowed if float(risk[c]) <= best + 1e-12])
    return [Move(cell, reason="guess", probability=float(risk[cell]))]
