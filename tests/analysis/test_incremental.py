"""The incremental engine equals a from-scratch analysis, after every move of many games.

Each strategy keeps one :class:`~minesolver.analysis.Engine` per game and updates it
with the cells each move changed; its hypotheses (``outcomes``) rebuild only the
cell's front.  Both are checked, cell by cell as exact fractions, against a new
engine built from nothing for the same position, in classic and noisy games.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import consistent_positions

from minesolver.analysis import Analysis, Engine, FrontCache, InconsistentPositionError, analyze
from minesolver.codes import COVERED, FLAG, MINE
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies import STRATEGIES, Strategy, find_strategy


def same(a: Analysis, b: Analysis) -> None:
    assert a.solutions == b.solutions
    assert a.position.cells == b.position.cells
    for i in range(len(a.position.cells)):
        assert Fraction(*a.exact(i)) == Fraction(*b.exact(i)), a.position.coords(i)
    assert [f.cells for f in a.fronts] == [f.cells for f in b.fronts]


class Checked:
    """Wraps a strategy: after each of its moves, its engine against a fresh one, and
    the outcomes of one uncertain cell against analyses of the hypotheses."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.checks = 0
        inner = strategy.moves

        def moves(position: Position) -> list:
            out = inner(position)
            self.check()
            return out

        strategy.moves = moves  # type: ignore[method-assign]

    def check(self) -> None:
        strategy = self.strategy
        if strategy._engine is None:  # a strategy that never asked for an analysis
            return
        engine = strategy.analysis_engine
        noise = strategy.noise
        scratch = analyze(engine.position, noise=noise)
        same(engine.analysis, scratch)
        self.checks += 1
        uncertain = [i for i in range(len(scratch.position.cells)) if scratch.is_uncertain(i)]
        if not uncertain:
            return
        cell = uncertain[strategy.rng.below(len(uncertain))]
        outcomes = {o.shown: o for o in engine.outcomes(engine.position.coords(cell))}
        assert outcomes, "an uncertain cell always has an outcome"
        for o in outcomes.values():
            hypo = engine.position.with_cells([(cell, o.shown)])
            same(o.analysis, analyze(hypo, noise=noise))
        if noise is None:
            # the numbers it may show share exactly the chance that it is safe
            total = sum((o.probability for o in outcomes.values()), Fraction(0))
            assert total == 1 - Fraction(*scratch.exact(cell))


# every strategy that keeps an engine (dfs counts its own way, without one)
STRATEGY_NAMES = sorted(n for n in STRATEGIES.names() if n != "dfs")


def test_every_strategy_but_dfs_keeps_an_engine():
    for name in STRATEGIES.names():
        strategy = find_strategy(name)
        play_game(Rules(9, 9, 10), strategy, seed=1)
        assert (strategy._engine is not None) == (name != "dfs"), name


@pytest.mark.parametrize("name", STRATEGY_NAMES)
@pytest.mark.parametrize("rules", [Rules(9, 9, 10), Rules(16, 16, 40)], ids=str)
def test_incremental_engine_equals_scratch_in_classic_games(name, rules):
    checked = Checked(find_strategy(name))
    for seed in range(6 if rules.width == 9 else 2):
        play_game(rules, checked.strategy, seed=seed)
    assert checked.checks > 5


@pytest.mark.parametrize("noise", ["withheld:0.5", "optimistic", "cautious"])
@pytest.mark.parametrize("name", ["best", "tank", "max-constraint"])
def test_incremental_engine_equals_scratch_in_noisy_games(name, noise):
    checked = Checked(find_strategy(name))
    for seed in range(4):
        play_game(Rules(8, 8, 8, noise=noise), checked.strategy, seed=seed)
    assert checked.checks > 5


def test_flags_and_reveals_update_incrementally():
    game = Game(Rules(9, 9, 10), seed=4)
    game.reveal(4, 4)
    position = game.position()
    engine = Engine(position)
    mines = sorted(game.layout.mines)
    flagged = position.with_cells([(mines[0], FLAG), (mines[1], MINE)])
    same(engine.update(flagged), analyze(flagged))
    safe = next(i for i, code in enumerate(flagged.cells) if code == COVERED and i not in mines)
    game.reveal(*flagged.coords(safe))
    opened = flagged.with_cells([(safe, game.position().cells[safe])])
    same(engine.update(opened), analyze(opened))


def test_an_inconsistent_update_keeps_the_old_position():
    position = Position.from_text("3x1x1\n1HH\n")
    engine = Engine(position)
    with pytest.raises(InconsistentPositionError):
        engine.update(position.with_cells([(1, 0)]))  # the proven mine shown as a 0
    assert engine.position == position
    assert engine.analysis.probability(0, 1) == 1


def test_a_mine_count_broken_by_an_update_keeps_the_old_position():
    # the count is checked when the position is analysed: the update kept the bad one
    for before, after in (("3x1x1\nHHH\n", "3x1x1\nFFH\n"), ("3x1x0\nHHH\n", "3x1x0\n1HH\n")):
        engine = Engine(Position.from_text(before))
        with pytest.raises(InconsistentPositionError):
            engine.update(Position.from_text(after))
        assert engine.position == Position.from_text(before)
        same(engine.analysis, analyze(Position.from_text(before)))


def test_a_flag_taken_back_and_the_cell_opened_updates_right():
    # a wrong flag, undone and the cell opened before the next update: the old flag's
    # settled cells were kept, and the update called a consistent position inconsistent
    game = Game.from_layout(Layout(8, 2, (11, 14)))
    game.reveal(0, 0)
    game.flag(0, 3)
    engine = Engine(game.position())
    game.unflag(0, 3)
    game.reveal(0, 3)
    same(engine.update(game.position()), analyze(game.position()))


def _outcome(make):
    try:
        return make()
    except InconsistentPositionError:
        return None


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_change_of_any_cell_equals_a_fresh_analysis(data):
    # strategies only open and flag covered cells; Engine.update and hypothesis take
    # any change: a number or flag changed or taken back too
    position = data.draw(consistent_positions())
    engine = Engine(position)
    if _outcome(lambda: engine.analysis) is None:
        return
    codes = st.sampled_from([COVERED, FLAG, MINE, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    cells = st.integers(0, len(position.cells) - 1)
    changes = data.draw(st.lists(st.tuples(cells, codes), min_size=1, max_size=3,
                                 unique_by=lambda c: c[0]))
    after = position.with_cells(changes)
    fresh = _outcome(lambda: analyze(after))
    derived = _outcome(lambda: engine.hypothesis(changes).analysis)
    assert (fresh is None) == (derived is None), (position.to_text(), changes)
    if fresh is not None and derived is not None:
        same(derived, fresh)
    updated = _outcome(lambda: engine.update(after))
    assert (fresh is None) == (updated is None)
    if fresh is not None and updated is not None:
        same(updated, fresh)
    else:
        assert engine.position == position  # a failed update keeps the old one


def test_a_covered_cell_again_rebuilds_from_scratch():
    before = Position.from_text("3x2x1\n1HH\nHHH\n")
    engine = Engine(before)
    after = before.with_cells([(0, COVERED), (4, 1)])
    same(engine.update(after), analyze(after))


def test_cache_is_bounded_and_counts_its_hits():
    cache: FrontCache = FrontCache(capacity=3)
    strategy = find_strategy("best")
    strategy.cache = cache
    play_game(Rules(9, 9, 10), strategy, seed=1)
    assert len(cache) <= 3
    assert cache.hits + cache.misses > 0
    assert 0.0 <= cache.hit_rate <= 1.0
