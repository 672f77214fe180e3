"""RunSpec: typed rules in, JSON only at the store; round trips, points, and 0.1's shape."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from minesolver.bench import RunSpec
from minesolver.bench.spec import rules_from_json, rules_json
from minesolver.errors import InputError
from minesolver.noise import NoiseModel
from minesolver.rules import EXPERT, Rules

SWEEP = RunSpec(
    points=(Rules(9, 9, 10), Rules(9, 9, 20, first_click="none", noise="withheld:0.1")),
    strategies=("best:endgame=off", "tank"),
    games=5,
    seed=2**63 + 11,
    start=(3, 4),
    layouts="/tmp/boards.jsonl",
    extra={"note": "x"},
)


@pytest.mark.parametrize(
    "spec",
    [
        SWEEP,
        RunSpec(points=(EXPERT,), strategies=("best",), games=1, seed=0),
        RunSpec(points=(Rules(30, 16, 99, first_click="opening"),), strategies=("a", "b"),
                games=100, seed=1, start="center"),
        RunSpec(points=(Rules(16, 16, 51, first_click="none"),), strategies=("hard", "mc"),
                games=3, seed=5, start=None),
        RunSpec(points=(Rules(8, 8, 10, noise="optimistic"), Rules(8, 8, 10, noise="cautious")),
                strategies=("tank",), games=2, seed=9, start="corner"),
    ],
)
def test_json_round_trip(spec):
    text = spec.to_json()
    assert RunSpec.from_json(text) == spec
    assert json.loads(text) == json.loads(RunSpec.from_json(text).to_json())
    back = RunSpec.from_json(text)
    assert all(isinstance(rules, Rules) for rules in back.points)
    assert all(isinstance(name, str) for name in back.strategies)


def test_the_json_shape():
    data = json.loads(SWEEP.to_json())
    assert data == {
        "points": [
            {"rules": "9x9x10", "first_click": "safe", "noise": None, "no_guess": False},
            {"rules": "9x9x20", "first_click": "none", "noise": "withheld:0.1",
             "no_guess": False},
        ],
        "strategies": ["best:endgame=off", "tank"],
        "games": 5,
        "seed": 2**63 + 11,
        "start": "3,4",
        "layouts": "/tmp/boards.jsonl",
        "extra": {"note": "x"},
    }
    assert rules_from_json(rules_json(SWEEP.points[1])) == SWEEP.points[1]


def test_points_and_games():
    assert SWEEP.total_games == 10
    assert SWEEP.rules == Rules(9, 9, 10)
    assert [SWEEP.point_of(i) for i in (0, 4, 5, 9)] == [0, 0, 1, 1]
    assert SWEEP.rules_for(4) == Rules(9, 9, 10)
    rules = SWEEP.rules_for(7)
    assert (str(rules), rules.first_click) == ("9x9x20", "none")
    assert rules.noise == NoiseModel("withheld", 0.1)
    one = replace(SWEEP, points=(Rules(30, 16, 99, first_click="opening"),))
    assert one.total_games == 5
    assert one.rules_for(3) == Rules(30, 16, 99, first_click="opening")


def test_a_run_needs_a_point_and_a_game():
    with pytest.raises(InputError, match="at least one point"):
        RunSpec(points=(), strategies=("best",), games=1, seed=1)
    with pytest.raises(InputError, match="a run plays 1 to 100,000,000 games per point, got 0"):
        RunSpec(points=(EXPERT,), strategies=("best",), games=0, seed=1)
    with pytest.raises(InputError, match="got 100000001"):
        RunSpec(points=(EXPERT,), strategies=("best",), games=10**8 + 1, seed=1)
    with pytest.raises(InputError, match="the run's games must be an integer"):
        RunSpec(points=(EXPERT,), strategies=("best",), games=2.0, seed=1)  # type: ignore[arg-type]
    with pytest.raises(InputError, match=r"seed is from 0 to 2\*\*64 - 1, got -1"):
        RunSpec(points=(EXPERT,), strategies=("best",), games=1, seed=-1)


# ---------------------------------------------------------------------- minesolver 0.1


def old(**fields):
    """A spec as minesolver 0.1 stored it (its RunSpec dataclass, as JSON)."""
    data = {"rules": "7x7x9", "first_click": "safe", "start": "corner",
            "strategies": ["tank", "random"], "games": 12, "seed": 42, "layouts": None,
            "noise": None, "points": [], "extra": {}}
    data.update(fields)
    return json.dumps(data, sort_keys=True)


def test_a_bench_of_0_1_is_read():
    assert RunSpec.from_json(old()) == RunSpec(
        points=(Rules(7, 7, 9),), strategies=("tank", "random"), games=12, seed=42
    )
    noisy = RunSpec.from_json(old(noise="cautious", first_click="opening", start="2,3"))
    assert noisy.rules == Rules(7, 7, 9, first_click="opening", noise="cautious")
    assert noisy.start == (2, 3)
    boards = RunSpec.from_json(old(layouts="/data/boards.jsonl"))
    assert boards.layouts == "/data/boards.jsonl"


def test_a_sweep_of_0_1_is_read():
    spec = RunSpec.from_json(old(points=[["9x9x10", "safe", ""], ["9x9x20", "none",
                                                                   "withheld:0.1"]], games=5))
    assert spec.points == (Rules(9, 9, 10),
                           Rules(9, 9, 20, first_click="none", noise="withheld:0.1"))
    assert spec.total_games == 10
    # points written before noise existed have two fields
    older = RunSpec.from_json(old(points=[["9x9x10", "safe"], ["9x9x12", "opening"]]))
    assert older.points == (Rules(9, 9, 10), Rules(9, 9, 12, first_click="opening"))


def test_a_flags_match_of_0_1_is_read():
    spec = RunSpec.from_json(old(rules="16x16x51", first_click="none", start="-",
                                 strategies=["hard", "mc"]))
    assert spec.start is None
    assert spec.rules == Rules(16, 16, 51, first_click="none")
    assert spec.strategies == ("hard", "mc")


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        "{}",
        '{"points": [], "strategies": [], "games": 1, "seed": 1}',
        '{"points": [{"rules": "nope"}], "strategies": [], "games": 1, "seed": 1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": "x", "seed": 1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 1, "seed": 1, '
        '"start": "nowhere"}',
        old(rules="9x9"),
        # numbers no run was given: they were an OverflowError, or a run of 10**20 games
        # that --resume began to play
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 1e400, "seed": 1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 100000000000000000000, '
        '"seed": 1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 6.5, "seed": 1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": true, "seed": 1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 6, "seed": -1}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 6, "seed": 1e400}',
        '{"points": [{"rules": "9x9x10"}], "strategies": [], "games": 6, '
        '"seed": 18446744073709551616}',
    ],
)
def test_a_damaged_record_is_an_input_error(text):
    with pytest.raises(InputError, match="the stored run record is damaged"):
        RunSpec.from_json(text)
