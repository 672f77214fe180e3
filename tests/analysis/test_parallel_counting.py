"""Counting one position's fronts on several threads gives the serial counts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from support import consistent_positions, fixture_ids, load_fixture

from minesolver import Rules
from minesolver.analysis import InconsistentPositionError, analyze, kernels
from minesolver.analysis.fronts import Box, Front, split_fronts
from minesolver.analysis.kernels import count_fronts, engine_workers
from minesolver.analysis.system import Clue, build_system
from minesolver.game import Game


@pytest.fixture
def always_split(monkeypatch):
    """Every batch of two or more fronts goes to the threads."""
    monkeypatch.setattr(kernels, "PARALLEL_MIN_BOXES", 0)


def _same(fronts, workers):
    serial = count_fronts(fronts, kernel="numba", workers=1)
    split = count_fronts(fronts, kernel="numba", workers=workers)
    assert [c.front for c in split] == [c.front for c in serial]
    assert [c.poly for c in split] == [c.poly for c in serial]
    assert [c.box_polys for c in split] == [c.box_polys for c in serial]


@pytest.mark.parametrize("fid", fixture_ids())
def test_fixture_fronts(fid, always_split):
    fronts, _ = split_fronts(build_system(load_fixture(fid)))
    _same(fronts, 3)


def test_a_big_board_of_many_fronts(always_split):
    game = Game(Rules(200, 200, 6000, first_click="opening"), seed=5)
    game.reveal(100, 100)
    layout = game.layout
    assert layout is not None
    mines = set(layout.mines)
    for i in range(0, 200 * 200, 97):  # scattered safe cells: many separate fronts
        if i not in mines and not game.is_revealed(*divmod(i, 200)):
            game.reveal(*divmod(i, 200))
    fronts, _ = split_fronts(build_system(game.position()))
    assert len(fronts) > 50
    for workers in (2, 4):
        _same(fronts, workers)


@given(consistent_positions())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_positions_through_the_engine(position):
    kernels_split = kernels.PARALLEL_MIN_BOXES
    kernels.PARALLEL_MIN_BOXES = 0
    try:
        for fronts in [split_fronts(build_system(position))[0]]:
            _same(fronts, 2)
    finally:
        kernels.PARALLEL_MIN_BOXES = kernels_split


def test_the_engine_reads_the_environment(monkeypatch, always_split):
    position = load_fixture(fixture_ids()[0])
    serial = analyze(position)
    monkeypatch.setenv(kernels.WORKERS_ENV, "2")
    monkeypatch.setenv("MINESOLVER_KERNELS", "numba")
    assert engine_workers() == 2
    split = analyze(position)
    assert split.solutions == serial.solutions
    assert split.prob.tolist() == serial.prob.tolist()


@pytest.mark.parametrize("text", ["zero", "0", "65", "-1"])
def test_bad_worker_counts_are_one_line_errors(monkeypatch, text):
    monkeypatch.setenv(kernels.WORKERS_ENV, text)
    with pytest.raises(ValueError, match=r"workers|MINESOLVER_ENGINE_WORKERS"):
        engine_workers()


def _impossible(first: int, boxes: int) -> Front:
    """A front of ``boxes`` one-cell boxes under two clues: all mines, and none."""
    cells = list(range(first, first + boxes))
    return Front(
        [Box([c], [0, 1]) for c in cells],
        [Clue(100 + first, cells, boxes), Clue(101 + first, cells, 0)],
        20,
    )


def test_an_inconsistent_front_raises_what_the_serial_count_raises(always_split):
    # the larger failing front goes to the first thread: the serial count names the other
    fronts = [_impossible(0, 2), _impossible(10, 3), _impossible(20, 2)]
    fronts[2] = Front([Box([20], [0]), Box([21], [0])], [Clue(120, [20, 21], 1)], 20)  # fine
    errors = []
    for workers in (1, 2):
        with pytest.raises(InconsistentPositionError) as info:
            count_fronts(fronts, kernel="numba", workers=workers)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert "(5, 0)" in errors[0]
