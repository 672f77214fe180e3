"""Noisy clues: the engine's exact posterior against the brute-force oracle with
likelihoods.

Positions come from real noisy games (``Game.from_layout(layout, noise=..., seed=...)``
with random reveals), so they are consistent unless a test spoils them on purpose.  The
engine scales each clue's likelihood to integers, so its layout weight differs from the
oracle's by a constant factor; the probabilities must be the same fractions exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import noisy_position

from minesolver.analysis import Engine, InconsistentPositionError, analyze, brute_force
from minesolver.codes import BLANK, COVERED, FLAG
from minesolver.noise import NoiseModel, parse_noise, soft_clue
from minesolver.position import Position

MODELS = ["withheld:0.5", "withheld:0.2", "withheld:0.9", "withheld:1", "withheld:0",
          "withheld:0.9999996", "withheld:0.123456789", "optimistic", "cautious"]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def likelihood_of(model: NoiseModel):
    return lambda s, t, n, c: model.likelihood(s, t, n, c)


def assert_engine_equals_oracle(position: Position, model: NoiseModel) -> None:
    total, probs = brute_force(position, likelihood=likelihood_of(model))
    if total == 0:
        with pytest.raises(InconsistentPositionError):
            analyze(position, soft=soft_clue(model))
        return
    analysis = analyze(position, soft=soft_clue(model))
    w = position.width
    for i, expected in enumerate(probs):
        got = analysis.probability(*divmod(i, w))
        assert got == expected, f"{model}: cell {divmod(i, w)}: {got} != {expected}\n{position}"
        assert Fraction(*analysis.exact(i)) == expected
    assert sum(probs) == position.mines
    cells = position.cells
    assert analysis.safe == [divmod(i, w) for i, p in enumerate(probs)
                             if p == 0 and cells[i] == COVERED]
    assert analysis.mines == [divmod(i, w) for i, p in enumerate(probs)
                              if p == 1 and cells[i] in (COVERED, FLAG)]


# ---------------------------------------------------------------------- the exact posterior


@pytest.mark.parametrize("noise", MODELS)
@given(seed=st.integers(0, 2**32))
@SETTINGS
def test_engine_equals_the_oracle_on_noisy_games(noise, seed):
    position, _ = noisy_position(noise, seed)
    model = parse_noise(noise)
    assert model is not None
    total, _ = brute_force(position, likelihood=likelihood_of(model))
    assert total > 0  # the true layout explains what the game showed
    assert_engine_equals_oracle(position, model)


# withheld:0 never shows a number, but the engine reads a shown number as exact: see
# test_withheld_zero_cannot_show_a_number
@pytest.mark.parametrize("noise", [m for m in MODELS if m != "withheld:0"])
@given(seed=st.integers(0, 2**32), spoil=st.integers(0, 2**32))
@SETTINGS
def test_engine_reports_inconsistency_exactly_when_the_oracle_total_is_zero(noise, seed, spoil):
    position, _ = noisy_position(noise, seed)
    rnd = random.Random(spoil)
    cells = bytearray(position.cells)
    shown = [i for i, code in enumerate(cells) if code <= 8 or code == BLANK]
    mines = position.mines
    kind = rnd.choice(["numbers", "numbers", "blank", "total"])
    if kind == "numbers" and shown:
        for i in rnd.sample(shown, min(len(shown), rnd.randint(1, 3))):
            cells[i] = rnd.randint(0, 8)
    elif kind == "blank" and shown:
        cells[rnd.choice(shown)] = BLANK
    else:
        mines = max(0, mines + rnd.choice([-2, -1, 1, 2]))
    model = parse_noise(noise)
    assert model is not None
    assert_engine_equals_oracle(Position(position.width, position.height, mines, bytes(cells)),
                                model)


@pytest.mark.parametrize("noise", MODELS)
@given(seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_chance_of_each_number_a_cell_may_show_is_the_oracles(noise, seed):
    # P(opened, the cell shows v) = the weight of the position where it shows v over the
    # weight of this one (a true zero floods instead, and is left out of both)
    position, _ = noisy_position(noise, seed)
    model = parse_noise(noise)
    assert model is not None
    total, _ = brute_force(position, likelihood=likelihood_of(model))
    engine = Engine(position, noise=model)
    for cell in list(position.covered_cells())[:3]:
        i = position.index(*cell)
        for outcome in engine.outcomes(cell):
            cells = bytearray(position.cells)
            cells[i] = outcome.shown
            shown = Position(position.width, position.height, position.mines, bytes(cells))
            weight, _ = brute_force(shown, likelihood=likelihood_of(model))
            assert outcome.probability == Fraction(weight) / Fraction(total), (noise, cell)


def test_a_hard_clue_is_the_factor_one_at_its_value():
    """The classic game is the withheld model that always shows the number."""
    for seed in range(60):
        position, _ = noisy_position("withheld:1", seed)
        classic = analyze(position)
        noisy = analyze(position, soft=soft_clue(parse_noise("withheld:1")))
        for r, c in position.covered_cells():
            assert classic.probability(r, c) == noisy.probability(r, c)


def test_hand_worked_optimistic_posterior():
    # a corner shows 0 under "optimistic": its true count t is 1..3 (it did not flood),
    # each layout weighs 1/(t + 1)
    position = Position.from_text("2x2x1\n0H\nHH\n")
    analysis = analyze(position, soft=soft_clue(parse_noise("optimistic")))
    # one mine among three cells, each a neighbour: t = 1 for every layout
    assert [analysis.probability(*cell) for cell in [(0, 1), (1, 0), (1, 1)]] == [
        Fraction(1, 3)
    ] * 3
    # "cautious" shows at least the true count: a 2 beside one covered cell means a mine
    cautious = analyze(Position.from_text("3x2x2\n2HH\nHHH\n"),
                       soft=soft_clue(parse_noise("cautious")))
    assert sum(cautious.probability(*cell) for cell in [(0, 1), (1, 0), (1, 1)]) <= 2


def test_withheld_near_one_is_exact():
    # P was rounded to a denominator of 10**6: 0.9999996 became 1, where a blank cannot be
    model = parse_noise("withheld:0.9999996")
    assert model is not None and model.likelihood(BLANK, 1, 1, 1) == Fraction(4, 10**7)
    analysis = analyze(Position.from_text("4x1x1\n.HHH\n"), soft=soft_clue(model))
    assert [analysis.probability(0, c) for c in (1, 2, 3)] == [1, 0, 0]
    certain = parse_noise("withheld:1")
    with pytest.raises(InconsistentPositionError, match=r"clue '\.' \(no number\) at \(0, 0\)"):
        analyze(Position.from_text("4x1x1\n.HHH\n"), soft=soft_clue(certain))


def test_withheld_zero_cannot_show_a_number():
    position = Position.from_text("3x1x1\n1HH\n")
    with pytest.raises(InconsistentPositionError):
        analyze(position, soft=soft_clue(parse_noise("withheld:0")))


def test_cautious_cannot_show_more_than_the_neighbours():
    position = Position.from_text("3x1x1\n2HH\n")  # (0, 0) has one neighbour
    with pytest.raises(InconsistentPositionError):
        analyze(position, soft=soft_clue(parse_noise("cautious")))
