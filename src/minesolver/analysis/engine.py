"""The exact engine: mine probabilities of every cell of a position.

Every layout of mines that agrees with the position is equally likely (the uniform
prior of a random board; the first-click rule is not modelled).  The engine

1. turns the position into clues over unknown cells and settles what the trivial
   rules settle (:mod:`.system`);
2. groups the rest into boxes and independent fronts (:mod:`.fronts`);
3. counts each front by number of mines, exactly, by dynamic programming along it
   (:mod:`.counting`);
4. joins the fronts and the off-front cells through the total mine count: if the
   fronts hold ``t`` mines, the ``O`` off-front cells hold the other ``R - t`` in
   ``comb(O, R - t)`` ways.  All weights are Python integers, so a 100x100 board
   with ~10**2000 layouts is still exact.

An :class:`Engine` keeps steps 1-3 for one evolving position (:mod:`.state`): a move
or a hypothesis rebuilds only the fronts next to the cells it changes.
:func:`analyze` is the one-shot convenience.

>>> a = analyze(Position.from_text("3x1x1\\n1HH\\n"))
>>> a.probability(0, 1), a.solutions
(Fraction(1, 1), 1)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np

from ..codes import BLANK, COVERED, FLAG, MINE
from ..errors import InputError, counted
from ..noise import SCALE, NoiseModel, parse_noise, soft_clue
from ..position import Position
from .cache import FrontCache
from .counting import FrontCount
from .joining import ONE, Binomials, density_weights, front_weights, objects, scaled_weights
from .result import Analysis, FrontSummary
from .state import State, Unit
from .system import InconsistentPositionError, SoftClue, closed_factor, known_mines

__all__ = ["Analysis", "Engine", "FrontSummary", "Outcome", "analyze"]


def analyze(
    position: Position,
    *,
    noise: NoiseModel | str | None = None,
    soft: SoftClue | None = None,
    density: Fraction | float | None = None,
) -> Analysis:
    """Exact mine probability of every cell of ``position``: a one-shot :class:`Engine`.

    Raises :class:`InconsistentPositionError` when no layout agrees with it.

    ``density`` drops the total mine count: every covered cell is then a mine
    independently with that prior probability, so a front layout with ``k`` of
    its ``n`` cells mined weighs ``d**k * (1 - d)**(n - k)`` and the cells away
    from the clues keep ``d`` (what a player who ignores the mine counter knows).

    >>> p = Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")
    >>> a = analyze(p)
    >>> a.solutions, a.probability(1, 1), a.probability(0, 0)
    (3, Fraction(2, 3), Fraction(0, 1))
    >>> q = Position.from_text("3x1x1\\n1HH\\n")  # the counter says (0, 2) is safe
    >>> analyze(q).probability(0, 2), analyze(q, density=Fraction(1, 5)).probability(0, 2)
    (Fraction(0, 1), Fraction(1, 5))
    """
    return Engine(position, noise=noise, soft=soft, density=density).analysis


def _density(density: Fraction | float | None) -> Fraction | None:
    """``density`` as an exact fraction strictly between 0 and 1 (a float as the
    decimal it prints as: 0.2 is 1/5, not the binary fraction nearest it)."""
    if density is None:
        return None
    try:
        exact = Fraction(repr(density)) if isinstance(density, float) else Fraction(density)
    except (TypeError, ValueError):
        raise InputError(f"density must be a number, got {density!r}") from None
    if not 0 < exact < 1:
        raise InputError(f"density must be between 0 and 1, got {density}")
    return exact


@dataclass(frozen=True)
class Outcome:
    """One number a cell may show when opened: its exact probability and the engine
    of the position that follows.

    ``probability = num / den`` is the chance, from the position before, that the
    cell is safe *and* shows ``shown`` (noise models included).
    """

    shown: int
    num: int
    den: int
    engine: Engine

    @property
    def probability(self) -> Fraction:
        """The exact chance of this outcome."""
        return Fraction(self.num, self.den)

    @property
    def chance(self) -> float:
        """:attr:`probability` as a float."""
        return self.num / self.den

    @property
    def analysis(self) -> Analysis:
        """The analysis of the position after the cell shows :attr:`shown`."""
        return self.engine.analysis


class Engine:
    """The analysis of one evolving position, kept up to date move by move.

    The engine owns the position's clue system as *components* (clues linked by
    shared covered cells, see :mod:`.components`), their fronts and per-front
    counts.  :meth:`update` (a move of the real game) and :meth:`hypothesis` (a
    position that differs in a few cells) rebuild only the components next to the
    changed cells; the front counts come from a bounded cache (:attr:`cache`, its
    size and hit rate visible).  :meth:`outcomes` answers "what if I open this
    cell": every number it may show, its exact probability and the analysis after.
    Noisy clues (``noise``) are weighed by their model's likelihoods.

    >>> e = Engine(Position.from_text("3x2x1\\nHHH\\n1HH\\n"))
    >>> e.analysis.probability(0, 0)
    Fraction(1, 3)
    >>> [(o.shown, o.probability) for o in e.outcomes((0, 0))]
    [(1, Fraction(2, 3))]
    >>> e.update(Position.from_text("3x2x1\\nHHH\\n11H\\n")).probability(0, 0)
    Fraction(1, 2)
    """

    def __init__(
        self,
        position: Position,
        *,
        noise: NoiseModel | str | None = None,
        soft: SoftClue | None = None,
        cache: FrontCache[FrontCount] | None = None,
        density: Fraction | float | None = None,
    ) -> None:
        if isinstance(noise, str):  # as Rules takes it: Engine(p, noise="cautious")
            noise = parse_noise(noise)
        self.noise = noise
        self.density = _density(density)  # a prior mine density instead of the mine count
        self.soft = soft if soft is not None else soft_clue(noise)
        self.cache: FrontCache[FrontCount] = cache if cache is not None else FrontCache()
        self.binomials = Binomials()  # the off-front binomials, shared with hypotheses
        self._state = State.scratch(position, self.soft, self.cache)
        self._analysis: Analysis | None = None

    # ------------------------------------------------------------------ public
    @property
    def position(self) -> Position:
        """The position the engine analyses now."""
        return self._state.position

    @property
    def analysis(self) -> Analysis:
        """The exact analysis of :attr:`position` (computed once)."""
        if self._analysis is None:
            self._analysis = self._analyse(self._state)
        return self._analysis

    def update(self, position: Position) -> Analysis:
        """Move on to ``position`` (the same board after some moves) and analyse it.

        Only the components next to the cells that changed are rebuilt.  Raises
        :class:`InconsistentPositionError` (the engine then keeps its old position).
        """
        state = self._state.derive(position, self.soft, self.cache)
        analysis = self._analyse(state)  # the mine count is checked here: keep the old on error
        self._state, self._analysis = state, analysis
        return analysis

    def hypothesis(self, changes: list[tuple[int, int]]) -> Engine:
        """A new engine for this position with ``changes`` (``(index, code)`` pairs)
        applied, sharing the cache and every component the changes do not touch.

        >>> e = Engine(Position.from_text("3x1x1\\nHHH\\n"))
        >>> e.hypothesis([(0, 1)]).analysis.probability(0, 1)
        Fraction(1, 1)
        """
        child = Engine.__new__(Engine)
        child.noise, child.soft, child.cache = self.noise, self.soft, self.cache
        child.binomials = self.binomials
        child.density = self.density
        position = self.position.with_cells(changes)
        at = [i for i, _ in changes]
        child._state = self._state.derive(position, self.soft, self.cache, at)
        child._analysis = None
        return child

    def outcomes(self, cell: tuple[int, int]) -> list[Outcome]:
        """Every number ``cell`` may show when opened, with its exact probability and
        the engine after it; the mine outcome is left out, so the chances add up to
        the cell's safety (noisy models: minus a true zero's share, which floods
        open instead of showing a number)."""
        if self.density is not None:
            raise ValueError("outcomes() needs the mine count: this engine has a density")
        position = self.position
        i = position.index(*cell)
        before = self.analysis
        cells = position.cells
        around = position.grid.neighbours(i)
        known = sum(1 for j in around if cells[j] in (FLAG, MINE))
        unknown = [j for j in around if cells[j] == COVERED]
        values: list[int]
        if self.soft is None:
            mines = sum(1 for j in unknown if before.is_mine(j))
            safe = sum(1 for j in unknown if before.is_safe(j))
            values = list(range(known + mines, known + len(unknown) - safe + 1))
        else:
            values = list(range(len(around) + 1))
            if self.noise is not None and self.noise.kind == "withheld":
                values.append(BLANK)
        out = []
        for v in values:
            try:
                child = self.hypothesis([(i, v)])
                after = child.analysis
            except InconsistentPositionError:
                continue
            num, den = self._scale(v, known, len(unknown), len(around))
            # the common factors left out of both counts, as one small fraction
            ratio = after.scale.ratio(before.scale)
            # noisy clues this one closes (no covered neighbour left, the cell itself
            # among them) weigh every layout alike: left out of the child's count
            clues = [j for j in (i, *around) if j == i or cells[j] <= 8 or cells[j] == BLANK]
            closed = closed_factor(child.position, clues, self.soft)
            out.append(
                Outcome(
                    v,
                    after.weight * ratio.numerator * num * closed,
                    before.weight * ratio.denominator * den,
                    child,
                )
            )
        return out

    # ------------------------------------------------------------------ inside
    def _scale(self, shown: int, known: int, unknown: int, total: int) -> tuple[int, int]:
        """``(num, den)`` turning a weighted count of a hypothesis into a probability:
        soft clues are scaled to integers by ``SCALE * 10**6``; a withheld model's
        exact number is shown only with probability ``p``, and its blank (a factor of 1
        in the counts) with ``1 - p``."""
        if self.soft is None:
            return (1, 1)
        if self.noise is None:
            raise ValueError("outcomes() of noisy clues need the noise model: Engine(noise=...)")
        if self.noise.kind == "withheld" and shown == BLANK:
            q = 1 - self.noise.exact_p
            return (q.numerator, q.denominator)
        if self.soft(shown, known, unknown, total) is not None:
            return (1, SCALE * 10**6)
        p = self.noise.exact_p
        return (p.numerator, p.denominator)

    def _analyse(self, state: State) -> Analysis:
        start = time.perf_counter()
        position = state.position
        known = known_mines(position)
        remaining = position.mines - known - state.settled_mines
        if remaining < 0:
            raise InconsistentPositionError(
                f"the clues need more than the {counted(position.mines - known, 'mine')} left"
            )
        units = sorted(state.units.values(), key=lambda u: u.cells[0])
        counts = [u.count for u in units]
        polys = [c.poly for c in counts]
        front_cells = sum(len(u.cells) for u in units)
        n_out = position.cells.count(COVERED) - state.settled_count - front_cells
        total_front = sum(len(p) - 1 for p in polys)
        if self.density is None:
            least = sum(c.min_mines for c in counts)
            w_out, scale = scaled_weights(n_out, remaining, least, total_front)
        else:
            w_out, scale = density_weights(self.density, total_front), ONE
        gs, prefix_all, _ = front_weights(polys, w_out)
        pw = prefix_all * objects(w_out)[: len(prefix_all)]
        z = int(pw.sum())
        if z == 0:
            _explain_mine_count(counts, position.mines - remaining, n_out, position)

        nums: list[int] = [0]  # group 0: cells the trivial rules cleared
        dens: list[int] = [1]
        sizes: list[int] = [state.settled_count - state.settled_mines]
        for unit, g in zip(units, gs, strict=True):
            zf, box_nums = unit.count.box_weights(g)
            assert zf == z, "front total disagrees with the board total"
            assert len(box_nums) == len(unit.box_sizes)
            nums.extend(box_nums)
            dens.extend([z * size for size in unit.box_sizes])
            sizes.extend(unit.box_sizes)
        if n_out and self.density is not None:
            nums.append(self.density.numerator)
            dens.append(self.density.denominator)
            sizes.append(n_out)
        elif n_out:
            num_out = int((pw * objects(list(range(remaining, remaining - len(pw), -1)))).sum())
            nums.append(num_out)
            dens.append(z * n_out)
            sizes.append(n_out)

        return Analysis(
            position,
            z,
            time.perf_counter() - start,
            nums,
            dens,
            sizes,
            partial(_grouping, state, units, n_out),
            [(c.front, c.min_mines, c.max_mines) for c in counts],
            scale,
            self.binomials,
        )


def _grouping(state: State, units: list[Unit], n_out: int) -> np.ndarray:
    """Per cell: its group in the analysis (see ``Analysis._cell_group``)."""
    grid = np.frombuffer(state.position.cells, dtype=np.uint8)
    group = np.where((grid == FLAG) | (grid == MINE), -2, -1).astype(np.int64)
    covered = grid == COVERED
    group[covered & (state.settled == 1)] = -2
    group[covered & (state.settled == 0)] = 0
    first = 1
    for unit in units:
        group[unit.box_cells] = unit.box_index + first
        first += len(unit.count.front.boxes)
    if n_out:
        group[_off_front(state)] = first
    return group


def _off_front(state: State) -> np.ndarray:
    """Covered cells next to no clue and not settled."""
    grid = np.frombuffer(state.position.cells, dtype=np.uint8)
    out: np.ndarray = np.flatnonzero((grid == COVERED) & (state.settled < 0) & (state.unit_of < 0))
    return out


def _explain_mine_count(
    counts: list[FrontCount], forced: int, n_out: int, position: Position
) -> None:
    """Why no layout has the position's mine count, in whole-board figures: ``forced``
    mines are flagged, known or forced by the clues; the fronts hold the rest."""
    lo = forced + sum(c.min_mines for c in counts)
    hi = forced + sum(c.max_mines for c in counts)
    where = ""
    clue: tuple[int, int] | None = None
    if counts:
        first = counts[0].front
        clue = first.coords(first.clues[0].at)
        where = f" (such as the one at {clue})"
    held = f"{lo}" if lo == hi else f"{lo} to {hi}"
    what = f"the clues{where} and flags hold {held} mine{'' if held == '1' else 's'}"
    mines = position.mines
    if mines < lo:
        raise InconsistentPositionError(f"no layout has {counted(mines, 'mine')}: {what}", clue)
    raise InconsistentPositionError(
        f"no layout has {counted(mines, 'mine')}: {what}, leaving at least {mines - hi} for "
        f"{counted(n_out, 'other cell')}",
        clue,
    )


