"""Noisy clues: the exact posterior against the brute-force oracle with likelihoods, what
noisy games show, strategy invariants in noisy games, model parsing, and ``--noise``.

Positions come from real noisy games (``Game.from_layout(layout, noise=..., seed=...)``
with random reveals), so they are consistent unless a test spoils them on purpose.  The
engine scales each clue's likelihood to integers, so its layout weight differs from the
oracle's by a constant factor; the probabilities must be the same fractions exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from conftest import assert_one_error_line, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesolver.analysis import InconsistentPositionError, analyze, brute_force
from minesolver.game import Game, Layout
from minesolver.noise import NoiseError, NoiseModel, parse_noise, soft_clue
from minesolver.play import Step, play_game
from minesolver.position import BLANK, COVERED, FLAG, Position
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

MODELS = ["withheld:0.5", "withheld:0.2", "withheld:0.9", "withheld:1", "withheld:0",
          "optimistic", "cautious"]
MAX_UNKNOWN = 12  # keeps the oracle to a few thousand layouts
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def likelihood_of(model: NoiseModel):
    return lambda s, t, n, c: model.likelihood(s, t, n, c)


def noisy_position(noise: str, seed: int) -> tuple[Position, Layout]:
    """A position from a real noisy game: random reveals (zeros flood) and some true flags,
    then more of both until at most ``MAX_UNKNOWN`` cells are unknown."""
    rnd = random.Random(seed)
    width, height = rnd.choice([(2, 3), (3, 3), (4, 3), (4, 4), (5, 4), (5, 5)])
    n = width * height
    density = rnd.choice([0.1, 0.2, 0.3, 0.45])
    mines = {i for i in range(n) if rnd.random() < density} or {rnd.randrange(n)}
    mines.discard(n - 1 if len(mines) == n else -1)
    layout = Layout(width, height, tuple(sorted(mines)))
    game = Game.from_layout(layout, noise=noise, seed=rnd.getrandbits(64))
    safe = [i for i in range(n) if i not in mines]
    for i in rnd.sample(safe, rnd.randint(1, len(safe))):
        if not game.is_over:
            game.reveal(*divmod(i, width))
    flags = {m for m in mines if rnd.random() < 0.3}
    while True:
        covered = [i for i in range(n) if not game.is_revealed(*divmod(i, width))]
        unknown = [i for i in covered if i not in flags]
        if len(unknown) <= MAX_UNKNOWN:
            break
        i = rnd.choice(unknown)
        if i in mines:
            flags.add(i)
        else:
            game.reveal(*divmod(i, width))
    cells = bytearray(game.position().cells)
    for m in flags:
        cells[m] = FLAG
    return Position(width, height, len(mines), bytes(cells)), layout


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


def test_withheld_zero_cannot_show_a_number():
    position = Position.from_text("3x1x1\n1HH\n")
    with pytest.raises(InconsistentPositionError):
        analyze(position, soft=soft_clue(parse_noise("withheld:0")))


def test_cautious_cannot_show_more_than_the_neighbours():
    position = Position.from_text("3x1x1\n2HH\n")  # (0, 0) has one neighbour
    with pytest.raises(InconsistentPositionError):
        analyze(position, soft=soft_clue(parse_noise("cautious")))


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


class Checker:
    """Observer that checks every step of a noisy game against the real layout (later)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def __call__(self, step: Step) -> None:
        self.steps.append(step)


@pytest.mark.parametrize("noise", ["withheld:0.5", "optimistic", "cautious"])
@pytest.mark.parametrize("name", ["tank", "best"])
def test_strategies_never_call_a_mine_certain_when_it_is_not(name, noise):
    rules = Rules(6, 6, 6, noise=noise)
    model = parse_noise(noise)
    soft = soft_clue(model)
    strategy = find_strategy(name)
    checked = 0
    for seed in range(12 if name == "best" else 25):
        checker = Checker()
        record = play_game(rules, strategy, seed=seed, observer=checker)
        mines = set(record.layout.mines)
        w = rules.width
        for step in checker.steps[1:]:
            analysis = analyze(step.position, soft=soft)
            for move in step.moves:
                index = step.position.index(*move.cell)
                num, den = analysis.exact(index)
                assert num < den, f"{name} opened a certain mine {move.cell}"
                if move.reason == "deduction":
                    assert index not in mines, f"{name} deduced {move.cell} safe: a mine"
                    assert num == 0
            for r, c in analysis.mines:
                assert r * w + c in mines, f"the posterior calls {(r, c)} a mine: it is not"
            if step.analysis is not None:
                assert {(r, c) for r, c in step.analysis.mines} == set(analysis.mines)
            checked += 1
    assert checked > 30


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
        ("withheld:x", "'withheld:x'"),
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


def test_rules_carry_the_canonical_model_name():
    assert Rules(9, 9, 10, noise="WITHHELD:0.50").noise == "withheld:0.5"
    assert Rules(9, 9, 10, noise="none").noise is None
    assert Rules.from_string("beginner", noise="cautious").noise == "cautious"


# ---------------------------------------------------------------------- the CLI



@pytest.mark.parametrize("command", ["play", "bench", "sweep"])
@pytest.mark.parametrize(("noise", "needle"), [("gaussian", "unknown noise model 'gaussian'"),
                                              ("withheld:7", "0 <= P <= 1")])
def test_cli_bad_noise_is_one_line(command, noise, needle, tmp_path, entry):
    db = ["--db", str(tmp_path / "n.sqlite")] if command != "play" else []
    result = run_cli(command, "--noise", noise, *db, entry=entry)
    assert_one_error_line(result, needle)


def test_cli_plays_and_benches_noisy_games(tmp_path):
    import json

    played = run_cli("play", "--rules", "6x6x5", "--noise", "optimistic", "--seed", "4",
                     "--strategy", "tank", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["noise"] == "optimistic"
    benched = run_cli("bench", "--rules", "6x6x5", "--noise", "withheld:0.5", "--games", "3",
                      "--strategy", "tank", "--db", str(tmp_path / "b.sqlite"), "--json",
                      "--workers", "1")
    assert benched.returncode == 0, benched.stderr
    data = json.loads(benched.stdout)
    assert data["noise"] == "withheld:0.5" and data["games"] == 3
