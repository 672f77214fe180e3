"""deduce(): everything the cheap rules find is certain in the exact engine."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from support import (
    arbitrary_positions,
    consistent_positions,
    fixture_ids,
    load_fixture,
    true_mines,
)

from minesolver import Position
from minesolver.analysis import InconsistentPositionError, analyze, brute_force
from minesolver.analysis.deduce import Deductions, deduce
from minesolver.codes import COVERED

SETTINGS = settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_sound(position, deductions, analysis):
    for r, c in deductions.safe:
        assert position.cell(r, c) == COVERED
        assert analysis.probability(r, c) == 0, f"{(r, c)} called safe\n{position}"
    for r, c in deductions.mines:
        assert position.cell(r, c) == COVERED
        assert analysis.probability(r, c) == 1, f"{(r, c)} called a mine\n{position}"
    assert not set(deductions.safe) & set(deductions.mines)
    assert deductions.safe == sorted(deductions.safe)
    assert deductions.mines == sorted(deductions.mines)


@pytest.mark.parametrize("fid", fixture_ids())
def test_fixture(fid):
    position = load_fixture(fid)
    analysis = analyze(position)
    deductions = deduce(position)
    assert_sound(position, deductions, analysis)
    mines = true_mines(fid)
    assert all(cell not in mines for cell in deductions.safe)
    assert all(cell in mines for cell in deductions.mines)
    trivial = deduce(position, subset=False)
    assert set(trivial.safe) <= set(deductions.safe)
    assert set(trivial.mines) <= set(deductions.mines)


def test_fixtures_give_deduce_something_to_find():
    found = sum(bool(deduce(load_fixture(fid))) for fid in fixture_ids())
    assert found > 60


@given(consistent_positions())
@SETTINGS
def test_sound_on_generated_positions(position):
    analysis = analyze(position)
    assert_sound(position, deduce(position), analysis)
    assert_sound(position, deduce(position, subset=False), analysis)


@given(arbitrary_positions())
@SETTINGS
def test_inconsistent_positions_raise_or_stay_sound(position):
    try:
        deductions = deduce(position)
    except InconsistentPositionError:
        # it may only complain about positions that no layout fits
        assert brute_force(position)[0] == 0, f"deduce rejected a consistent position\n{position}"
        return
    if brute_force(position)[0]:
        assert_sound(position, deductions, analyze(position))


def test_subset_rule():
    position = Position.from_text("4x2x2\n1221\nHHHH\n")
    assert deduce(position) == Deductions(safe=[(1, 0), (1, 3)], mines=[(1, 1), (1, 2)])
    assert deduce(position, subset=False) == Deductions(safe=[], mines=[])
    assert not deduce(position, subset=False)


def test_trivial_rule():
    assert deduce(Position.from_text("3x1x1\n0HH\n")) == Deductions(safe=[(0, 1)], mines=[])
    assert deduce(Position.from_text("3x1x1\n1HH\n")) == Deductions(safe=[], mines=[(0, 1)])
    chain = Position.from_text("4x1x1\n0HH1\n")
    assert deduce(chain, subset=False) == Deductions(safe=[(0, 1)], mines=[(0, 2)])
    flagged = Position.from_text("3x2x2\nF1H\nHHH\n")  # the flag satisfies the 1
    assert deduce(flagged).safe == [(0, 2), (1, 0), (1, 1), (1, 2)]


def test_contradicting_clues_raise():
    with pytest.raises(InconsistentPositionError):
        deduce(Position.from_text("3x1x1\n0H1\n"))
    with pytest.raises(InconsistentPositionError):
        deduce(Position.from_text("3x1x1\n2HH\n"))


def test_deduce_ignores_the_total():
    # the clue makes (0, 1) a mine; only the total (1 mine) clears the other two cells
    position = Position.from_text("4x1x1\n1HHH\n")
    assert deduce(position) == Deductions(safe=[], mines=[(0, 1)])
    assert analyze(position).safe == [(0, 2), (0, 3)]
