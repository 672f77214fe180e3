"""Reading the community's replay files and minesolver's logs; `minesolver review`.

The sample replays (tests/data/replays, sources in SOURCES.tsv) are players' games that
ms-toollib ships as test data.  Damaged files must give one clear line, never a
traceback or an aborted process.
"""

from __future__ import annotations

import json
import sys

import pytest
from support import REPLAYS, assert_one_error_line, log_of, run_cli

from minesolver.replay import ReplayError, read_replay, read_replay_bytes
from minesolver.review import review_game
from minesolver.rules import BEGINNER, Rules

SAMPLES = sorted(p.name for p in REPLAYS.iterdir() if p.suffix in (".avf", ".rmv", ".evf", ".mvf"))
# what the files' names say: the time and the 3BV of the game
NAMED = {"exp_49.25_3bv127.avf": (49.25, 127), "beg_3.796_3bv3_v3.evf": (3.796, 3)}


@pytest.fixture(scope="module", params=SAMPLES)
def sample(request):
    pytest.importorskip("ms_toollib")
    return read_replay(REPLAYS / request.param)


def test_every_figure_agrees_with_ms_toollib(sample):
    review = review_game(sample)
    reader = sample.reader
    assert review.time_note is None  # the file's time agrees with its last click
    assert review.stats.bbbv == reader["bbbv"]
    assert review.bbbv_solved == reader["bbbv_solved"]
    assert review.won == reader["completed"]
    assert (review.stats.openings, review.stats.islands) == (reader["openings"], reader["islands"])
    assert (review.stats.zini, review.stats.hzini) == (reader["zini"], reader["hzini"])
    assert sample.counts.total == reader["clicks"]
    assert sample.counts.effective == reader["effective"]
    assert review.ioe == pytest.approx(reader["ioe"])
    assert review.bbbv_per_second == pytest.approx(reader["bbbv_s"])
    assert sample.seconds == pytest.approx(reader["seconds"], abs=1e-6)  # rounded to µs
    if sample.name in NAMED:
        assert (sample.seconds, review.stats.bbbv) == NAMED[sample.name]


def test_every_click_is_followed(sample):
    review = review_game(sample)  # checks the open cells after each click against the file
    opens = [c for c in sample.clicks if c.kind in ("open", "chord")]
    assert len(review.clicks) == len(opens)
    assert review.clicks[0].first and not any(c.first for c in review.clicks[1:])
    assert all(c.probability is not None for c in review.clicks[1:])


@pytest.mark.parametrize("name", SAMPLES)
def test_cut_short_and_damaged_files_get_one_clear_error(name, tmp_path):
    pytest.importorskip("ms_toollib")
    data = (REPLAYS / name).read_bytes()
    damaged = [data[:n] for n in (0, 1, 10, 100, len(data) // 2)]
    damaged.append(bytes(b ^ 0x5A for b in data[:200]) + data[200:])
    for index, blob in enumerate(damaged):
        try:
            replay = read_replay_bytes(blob, name)
        except ReplayError as exc:
            message = str(exc)
            assert message.startswith(name) and "\n" not in message
            continue
        review_game(replay)  # what still reads must still review
        assert index >= 4, f"{name} cut to {len(blob)} bytes read without complaint"
    assert not (tmp_path / "crash.log").exists()


def test_a_replay_reader_that_is_not_installed_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ms_toollib", None)  # import fails as if absent
    with pytest.raises(ReplayError, match=r"needs ms-toollib: pip install 'minesolver\[replays\]'"):
        read_replay_bytes(b"anything", "game.avf")


def test_logs_damaged_or_cut_short(tmp_path):
    text, _ = log_of(BEGINNER, "tank", 5)
    lines = text.splitlines()
    cases = {
        "cut.jsonl": "\n".join(lines[:-1]),  # no result line
        "half.jsonl": text[: len(text) // 2],  # cut inside a line
        "mangled.jsonl": text.replace('"opened": [[', '"opened": [[99, 99], [', 1),
        "nomines.jsonl": "\n".join(
            [*lines[:-1], json.dumps({"result": {**json.loads(lines[-1])["result"], "won": False}})]
        ),
        "empty.jsonl": "{}",
    }
    for name, content in cases.items():
        with pytest.raises(ReplayError) as info:
            read_replay_bytes(content.encode(), name)
        assert str(info.value).startswith(name) and "\n" not in str(info.value), info.value


def tampered(text, change):
    """The log ``text`` with ``change(steps, end)`` applied to its parsed lines."""
    lines = [json.loads(line) for line in text.splitlines()]
    steps, end = lines[:-1], lines[-1]
    change(steps, end)
    return "".join(json.dumps(item) + "\n" for item in [*steps, end])


def setter(where, key, value):
    def change(steps, end):
        target = {"result": end["result"], "end": end, "move": steps[0]["moves"][0],
                  "step": steps[0]}[where]
        target[key] = value
    return change


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (setter("end", "mines", [[0, 0]] * 81), "the log names 81 mines but its board has 10"),
        (setter("move", "cell", [0, 0, 0]), "a cell must be [row, col], got [0, 0, 0]"),
        (setter("move", "cell", "x"), "step 0's move: a cell must be [row, col], got 'x'"),
        (setter("move", "cell", [0, 9]), "step 0's move: column 9 is off the board"),
        (setter("move", "action", "chord"), "action must be reveal or flag, got 'chord'"),
        (setter("end", "mines", 0), "the mines must be a list of [row, col], got 0"),
        (setter("end", "mines", [["0", "3"]]), "the mines: row must be an integer, got '0'"),
        (setter("end", "result", None), "the result must be an object, got None"),
        (setter("result", "seconds", "x"), "seconds must be a time of at least 0, got 'x'"),
        (setter("result", "seconds", -5), "seconds must be a time of at least 0, got -5"),
        (setter("result", "rules", "16x16x10"), "rules '16x16x10' are not its board's 9x9x10"),
        (setter("result", "first_click", "bogus"), "first_click 'bogus' is not one of"),
        (setter("result", "start", [50, 50]), "the result's start: row 50 is off the board"),
        (setter("result", "won", "yes"), "won must be true or false, got 'yes'"),
        (setter("step", "moves", None), "step 0's moves must be a list, got None"),
        (setter("step", "position", {"width": True}), "the board's width must be an integer"),
    ],
)
def test_a_tampered_log_is_refused_by_the_field_it_breaks(change, said):
    text, _ = log_of(BEGINNER, "tank", 5)
    with pytest.raises(ReplayError) as info:
        read_replay_bytes(tampered(text, change).encode(), "game.jsonl")
    message = str(info.value)
    assert message.startswith("game.jsonl: ") and message.count("game.jsonl") == 1, message
    assert said in message and "\n" not in message


def test_a_log_whose_result_its_moves_deny_is_refused():
    seen = set()
    for seed in range(40):  # until a game tank wins and one it loses
        text, record = log_of(BEGINNER, "tank", seed)
        if record.won in seen:
            continue
        seen.add(record.won)
        lie = tampered(text, setter("result", "won", not record.won))
        said = "lost but its moves win it" if record.won else "won but its moves do not win it"
        with pytest.raises(ReplayError, match=f"the result says the game was {said}"):
            read_replay_bytes(lie.encode(), "game.jsonl")
        assert read_replay_bytes(text.encode(), "game.jsonl").layout == record.layout
    assert seen == {True, False}


# ---------------------------------------------------------------------- the command
def test_review_command_text_and_json(tmp_path):
    pytest.importorskip("ms_toollib")
    path = REPLAYS / "exp_49.25_3bv127.avf"
    result = run_cli("review", "--json", str(path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    replay = read_replay(path)
    assert data["mines"] == [list(cell) for cell in replay.layout.mine_cells()]
    assert (data["bbbv"], data["seconds"], data["zini"]) == (127, 49.25, 96)
    assert len(data["clicks"]) == len(review_game(replay).clicks)
    assert {"cell", "probability", "needless", "safest", "advice", "given_up"} <= set(
        data["clicks"][1]
    )
    text = run_cli("review", str(path))
    assert text.returncode == 0, text.stderr
    assert "3BV 127 (127 solved)" in text.stdout and "ZiNi 96, HZiNi 103" in text.stdout
    assert "needless" in text.stdout


def test_review_of_a_play_log(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run_cli("play", "--rules", "beginner", "--seed", "7", "--strategy", "random",
                     "--log", str(log), "--json")
    assert played.returncode == 0, played.stderr
    record = json.loads(played.stdout)
    result = run_cli("review", "--json", str(log))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["won"] == record["won"] and data["bbbv"] == record["bbbv"]
    assert data["guesses"] == record["guesses"]
    assert data["format"] == "log" and data["player"] == "random"


def test_a_log_of_a_noisy_game_is_refused(tmp_path):
    # it was rebuilt with exact numbers: review judged a game nobody played
    log = tmp_path / "noisy.jsonl"
    played = run_cli("play", "--rules", "8x8x8", "--noise", "withheld:0.5", "--seed", "4",
                     "--log", str(log), "--json")
    assert played.returncode == 0, played.stderr
    assert_one_error_line(run_cli("review", str(log)), "noisy.jsonl: a game with noisy clues "
                          "('withheld:0.5'): review judges games whose numbers are exact")


def test_names_from_a_file_are_printed_as_they_are(tmp_path):
    # the player's name, the program's and the file's come from the user: never markup
    log = tmp_path / "[bold]game.jsonl"
    log.write_text(log_of(BEGINNER, "random", 4)[0])
    result = run_cli("review", str(log))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("[bold]game.jsonl: 9x9, 10 mines, log")
    pytest.importorskip("ms_toollib")
    data = (REPLAYS / "test_rmv2_24px.rmv").read_bytes()
    hostile = tmp_path / "[red]x.rmv"
    hostile.write_bytes(data.replace(b"Thomas Kolar", b"[/]x[/]Kolar"))  # same length
    result = run_cli("review", str(hostile))
    assert result.returncode == 0, result.stderr
    assert "[red]x.rmv: " in result.stdout and "by '[/]x[/]Kolar'" in result.stdout


def test_a_game_left_before_its_end_is_unfinished_not_lost():
    pytest.importorskip("ms_toollib")
    path = REPLAYS / "beg_unfinished_marks_on.avf"  # no click hit a mine; 3 safe cells covered
    data = json.loads(run_cli("review", "--json", str(path)).stdout)
    assert (data["won"], data["outcome"]) == (False, "unfinished")
    assert not any(click["exploded"] for click in data["clicks"])
    assert data["bbbv_solved"] < data["bbbv"] == data["reader"]["bbbv"]
    text = run_cli("review", str(path)).stdout
    assert "\nunfinished in 15.080 s" in text
    lost = review_game(read_replay(REPLAYS / "exp_98763_FL.rmv"))
    assert lost.outcome == ("won" if lost.won else "lost")


def test_times_are_kept_to_the_microsecond():
    pytest.importorskip("ms_toollib")
    for name in SAMPLES:
        replay = read_replay(REPLAYS / name)
        times = [replay.seconds] + [c.time for c in replay.clicks if c.time is not None]
        assert all(t == round(t, 6) for t in times), name


def test_a_device_or_a_file_past_the_cap_is_refused_after_reading_past_it(tmp_path):
    endless = tmp_path / "zero.avf"
    endless.symlink_to("/dev/zero")  # its size says 0: only reading finds its end
    assert_one_error_line(run_cli("review", str(endless)), "zero.avf",
                          "over 16,777,216 bytes")
    unreadable = tmp_path / "dir.avf"
    unreadable.mkdir()
    assert_one_error_line(run_cli("review", str(unreadable)), "dir.avf")


def test_review_keeps_to_its_limits(tmp_path):
    # a log of a 1,000,000-cell game: its figures alone take far past 0.5 s
    log = tmp_path / "huge.jsonl"
    log.write_text(log_of(Rules.from_string("1000x1000x150000"), "random", 1)[0])
    result = run_cli("review", "--max-seconds", "0.5", str(log))
    assert_one_error_line(result, "longer than --max-seconds 0.5 s")


def test_review_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.avf"
    bad.write_bytes(b"\x00" * 50)
    if "ms_toollib" in sys.modules or _has_reader():
        assert_one_error_line(run_cli("review", str(bad), cwd=tmp_path), "bad.avf")
    assert_one_error_line(run_cli("review", str(tmp_path / "missing.rmv")), "missing.rmv")
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    assert_one_error_line(run_cli("review", str(notes)), "not a replay")
    assert not (tmp_path / "crash.log").exists()


def _has_reader():
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        return False
    return True


def test_a_game_lost_on_its_first_click_says_so(tmp_path):
    # no first-click protection: find a seed whose corner is a mine
    rules = Rules.from_string("9x9x40", first_click="none")
    for seed in range(1, 50):
        text, record = log_of(rules, "best", seed)
        if record.clicks == 1 and not record.won:
            break
    log = tmp_path / "lost.jsonl"
    log.write_text(text)
    result = run_cli("review", str(log))
    assert result.returncode == 0, result.stderr
    assert "1 click reviewed: no guess\n" in result.stdout  # not "surviving them all: 100%"
    assert "click 1 open (0, 0): the first click (not judged" in result.stdout
    assert result.stdout.count("it hit a mine") == 1


def test_names_from_a_file_cannot_drive_the_terminal(tmp_path):
    from dataclasses import replace

    from rich.console import Console

    from minesolver.cli.review import print_review

    text, _ = log_of(BEGINNER, "best", 2)
    replay = read_replay_bytes(text.encode(), "n\x1b]0;T\x07.jsonl")
    out = Console(record=True, width=200, file=open(tmp_path / "out", "w"))  # noqa: SIM115
    print_review(out, review_game(replace(replay, software="soft\x1b[5mBLINK")))
    shown = out.export_text()
    assert "\x1b" not in shown and "\x07" not in shown
    assert "n\\x1b]0;T\\x07.jsonl: 9x9" in shown and "(soft\\x1b[5mBLINK)" in shown


def test_a_survival_chance_is_never_shown_as_nought(tmp_path):
    # a won 60x36 marathon had a 0.011% chance and read "0.0%", as if it could not be
    from dataclasses import replace
    from fractions import Fraction

    from rich.console import Console

    from minesolver.cli.review import print_review

    text, _ = log_of(BEGINNER, "random", 3)
    review = review_game(read_replay_bytes(text.encode(), "game.jsonl"))
    assert review.guesses
    risky = tuple(replace(c, probability=Fraction(9999, 10000)) if c.guess else c
                  for c in review.clicks)
    out = Console(record=True, width=400, file=open(tmp_path / "out", "w"))  # noqa: SIM115
    print_review(out, replace(review, clicks=risky))
    line = next(x for x in out.export_text().splitlines() if "surviving them all" in x)
    assert not line.endswith(" 0.0%")
