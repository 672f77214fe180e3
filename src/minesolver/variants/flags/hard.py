"""``hard``: exact probabilities plus strategy for Minesweeper Flags.

Ideas, each switchable for measurement (``hard:careful=off`` etc.; their effect
is in ``docs/benchmarks.md``):

1. **Certain mines first.**  A mine the engine proves is claimed at once: it
   keeps the turn and tells the opponent nothing new.
2. **Exact endgame** (``endgame``).  When at most ``endgame`` layouts remain,
   a two-player expectimax over them (:mod:`.flags_endgame`) picks the move with
   the highest exact chance to win, bombs included.
3. **Careful guesses** (``careful``).  A guess that finds a safe cell passes the
   turn *and* shows a number the opponent reads.  When the best mine chance is
   below ``threshold`` (1: whenever no mine is certain), each of the
   ``candidates`` likeliest front cells, and two cells away from the numbers
   (most and fewest covered neighbours), is scored by the expected swing
   ``p * (1 + G(mine claimed)) - sum_v P(v) * G(shows v)``, where ``G`` of a
   position is what its mover can expect to collect at once (certain mines plus
   the best remaining chance).  Every number ``v`` is weighed exactly with the
   engine; a zero, which floods open cells the opponent then reads, is judged on
   ``zero_samples`` exactly sampled layouts.
4. **Passes** (``passes``).  A covered cell the engine proves safe, whose
   neighbours are all settled, shows a number both players can already work
   out: opening it passes the turn and tells nothing.  One such cell joins the
   candidates (its swing is ``-G(now)``), so a poor guess is not forced.
5. **The bomb** (``bomb``).  While behind, the three squares holding the most
   expected mines are scored the same way (mines claimed minus what the opened
   cells hand the opponent, on sampled layouts); the bomb drops when the best
   square is worth ``bomb_min`` mines and more than ordinary play.

>>> from minesolver.variants.flags import FlagsGame
>>> player = Hard()
>>> player.new_game(seed=1)
>>> player.choose(FlagsGame(seed=2).view()).kind
'open'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import numpy as np

from ...analysis import Analysis, Engine, analyze
from ...analysis.sampling import sample_layouts
from ...codes import COVERED, FLAG
from ...errors import percent
from ...minefield import HIDDEN, OPEN, Layout
from ...options import Range
from ...position import Position
from .endgame import best_flags_move
from .game import FlagsMove, FlagsView, bomb_square
from .players import FlagsPlayer, likeliest_cells, register_flags_player

__all__ = ["Hard", "mover_gain"]


@dataclass
class _Option:
    cell: int
    p: float
    value: float = 0.0


def mover_gain(analysis: Analysis) -> float:
    """What the player to move can expect to collect at once: the certain mines
    plus the best chance among the others.

    >>> mover_gain(analyze(Position.from_text("4x1x2\\nH1HH\\n")))
    1.5
    """
    cells = analysis.position.cells
    w = analysis.position.width
    certain = {r * w + c for r, c in analysis.mines}
    prob = analysis.prob.ravel()
    covered = np.frombuffer(cells, dtype=np.uint8) == COVERED
    uncertain = covered.copy()
    if certain:
        uncertain[list(certain)] = False
    best = float(prob[uncertain].max()) if uncertain.any() else 0.0
    return int(np.count_nonzero(covered)) - int(np.count_nonzero(uncertain)) + best


@register_flags_player
class Hard(FlagsPlayer):
    """Exact probabilities, careful guesses, the bomb and an exact endgame."""

    name = "hard"
    summary = "exact + guesses that hand the opponent least + bomb + exact endgame"

    def __init__(
        self,
        *,
        careful: bool = True,
        passes: bool = True,
        bomb: bool = True,
        endgame: Annotated[int, Range(0, 100_000)] = 40,
        threshold: Annotated[float, Range(0.0, 1.0)] = 1.0,
        candidates: Annotated[int, Range(1, 64)] = 4,
        zero_samples: Annotated[int, Range(1, 1000)] = 3,
        bomb_min: Annotated[float, Range(0.0, 64.0)] = 4.0,
    ) -> None:
        super().__init__()
        self.careful = careful
        self.passes = passes
        self.threshold = threshold
        self.bomb = bomb
        self.endgame = endgame
        self.candidates = candidates
        self.zero_samples = zero_samples
        self.bomb_min = bomb_min
        self._endgame_failed = 0  # fewest layouts the search gave up on this game
        self._engine: Engine | None = None

    def new_game(self, seed: int) -> None:
        super().new_game(seed)
        self._endgame_failed = 0
        self._engine = None

    def choose(self, view: FlagsView) -> FlagsMove:
        position = view.position
        analysis = self._engine_for(position).analysis
        certain = [
            i
            for i, code in enumerate(position.cells)
            if code == COVERED and analysis.is_mine(i)
        ]
        me, them = view.scores[view.player], view.scores[1 - view.player]
        # claiming every certain mine may end the deficit that allows the bomb
        bomb_now = self.bomb and view.can_bomb and (not certain or me + len(certain) >= them)
        if certain and not bomb_now:
            return FlagsMove(position.coords(certain[0]), reason="certain mine", probability=1.0)
        solutions = analysis.solutions
        tried = self._endgame_failed and solutions >= self._endgame_failed
        if self.endgame and solutions <= self.endgame and not tried:
            if not self.bomb:  # the search must not drop a bomb the player forgoes
                used = list(view.bombs_used)
                used[view.player] = True
                view = FlagsView(view.position, view.player, view.scores, (used[0], used[1]))
            found = best_flags_move(view, max_layouts=self.endgame)
            if found is None:
                self._endgame_failed = solutions  # larger positions would fail too
            else:
                move = found.move
                return FlagsMove(move.cell, move.kind,
                                 reason=f"{move.reason}, win chance {percent(found.win_chance)}",
                                 probability=move.probability)
        best = self._best_open(position, analysis)
        if bomb_now:
            bomb = self._best_bomb(position, analysis)
            # ordinary play: the certain mines, then the best opening
            if bomb is not None and bomb.value >= max(self.bomb_min, len(certain) + best.value):
                return FlagsMove(position.coords(bomb.cell), "bomb",
                                 reason=f"bomb worth {bomb.value:.2f} mines",
                                 probability=bomb.p)
        if certain:
            return FlagsMove(position.coords(certain[0]), reason="certain mine",
                             probability=1.0)
        if best.p == 0.0:
            reason = "a safe cell that tells nothing: passes the turn"
        elif best.value == best.p:
            reason = "likeliest mine"
        else:
            reason = "hands the opponent least"
        return FlagsMove(position.coords(best.cell), reason=reason, probability=best.p)

    # ---------------------------------------------------------------- opening
    def _best_open(self, position: Position, analysis: Analysis) -> _Option:
        w = position.width
        top = [r * w + c for r, c in likeliest_cells(position, analysis)]
        p = float(analysis.prob.ravel()[top[0]])
        if not self.careful or p >= self.threshold:
            return _Option(top[self.rng.below(len(top))], p, p)
        options = self._candidates(position, analysis)
        for option in options:
            option.value = self._swing(position, analysis, option)
        return max(options, key=lambda o: (o.value, o.p))

    def _candidates(self, position: Position, analysis: Analysis) -> list[_Option]:
        """The likeliest front cells, and two kinds of cell away from the numbers."""
        w = position.width
        grid = position.grid
        cells = position.cells
        prob = analysis.prob.ravel().tolist()
        on_front = {r * w + c for f in analysis.fronts for r, c in f.cells}
        front = sorted(
            (i for i in on_front if cells[i] == COVERED and prob[i] < 1.0),
            key=lambda i: (-prob[i], i),
        )
        out = [_Option(i, prob[i]) for i in front[: self.candidates]]
        off = [
            i for i, code in enumerate(cells)
            if code == COVERED and i not in on_front and 0.0 < prob[i] < 1.0
        ]
        if off:

            def covered_around(i: int) -> int:
                return sum(1 for j in grid.neighbours(i) if cells[j] == COVERED)

            counts = {i: covered_around(i) for i in off}
            most, fewest = max(counts.values()), min(counts.values())
            for target in dict.fromkeys((most, fewest)):
                picks = [i for i in off if counts[i] == target]
                out.append(_Option(picks[self.rng.below(len(picks))], prob[off[0]]))
        if self.passes:
            quiet = self._quiet_cells(position, analysis)
            if quiet:
                out.append(_Option(quiet[self.rng.below(len(quiet))], 0.0))
        if not out:  # only cells the engine settled remain
            best = max((i for i, code in enumerate(cells) if code == COVERED),
                       key=lambda i: prob[i])
            out.append(_Option(best, prob[best]))
        return out

    def _quiet_cells(self, position: Position, analysis: Analysis) -> list[int]:
        """Safe cells whose number is already known and is not a zero: opening one
        passes the turn and tells the opponent nothing."""
        grid = position.grid
        cells = position.cells
        out = []
        for i, code in enumerate(cells):
            if code != COVERED or analysis.exact(i)[0] != 0:
                continue
            around = grid.neighbours(i)
            mines = 0
            for j in around:
                if cells[j] == FLAG:
                    mines += 1
                elif cells[j] == COVERED:
                    num, den = analysis.exact(j)
                    if 0 < num < den:
                        break
                    mines += num == den
            else:
                if mines:
                    out.append(i)
        return out

    def _swing(self, position: Position, analysis: Analysis, option: _Option) -> float:
        """Expected mines won minus expected mines handed over by opening a cell."""
        i = option.cell
        engine = self._engine_for(position)
        value = 0.0
        if option.p > 0.0:
            claimed = engine.hypothesis([(i, FLAG)]).analysis
            value += option.p * (1.0 + mover_gain(claimed))
        if option.p < 1.0:
            for outcome in engine.outcomes(position.coords(i)):
                p_v = outcome.chance
                if outcome.shown == 0 and p_v >= 0.02:
                    value -= p_v * self._flood_gain(outcome.analysis.position, i)
                else:
                    value -= p_v * mover_gain(outcome.analysis)
        return value

    def _engine_for(self, position: Position) -> Engine:
        """One engine per game, moved on to each position the player is asked about."""
        if self._engine is None or self._engine.position.shape != position.shape:
            self._engine = Engine(position)
        else:
            self._engine.update(position)
        return self._engine

    def _flood_gain(self, shown: Position, start: int) -> float:
        """The opponent's gain after a zero at ``start`` floods, on sampled layouts."""
        layouts = sample_layouts(shown, self.zero_samples, self.rng)
        gains = [mover_gain(analyze(_opened(shown, lay, [start]))) for lay in layouts]
        return sum(gains) / len(gains)

    # ---------------------------------------------------------------- bomb
    def _best_bomb(self, position: Position, analysis: Analysis) -> _Option | None:
        w, h = position.width, position.height
        cells = position.cells
        prob = analysis.prob.ravel().tolist()
        scored: dict[tuple[int, ...], tuple[float, int]] = {}
        for centre in range(w * h):
            live = tuple(i for i in bomb_square(centre, w, h) if cells[i] == COVERED)
            if live and live not in scored:
                scored[live] = (sum(prob[i] for i in live), centre)
        ranked = sorted(scored.items(), key=lambda kv: -kv[1][0])[:3]
        best: _Option | None = None
        layouts = sample_layouts(position, self.zero_samples * 2, self.rng)
        for live, (expected, centre) in ranked:
            handed = 0.0
            for lay in layouts:
                mines = [i for i in live if i in lay]
                safe = [i for i in live if i not in lay]
                after = _opened(position.with_cells([(i, FLAG) for i in mines]), lay, safe)
                handed += mover_gain(analyze(after))
            value = expected - handed / len(layouts)
            if best is None or value > best.value:
                best = _Option(centre, expected, value)
        return best


def _opened(position: Position, mines: frozenset[int], starts: list[int]) -> Position:
    """``position`` after the safe cells ``starts`` open on the layout ``mines``,
    zeros flooding over its covered cells."""
    layout = Layout(position.width, position.height, tuple(mines))
    counts = layout.counts
    zero = ((counts == 0) & (layout.mask == 0)).tobytes()
    cells = np.frombuffer(position.cells, dtype=np.uint8)
    state = bytearray(np.where(cells == COVERED, HIDDEN, OPEN).astype(np.uint8).tobytes())
    opened = list(starts)
    for i in starts:
        state[i] = OPEN
    for i in starts:
        if zero[i]:
            position.grid.flood(i, zero, state, opened, closed=HIDDEN, value=OPEN)
    out = cells.copy()
    out[opened] = counts[opened]
    return Position(position.width, position.height, position.mines, out.tobytes())
