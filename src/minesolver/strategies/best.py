"""``best``: minesolver's strongest strategy.

Its ideas, in the order a turn meets them, each an option so it can be measured
(``--strategy best:endgame=off``); what each is worth, paired over the same boards,
is in ``docs/strategies.md``:

1. **Deductions first.**  Every certainly-safe cell is opened before any risk is
   taken; a proven mine is never opened.  With ``floats`` (on) a board of at most
   :data:`~minesolver.analysis.floats.EXACT_ZERO_CELLS` cells gets its safe cells
   from one compiled call (:func:`~minesolver.analysis.floats.certain_safe`, exact
   there), and the exact engine runs only on the turns that need a guess.
2. **Endgame search** (``endgame``).  At most ``endgame_layouts`` (5,000) layouts
   left, the exhaustive game-tree search of :mod:`.endgame` plays the move with the
   highest exact chance of winning; past ``endgame_budget`` states it gives up and
   the rules below choose.
3. **Unavoidable guesses first** (``forced``, ``walled``; ``pseudo`` off).  A group
   no number can ever tell apart (:func:`.forced.forced_guess`) costs the same
   whenever it is opened, so one of its cells is opened at once, the one the
   lookahead likes best.  ``chains`` (on) then opens, however risky, a cell that is a
   mine only as the mine of a pair or 2x2 block no number could settle
   (:func:`.longterm.fifty_bound_cells`, JSMinesweeper's test: a heuristic, so its
   moves say ``fifty``).  ``chains_strict`` (on) takes only shapes walled in by
   known mines; off, JSMinesweeper's own limit (one undecided wall for a pair, two
   for a block).  ``regions`` (off) first plays a closed region (:mod:`.regions`) by the
   exact search over its own layouts.
4. **Lookahead tie-break** (``lookahead``).  Among the cells whose safety is within
   ``cutoff`` (0.9) of the safest, each is scored by what follows it: for every
   number it may show, that number's exact chance times the safety of the best next
   move (1 when a certainly-safe cell appears), blended with the second best
   (weight ``second``).  ``progress`` adds a bonus for the chance of new safe cells;
   ``depth=2`` values the position after by the lookahead score of its best next
   guess among the ``breadth`` safest (three moves deep).  On boards of up to
   :data:`FLOAT_PLY_CELLS` cells the last ply runs in floats (``floats``:
   :func:`~minesolver.analysis.floats.outcomes`, within ~1e-12 of the engine's
   fractions).  ``living`` (off) counts a safe cell as a next move only when it can
   still show more than one number.
5. **Dead cells avoided** (``dead``).  A cell that can show only one number tells
   nothing; it is chosen only when nothing else is as safe.
6. **Off-front candidates.**  Cells away from the clues join the candidates when
   within the cutoff: those with the fewest covered neighbours (corners and edges:
   more zeros); ``off_edge`` adds cells two steps from the open area.
7. **Long-term 50/50s** (``fifty``, 0: off).  A cell that may be the mine of a
   50/50 no clue can settle (:mod:`.longterm`) has its score multiplied by
   ``1 + fifty * I / S`` (``I`` such layouts, ``S`` those where it is safe);
   ``fifty_reach`` also makes candidates of the cells that boost lifts to the cutoff.
8. **Rollouts** (``rollouts``, 0: off).  Near-ties of the lookahead (within
   ``rollout_margin``) are played to the end on the same ``rollouts`` layouts drawn
   exactly from the position (:mod:`.rollouts`), by a cheap policy or by ``best``
   itself (``rollout_policy``): seconds per game, for studies.
9. **Sampled endgame search** (``sample``, 0: off).  Past the exact search's range,
   up to ``sample_layouts``, the game tree is searched over ``sample`` layouts drawn
   from the position (:func:`~minesolver.strategies.endgame.sampled_endgame_move`);
   optimistic estimates, for studies.

In noisy games (``rules.noise``) every probability is the exact posterior of the
noise model; the endgame search and the 50/50 rules, which assume exact numbers,
are off, and the lookahead weighs every number a cell may show by its probability.

>>> from minesolver.rules import BEGINNER
>>> from minesolver.play import play_game
>>> play_game(BEGINNER, Best(), seed=3).won
True
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

import numpy as np

from ..analysis import Analysis, Engine
from ..analysis.floats import FloatBoard, certain_safe
from ..analysis.floats import board as float_board
from ..analysis.floats import outcomes as float_outcomes
from ..analysis.kernels import kernel_in_use
from ..analysis.sampling import sample_layouts
from ..codes import COVERED, is_number
from ..geometry import neighbour_sum
from ..options import Range
from ..position import Position
from ..rules import Rules
from .base import Move, Strategy, StrategyError, register
from .endgame import Endgame, sampled_endgame_move
from .forced import forced_guess
from .longterm import fifty_bound_cells, fifty_influence, fifty_shape_mask
from .regions import region_move
from .rollouts import rollout_values

__all__ = [
    "ENDGAME_BUDGET",
    "ENDGAME_LAYOUTS",
    "FLOAT_PLY_CELLS",
    "PYTHON_ENDGAME",
    "Best",
]

# the float ply reads the whole board per number, the engine's only what a number
# changes: floats pay up to about this many cells (benchmarks/float_ply.py)
FLOAT_PLY_CELLS = 2500

# the endgame search's range and budget by default: worth +0.115 points per expert
# game over 300 layouts, +0.058 at 1,000 (benchmarks/endgame_worth.py, where no
# search passed this budget)
ENDGAME_LAYOUTS = 5000
ENDGAME_BUDGET = 3_000_000
# (layouts, budget) of the search where it cannot run compiled and must answer at
# once (advice in the web app's memory-capped sandbox): the range best had before
# the compiled search, about 20 times cheaper on average in Python
PYTHON_ENDGAME = (1000, 20_000)


@dataclass
class _Scored:
    cell: int
    safety: float
    score: float = 0.0
    dead: bool = False
    pruned: bool = False


@register
class Best(Strategy):
    """Exact probabilities plus endgame search, forced guesses and lookahead."""

    name = "best"
    summary = "exact + endgame search + forced guesses first + lookahead tie-break"

    def __init__(
        self,
        *,
        endgame: bool = True,
        endgame_layouts: Annotated[int, Range(0, 100_000)] = ENDGAME_LAYOUTS,
        endgame_budget: Annotated[int, Range(1, 100_000_000)] = ENDGAME_BUDGET,
        forced: bool = True,
        walled: bool = True,
        pseudo: bool = False,
        chains: bool = True,
        chains_strict: bool = True,
        regions: bool = False,
        lookahead: bool = True,
        dead: bool = True,
        off_edge: bool = False,
        cutoff: Annotated[float, Range(0.0, 1.0)] = 0.9,
        second: Annotated[float, Range(0.0, 1.0)] = 0.2,
        progress: Annotated[float, Range(0.0, 10.0)] = 0.0,
        depth: Annotated[int, Range(1, 4)] = 1,
        breadth: Annotated[int, Range(1, 64)] = 4,
        fifty: Annotated[float, Range(0.0, 10.0)] = 0.0,
        fifty_reach: bool = False,
        floats: bool = True,
        rollouts: Annotated[int, Range(0, 100_000)] = 0,
        rollout_top: Annotated[int, Range(2, 16)] = 4,
        rollout_margin: Annotated[float, Range(0.0, 1.0)] = 0.02,
        rollout_policy: str = "safest",
        sample: Annotated[int, Range(0, 100_000)] = 0,
        sample_layouts: Annotated[int, Range(1, 10**12)] = 100_000,
        sample_cutoff: Annotated[float, Range(0.0, 1.0)] = 0.9,
        sample_budget: Annotated[int, Range(1, 100_000_000)] = 20_000,
        living: bool = False,
    ) -> None:
        super().__init__()
        if rollout_policy not in ("safest", "best"):
            raise StrategyError(
                f"rollout_policy must be safest or best, not {rollout_policy!r}"
            )
        self.endgame = endgame
        self.endgame_layouts = endgame_layouts
        self.endgame_budget = endgame_budget
        self.forced = forced
        self.walled = walled
        self.pseudo = pseudo
        self.chains = chains
        self.chains_strict = chains_strict
        self.regions = regions
        self.lookahead = lookahead
        self.dead = dead
        self.off_edge = off_edge
        self.cutoff = cutoff
        self.second = second
        self.progress = progress
        self.depth = depth
        self.breadth = breadth
        self.fifty = fifty
        self.fifty_reach = fifty_reach
        self._boosts: dict[int, float] = {}  # this turn's fifty boosts, by cell
        self.floats = floats
        self.rollouts = rollouts
        self.rollout_top = rollout_top
        self.rollout_margin = rollout_margin
        self.rollout_policy = rollout_policy
        self.sample = sample
        self.sample_layouts = sample_layouts
        self.sample_cutoff = sample_cutoff
        self.sample_budget = sample_budget
        self.living = living
        self._player: Best | None = None  # plays the rollouts (rollout_policy=best)
        self._endgame: Endgame | None = None  # this game's endgame searches

    def new_game(self, rules: Rules, seed: int) -> None:
        super().new_game(rules, seed)
        self._endgame = None

    def within_python_range(self) -> Best:
        """Keep the endgame search to :data:`PYTHON_ENDGAME` (never widen it) where it
        cannot run compiled in this process (numba missing, or a memory cap: the web
        app's sandbox), for play that must answer at once: a hint, a watched game.
        Elsewhere, and for the results of a study, ``best`` stays itself.  Returns
        ``self``.

        >>> best = Best().within_python_range()
        >>> best.endgame_layouts in (ENDGAME_LAYOUTS, PYTHON_ENDGAME[0])
        True
        """
        if kernel_in_use() != "numba":
            layouts, budget = PYTHON_ENDGAME
            self.endgame_layouts = min(self.endgame_layouts, layouts)
            self.endgame_budget = min(self.endgame_budget, budget)
            self._endgame = None
        return self

    def moves(self, position: Position) -> list[Move]:
        self._boosts = {}
        found = None  # the compiled answer for the position, when floats are used
        floats = self.floats and self.noise is None and self.density is None
        if floats and len(position.cells) <= FLOAT_PLY_CELLS:
            found = float_board(position)
            # most turns only open proven-safe cells: that call finds them exactly,
            # and the engine catches up with the board at the next guess
            safe = certain_safe(position, found=found) if found else None
            if safe is not None and len(safe):
                self.defer_analysis(position)
                w = position.width
                return [
                    Move(divmod(i, w), reason="deduction", probability=0.0)
                    for i in safe.tolist()
                ]
        analysis = self.analyze(position, remember=True)
        self.last_analysis = analysis
        if analysis.safe:
            return [Move(cell, reason="deduction", probability=0.0) for cell in analysis.safe]
        exact_clues = self.noise is None  # endgame and 50/50 logic assume exact numbers
        if exact_clues and self.endgame and analysis.solutions_at_most(self.endgame_layouts):
            if self._endgame is None:
                self._endgame = Endgame(
                    max_layouts=self.endgame_layouts, budget=self.endgame_budget
                )
            result = self._endgame.move(position)
            if result is not None:
                return [
                    Move(
                        result.cell,
                        reason="endgame",
                        probability=1.0 - result.safety,
                        win_chance=result.win_chance,
                    )
                ]
        if exact_clues and self.regions:
            region = region_move(position, analysis)
            if region is not None:
                found_move = region.result
                return [Move(found_move.cell, reason="region",
                             probability=1.0 - found_move.safety)]
        if exact_clues and self.forced:
            group = forced_guess(position, analysis, walled=self.walled, pseudo=self.pseudo)
            if group:
                pick = group[0]
                # the number each may show differs: the lookahead chooses
                if (self.walled or self.pseudo) and self.lookahead:
                    pick = self._lookahead_among(group, analysis, found).cell
                cell = position.coords(pick)
                return [Move(cell, reason="forced", probability=float(analysis.prob[cell]))]
            if self.chains and len(position.cells) <= FLOAT_PLY_CELLS:
                bound = self._bound_pick(analysis, found)
                if bound is not None:
                    return [bound]
        candidates = self._candidates(position, analysis)
        if (exact_clues and self.endgame and self.sample and self.density is None
                and analysis.solutions_at_most(self.sample_layouts)):
            widest = (candidates if self.sample_cutoff == self.cutoff
                      else self._candidates(position, analysis, self.sample_cutoff))
            result = sampled_endgame_move(
                position,
                sample_layouts(position, self.sample, self.rng),
                {c.cell: c.safety for c in widest},
                budget=self.sample_budget,
            ) if len(widest) > 1 else None
            if result is not None:
                return [Move(result.cell, reason="guess", probability=1.0 - result.safety)]
        if self.lookahead and len(candidates) > 1:
            chosen = self._lookahead(self.analysis_engine, candidates, self.depth, found)
            if self.rollouts and self.noise is None and self.density is None:
                chosen = self._rollout(position, candidates, chosen)
        else:
            best = max(c.safety for c in candidates)
            chosen = self.rng_pick([c for c in candidates if c.safety >= best - 1e-12])
        cell = position.coords(chosen.cell)
        return [Move(cell, reason="guess", probability=1.0 - chosen.safety)]

    def _bound_pick(self, analysis: Analysis, found: FloatBoard | None) -> Move | None:
        """``chains``: the lookahead's pick among the cells that are a mine only as
        the mine of one unresolvable pair or block
        (:func:`.longterm.fifty_bound_cells`), however risky, unless it is dead
        (with ``lookahead=off``, the safest of them); ``None`` when there is none."""
        bound = fifty_bound_cells(self.analysis_engine,
                                  undecided=(0, 0) if self.chains_strict else (1, 2))
        if not bound:
            return None
        prob = analysis.prob.ravel()
        if self.lookahead:
            pick = self._lookahead_among(bound, analysis, found)
            if pick.dead:  # it would show nothing: JSMinesweeper does not take those either
                return None
            index = pick.cell
        else:  # no lookahead: the safest, as everywhere else
            index = min(bound, key=lambda i: float(prob[i]))
        cell = self.analysis_engine.position.coords(index)
        return Move(cell, reason="fifty", probability=float(prob[index]))

    def _lookahead_among(
        self, cells: list[int], analysis: Analysis, found: FloatBoard | None
    ) -> _Scored:
        """The lookahead's pick among ``cells`` (flat indices): a group taken first."""
        prob = analysis.prob.ravel()
        return self._lookahead(self.analysis_engine,
                               [_Scored(i, 1.0 - float(prob[i])) for i in cells],
                               self.depth, found)

    def rng_pick(self, items: list[_Scored]) -> _Scored:
        return items[self.rng.below(len(items))]

    # ---------------------------------------------------------------- candidates
    def _candidates(
        self, position: Position, analysis: Analysis, cutoff: float | None = None
    ) -> list[_Scored]:
        cutoff = self.cutoff if cutoff is None else cutoff
        # vectorised: a 1000x1000 board has a million off-front cells to look at
        codes = np.frombuffer(position.cells, dtype=np.uint8)
        prob = analysis.prob.ravel()
        covered = np.flatnonzero((codes == COVERED) & (prob < 1.0))
        safety_of = 1.0 - prob
        best = float(safety_of[covered].max())
        on_mask = analysis.front_mask
        on = covered[on_mask[covered]]
        on = on[safety_of[on] >= best * cutoff]
        out = [_Scored(i, s) for i, s in zip(on.tolist(), safety_of[on].tolist(), strict=True)]
        off = covered[~on_mask[covered]]
        if off.size:
            safety = float(safety_of[off[0]])  # off-front cells share one probability
            if not out or safety >= best * cutoff:
                # corner-like cells first: the fewer covered neighbours, the likelier a zero
                around = neighbour_sum((codes == COVERED).reshape(position.shape)).ravel()[off]
                out.extend(_Scored(i, safety) for i in off[around == around.min()].tolist())
                if self.off_edge and safety >= best * 0.95:
                    chosen = {c.cell for c in out}
                    on_front = set(np.flatnonzero(on_mask).tolist())
                    out.extend(
                        _Scored(i, safety)
                        for i in _off_edge_picks(position, off.tolist(), on_front)
                        if i not in chosen
                    )
        if self.fifty and self.fifty_reach and len(codes) <= FLOAT_PLY_CELLS:
            out.extend(self._fifty_reach(covered, safety_of, best * cutoff, {c.cell for c in out}))
        return out

    def _fifty_reach(
        self, covered: np.ndarray, safety_of: np.ndarray, bar: float, chosen: set[int]
    ) -> list[_Scored]:
        """Cells below the cutoff whose long-term 50/50 boost lifts them to it (as
        JSMinesweeper adds the cells its 50/50 influence lifts to its candidates).
        Only cells with a pair or block that needs at most one wall not yet known to
        be a mine are looked at (JSMinesweeper's own limit for pairs): past it the
        boost is too small to lift a cell, and each cell looked at costs hypotheses."""
        engine = self.analysis_engine
        floor = bar / (1.0 + self.fifty)  # no boost is larger than 1 + fifty
        shaped = fifty_shape_mask(engine, max_unknown_walls=1)
        out = []
        for i in covered[(safety_of[covered] >= floor) & shaped[covered]].tolist():
            if i in chosen:
                continue
            cand = _Scored(i, float(safety_of[i]))
            if cand.safety * self._fifty_boost(engine, cand) >= bar:
                out.append(cand)
        return out

    # ---------------------------------------------------------------- lookahead
    def _lookahead(
        self,
        engine: Engine,
        candidates: list[_Scored],
        depth: int,
        found: FloatBoard | None = None,
    ) -> _Scored:
        """The best of ``candidates`` by lookahead score; ``found`` is the compiled
        answer for ``engine``'s position, when the caller has it."""
        candidates.sort(key=lambda c: -c.safety)
        if depth < self.depth:  # a nested ply: only the safest few
            candidates = candidates[: self.breadth]
        best: _Scored | None = None
        top = depth == self.depth
        # with rollouts, the near-ties are kept too: the playouts settle them
        keep = 1.0 - self.rollout_margin if top and self.rollouts else 1.0
        for cand in candidates:
            boost = self._fifty_boost(engine, cand) if top else 1.0
            bound = cand.safety * (1.0 + self.progress) * boost  # no score can beat this
            if best is not None and not best.dead and bound <= best.score * keep:
                cand.pruned = True
                continue
            bar = None if best is None or best.dead else best.score * keep
            self._score(engine, cand, None if bar is None else bar / boost, depth, found)
            cand.score *= boost
            if cand.pruned:
                continue
            if best is None or _better(cand, best, self.dead):
                best = cand
        assert best is not None
        return best

    def _rollout(self, position: Position, candidates: list[_Scored], chosen: _Scored) -> _Scored:
        """Among the lookahead's near-ties (``candidates`` as :meth:`_lookahead` left
        them, scored), the one that wins most playouts (:func:`.rollouts.rollout_values`);
        ``chosen`` when it has no near-tie."""
        bar = chosen.score * (1.0 - self.rollout_margin)
        rivals = [
            c for c in candidates
            if c is not chosen and not c.pruned and c.score >= bar
            and (chosen.dead or not c.dead)
        ]
        if not rivals:
            return chosen
        rivals.sort(key=lambda c: (-c.score, -c.safety))
        close = [chosen, *rivals[: self.rollout_top - 1]]
        cells = [c.cell for c in close]
        player = self._playout_player()
        values = rollout_values(position, cells, self.rollouts, self.rng, policy=player)
        # the lookahead's pick (first) unless the playouts say another wins more
        best = max(range(len(close)), key=lambda k: values[k].value)  # first of equals
        return close[best]

    def _playout_player(self) -> Best | None:
        """``best`` with this one's options but no rollouts, for ``rollout_policy=best``."""
        if self.rollout_policy != "best":
            return None
        if self._player is None:
            names = inspect.signature(Best).parameters
            options = {name: getattr(self, name) for name in names}
            self._player = Best(**{**options, "rollouts": 0})
        if self.rules is not None:
            self._player.new_game(self.rules, 0)
        return self._player

    def _fifty_boost(self, engine: Engine, cand: _Scored) -> float:
        """``1 + fifty * I / S``: ``I`` the layouts in which the cell is the mine of a
        50/50 no clue can settle (:func:`.longterm.fifty_influence`), ``S`` those in
        which it is safe.  Opening it now takes a coin flip the game would ask for
        later anyway."""
        if not self.fifty or self.noise is not None:
            return 1.0
        if cand.cell in self._boosts:
            return self._boosts[cand.cell]
        influence = fifty_influence(engine, cand.cell)
        boost = 1.0
        if influence:
            analysis = engine.analysis
            mines, den = analysis.exact(cand.cell)
            safe = analysis.solutions * (den - mines) // den  # exact: counts pass 10**308
            boost = 1.0 + self.fifty * influence / safe
        self._boosts[cand.cell] = boost
        return boost

    def _score(
        self,
        engine: Engine,
        cand: _Scored,
        bar: float | None,
        depth: int = 1,
        found: FloatBoard | None = None,
    ) -> None:
        left = cand.safety
        score = 0.0
        progress = 0.0
        values = 0
        for chance, value, opens in self._outcomes(engine, cand.cell, depth, found):
            if bar is not None and (score + left) * (1.0 + self.progress) <= bar:
                cand.pruned = True
                cand.score = score + left
                return
            left -= chance
            values += 1
            score += chance * value
            if opens:
                progress += chance
        if self.noise is not None:
            # what no shown number accounts for: a true zero, which floods open its
            # neighbours (progress)
            score += max(0.0, left)
            progress += max(0.0, left)
            values += left > 1e-12
        cand.score = score * (1.0 + self.progress * progress)
        cand.dead = values <= 1

    def _outcomes(
        self, engine: Engine, cell: int, depth: int, found: FloatBoard | None = None
    ) -> Iterator[tuple[float, float, bool]]:
        """Per number ``cell`` may show: its chance, the value of the position after
        (:meth:`_next_value`) and whether that position has a certainly safe cell.
        The last ply of an exact-clue game on a board of at most
        :data:`FLOAT_PLY_CELLS` cells goes in floats (``floats``), one compiled call
        per number; the engine answers everything else."""
        position = engine.position
        coords = position.coords(cell)
        small = len(position.cells) <= FLOAT_PLY_CELLS
        if self.floats and small and depth <= 1 and self.noise is None:
            after = float_outcomes(position, coords, found=found)
            if after is not None:
                covered = np.frombuffer(position.cells, dtype=np.uint8) == COVERED
                covered[cell] = False
                for o in after:
                    if self.living:
                        blend = _living_blend(o.prob, covered, position.shape, self.second)
                    else:
                        blend = _blended_safety_of(o.prob[covered], self.second)
                    yield (o.chance, *blend)
                return
        for outcome in engine.outcomes(coords):
            value = self._next_value(outcome.engine, depth)
            yield outcome.chance, value, outcome.analysis.safe_count > 0

    def _next_value(self, engine: Engine, depth: int) -> float:
        """How good the position after a guess is: the blended safety of its best next
        move, or (``depth`` >= 2) the lookahead score of its best next guess."""
        after = engine.analysis
        if depth <= 1 or after.safe_count:
            if self.living:
                covered = np.frombuffer(after.position.cells, dtype=np.uint8) == COVERED
                return _living_blend(
                    after.prob.ravel(), covered, after.position.shape, self.second
                )[0]
            return _blended_safety(after, self.second)
        candidates = self._candidates(after.position, after)
        if not candidates:
            return 1.0
        if len(candidates) == 1:
            return candidates[0].safety
        return self._lookahead(engine, candidates, depth - 1).score


def _living_blend(
    prob: np.ndarray, covered: np.ndarray, shape: tuple[int, int], second: float
) -> tuple[float, bool]:
    """:func:`_blended_safety_of` (``prob`` flat over the board, ``covered`` its
    covered cells) counting only the safe cells :func:`_living_safe` keeps."""
    undecided = covered & (prob > 1e-12) & (prob < 1.0 - 1e-9)
    risks = prob[undecided]
    lowest = np.partition(risks, 1)[:2].tolist() if risks.size > 1 else risks.tolist()
    living = int(_living_safe(prob, covered, shape).sum())
    lowest = ([0.0] * min(living, 2) + lowest)[:2]
    return _blend(living, lowest, second), bool((covered & (prob < 1e-12)).any())


def _living_safe(prob: np.ndarray, covered: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The certainly-safe covered cells with an undecided covered neighbour, as
    JSMinesweeper counts living tiles: one without shows a number known in advance,
    so opening it tells nothing and is no next move (flat mask)."""
    undecided = covered & (prob > 1e-12) & (prob < 1.0 - 1e-9)
    safe = covered & (prob < 1e-12)
    out: np.ndarray = safe & (neighbour_sum(undecided.reshape(shape)).ravel() > 0)
    return out


def _better(a: _Scored, b: _Scored, avoid_dead: bool) -> bool:
    if avoid_dead and a.dead != b.dead:
        return not a.dead
    if abs(a.score - b.score) > 1e-12:
        return a.score > b.score
    return a.safety > b.safety


def _blended_safety(analysis: Analysis, second: float = 0.2) -> float:
    """Safety of the best next move, blended with the second best (weight ``second``)."""
    return _blend(analysis.safe_count, analysis.lowest_risks(2), second)


def _blended_safety_of(prob: np.ndarray, second: float) -> tuple[float, bool]:
    """:func:`_blended_safety` from the float probabilities of the covered cells, and
    whether one of them is certainly safe."""
    risks = prob[prob < 1.0 - 1e-9]  # certain mines are never the next move
    safe = int((risks < 1e-12).sum())
    lowest = np.partition(risks, 1)[:2].tolist() if risks.size > 1 else risks.tolist()
    return _blend(safe, lowest, second), safe > 0


def _blend(safe_count: int, lowest: list[float], second: float) -> float:
    """1 with two certainly safe cells (or none left to guess), else the safety of the
    lowest risk blended with the next lowest (weight ``second``)."""
    if safe_count >= 2 or not lowest:
        return 1.0
    if len(lowest) == 1:
        return 1.0 - lowest[0]
    return (1.0 - second) * (1.0 - lowest[0]) + second * (1.0 - lowest[1])


def _off_edge_picks(position: Position, off: list[int], on_front: set[int]) -> list[int]:
    """Off-front cells worth a look: all when few, else corner-like cells and cells
    two steps from the revealed area (they may open next to it)."""
    if len(off) <= 30:
        return off
    w, h = position.width, position.height
    grid = position.grid
    cells = position.cells
    picks = []
    for i in off:
        around = grid.neighbours(i)
        covered = sum(1 for j in around if cells[j] == COVERED)
        if covered < 4:
            picks.append(i)
            continue
        r, c = divmod(i, w)
        for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and is_number(cells[rr * w + cc]):
                picks.append(i)
                break
    return picks or off[:30]
