"""``minesolver flags`` through the real entry point: AI matches stored and resumed, the
report, one-line errors, and a person playing through standard input."""

from __future__ import annotations

import json
import sqlite3

import pytest
from support import assert_one_error_line, run_cli

from minesolver.bench import RunSpec, Store
from minesolver.rules import Rules


def test_cli_match_json_resume_and_report(tmp_path, entry):
    db = str(tmp_path / "flags.sqlite")
    args = ["flags", "--p1", "hard", "--p2", "exact", "--games", "4", "--seed", "3",
            "--rules", "7x7x11", "--db", db, "--workers", "2", "--json"]
    result = run_cli(*args, entry=entry)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["games", "p1_wins", "p2_wins", "p1_win_rate", "ci95",
                          "p1_boards_per_second", "p2_boards_per_second"]
    assert data["p1_boards_per_second"] is None  # neither player samples boards
    assert data["games"] == 4 and data["p1_wins"] + data["p2_wins"] <= 4
    assert data["p1_win_rate"] == data["p1_wins"] / 4
    lo, hi = data["ci95"]
    assert 0 <= lo <= data["p1_win_rate"] <= hi <= 1
    # kill the run after the fact: drop two games, resume, same figures
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM flags_games WHERE game_index IN (1, 2)")
    resumed = run_cli("flags", "--resume", "r1", "--db", db, "--json", entry=entry)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == data
    other = run_cli("flags", "--resume", "r1", "--db", db, "--p2", "mc", entry=entry)
    assert_one_error_line(other, "--p2 mc (the run's: exact): leave it out")
    report = run_cli("report", "--db", db, entry=entry)
    assert report.returncode == 0, report.stderr
    assert "r1 flags" in report.stdout and "hard (p1) against exact (p2)" in report.stdout
    as_json = json.loads(run_cli("report", "--db", db, "--json", entry=entry).stdout)
    assert as_json["kind"] == "flags" and as_json["p1_wins"] == data["p1_wins"]


def test_cli_table_output(tmp_path):
    result = run_cli("flags", "--p1", "exact", "--p2", "mc:tries=100", "--games", "2",
                     "--rules", "6x6x7", "--db", str(tmp_path / "t.sqlite"), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "p1 exact" in result.stdout and "p2 mc:tries=100" in result.stdout
    assert "stored in" in result.stdout
    # only the sampling player reports its sampling rate
    assert "p2 mc:tries=100 sampled" in result.stdout and "p1 exact sampled" not in result.stdout


def test_mc_sampling_is_stored_per_game(tmp_path):
    db = tmp_path / "t.sqlite"
    result = run_cli("flags", "--p1", "mc:tries=50", "--p2", "exact", "--games", "2", "--json",
                     "--rules", "6x6x7", "--db", str(db), "--workers", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    with sqlite3.connect(str(db)) as con:
        work = [json.loads(x)["p1"] for (x,) in con.execute("SELECT extra FROM flags_games")]
    moves = [m for (m,) in sqlite3.connect(str(db)).execute("SELECT moves FROM flags_games")]
    # 50 proposals on each of its moves (none accepted early on a 6x6 board is possible, so
    # at most 50): about half the moves of each game are p1's
    assert all(0 < w["boards"] <= 50 * m for w, m in zip(work, moves, strict=True))
    rate = sum(w["boards"] for w in work) / sum(w["sampling_seconds"] for w in work)
    assert data["p1_boards_per_second"] == pytest.approx(rate)
    assert data["p2_boards_per_second"] is None


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--p1", "nope"], ["unknown Flags player 'nope'"]),
        (["--p2", "hard:x=1"], ["no option 'x'"]),
        (["--rules", "3x3x9"], ["9 mines do not fit"]),
        (["--rules", "big"], ["cannot read rules 'big'"]),
        (["--games", "0"], ["--games"]),
        (["--p2", "human"], ["--p2 must be an AI"]),
        (["--resume", "r9"], ["no results store at", "e.sqlite"]),
        (["--p1", "human", "--resume", "r1"], ["cannot be resumed"]),
        # options of the other kind of game were ignored without a word
        (["--p1", "human", "--games", "3", "--json"],
         ["--games and --db and --json are for AI matches, not a human game"]),
        (["--first", "p2"], ["--first is for a human game", "leave it out"]),
    ],
)
def test_cli_errors_are_one_line(args, needles, tmp_path):
    result = run_cli("flags", "--db", str(tmp_path / "e.sqlite"), *args)
    assert_one_error_line(result, *needles)


def test_cli_resume_names_a_missing_run_and_creates_no_store(tmp_path):
    db = tmp_path / "missing.sqlite"
    assert_one_error_line(run_cli("flags", "--resume", "r1", "--db", str(db)),
                          "no results store at")
    assert not db.exists()
    Store(db).close()
    assert_one_error_line(run_cli("flags", "--resume", "r9", "--db", str(db)), "no run 'r9'")


def test_cli_resume_refuses_other_kinds_of_run(tmp_path):
    db = str(tmp_path / "mixed.sqlite")
    with Store(db) as store:
        store.new_run("bench", RunSpec(points=(Rules(9, 9, 10),), strategies=("tank",), games=1,
                                       seed=1), "test")
    assert_one_error_line(run_cli("flags", "--resume", "r1", "--db", db), "not a flags run")
    played = run_cli("flags", "--p1", "exact", "--p2", "exact", "--games", "2", "--rules",
                     "5x5x5", "--db", db, "--workers", "1", "--json")
    assert played.returncode == 0, played.stderr
    report = run_cli("report", "--db", db)  # both kinds of run, each in its own form
    assert report.returncode == 0, report.stderr
    assert "r1 bench" in report.stdout and "r2 flags" in report.stdout


def human(*lines, seed=11, rules="5x5x5", extra=()):
    return run_cli("flags", "--p1", "human", "--p2", "exact", "--rules", rules, "--seed",
                   str(seed), *extra, input="".join(f"{line}\n" for line in lines))


def test_human_plays_through_stdin_to_the_end():
    every = [f"{r},{c}" for r in range(5) for c in range(5)]
    result = human("hello", "9,9", "bomb 2,2", *every)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "invalid move: cannot read move 'hello'" in out
    assert "invalid move: cell (9, 9) is off the 5x5 board" in out
    assert "invalid move: P1 may bomb only while behind" in out
    assert "game over:" in out
    assert "Traceback" not in result.stderr
    # the board has row and column numbers, and the AI's moves are described
    assert "  0  1  2  3  4" in out and "P2 (exact) opens" in out


def test_human_quit_and_end_of_input_end_cleanly():
    quit_ = human("quit")
    assert quit_.returncode == 0 and "game abandoned" in quit_.stdout
    eof = human()
    assert eof.returncode == 0 and "end of input" in eof.stdout
    assert not eof.stderr


def test_human_moves_second_when_asked():
    result = human(extra=("--first", "p2"))
    assert result.returncode == 0
    out = result.stdout
    assert out.index("P2 (exact) opens") < out.index("your move")


def test_a_match_stopped_before_its_first_game_reports_no_figures(tmp_path):
    db = tmp_path / "results.sqlite"
    made = run_cli("flags", "--p1", "exact", "--p2", "mc", "--games", "2", "--workers", "1",
                   "--db", str(db), "--quiet")
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(str(db)) as con:  # as a match stopped before its first game is kept
        con.execute("DELETE FROM flags_games")
    result = run_cli("report", "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert "0.0%" not in result.stdout and "0 of 2 games: no game played yet" in result.stdout
    data = json.loads(run_cli("report", "--db", str(db), "--json").stdout)
    assert data["games"] == 0 and data["p1_win_rate"] is None
