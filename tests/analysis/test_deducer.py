"""Deducer: the cheap rules kept up to date move by move equal deduce() from scratch."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesolver import Rules
from minesolver.analysis.deduce import Deducer, deduce
from minesolver.game import Game
from minesolver.play import play_game
from minesolver.strategies import find_strategy


def check(deducer: Deducer, position) -> None:
    expected = deduce(position)
    assert deducer.update(position) == expected, str(position)
    assert deducer.any_safe == bool(expected.safe)


@pytest.mark.parametrize(
    ("rules", "strategy", "seed"),
    [("beginner", "best", 1), ("expert", "best", 2), ("40x40x300", "best", 3),
     ("expert", "tank", 4), ("intermediate", "random", 5)],
)
def test_equals_deduce_after_every_move_of_a_game(rules, strategy, seed):
    deducer = Deducer()
    play_game(
        Rules.from_string(rules), find_strategy(strategy), seed=seed,
        observer=lambda step: check(deducer, step.position),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from([0.1, 0.2, 0.35]), st.sampled_from([0.0, 0.3]))
def test_equals_deduce_under_reveals_and_flags_in_any_order(seed, density, flags):
    """Scattered reveals and flags on true mines, compared after each one."""
    rnd = random.Random(seed)
    width, height = rnd.randint(4, 14), rnd.randint(4, 14)
    mines = max(1, int(density * width * height))
    game = Game(Rules(width, height, mines, first_click="none"), seed=seed)
    deducer = Deducer()
    cells = [(r, c) for r in range(height) for c in range(width)]
    rnd.shuffle(cells)
    game.reveal(*next(cell for cell in cells))
    if game.is_over:
        return
    layout = game.layout
    assert layout is not None
    for r, c in cells:
        if game.is_over:
            break
        mine = r * width + c in set(layout.mines)
        if mine and rnd.random() < flags:
            game.flag(r, c)
        elif not mine and not game.is_revealed(r, c):
            game.reveal(r, c)
        else:
            continue
        check(deducer, game.position())


def test_starts_over_when_cells_are_covered_again():
    deducer = Deducer()
    rules = Rules.from_string("beginner")
    positions = []
    play_game(rules, find_strategy("best"), seed=7, observer=lambda s: positions.append(s.position))
    for position in [positions[-1], positions[0], positions[len(positions) // 2]]:
        check(deducer, position)
