"""Sampling layouts: every draw agrees with the position, and draws follow the exact
probabilities (exact sampling) or the uniform prior (rejection)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import consistent_positions, load_fixture

from minesolver.analysis import InconsistentPositionError, analyze, brute_force
from minesolver.analysis.sampling import rejection_layouts, sample_layouts
from minesolver.codes import COVERED, FLAG, MINE, is_number
from minesolver.position import Position
from minesolver.rng import SplitMix64

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_agrees(position: Position, mines: frozenset[int]) -> None:
    """``mines`` is a layout the position allows: every clue met, every flag a mine."""
    cells = position.cells
    grid = position.grid
    assert len(mines) == position.mines
    for i, code in enumerate(cells):
        if code in (FLAG, MINE):
            assert i in mines
        elif code != COVERED:
            assert i not in mines
        if is_number(code):
            assert sum(1 for j in grid.neighbours(i) if j in mines) == code


@given(position=consistent_positions(), seed=st.integers(0, 2**32))
@SETTINGS
def test_every_exact_draw_agrees_with_the_position(position, seed):
    draws = sample_layouts(position, 5, SplitMix64(seed))
    assert len(draws) == 5
    for mines in draws:
        assert_agrees(position, mines)


@given(position=consistent_positions(), seed=st.integers(0, 2**32))
@SETTINGS
def test_every_accepted_rejection_draw_agrees_with_the_position(position, seed):
    accepted, used = rejection_layouts(position, 50, SplitMix64(seed))
    assert 0 <= len(accepted) <= used <= 50
    for mines in accepted:
        assert_agrees(position, mines)


def test_exact_draws_follow_the_exact_probabilities():
    position = load_fixture("0001")
    analysis = analyze(position)
    draws = 3000
    hits = np.zeros(position.width * position.height)
    for mines in sample_layouts(position, draws, SplitMix64(7)):
        hits[list(mines)] += 1
    freq = hits / draws
    # binomial standard error is at most 0.0091 at 3000 draws: 6 of them
    assert np.abs(freq - analysis.prob.ravel()).max() < 0.055


def test_rejection_draws_follow_the_exact_probabilities_on_a_small_board():
    position = Position.from_text("4x3x3\n1HHH\nH2HH\nHHHH\n")
    total, probs = brute_force(position)
    assert total > 0
    accepted, used = rejection_layouts(position, 20000, SplitMix64(3))
    assert used == 20000 and len(accepted) > 1000
    hits = np.zeros(12)
    for mines in accepted:
        hits[list(mines)] += 1
    freq = hits / len(accepted)
    assert np.abs(freq - np.array([float(p) for p in probs])).max() < 0.05


def test_rejection_stops_after_enough_layouts():
    position = Position.from_text("3x1x1\n1HH\n")
    accepted, used = rejection_layouts(position, 1000, SplitMix64(1), want=4)
    assert len(accepted) == 4 and used >= 4
    assert all(mines == frozenset({1}) for mines in accepted)


def test_rejection_of_an_impossible_count_draws_nothing():
    assert rejection_layouts(Position.from_text("2x1x3\nHH\n"), 100, SplitMix64(1)) == ([], 0)


def test_the_same_seed_draws_the_same_layouts():
    position = load_fixture("0031")
    assert sample_layouts(position, 20, SplitMix64(5)) == sample_layouts(
        position, 20, SplitMix64(5)
    )


def test_exact_sampling_of_an_inconsistent_position_raises():
    with pytest.raises(InconsistentPositionError):
        sample_layouts(Position.from_text("3x1x2\n0HH\n"), 3, SplitMix64(1))
