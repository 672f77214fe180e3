"""Used as a library, bad input ends in the project's own errors (one line, an
:class:`~minesolver.errors.InputError` or an ``OffBoardError``), not in a
``TypeError``, an ``AttributeError`` or a silently wrong answer."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from minesolver.analysis import Engine, analyze
from minesolver.errors import InputError, OffBoardError
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

THREE = Position.from_text("3x1x1\nHHH\n")

REFUSED = [
    (lambda: Game(Rules(3, 3, 1), seed="x"), InputError, "seed must be a whole number"),
    (lambda: Game(Rules(3, 3, 1), seed=1.5), InputError, "seed must be a whole number"),
    # it was the same board as 2**64 - 1
    (lambda: Game(Rules(3, 3, 1), seed=-1), InputError, "seed must be a whole number"),
    (lambda: play_game(Rules(3, 3, 1), find_strategy("tank"), seed=1, start="middle"),
     InputError, "start must be 'corner', 'center' or"),
    (lambda: Game.from_layout(Layout(3, 1, (2,)), first_click="bogus"), InputError,
     "unknown first-click rule 'bogus'"),
    # written as 2x1x1.5, which from_text could not read back
    (lambda: Position(2, 1, 1.5, bytes(2)), InputError, "mines must be an integer"),
    (lambda: Position(2.0, 1, 1, bytes(2)), InputError, "width must be an integer"),
    (lambda: Position(2, 1, 1, "HH"), InputError, "cells must be bytes"),
    (lambda: analyze(THREE, density=Fraction(2)), InputError, "between 0 and 1"),
    (lambda: analyze(THREE, density=Fraction(-1, 2)), InputError, "between 0 and 1"),
    (lambda: analyze(THREE, density=float("nan")), InputError, "must be a number"),
    (lambda: analyze(THREE).exact(-1), OffBoardError, "cell index -1 is off"),
    (lambda: analyze(THREE).is_safe(3), OffBoardError, "cell index 3 is off"),
    (lambda: Engine(THREE).hypothesis([(7, 1)]), OffBoardError, "cell index 7 is off"),
]


@pytest.mark.parametrize(("call", "error", "needle"), REFUSED)
def test_bad_input_is_refused_with_a_clear_error(call, error, needle):
    with pytest.raises(error, match=needle):
        call()


def test_what_a_user_may_reasonably_pass_is_taken():
    assert Game(Rules(3, 3, 1), seed=np.int64(5)).seed == 5
    assert Rules(np.int64(9), 9, np.int32(10)) == Rules(9, 9, 10)  # Grid takes them too
    position = Position(np.int64(3), 1, np.int64(1), bytearray(THREE.cells))
    assert position == THREE and type(position.cells) is bytes and hash(position) == hash(THREE)
    # a noise model by name, as Rules takes it; a float density as the decimal it shows
    assert analyze(THREE, noise="cautious").probability(0, 0) == Fraction(1, 3)
    assert analyze(THREE, density=0.2).probability(0, 0) == Fraction(1, 5)


def test_an_analysis_cannot_be_changed_by_its_readers():
    analysis = analyze(Position.from_text("3x1x1\n1HH\n"))
    for array in (analysis.prob, analysis.safe_indices, analysis.mine_indices,
                  analysis.uncertain_mask, analysis.front_mask):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
