"""``best``: minesolver's strongest strategy.

Ideas, each switchable for measurement (``--strategy best:endgame=off`` etc.;
their measured effect is in ``docs/benchmarks.md``):

1. **Deductions first.**  Exact probabilities; every certainly-safe cell is opened
   before any risk is taken.  Never opens a proven mine.  With ``floats`` (on by
   default) a board of at most :data:`~minesolver.analysis.floats.EXACT_ZERO_CELLS`
   cells gets its safe cells from one compiled call
   (:func:`~minesolver.analysis.floats.certain_safe`, exact there), and the exact
   engine runs only on the turns that need a guess.
2. **Endgame search** (``endgame``).  When at most ``endgame_layouts`` layouts
   remain, an exhaustive game-tree search (:mod:`.endgame`) picks the move with
   the highest exact chance of winning, information included; past
   ``endgame_budget`` states it gives up and the rules below choose.  The
   threshold is 5,000 layouts (JSMinesweeper plays from 1,000), with a budget
   of 3,000,000 states: from the first guess the search takes over, it plays
   perfectly, so a higher threshold can only win more.  Measured exactly
   (``benchmarks/endgame_worth.py``), 5,000 rather than 300 adds 0.115 points
   on expert and 1,000 rather than 300 0.058; paired over 100,000 expert boards,
   +0.085 points over 1,000 (McNemar p = 0.0001).  The compiled search
   (:mod:`._compiled_endgame`) makes it cost 2.3 times the mean time of a game at
   1,000, the same median (the plain-Python search, without numba, 19 times).
3. **Forced guesses first** (``forced``).  Two cells holding exactly one mine,
   with no other unknown cell around them or their clues, can never be told
   apart: the guess is unavoidable, so it is taken at once (it then costs no
   information that another guess could have used).  ``walled`` (on by default)
   widens this to every group no number can ever tell apart: a clue's uncertain
   neighbours whose every cell next to some but not all of them is a certain mine
   (pairs, and groups of three to five cells), and chains of one-mine pairs whose
   two sides swap unseen (a 2x2 block with its mines on a diagonal).  One of them
   must be opened sooner or later, at the same risk whenever; opening it first,
   the one the lookahead likes best, puts the number it shows to use for the
   guesses after.  Paired over 100,000 expert boards, ``best`` with it won 380
   games that ``walled=off`` lost and lost 299 (+0.08 points, McNemar p = 0.002).
   ``regions`` (default off: it measured no gain) first plays any closed region
   (:mod:`.regions`: cells nothing outside can ever tell about, their mine count
   fixed) with the exact endgame search over its own layouts, a best move of the
   whole game; paired over 100,000 expert boards it changed 75 outcomes, 37 for
   the better (McNemar p = 1): ``best`` already plays those regions well later.
   ``pseudo`` (default off: 12 outcomes against 14 over 100,000 paired expert
   boards, p = 0.85) also takes first a pair a clue holds to one mine or none whose
   every cell next to one but not the other is a certain mine (JSMinesweeper's
   pseudo 50/50: :func:`forced_guess`).  ``chains`` (on by default) then opens,
   however risky, a cell that is a mine only as the mine of one pair or 2x2 block
   no number could settle (:func:`.longterm.fifty_bound_cells`; JSMinesweeper's
   test, a heuristic: not always a best move, so its moves say ``fifty``, not
   ``forced``).  Paired over 300,000 expert boards, +0.036 points (262 games won
   only with it, 155 only without; McNemar p = 2e-7), for 1.2 times the median
   time per game.  ``chains_strict`` takes only shapes whose walls are all known
   mines (JSMinesweeper allows one undecided wall for a pair, two for a block).
4. **Lookahead tie-break** (``lookahead``).  Among the cells whose safety is
   within ``cutoff`` of the safest, each is scored by what happens *after* it:
   for every number it may show, the exact chance of that number and the safety
   of the best next move in the resulting position (1 when it yields a
   certainly-safe cell), blended with the second-best next move (weight
   ``second``, 0.2).  The score is the chance of surviving this guess and the
   next one; ``progress`` (default 0) adds a bonus for the chance of new safe
   cells.  ``depth=2`` scores the position after a guess by the lookahead
   score of its best next guess (among the ``breadth`` safest) instead of that
   guess's safety: three moves deep instead of two.  It rewards cells
   likely to give progress (a zero, new safe cells) and penalises cells that
   lead into bad guesses.  On boards up to :data:`FLOAT_PLY_CELLS` cells the last
   ply runs in floats (``floats``, on by default:
   :func:`~minesolver.analysis.floats.outcomes`, one compiled call per number, its
   chances within ~1e-12 of the engine's fractions); ``floats=off`` asks the exact
   engine for every number.  ``living`` (default off: it measured no gain)
   counts a certainly-safe cell as a next move only when one of its covered
   neighbours is undecided, as JSMinesweeper counts its living tiles.
5. **Dead cells avoided** (``dead``).  A cell that can show only one number gives
   no information; it is chosen only when nothing else is as safe.
6. **Off-front candidates.**  Cells away from the clues join the candidates
   when within ``cutoff`` of the safest: those with the fewest covered
   neighbours (corners and edges, so more zeros); with ``off_edge`` also cells
   two steps from the open area when within 0.95 of the safest.
7. **Long-term 50/50s** (``fifty``, default 0: off).  A cell that may be the mine
   of a 50/50 no clue can ever settle (:mod:`.longterm`) has its lookahead score
   multiplied by ``1 + fifty * I / S`` (``I`` such layouts, ``S`` the layouts where
   it is safe): guessing it now takes a coin flip the game would ask for later.
   ``fifty_reach`` (default off: +0.01 points over 200,000 paired expert boards,
   p = 0.75, for 2.9 times the median time) also makes candidates of the cells
   below the cutoff that their boost lifts to it, as JSMinesweeper adds the cells
   its 50/50 influence lifts (on boards of up to :data:`FLOAT_PLY_CELLS` cells:
   each cell that may be in such a 50/50 costs a few engine hypotheses).
8. **Rollouts** (``rollouts``, default 0: off).  When the lookahead's best scores
   are within ``rollout_margin`` (2%) of each other (a near-tie it cannot settle),
   the ``rollout_top`` best are played to the end of the game on the same
   ``rollouts`` layouts drawn exactly from the position (:mod:`.rollouts`), and
   the one that wins most often is opened; the playouts follow a cheap policy
   (``rollout_policy=safest``) or ``best`` itself without rollouts
   (``rollout_policy=best``).  Seconds per game: an option for studies, not the
   default.
9. **Sampled endgame search** (``sample``, default 0: off).  Past the endgame
   search's range and up to ``sample_layouts`` (100,000) layouts, ``sample``
   layouts are drawn exactly from the position and the game tree is searched over
   them as if they were all there were
   (:func:`~minesolver.strategies.endgame.sampled_endgame_move`), among the cells
   within ``sample_cutoff`` (0.9) of the safest; the lookahead chooses when the
   search (the plain-Python one) passes ``sample_budget`` (20,000) states.  Its
   values are optimistic (a layout alone in the sample is as good as won), so it is
   judged by the exact worth of its moves: an option for studies, not the default.

In noisy games (``rules.noise``) every probability is the exact posterior of
the noise model; the endgame search and the 50/50 rule, which assume exact
numbers, are switched off, and the lookahead weighs every number a cell may
show by its probability under the model.

>>> from minesolver.rules import BEGINNER
>>> from minesolver.play import play_game
>>> play_game(BEGINNER, Best(), seed=3).won
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
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
from .longterm import fifty_bound_cells, fifty_influence, fifty_shape_mask
from .regions import region_move
from .rollouts import rollout_values

__all__ = [
    "ENDGAME_BUDGET",
    "ENDGAME_LAYOUTS",
    "FLOAT_PLY_CELLS",
    "PYTHON_ENDGAME",
    "Best",
    "forced_guess",
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
        chains_strict: bool = False,
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


def forced_guess(
    position: Position, analysis: Analysis, *, walled: bool = False, pseudo: bool = False
) -> list[int]:
    """The cells of an unavoidable guess, or an empty list.

    Two unknown cells ``a`` and ``b`` form one when a clue's only uncertain
    neighbours are exactly ``a`` and ``b`` and it needs one more mine, and no
    uncertain cell other than ``a`` and ``b`` touches either of them or any clue
    next to them: nothing but opening one of them can ever tell them apart.

    With ``walled``, the uncertain neighbours ``S`` of any clue (two or more; the
    clue holds their number of mines, neither none nor all) form one when every
    cell next to some but not all of ``S`` is a certain mine, whatever touches all
    of them: every number that will ever be seen next to one cell of ``S`` is next
    to all of them and counts their mines together, so moving a mine within ``S``
    changes nothing visible.  Only opening a cell of ``S`` tells them apart, each
    is a mine with the same chance whenever it is opened, and the game cannot be
    won without opening one; opening one now puts the number it shows to use for
    the guesses that follow.  The answer is every cell of the group, for the caller
    to choose among.  The pairs are those of :func:`minesolver.survey.fifty_fifty_pairs`
    that a clue holds to one mine.  Failing a clue's group, pairs that clues hold to
    one mine each may chain into a 50/50 that no number can resolve (a 2x2 block with
    its mines on a diagonal, say: :func:`_swappable_chain`).

    With ``pseudo`` (and failing all of those), two uncertain cells ``a`` and ``b``
    among the uncertain neighbours of a clue that needs one more mine form one when
    every cell next to one of them but not the other is a certain mine: a *pseudo
    50/50*, one mine or none (JSMinesweeper takes these before other guesses).
    The two are never both mines, and moving a lone mine from one to the other
    changes no number outside them, so until one of them is opened nothing tells
    them apart; a safe one must be opened to win.  Whatever the play, the first of
    the two it opens is a blind pick between them, so opening ``a`` (or ``b``) now
    and then playing on as that play would loses no chance and shows the number
    sooner: either is a best move by perfect play, which the tests check against
    the game tree of every layout.

    >>> from minesolver.analysis import analyze
    >>> p = Position.from_text("4x3x6\\nHHH2\\n3HHH\\n1HH2\\n")
    >>> a = analyze(p)  # (1,1) and (2,1) share a mine; (0,0) (0,1) (0,2) are mines
    >>> forced_guess(p, a), [p.coords(i) for i in forced_guess(p, a, walled=True)]
    ([], [(1, 1), (2, 1)])
    >>> q = Position.from_text("5x3x5\\nHHH31\\n1HHHH\\nHH2HH\\n")  # one mine or none
    >>> [q.coords(i) for i in forced_guess(q, analyze(q), pseudo=True)]
    [(0, 0), (0, 1)]
    """
    cells = position.cells
    around = position.grid.neighbours

    def uncertain(j: int) -> bool:
        return cells[j] == COVERED and analysis.is_uncertain(j)

    def walled_in(group: list[int]) -> bool:
        """Whether every cell next to some but not all of ``group`` is a certain mine."""
        near = [set(around(j)) for j in group]
        walls = set().union(*near) - near[0].intersection(*near[1:]) - set(group)
        return all(analysis.is_mine(y) for y in walls)

    # only numbers with two (or, walled, more) uncertain cells around can start one (a
    # board of a million cells is not walked in Python)
    grid = np.frombuffer(cells, dtype=np.uint8).reshape(position.shape)
    mask = analysis.uncertain_mask.reshape(position.shape) & (grid == COVERED)
    count = neighbour_sum(mask)
    wide = walled or pseudo
    starts = np.flatnonzero((grid <= 8) & ((count >= 2) if wide else (count == 2))).tolist()
    pairs = []  # clues' one-mine pairs, for the chains
    wider = []  # clues needing one mine among three or more: pseudo 50/50s
    for i in starts:
        unsure = [j for j in around(i) if uncertain(j)]
        if len(unsure) == 2:
            if _isolated(unsure, cells, around, uncertain, analysis.is_mine):
                return unsure
            pairs.append(unsure)
        if walled and len(unsure) >= 2 and walled_in(unsure):
            return unsure
        if pseudo and len(unsure) >= 3:
            wider.append((i, unsure))
    chain = _swappable_chain(pairs, around, analysis.is_mine) if walled else []
    if chain or not pseudo:
        return chain
    for i, unsure in wider:
        if cells[i] - sum(1 for j in around(i) if analysis.is_mine(j)) != 1:
            continue
        for k, a in enumerate(unsure):
            for b in unsure[k + 1:]:
                if walled_in([a, b]):
                    return [a, b]
    return []


def _swappable_chain(
    pairs: list[list[int]],
    around: Callable[[int], tuple[int, ...]],
    is_mine: Callable[[int], bool],
) -> list[int]:
    """Cells of pairs that clues hold to one mine each, chained into a closed 50/50.

    Pairs sharing a cell chain up, and the mines of a chain are then one side of it or
    the other (every pair holds one).  When both sides have as many cells and every
    cell next to the chain but not in it either is a certain mine or touches as many
    cells of one side as of the other (a 2x2 block with its mines on a diagonal and
    mines at its four outer corners, say), swapping the sides changes nothing visible:
    a 50/50 that only opening one of its cells resolves.
    """
    links: dict[int, set[int]] = {}
    for a, b in pairs:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    seen: set[int] = set()
    for root in links:
        if root in seen:
            continue
        side = {root: 0}
        todo = [root]
        two_sided = True
        while todo:
            x = todo.pop()
            for y in links[x]:
                if y not in side:
                    side[y] = 1 - side[x]
                    todo.append(y)
                elif side[y] == side[x]:
                    two_sided = False
        seen.update(side)
        ones = sum(side.values())
        if not two_sided or len(side) < 4 or 2 * ones != len(side):
            continue  # a lone pair is the clue's own group, handled above
        border = {y for x in side for y in around(x)} - side.keys()
        if all(is_mine(y) or sum(1 if side.get(z) else -1 for z in around(y) if z in side) == 0
               for y in border):
            return sorted(side)
    return []


def _isolated(
    pair: list[int],
    cells: bytes,
    around: Callable[[int], tuple[int, ...]],
    uncertain: Callable[[int], bool],
    is_mine: Callable[[int], bool],
) -> bool:
    """Whether no covered cell but the pair and certain mines touches it, nor any
    uncertain cell a clue next to it (a certainly safe cell would show a number)."""
    for x in pair:
        for y in around(x):
            if y in pair:
                continue
            if cells[y] == COVERED and not is_mine(y):
                return False
            if is_number(cells[y]) and any(uncertain(z) and z not in pair for z in around(y)):
                return False
    return True
