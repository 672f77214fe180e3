"""``best``'s compiled paths answer as the exact engine does: its deductions are the
engine's safe cells, and its lookahead in floats scores every number a cell may show
with the same numbers, chances and values of the position after, to 1e-9.

The positions are the ones ``best`` meets in seeded games (beginner to expert), and
the cells the candidates its lookahead scores there.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from support import best_game_positions, consistent_positions, numbers_of

from minesolver import Game, Rules
from minesolver.analysis import Engine, analyze
from minesolver.analysis.kernels import kernel_in_use
from minesolver.codes import COVERED, FLAG, MINE
from minesolver.play import Step, play_game
from minesolver.strategies.best import Best, _living_safe

# about the compiled path: chosen whatever an earlier test left (see conftest)
pytestmark = pytest.mark.usefixtures("compiled_kernels")


def lookahead_positions(rules: str, seed: int, games: int) -> list[tuple[Engine, list[int]]]:
    """Positions of ``best`` games where it guesses, with the cells it would score."""
    out = []
    strategy = Best()  # only for its candidate rule
    for position, _ in best_game_positions(rules, seed, games):
        analysis = analyze(position)
        if not analysis.safe:
            candidates = strategy._candidates(position, analysis)
            if len(candidates) > 1:
                out.append((Engine(position), [c.cell for c in candidates][:6]))
    return out


def same_outcomes(floats: Best, exact: Best, engine: Engine, cell: int) -> list:
    """``floats``'s outcomes of ``cell`` (the float ply), checked against ``exact``'s
    (the engine's): the same numbers' chances, values and safe-cell flags."""
    ours = list(floats._outcomes(engine, cell, 1))
    theirs = list(exact._outcomes(engine, cell, 1))
    assert len(ours) == len(theirs)
    for (c1, v1, o1), (c2, v2, o2) in zip(ours, theirs, strict=True):
        assert math.isclose(c1, c2, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(v1, v2, rel_tol=1e-9, abs_tol=1e-12)
        assert o1 == o2
    return ours


@pytest.mark.parametrize("rules,seed,games", [
    ("beginner", 11, 6), ("intermediate", 21, 3), ("expert", 31, 3),
])
def test_the_float_ply_scores_as_the_engine(rules, seed, games):
    assert kernel_in_use() == "numba"  # else both sides would take the engine's path
    floats = Best(floats=True)
    exact = Best(floats=False)
    seen = 0
    for engine, cells in lookahead_positions(rules, seed, games):
        for cell in cells:
            same_outcomes(floats, exact, engine, cell)
            seen += 1
    assert seen >= 10  # the games did reach guesses with several candidates


@pytest.mark.parametrize("rules,seed", [("beginner", 41), ("intermediate", 42), ("expert", 43)])
def test_the_compiled_deductions_are_the_engines(rules, seed):
    """Every turn: ``best`` opens exactly the engine's safe cells when there are some,
    and what an observer reads as the turn's analysis is the exact one, made on
    demand for the turns the compiled call answered."""
    assert kernel_in_use() == "numba"
    deductions = 0
    for g in range(4):
        steps: list[Step] = []
        play_game(Rules.from_string(rules), Best(), seed=seed + g, observer=steps.append)
        for step in steps[1:]:
            exact = analyze(step.position)
            if step.moves[0].reason == "deduction":
                assert [m.cell for m in step.moves] == exact.safe
                deductions += 1
            else:
                assert not exact.safe
            assert step.analysis is not None
            assert np.array_equal(step.analysis.prob, exact.prob)
    assert deductions >= 10


def test_an_unread_analysis_is_never_made():
    """Without an observer the engine sees only the positions where ``best`` guesses."""
    game = Game(Rules.from_string("expert"), seed=44)
    strategy = Best()
    strategy.new_game(game.rules, 44)
    game.reveal(0, 0)
    seen = []
    analyze_ = strategy.analyze

    def counting(position, **kw):
        seen.append(position)
        return analyze_(position, **kw)

    strategy.analyze = counting
    turns = 0
    while not game.is_over:
        moves = strategy.moves(game.position())
        turns += 1
        for move in moves:
            if not game.is_over:
                game.reveal(*move.cell)
    assert 0 < len(seen) < turns
    for position in seen:
        assert not analyze(position).safe


@pytest.mark.parametrize("rules,seed", [("intermediate", 45), ("expert", 46), ("expert", 47)])
def test_the_engine_catching_up_after_skipped_turns_equals_a_fresh_analysis(rules, seed):
    """The engine sees only the guess turns, each several moves after the last: its
    update over all the cells opened since gives exactly the from-scratch analysis."""
    checked = 0
    for g in range(3):
        game = Game(Rules.from_string(rules), seed=seed + g)
        strategy = Best()
        strategy.new_game(game.rules, seed + g)
        game.reveal(0, 0)
        while not game.is_over:
            position = game.position()
            moves = strategy.moves(position)
            if moves[0].reason != "deduction":
                ours = strategy.last_analysis
                fresh = analyze(position)
                assert ours is not None
                assert ours.solutions == fresh.solutions
                assert np.array_equal(ours.prob, fresh.prob)
                checked += 1
            for move in moves:
                if not game.is_over:
                    game.reveal(*move.cell)
    assert checked >= 5


@pytest.mark.parametrize("rules,seed,games", [("expert", 52, 6)])
def test_the_living_count_scores_the_same_in_floats_and_in_the_engine(rules, seed, games):
    """``living`` changes what a position after a guess is worth; its float ply and
    the engine's still agree number by number."""
    floats = Best(floats=True, living=True)
    exact = Best(floats=False, living=True)
    plain = Best(floats=True)
    seen = changed = 0
    for engine, cells in lookahead_positions(rules, seed, games):
        for cell in cells:
            ours = same_outcomes(floats, exact, engine, cell)
            before = [v for _, v, _ in plain._outcomes(engine, cell, 1)]
            # a living count can only lower a value (fewer safe cells count)
            assert all(v <= b + 1e-12 for (_, v, _), b in zip(ours, before, strict=True))
            changed += any(v < b - 1e-12 for (_, v, _), b in zip(ours, before, strict=True))
            seen += 1
    assert seen >= 10
    assert changed  # some position after a guess had a safe cell that tells nothing


@settings(max_examples=300, deadline=None)
@given(consistent_positions())
def test_a_safe_cell_the_living_count_leaves_out_shows_one_number_in_every_layout(position):
    """The rule only ever leaves out dead cells: checked against every layout."""
    w, h = position.width, position.height
    cells = np.frombuffer(position.cells, dtype=np.uint8)
    covered = cells == COVERED
    prob = analyze(position).prob.ravel()
    left_out = covered & (prob < 1e-12) & ~_living_safe(prob, covered, position.shape)
    if not left_out.any():
        return
    unknown = np.flatnonzero(covered).tolist()
    known = set(np.flatnonzero((cells == FLAG) | (cells == MINE)).tolist())
    shown = {i: int(c) for i, c in enumerate(cells) if c <= 8}
    numbers: dict[int, set[int]] = {i: set() for i in np.flatnonzero(left_out).tolist()}
    for chosen in combinations(unknown, position.mines - len(known)):
        mines = known | set(chosen)
        if all(numbers_of(w, h, mines, i) == n for i, n in shown.items()):
            for i in numbers:
                numbers[i].add(numbers_of(w, h, mines, i))
    assert all(len(seen) == 1 for seen in numbers.values())
