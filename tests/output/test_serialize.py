"""The JSON layer: one shape per thing, the same for the command line and the web app."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from math import comb

import pytest
from support import flags_game_on, position_from_json

from minesolver.analysis import analyze
from minesolver.codes import COVERED, MINE
from minesolver.minefield import Layout
from minesolver.play import Step, play_game
from minesolver.position import EXAMPLE_POSITION, Position
from minesolver.rules import Rules
from minesolver.serialize import (
    analysis_json,
    cells_json,
    decimal,
    flags_game_json,
    move_json,
    position_json,
    record_json,
    step_json,
    turn_json,
)
from minesolver.strategies import Move, find_strategy
from minesolver.variants.flags import FlagsGame

ANALYSIS_KEYS = {"prob", "safe", "mine", "solutions", "solutions_log10", "fronts", "seconds"}
MOVE_KEYS = {"cell", "action", "reason", "probability", "win_chance", "text"}
RECORD_KEYS = {
    "rules", "first_click", "noise", "no_guess", "strategy", "seed", "start", "won", "exploded",
    "clicks", "guesses", "bbbv", "seconds", "opened", "safe_cells", "engine_limits",
}
TURN_KEYS = {"player", "cell", "kind", "move", "reason", "probability", "text", "claimed"}


def round_trips(data):
    """``data`` is plain JSON: it survives dumping and loading unchanged."""
    assert json.loads(json.dumps(data)) == data


# ---------------------------------------------------------------------- positions


@pytest.mark.parametrize("text", ["2x1x1\n1H\n", "4x2x3\nFM1.\n0HH8\n", EXAMPLE_POSITION])
def test_position_json(text):
    position = Position.from_text(text)
    data = position_json(position)
    assert list(data) == ["width", "height", "mines", "rows"]
    assert data["rows"] == position.to_text().splitlines()[1:]
    assert (data["width"], data["height"], data["mines"]) == (
        position.width, position.height, position.mines
    )
    assert position_from_json(data) == position
    round_trips(data)


def test_cells_json():
    assert cells_json([(0, 1), (2, 3)]) == [[0, 1], [2, 3]]
    assert cells_json(iter([])) == []


# ---------------------------------------------------------------------- analyses


def test_analysis_json_shape():
    position = Position.from_text(EXAMPLE_POSITION)
    analysis = analyze(position)
    data = analysis_json(analysis)
    assert set(data) == ANALYSIS_KEYS
    round_trips(data)
    assert len(data["prob"]) == 16 and {len(row) for row in data["prob"]} == {30}
    assert data["prob"] == analysis.prob.tolist()
    assert data["solutions"] == str(analysis.solutions)
    assert data["safe"] == cells_json(analysis.safe)
    assert [(f["boxes"], f["min_mines"], f["max_mines"]) for f in data["fronts"]] == [
        (f.boxes, f.min_mines, f.max_mines) for f in analysis.fronts
    ]
    for front, summary in zip(data["fronts"], analysis.fronts, strict=True):
        assert set(front) == {"cells", "clues", "boxes", "min_mines", "max_mines"}
        assert front["cells"] == cells_json(summary.cells)
        assert front["clues"] == cells_json(summary.clues)
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0


def test_analysis_mine_includes_flags_and_matches_prob_one():
    position = Position.from_text(EXAMPLE_POSITION)
    analysis = analyze(position)
    data = analysis_json(analysis)
    w = position.width
    certain = [[i // w, i % w] for i in range(position.width * position.height)
               if analysis.exact(i)[0] == analysis.exact(i)[1]]
    assert data["mine"] == certain
    flags = [[r, c] for r in range(position.height) for c in range(w)
             if position.is_flagged(r, c)]
    assert flags and all(cell in data["mine"] for cell in flags)
    assert all(data["prob"][r][c] == 1.0 for r, c in data["mine"])
    safe = [[i // w, i % w] for i in range(w * position.height)
            if analysis.exact(i)[0] == 0 and position.cells[i] == COVERED]
    assert data["safe"] == safe


def test_analysis_digits_round_the_probabilities_only():
    analysis = analyze(Position.from_text("3x2x1\nHHH\nH1H\n"))
    full, short = analysis_json(analysis), analysis_json(analysis, digits=2)
    assert full["prob"][0][0] == float(Fraction(1, 5))
    assert analysis_json(analyze(Position.from_text("3x3x1\nHHH\nH1H\nHHH\n")),
                         digits=3)["prob"][0][0] == 0.125
    assert {k: v for k, v in full.items() if k not in ("prob", "seconds")} == {
        k: v for k, v in short.items() if k not in ("prob", "seconds")
    }


def test_decimal_writes_any_size():
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # only to check the answers: the library needs no lift
    try:
        for n in (0, 7, 10**4299, 10**4300, comb(40000, 20000), 10**12345 + 1):
            assert decimal(n) == str(n)
    finally:
        sys.set_int_max_str_digits(limit)
    assert decimal(10**4000 * 3) == "3" + "0" * 4000


def test_huge_solution_counts_are_decimal_strings():
    data = analysis_json(analyze(Position.covered(200, 200, 20000)))
    assert data["solutions"] == decimal(comb(40000, 20000))
    assert len(data["solutions"]) > 12000
    assert data["solutions_log10"] == pytest.approx(len(data["solutions"]) - 1, abs=1)


def test_counts_too_long_to_write_out_are_given_as_a_power_of_ten():
    # 1500x1500 at half density: 677,000 digits, seconds to multiply out and write; a
    # 2000x2000 board took 33 s of `analyze --json`, nearly all of it on this count
    analysis = analyze(Position.covered(1500, 1500, 1_125_000))
    data = analysis_json(analysis)
    assert data["solutions"] is None
    assert data["solutions_log10"] == pytest.approx(677_314.216, abs=0.01)
    assert "solutions" not in analysis.__dict__  # never multiplied out
    within = analysis_json(analyze(Position.covered(1000, 1000, 200_000)))
    assert len(within["solutions"]) == 217_320  # under MAX_EXACT_DIGITS: written out


# ---------------------------------------------------------------------- moves, steps, records


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move((2, 3)), "open (2, 3): deduction"),
        (Move((0, 1), reason="guess", probability=0.125), "open (0, 1): guess at 12.5% mine risk"),
        (Move((4, 4), reason="endgame", probability=0.5, win_chance=0.25),
         "open (4, 4): endgame at 50.0% mine risk, win chance 25.0%"),
        (Move((1, 1), action="flag"), "flag (1, 1): deduction"),
    ],
)
def test_move_json(move, text):
    data = move_json(move)
    assert set(data) == MOVE_KEYS
    assert data["cell"] == list(move.cell) and data["text"] == text
    assert (data["action"], data["reason"], data["probability"], data["win_chance"]) == (
        move.action, move.reason, move.probability, move.win_chance
    )
    round_trips(data)


def played(rules=None, seed=4, strategy="best"):
    steps: list[Step] = []
    rules = Rules(8, 8, 10) if rules is None else rules
    record = play_game(rules, find_strategy(strategy), seed=seed, observer=steps.append)
    return steps, record


def test_step_json():
    steps, _ = played()
    for step in steps:
        data = step_json(step)
        assert list(data) == ["index", "position", "moves", "opened", "analysis"]
        assert data["index"] == step.index
        assert position_from_json(data["position"]) == step.position
        assert data["moves"] == [move_json(m) for m in step.moves]
        assert data["opened"] == cells_json(step.opened)
        assert data["analysis"] is None
        round_trips(data)
    last = steps[-1]
    assert last.analysis is not None
    with_analysis = step_json(last, last.analysis, outcome=None)
    assert with_analysis["analysis"] == analysis_json(last.analysis, digits=5)
    assert with_analysis["outcome"] is None


def test_record_json():
    outcomes = {}
    for seed in range(1, 60):
        _, record = played(Rules(8, 8, 14, noise="withheld:0.5"), seed=seed, strategy="tank")
        outcomes.setdefault(record.won, (seed, record))
        if len(outcomes) == 2:
            break
    assert set(outcomes) == {True, False}
    for seed, record in outcomes.values():
        data = record_json(record)
        assert set(data) == RECORD_KEYS
        round_trips(data)
        assert data["rules"] == "8x8x14" and data["noise"] == "withheld:0.5"
        assert data["first_click"] == "safe"
        assert (data["strategy"], data["seed"], data["start"]) == ("tank", seed, [0, 0])
        assert (data["won"], data["clicks"], data["guesses"], data["bbbv"]) == (
            record.won, record.clicks, record.guesses, record.bbbv
        )
        assert (data["opened"], data["safe_cells"]) == (record.opened, record.safe_cells)
        if record.won:
            assert data["exploded"] is None
        else:  # the mine that ended the game
            r, c = data["exploded"]
            assert r * 8 + c in record.layout.mines
            assert record.final.cell(r, c) == MINE


# ---------------------------------------------------------------------- Flags

CORNERS = [(0, 0), (3, 3), (4, 4)]


def test_turn_json():
    game = flags_game_on(5, 5, CORNERS)
    turn = game.open(0, 0)
    data = turn_json(turn)
    assert set(data) == TURN_KEYS | {"opened"}
    assert (data["player"], data["cell"], data["kind"], data["move"]) == (0, [0, 0], "open", "0,0")
    assert data["claimed"] == [[0, 0]] and data["opened"] == []
    assert data["text"] == "open (0, 0)"
    short = turn_json(game.open(0, 4), opened=False)
    assert set(short) == TURN_KEYS
    round_trips(data)


def test_flags_game_json_hides_the_mines_until_the_end():
    game = flags_game_on(5, 5, CORNERS)
    assert flags_game_json(game)["last_move"] is None
    game.open(0, 0)
    game.open(1, 1)
    state = json.loads(json.dumps(flags_game_json(game)))
    assert state["board"][0][0] == "F" and state["board"][1][1] == "1"
    assert state["claimed"] == [[[0, 0]], []]
    assert state["scores"] == [1, 0] and state["turn"] == 1 and not state["over"]
    assert state["to_win"] == 2 and state["mines_left"] == 2
    assert state["mine_cells"] is None  # always there, empty until the game is over
    assert "H" in state["board"][3][3] and "H" in state["board"][4][4]
    assert state["last_move"] == turn_json(game.history[-1])
    assert state["last_move"]["move"] == "1,1" and state["last_move"]["opened"] == [[1, 1]]
    game.open(3, 3)
    game.open(4, 4)
    final = flags_game_json(game)
    assert final["over"] and final["winner"] == 1 and final["turn"] is None
    assert final["mine_cells"] == [[0, 0], [3, 3], [4, 4]]
    round_trips(final)


def test_flags_game_json_keys():
    state = flags_game_json(FlagsGame.from_layout(Layout(4, 4, (0, 5, 10))))
    assert list(state) == [
        "rules", "width", "height", "mines", "to_win", "board", "claimed", "scores",
        "mines_left", "bombs_used", "can_bomb", "first", "turn", "over", "winner", "draw",
        "last_move", "mine_cells",
    ]
    assert (state["rules"], state["width"], state["height"], state["mines"]) == (
        "4x4x3", 4, 4, 3
    )
    assert state["can_bomb"] == [False, False] and state["bombs_used"] == [False, False]
