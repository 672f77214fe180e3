"""Noise models: parsing, the typed model Rules carry, and what a noisy game shows."""

from __future__ import annotations

import pytest

from minesolver.codes import BLANK
from minesolver.errors import InputError, OptionError
from minesolver.game import Game
from minesolver.noise import NoiseError, NoiseModel, parse_noise
from minesolver.rules import Rules, RulesError

# ---------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("withheld:0.25", NoiseModel("withheld", 0.25)),
        ("  WITHHELD:1 ", NoiseModel("withheld", 1.0)),
        ("withheld", NoiseModel("withheld", 0.5)),
        ("optimistic", NoiseModel("optimistic")),
        ("Cautious", NoiseModel("cautious")),
        ("none", None),
        ("", None),
        (None, None),
    ],
)
def test_noise_models_parse(text, model):
    assert parse_noise(text) == model
    if model is not None:
        assert parse_noise(str(model)) == model


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("withheld:2", "0 <= P <= 1"),
        ("withheld:-0.1", "0 <= P <= 1"),
        ("withheld:x", "needs a number P, got 'withheld:x'"),
        ("withheld:0.5:9", "needs a number P"),
        ("withheld:", "needs a number P"),
        ("withheldgarbage", "unknown noise model 'withheldgarbage'"),
        ("gaussian", "unknown noise model 'gaussian'"),
        ("optimistic:0.5", "unknown noise model"),
    ],
)
def test_bad_noise_models_are_value_errors(text, needle):
    with pytest.raises(NoiseError, match=needle) as info:
        parse_noise(text)
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError):
        Rules(9, 9, 10, noise=text)


@pytest.mark.parametrize("text", ["withheld:0.1234567", "withheld:0.5", "withheld:1",
                                  "withheld:0.9999996", "withheld:1e-09"])
def test_a_model_written_out_reads_back_as_the_same_model(text):
    # P was written to 6 significant digits: a stored run replayed 0.123457
    model = parse_noise(text)
    assert model is not None and str(model) == text and parse_noise(str(model)) == model


def test_rules_carry_a_typed_model():
    # a string is still accepted by the constructor, and read once
    rules = Rules(9, 9, 10, noise="WITHHELD:0.50")
    assert rules.noise == NoiseModel("withheld", 0.5)
    assert rules.noise_text == "withheld:0.5"
    assert Rules(9, 9, 10, noise="none").noise is None
    assert Rules(9, 9, 10).noise_text is None
    assert Rules.from_string("beginner", noise="cautious").noise == NoiseModel("cautious")
    assert Rules.from_string("beginner", noise=NoiseModel("optimistic")).noise_text == "optimistic"
    assert rules.with_noise(None).noise is None
    assert rules.with_noise("cautious") == Rules(9, 9, 10, noise=NoiseModel("cautious"))
    assert rules.with_first_click("none").noise == rules.noise
    assert eval(repr(rules), {"Rules": Rules}) == rules


def test_rules_refuse_what_is_not_a_noise_model():
    with pytest.raises(RulesError, match="noise must be a noise model, got 3"):
        Rules(9, 9, 10, noise=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "p", "needle"),
    [("gaussian", 1.0, "unknown noise model 'gaussian'"), ("withheld", 1.5, "0 <= P <= 1"),
     ("withheld", float("nan"), "0 <= P <= 1")],
)
def test_noise_models_check_themselves(kind, p, needle):
    with pytest.raises(NoiseError, match=needle):
        NoiseModel(kind, p)  # type: ignore[arg-type]


def test_noise_errors_are_option_errors():
    assert issubclass(NoiseError, OptionError)
    assert issubclass(NoiseError, InputError)


# ---------------------------------------------------------------------- noisy games


@pytest.mark.parametrize("noise", ["optimistic", "cautious", "withheld:0.4"])
def test_what_a_noisy_game_shows_follows_its_model(noise):
    model = parse_noise(noise)
    assert model is not None
    for seed in range(20):
        game = Game(Rules(8, 8, 12, noise=noise), seed=seed)
        game.reveal(0, 0)
        for r in range(8):
            for c in range(8):
                if not game.is_over and not game.is_mine(r, c):
                    game.reveal(r, c)
        position = game.position()
        for r in range(8):
            for c in range(8):
                code = position.cell(r, c)
                if game.is_mine(r, c):
                    continue
                true = game.number(r, c)
                neighbours = sum(1 for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                                 if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8)
                if model.kind == "withheld":
                    assert code in (true, BLANK)
                elif model.kind == "optimistic":
                    assert 0 <= code <= true
                else:
                    assert true <= code <= neighbours
        # the draws depend on the seed and the cell only, not on the order of play
        again = Game(Rules(8, 8, 12, noise=noise), seed=seed)
        again.reveal(0, 0)
        for r in range(7, -1, -1):
            for c in range(7, -1, -1):
                if not again.is_over and not again.is_mine(r, c):
                    again.reveal(r, c)
        assert again.position() == position
