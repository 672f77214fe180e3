"""``minesolver play`` and ``minesolver strategies`` through the real entry points."""

from __future__ import annotations

import json

import pytest
from PIL import Image
from support import assert_one_error_line, position_from_json, run_cli, run_on_terminal

from minesolver.codes import COVERED
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies import STRATEGIES, find_strategy


def play_json(*args, entry="module"):
    result = run_cli("play", "--json", *args, entry=entry)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def read_log(path):
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert "result" in lines[-1]
    return lines[:-1], lines[-1]["result"]


def without_time(data):
    return {k: v for k, v in data.items() if k != "seconds"}


# ---------------------------------------------------------------------- strategies


def test_strategies_lists_each_with_one_line(entry):
    result = run_cli("strategies", entry=entry)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == STRATEGIES.names()
    for line in lines:
        name = line.split()[0]
        assert line[len(name):].strip() == STRATEGIES[name].summary


# ---------------------------------------------------------------------- play


@pytest.mark.parametrize(
    ("rules", "expected"),
    [("beginner", "9x9x10"), ("intermediate", "16x16x40"), ("expert", "30x16x99"),
     ("7x5x6", "7x5x6"), ("Beginner", "9x9x10")],
)
def test_rules_presets_and_custom_boards(rules, expected):
    data = play_json("--rules", rules, "--seed", "5", "--strategy", "tank")
    assert data["rules"] == expected
    w, h, m = (int(x) for x in expected.split("x"))
    assert data["safe_cells"] == w * h - m
    assert data["won"] == (data["opened"] == data["safe_cells"])


@pytest.mark.parametrize(
    ("first_click", "strategy"),
    [("safe", "tank"), ("opening", "best:lookahead=off"), ("none", "random"),
     ("opening", "max-constraint"), ("none", "sampling:samples=20")],
)
def test_a_game_is_play_game_with_the_same_seed(first_click, strategy):
    data = play_json("--rules", "8x8x10", "--first-click", first_click, "--seed", "77",
                     "--start", "center", "--strategy", strategy)
    rules = Rules(8, 8, 10, first_click=first_click)
    record = play_game(rules, find_strategy(strategy), seed=77, start="center")
    assert without_time(data) == {
        "rules": "8x8x10", "first_click": first_click, "noise": None, "no_guess": False,
        "strategy": strategy,
        "seed": 77, "start": [4, 4], "won": record.won, "clicks": record.clicks,
        "guesses": record.guesses, "bbbv": record.bbbv, "opened": record.opened,
        "safe_cells": 54, "exploded": list(record.exploded) if record.exploded else None,
        "engine_limits": record.engine_limits,
    }
    assert (data["exploded"] is None) == record.won


@pytest.mark.parametrize(
    ("start", "cell"),
    [("corner", [0, 0]), ("center", [3, 5]), ("centre", [3, 5]), ("2,7", [2, 7]),
     ("(6, 0)", [6, 0])],
)
def test_start(start, cell, tmp_path):
    log = tmp_path / "game.jsonl"
    data = play_json("--rules", "10x7x8", "--seed", "3", "--start", start, "--log", str(log))
    assert data["start"] == cell
    steps, _ = read_log(log)
    assert steps[0]["moves"] == [
        {"cell": cell, "action": "reveal", "reason": "first", "probability": None,
         "win_chance": None, "text": f"open {tuple(cell)}: first"}
    ]
    assert cell in steps[0]["opened"]


def test_the_first_click_rules_reach_the_game(tmp_path):
    # 40 mines on 8x8, seed 0: unprotected, the corner is a mine
    def first_step(first_click):
        log = tmp_path / f"{first_click}.jsonl"
        play_json("--rules", "8x8x40", "--first-click", first_click, "--seed", "0",
                  "--strategy", "tank", "--log", str(log))
        steps, result = read_log(log)
        assert result["first_click"] == first_click
        return steps, result

    steps, result = first_step("none")
    assert len(steps) == 1 and not result["won"] and result["guesses"] == 1
    assert result["exploded"] == [0, 0]  # the record names the mine that ended the game
    steps, result = first_step("safe")
    assert result["won"] or len(steps) > 1  # the same corner is protected: play goes on
    steps, result = first_step("opening")
    assert len(steps[0]["opened"]) >= 4  # a corner opening: at least its 2x2 block


def test_same_seed_same_game_and_the_printed_seed_replays_it():
    a = play_json("--rules", "9x9x12", "--seed", "123", "--strategy", "best")
    b = play_json("--rules", "9x9x12", "--seed", "123", "--strategy", "best")
    assert without_time(a) == without_time(b)
    fresh = play_json("--rules", "9x9x12", "--strategy", "tank")
    again = play_json("--rules", "9x9x12", "--strategy", "tank", "--seed", str(fresh["seed"]))
    assert without_time(fresh) == without_time(again)


def test_human_summary_line(entry):
    result = run_cli("play", "--rules", "beginner", "--seed", "3", "--strategy", "tank",
                     entry=entry)
    assert result.returncode == 0, result.stderr
    record = play_game(Rules(9, 9, 10), find_strategy("tank"), seed=3)
    line = result.stdout.strip()
    assert line.startswith(f"tank {'won' if record.won else 'lost'} 9x9x10 (safe first click")
    assert f"seed 3): {record.clicks} clicks, {record.guesses} guesses, 3BV {record.bbbv}" in line


@pytest.mark.parametrize(("args", "said"), [
    # "(none first click" and no word of the noise before
    (["--first-click", "none"], "9x9x10 (no first-click protection, start (0, 0), seed 3)"),
    (["--noise", "optimistic"], "9x9x10 with optimistic clues (safe first click,"),
])
def test_the_summary_line_says_how_the_game_was_played(args, said):
    result = run_cli("play", "--rules", "beginner", "--seed", "3", *args)
    assert result.returncode == 0, result.stderr
    assert said in result.stdout


def test_an_empty_output_path_is_named(tmp_path):
    for option in ("--log", "--gif"):
        result = run_cli("play", "--rules", "beginner", option, "")
        assert_one_error_line(result, "'': an empty path names no file")


def test_a_gif_named_as_another_format_is_refused(tmp_path):
    result = run_cli("play", "--rules", "beginner", "--gif", str(tmp_path / "solve.png"))
    assert_one_error_line(result, "solve.png: the file is written as .gif", "name it solve.gif")
    assert list(tmp_path.iterdir()) == []


def test_log_is_a_faithful_play_by_play(tmp_path):
    log = tmp_path / "game.jsonl"
    data = play_json("--rules", "9x9x14", "--seed", "11", "--strategy", "best", "--log",
                     str(log), "--first-click", "none")
    steps, result = read_log(log)
    assert without_time(result) == without_time(data)
    # one serialize.step_json per line: the same shape as the web app's watched steps
    assert all(set(s) == {"index", "position", "moves", "opened", "analysis"} for s in steps)
    assert all(s["analysis"] is None for s in steps)
    assert [s["index"] for s in steps] == list(range(len(steps)))
    assert len(steps) >= 3
    positions = [position_from_json(s["position"]) for s in steps]
    assert positions[0] == Position.covered(9, 9, 14)
    for step, position, after in zip(steps, positions, [*positions[1:], None], strict=True):
        assert step["moves"]
        for move in step["moves"]:
            r, c = move["cell"]
            assert move["text"].startswith(f"{'open' if move['action'] == 'reveal' else 'flag'} ")
            assert position.cells[r * 9 + c] == COVERED
            assert move["reason"] in ("first", "deduction", "guess", "forced", "endgame")
            assert move["action"] in ("reveal", "flag")
        if after is not None:  # every cell opened shows in the next position
            for r, c in step["opened"]:
                assert after.cells[r * 9 + c] <= 8
            newly = {i for i in range(81) if position.cells[i] == COVERED
                     and after.cells[i] != COVERED}
            assert newly == {r * 9 + c for r, c in step["opened"]}
    guesses = sum(
        1 for s in steps[1:] for m in s["moves"]
        if m["reason"] != "deduction" and m["probability"] and s["opened"]
    )
    assert result["guesses"] == guesses + 1  # an unprotected first click is a guess too


def test_show_with_json_keeps_stdout_one_json_object():
    result = run_cli("play", "--rules", "beginner", "--seed", "3", "--show", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["seed"] == 3  # the whole of stdout
    assert "step 0: first click" in result.stderr  # the steps went to stderr


def test_show_prints_every_step_with_the_move_and_why(tmp_path):
    log = tmp_path / "game.jsonl"
    # seed 3: deductions, then an endgame search that loses
    result = run_cli("play", "--rules", "9x9x14", "--seed", "3", "--strategy", "best",
                     "--first-click", "none", "--show", "--log", str(log))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    steps, record = read_log(log)
    assert f"step 0: first click at {tuple(steps[0]['moves'][0]['cell'])}" in out
    for step in steps[1:]:
        k = step["index"]
        assert f"step {k}:" in out
        deductions = [m for m in step["moves"] if m["reason"] == "deduction"]
        if deductions:
            assert f"step {k}: open {len(deductions)} safe cells by deduction" in out
        for m in step["moves"]:
            if m["reason"] != "deduction":
                line = f"step {k}: open {tuple(m['cell'])}: {m['reason']} at "
                assert line in out
                assert f"{m['probability']:.1%} mine risk" in out
                if m["reason"] == "endgame":
                    assert f"win chance {m['win_chance']:.1%}" in out
        assert f"  opened {len(step['opened'])} cells" in out
    reasons = {m["reason"] for s in steps[1:] for m in s["moves"]}
    assert {"deduction", "endgame"} <= reasons
    assert out.strip().splitlines()[-1].startswith(
        f"best {'won' if record['won'] else 'lost'} 9x9x14"
    )


def test_gif_is_an_animation_of_every_step(tmp_path):
    gif, log = tmp_path / "solve.gif", tmp_path / "game.jsonl"
    result = run_cli("play", "--rules", "8x6x9", "--seed", "21", "--strategy", "best",
                     "--gif", str(gif), "--log", str(log))
    assert result.returncode == 0, result.stderr
    steps, _ = read_log(log)
    with Image.open(gif) as image:
        assert image.format == "GIF"
        assert image.is_animated
        assert image.n_frames == len(steps) + 1  # a frame per step and the final board
        assert image.size == (8 * 20, 6 * 20 + 14)  # 20-pixel cells and a caption
        assert image.info.get("loop") == 0
        frames = []
        for k in range(image.n_frames):
            image.seek(k)
            frames.append(image.convert("RGB").tobytes())
    assert len(set(frames)) == len(frames)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--strategy", "nope"], ["unknown strategy 'nope'"]),
        (["--strategy", "best:bogus=1"], ["no option 'bogus'"]),
        (["--rules", "huge"], ["cannot read rules 'huge'"]),
        (["--rules", "3x3x9"], ["9 mines do not fit"]),
        (["--rules", "0x5x1"], ["board size must be positive"]),
        (["--start", "9,9", "--rules", "beginner"], ["start (9, 9) is off the 9x9 board"]),
        (["--start", "middle"], ["cannot read start 'middle'"]),
        (["--start", "-1,2"], ["cannot read start"]),
        (["--first-click", "lucky"], ["--first-click", "lucky"]),
        (["--seed", "abc"], ["--seed"]),
    ],
)
def test_user_errors_are_one_line(args, needles):
    assert_one_error_line(run_cli("play", *args), *needles)


def test_errors_through_the_console_script(entry):
    assert_one_error_line(run_cli("play", "--strategy", "nope", entry=entry), "nope")


def test_unwritable_log_is_one_line(tmp_path):
    missing = tmp_path / "no" / "such" / "dir" / "game.jsonl"
    assert_one_error_line(run_cli("play", "--rules", "beginner", "--seed", "1", "--log",
                                  str(missing)))


def test_engine_workers_play_the_same_game():
    """Counting on two threads changes nothing a game records but its time."""
    games = []
    for workers in ("1", "2"):
        result = run_cli("play", "--json", "--rules", "40x40x300", "--seed", "4",
                         "--engine-workers", workers)
        assert result.returncode == 0, result.stderr
        record = json.loads(result.stdout)
        record.pop("seconds")
        games.append(record)
    assert games[0] == games[1]


@pytest.mark.parametrize("value", ["0", "65", "two"])
def test_bad_engine_workers_is_one_error_line(value):
    result = run_cli("play", "--rules", "beginner", "--engine-workers", value)
    assert_one_error_line(result, "--engine-workers")


def test_a_game_on_a_terminal_shows_the_cells_opened():
    # 120x100x1500: a second or two, long enough for the bar to be drawn
    args = ("play", "--rules", "120x100x1500", "--seed", "4", "--strategy", "tank")
    piped = run_cli(*args)
    assert piped.returncode == 0 and piped.stderr == ""
    status, seen = run_on_terminal(*args)
    assert status == 0
    assert b"playing" in seen and b"/10500" in seen  # the safe cells, 12,000 - 1,500
    shown = run_on_terminal(*args, "--show")[1]  # the steps are the progress: no bar
    assert b"/10500" not in shown


def test_the_bar_says_when_a_no_guess_board_is_being_searched_for():
    # a dense no-guess board can take minutes to find: the bar sat at 0 cells opened
    from minesolver.cli.one_game import _searching
    from minesolver.noguess import no_guess_layout
    from minesolver.rules import Rules

    said = []
    lay = _searching(lambda live, by=1: said.append((live, by)))
    rules = Rules(9, 9, 10, no_guess=True)
    assert lay(rules, 5, 0) == no_guess_layout(rules, 5, 0)
    assert said == [("finding a no-guess board (up to 1000 tries)", 0)]
