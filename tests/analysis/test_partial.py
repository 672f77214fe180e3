"""Per-front probabilities (``analysis.partial``) for positions the engine cannot count
whole: each front counted alone must give exactly what the engine gives with the same
mine density (the density makes the fronts independent), hard and noisy clues alike;
a front over the budget is left out, the others stay exact.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support import consistent_positions, noisy_position

from minesolver.analysis import analyze, counting
from minesolver.analysis.fronts import split_fronts
from minesolver.analysis.partial import front_risks
from minesolver.analysis.system import build_system
from minesolver.noise import parse_noise, soft_clue
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
from minesolver.strategies.baselines import fallback_moves

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_equals_the_engine(position, density, soft=None, cells=None):
    risks = front_risks(position, soft=soft, density=density)
    analysis = analyze(position, soft=soft, density=density)
    for (r, c), p in risks.items():
        assert p == analysis.probability(r, c), (r, c)
    if cells is not None:
        assert set(risks) == cells


@given(consistent_positions(), st.sampled_from([Fraction(1, 5), Fraction(1, 2), Fraction(3, 7)]))
@SETTINGS
def test_each_front_alone_equals_the_engine_with_a_density(position, density):
    system = build_system(position)
    w = position.width
    cells = {divmod(c, w) for c in system.settled_safe + system.settled_mines}
    for front in split_fronts(system)[0]:
        cells |= {divmod(c, w) for c in front.cells}
    assert_equals_the_engine(position, density, cells=cells)


@pytest.mark.parametrize("noise", ["cautious", "optimistic", "withheld:0.5"])
@given(seed=st.integers(0, 2**32))
@SETTINGS
def test_each_front_alone_equals_the_engine_with_noisy_clues(noise, seed):
    position, _ = noisy_position(noise, seed)
    assert_equals_the_engine(position, Fraction(1, 4), soft=soft_clue(parse_noise(noise)))


@given(consistent_positions())
@SETTINGS
def test_a_front_over_the_budget_is_left_out_and_the_others_stay_exact(position):
    system = build_system(position)
    w = position.width
    fronts, _ = split_fronts(system)
    single = {divmod(c, w) for f in fronts if len(f.boxes) == 1 for c in f.cells}
    settled = {divmod(c, w) for c in system.settled_safe + system.settled_mines}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "MAX_TABLE_BYTES", 1)  # every front of two boxes or more
        risks = front_risks(position, density=Fraction(1, 5))
    assert set(risks) == single | settled
    analysis = analyze(position, density=Fraction(1, 5))
    for (r, c), p in risks.items():
        assert p == analysis.probability(r, c)


@pytest.mark.parametrize("budget", [1, 1 << 27])
@given(consistent_positions())
@SETTINGS
def test_the_fallback_calls_only_safe_cells_deductions(budget, position):
    analysis = analyze(position)
    # a game whose every covered cell is a mine is over: no strategy is asked
    assume(any(analysis.probability(r, c) < 1 for r, c in position.covered_cells()))
    strategy = find_strategy("tank")
    strategy.new_game(Rules(position.width, position.height, position.mines), 1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "MAX_TABLE_BYTES", budget)
        patch.setenv("MINESOLVER_KERNELS", "python")  # the budget is the reference's
        moves = fallback_moves(strategy, position)
    assert moves
    for move in moves:
        # a guess may still be a mine: the fallback does not join the fronts through
        # the mine count, which can make a cell certain
        if move.reason == "deduction":
            assert analysis.probability(*move.cell) == 0
