"""``minesolver bench`` and ``report`` through the real CLI, with a real SQLite file.

Includes the crash test: a bench is killed (SIGKILL, workers and all) mid-run, resumed,
and must end with exactly the games and figures of a run that was never interrupted.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from support import assert_one_error_line, run_cli, run_on_terminal

from minesolver import __version__
from minesolver.bench import mcnemar, wilson
from minesolver.formats import layout_line, read_layouts, write_mbf
from minesolver.game import Game, Layout
from minesolver.play import play_game
from minesolver.rng import derive_seed
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

SUMMARY_KEYS = {
    "strategy", "games", "wins", "win_rate", "ci95", "guesses_per_game", "needs_guess",
    "open_rate", "ms_per_game_mean", "ms_per_game_median", "ms_per_game_p95", "bbbv_mean",
    "run_id", "rules", "first_click", "noise", "start", "seed",
}
TIMING = {"ms_per_game_mean", "ms_per_game_median", "ms_per_game_p95", "wall_seconds"}
OUTCOME = "strategy, game_index, seed, rules, first_click, start, won, clicks, guesses, bbbv, " \
          "opened, safe_cells"



def bench(*args, db, entry="module"):
    """Run ``bench --json`` and return its JSON."""
    result = run_cli("bench", "--json", "--db", str(db), *args, entry=entry)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def rows(db, run_id="r1"):
    """Per-game outcomes of a run, straight from the SQLite file (no minesolver code)."""
    with sqlite3.connect(str(db)) as con:
        return con.execute(
            f"SELECT {OUTCOME} FROM games WHERE run_id = ? ORDER BY strategy, game_index",
            (run_id,),
        ).fetchall()


def untimed(data):
    """A summary without its timings (and without the run it came from)."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in TIMING | {"run_id"}}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


# ---------------------------------------------------------------------- one strategy


def test_summary_keys_and_figures(tmp_path, entry):
    db = tmp_path / "results.sqlite"
    data = bench("--rules", "7x7x9", "--games", "30", "--strategy", "tank", "--seed", "3",
                 "--workers", "1", db=db, entry=entry)
    assert set(data) >= SUMMARY_KEYS
    assert (data["run_id"], data["strategy"], data["rules"], data["seed"]) == (
        "r1", "tank", "7x7x9", 3
    )
    stored = rows(db)
    assert len(stored) == 30
    wins = sum(r[6] for r in stored)
    assert (data["games"], data["wins"]) == (30, wins)
    assert data["win_rate"] == pytest.approx(wins / 30)
    assert data["ci95"] == pytest.approx(list(wilson(wins, 30)))
    assert data["guesses_per_game"] == pytest.approx(sum(r[8] for r in stored) / 30)
    assert data["bbbv_mean"] == pytest.approx(sum(r[9] for r in stored) / 30)
    assert data["ms_per_game_median"] > 0 and data["ms_per_game_mean"] > 0


def test_every_game_is_stored_with_what_replays_it(tmp_path):
    db = tmp_path / "results.sqlite"
    bench("--rules", "8x6x8", "--first-click", "opening", "--start", "2,3", "--games", "12",
          "--strategy", "tank", "--strategy", "best:endgame=off", "--seed", "99",
          "--workers", "2", db=db)
    with sqlite3.connect(str(db)) as con:
        con.row_factory = sqlite3.Row
        stored = con.execute("SELECT * FROM games ORDER BY strategy, game_index").fetchall()
    assert len(stored) == 24
    rules = Rules(8, 6, 8, first_click="opening")
    for row in stored:
        assert row["run_id"] == "r1"
        assert (row["rules"], row["first_click"], row["start"]) == ("8x6x8", "opening", "2,3")
        assert row["version"] == __version__
        assert row["seconds"] > 0
        seed = derive_seed(99, row["game_index"])
        assert int(row["seed"]) == seed
        record = play_game(rules, find_strategy(row["strategy"]), seed=seed, start=(2, 3))
        assert (bool(row["won"]), row["clicks"], row["guesses"], row["bbbv"]) == (
            record.won, record.clicks, record.guesses, record.bbbv
        )
    assert {row["strategy"] for row in stored} == {"tank", "best:endgame=off"}
    assert sorted({row["game_index"] for row in stored}) == list(range(12))


# ---------------------------------------------------------------------- comparisons


def test_several_strategies_are_compared_on_the_same_boards(tmp_path):
    db = tmp_path / "results.sqlite"
    data = bench("--rules", "8x8x12", "--games", "40", "--strategy", "tank", "--strategy",
                 "random", "--strategy", "max-constraint", "--seed", "5", "--workers", "2",
                 db=db)
    assert [s["strategy"] for s in data["results"]] == ["tank", "random", "max-constraint"]
    for s in data["results"]:
        assert set(s) >= SUMMARY_KEYS
        assert s["games"] == 40
    won = {}
    for strategy, index, _, _, _, _, w, *_ in rows(db):
        won[strategy, index] = bool(w)
    pairs = [(c["a"], c["b"]) for c in data["comparisons"]]
    assert pairs == [("tank", "random"), ("tank", "max-constraint"), ("random", "max-constraint")]
    for c in data["comparisons"]:
        a_only = sum(won[c["a"], i] and not won[c["b"], i] for i in range(40))
        b_only = sum(won[c["b"], i] and not won[c["a"], i] for i in range(40))
        expected = mcnemar(a_only, b_only, 40)
        assert (c["games"], c["a_only"], c["b_only"]) == (40, a_only, b_only)
        assert c["diff"] == pytest.approx(expected.diff)
        assert c["ci95"] == pytest.approx(list(expected.ci95))
        assert c["p_value"] == pytest.approx(expected.p_value)
    # every strategy met the same boards: same 3BV game by game
    bbbv = {}
    for row in rows(db):
        bbbv.setdefault(row[1], set()).add(row[9])
    assert all(len(v) == 1 for v in bbbv.values())
    assert data["results"][0]["win_rate"] > data["results"][1]["win_rate"]  # tank beats random


def test_human_output_has_the_table_and_the_comparison(tmp_path):
    db = tmp_path / "results.sqlite"
    result = run_cli("bench", "--rules", "6x6x5", "--games", "10", "--strategy", "tank",
                     "--strategy", "random", "--db", str(db), "--workers", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "run r1" in out and "95% CI" in out
    assert "tank - random:" in out and "McNemar p =" in out
    assert f"stored in {db} as run r1" in out


# ---------------------------------------------------------------------- fixed boards


def random_layouts(count, width, height, mines, seed):
    """Boards with the start (0, 0) free, as the default first-click rule needs."""
    rnd = random.Random(seed)
    return [Layout(width, height, tuple(rnd.sample(range(1, width * height), mines)))
            for _ in range(count)]


def test_layouts_file_plays_those_boards(tmp_path):
    boards = random_layouts(15, 8, 8, 9, seed=4)
    path = tmp_path / "boards.jsonl"
    path.write_text("".join(layout_line(b) for b in boards) + "\n")  # a trailing blank line
    db = tmp_path / "results.sqlite"
    data = bench("--rules", "8x8x9", "--layouts", str(path), "--games", "15", "--strategy",
                 "tank", "--seed", "6", "--workers", "2", db=db)
    assert data["games"] == 15
    rules = Rules(8, 8, 9)
    for row, board in zip(rows(db), boards, strict=True):
        assert row[9] == Game.from_layout(board).bbbv()
        record = play_game(rules, find_strategy("tank"), seed=derive_seed(6, row[1]),
                           layout=board)
        assert record.layout == board
        assert (bool(row[6]), row[7], row[8]) == (record.won, record.clicks, record.guesses)


def test_a_resumed_run_refuses_a_board_file_that_changed(tmp_path):
    boards, others = random_layouts(12, 8, 8, 9, seed=4), random_layouts(12, 8, 8, 9, seed=5)
    path = tmp_path / "boards.jsonl"
    path.write_text("".join(layout_line(b) for b in boards))
    db = tmp_path / "results.sqlite"
    bench("--rules", "8x8x9", "--layouts", str(path), "--games", "12", "--strategy", "tank",
          "--workers", "1", db=db)
    played = rows(db)
    with sqlite3.connect(str(db)) as con:  # as if the run had stopped after six games
        con.execute("DELETE FROM games WHERE game_index >= 6")
    path.write_text("".join(layout_line(b) for b in others))
    result = run_cli("bench", "--db", str(db), "--resume", "r1")
    assert_one_error_line(result, f"{path} no longer holds the boards this run began on")
    assert rows(db) == played[:6]
    # the same boards in another format are the same boards
    path.write_bytes(b"".join(write_mbf(b) for b in boards))
    bench("--resume", "r1", "--workers", "1", db=db)
    assert rows(db) == played


def test_mbf_boards_are_played_as_given(tmp_path):
    boards = random_layouts(6, 8, 8, 9, seed=5)
    path = tmp_path / "boards.mbf"
    path.write_bytes(b"".join(write_mbf(b) for b in boards))  # MBF records one after another
    db = tmp_path / "results.sqlite"
    data = bench("--rules", "8x8x9", "--layouts", str(path), "--games", "6", "--strategy",
                 "tank", "--seed", "6", "--workers", "1", db=db)
    assert data["games"] == 6
    for row, board in zip(rows(db), boards, strict=True):
        record = play_game(Rules(8, 8, 9), find_strategy("tank"), seed=derive_seed(6, row[1]),
                           layout=board)
        assert (bool(row[6]), row[7]) == (record.won, record.clicks)


def test_board_files_that_cannot_be_played_are_refused_in_one_line(tmp_path):
    db = tmp_path / "results.sqlite"
    empty = tmp_path / "empty.mbf"
    empty.write_bytes(b"")
    endless = tmp_path / "zero.mbf"  # a device: its size says 0, reading never ends
    endless.symlink_to("/dev/zero")
    fifo = tmp_path / "boards.jsonl"  # would hang, and a resumed run could not read it again
    os.mkfifo(fifo)
    for path, said in ((empty, "holds no board"), (endless, "not a regular file"),
                       (fifo, "not a regular file")):
        result = run_cli("bench", "--rules", "8x8x9", "--layouts", str(path), "--games", "1",
                         "--workers", "1", "--db", str(db), timeout=60)
        assert_one_error_line(result, path.name, said)
    assert not db.exists()


def test_the_studies_measures_are_reported_and_stored(tmp_path):
    db = tmp_path / "results.sqlite"
    data = bench("--rules", "9x9x10", "--games", "12", "--strategy", "tank", "--seed", "2",
                 "--workers", "1", db=db)
    with sqlite3.connect(str(db)) as con:
        extras = [json.loads(x) for (x,) in con.execute("SELECT extra FROM games")]
    turns = sum(e["turns"] for e in extras)
    assert data["engine_share"] == pytest.approx(sum(e["engine_turns"] for e in extras) / turns)
    assert data["chain_max"] == max(e["chain"] for e in extras)
    opened = [r[10] / r[11] for r in rows(db)]
    enough = [x for x in opened if x >= 0.05]
    assert data["open_rate_5"] == pytest.approx(sum(enough) / len(enough))
    assert data["opened_5"] == pytest.approx(len(enough) / len(opened))


def test_dumped_layouts_replay_the_same_games(tmp_path):
    dump = tmp_path / "played.jsonl"
    args = ("--rules", "9x9x12", "--first-click", "opening", "--start", "center",
            "--games", "20", "--strategy", "best", "--strategy", "sampling:samples=30",
            "--seed", "17", "--workers", "2")
    first = bench(*args, "--dump-layouts", str(dump), db=tmp_path / "a.sqlite")
    boards = list(read_layouts(dump.read_text()))
    assert len(boards) == 20
    assert all((b.width, b.height, len(b.mines)) == (9, 9, 12) for b in boards)
    # the opening rule held on every dumped board: no mine around the centre
    centre = {r * 9 + c for r in (3, 4, 5) for c in (3, 4, 5)}
    assert not any(centre & set(b.mines) for b in boards)
    again = bench(*args, "--layouts", str(dump), db=tmp_path / "b.sqlite")
    assert rows(tmp_path / "a.sqlite") == rows(tmp_path / "b.sqlite")
    assert untimed(first) == untimed(again)


def test_dumped_layouts_named_mbf_are_mbf_records_that_replay(tmp_path):
    # a .mbf name held JSON lines, which --layouts then refused as a broken MBF
    from minesolver.formats import read_boards

    dump = tmp_path / "played.mbf"
    args = ("--rules", "9x9x12", "--games", "6", "--strategy", "tank", "--seed", "5",
            "--workers", "1")
    bench(*args, "--dump-layouts", str(dump), db=tmp_path / "a.sqlite")
    assert not dump.read_bytes().startswith(b"{")
    assert len(read_boards(dump)) == 6
    bench(*args, "--layouts", str(dump), db=tmp_path / "b.sqlite")
    assert rows(tmp_path / "a.sqlite") == rows(tmp_path / "b.sqlite")


def test_dump_of_a_layout_run_is_the_layout_file(tmp_path):
    boards = random_layouts(6, 5, 5, 4, seed=8)
    path = tmp_path / "boards.jsonl"
    path.write_text("".join(layout_line(b) for b in boards))
    dump = tmp_path / "dump.jsonl"
    bench("--rules", "5x5x4", "--layouts", str(path), "--games", "6", "--strategy", "tank",
          "--dump-layouts", str(dump), "--workers", "1", db=tmp_path / "r.sqlite")
    assert list(read_layouts(dump.read_text())) == boards


def test_an_output_over_the_store_or_the_boards_is_refused_and_both_kept(tmp_path):
    db = tmp_path / "runs.sqlite"
    bench("--rules", "5x5x3", "--games", "3", "--strategy", "tank", "--workers", "1", db=db)
    kept = db.read_bytes()
    boards = tmp_path / "boards.jsonl"
    boards.write_text("".join(layout_line(b) for b in random_layouts(3, 5, 5, 3, seed=2)))
    link = tmp_path / "link.sqlite"
    link.symlink_to(db)
    for dump, named in ((tmp_path / "." / "runs.sqlite", "--db"), (link, "--db"),
                        (boards, "--layouts")):
        result = run_cli("bench", "--rules", "5x5x3", "--games", "3", "--strategy", "tank",
                         "--db", str(db), "--layouts", str(boards), "--dump-layouts", str(dump))
        assert_one_error_line(result, f"--dump-layouts {dump} is the same file as {named}")
    result = run_cli("bench", "--db", str(db), "--resume", "r1", "--dump-layouts", str(db))
    assert_one_error_line(result, "is the same file as --db")
    assert db.read_bytes() == kept
    assert rows(db)  # the store still reads


# ---------------------------------------------------------------------- kill and resume


def count_games(db):
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # the schema is not written yet


def test_a_killed_bench_resumes_without_losing_or_repeating_games(tmp_path):
    games, strategies = 50, ("best", "tank")
    args = ["--rules", "expert", "--games", str(games), "--seed", "11", "--workers", "2",
            "--strategy", strategies[0], "--strategy", strategies[1]]
    killed = tmp_path / "killed.sqlite"
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "minesolver", "bench", *args, "--db", str(killed), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while count_games(killed) < 10:
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the bench stored no games"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGKILL)  # the run and its worker processes
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    stored = count_games(killed)
    assert 10 <= stored < games * len(strategies), "the kill came too late to test anything"
    before = rows(killed)

    resumed = bench("--resume", "r1", "--workers", "2", db=killed)
    after = rows(killed)
    assert len(after) == games * len(strategies)
    assert set(before) <= set(after)  # nothing stored before the kill changed
    with sqlite3.connect(str(killed)) as con:
        distinct = con.execute(
            "SELECT COUNT(DISTINCT strategy || '/' || game_index) FROM games"
        ).fetchone()[0]
        per_strategy = dict(con.execute("SELECT strategy, COUNT(*) FROM games GROUP BY 1"))
        runs = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    assert distinct == games * len(strategies)
    assert per_strategy == {name: games for name in strategies}
    assert runs == 1

    whole = tmp_path / "whole.sqlite"
    uninterrupted = bench(*args, db=whole)
    assert after == rows(whole)
    assert untimed(resumed) == untimed(uninterrupted)
    for s in resumed["results"]:
        assert s["games"] == games


def test_rerunning_a_stopped_command_says_how_to_continue_it(tmp_path):
    db = tmp_path / "results.sqlite"
    args = ["--rules", "6x6x6", "--games", "10", "--strategy", "tank", "--workers", "1",
            "--seed", "3", "--db", str(db), "--json"]
    assert run_cli("bench", *args).returncode == 0
    again = run_cli("bench", *args)  # r1 finished: a rerun is simply a new run
    assert again.returncode == 0 and "note" not in again.stderr
    with sqlite3.connect(str(db)) as con:  # r2 stopped after 6 games
        con.execute("DELETE FROM games WHERE run_id = 'r2' AND game_index >= 6")
    third = run_cli("bench", *args)
    assert third.returncode == 0
    assert third.stderr.strip().splitlines() == [
        f"minesolver: note: run r2 in {db} asked the same and has 6 of 10 games; "
        "this starts a new run (--resume r2 continues that one)"
    ]
    assert json.loads(third.stdout)["run_id"] == "r3"
    other = run_cli("bench", *args[:-3], "--seed", "4", "--db", str(db))  # not the same ask
    assert other.returncode == 0 and "note" not in other.stderr


def test_resume_of_a_finished_run_changes_nothing(tmp_path):
    db = tmp_path / "results.sqlite"
    first = bench("--rules", "6x6x6", "--games", "10", "--strategy", "tank", "--workers", "1",
                  db=db)
    again = bench("--resume", "r1", db=db)
    assert untimed(first) == untimed(again)
    assert len(rows(db)) == 10
    assert_one_error_line(run_cli("bench", "--resume", "r5", "--db", str(db)),
                          "no run 'r5'", "runs: r1")


def test_resume_refuses_options_that_ask_for_another_run(tmp_path):
    db = tmp_path / "results.sqlite"
    args = ["--rules", "6x6x6", "--first-click", "opening", "--games", "4", "--strategy", "tank",
            "--seed", "3", "--workers", "1"]
    first = bench(*args, db=db)
    kept = rows(db)
    for given, said in [
        (["--games", "9"], "--games 9 (the run's: 4): leave it out"),
        (["--rules", "expert", "--strategy", "best"],
         "--rules 30x16x99 (the run's: 6x6x6); --strategy best (the run's: tank): leave them out"),
        (["--first-click", "safe"], "--first-click safe (the run's: opening)"),
        (["--seed", "4"], "--seed 4 (the run's: 3)"),
        (["--no-guess"], "--no-guess True (the run's: False)"),
    ]:
        result = run_cli("bench", "--db", str(db), "--resume", "r1", *given)
        assert_one_error_line(result, "--resume r1 continues the run as it was started", said)
    assert rows(db) == kept
    # an option is compared on what it says: --rules alone does not ask for a safe click
    assert run_cli("bench", "--db", str(db), "--resume", "r1", "--rules", "6x6x6").returncode == 0
    again = bench(*args, "--resume", "r1", db=db)  # the same command again plus --resume
    assert untimed(again) == untimed(first)


# ---------------------------------------------------------------------- determinism


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    db = tmp_path / "results.sqlite"
    args = ("--rules", "8x8x12", "--first-click", "none", "--games", "30", "--strategy",
            "best", "--strategy", "random", "--seed", "23")
    one = bench(*args, "--workers", "1", db=db)
    two = bench(*args, "--workers", "2", db=db)
    assert (one["run_id"], two["run_id"]) == ("r1", "r2")
    assert rows(db, "r1") == rows(db, "r2")
    assert untimed(one) == untimed(two)
    other = bench(*args[:-1], "24", "--workers", "2", db=db)  # another seed: other games
    assert rows(db, "r3") != rows(db, "r1")
    assert other["run_id"] == "r3"


# ---------------------------------------------------------------------- report


def test_report_prints_past_runs(tmp_path):
    db = tmp_path / "results.sqlite"
    bench("--rules", "6x6x6", "--games", "8", "--strategy", "tank", "--workers", "1", db=db)
    bench("--rules", "7x7x9", "--first-click", "none", "--games", "6", "--strategy", "tank",
          "--strategy", "random", "--seed", "4", "--workers", "1", db=db)
    result = run_cli("report", "--db", str(db))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "r1 bench" in out and "6x6x6 first click safe, start corner, seed 1, 8 games" in out
    assert "r2 bench" in out and "7x7x9 first click none, start corner, seed 4, 6 games" in out
    assert "tank - random:" in out

    result = run_cli("report", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["run_id"] for d in lines] == ["r1", "r2"]
    assert [d["planned_games"] for d in lines] == [8, 6]
    assert [len(d["results"]) for d in lines] == [1, 2]
    assert len(lines[1]["comparisons"]) == 1
    wins = sum(r[6] for r in rows(db, "r2") if r[0] == "tank")
    assert lines[1]["results"][0]["wins"] == wins

    result = run_cli("report", "--db", str(db), "--json", "r2")
    assert [json.loads(line)["run_id"] for line in result.stdout.splitlines()] == ["r2"]
    assert_one_error_line(run_cli("report", "--db", str(db), "r7"), "no run 'r7'")
    assert_one_error_line(run_cli("report", "--db", str(tmp_path / "none.sqlite")),
                          "no results store")


def test_a_run_stopped_before_its_first_game_reports_no_figures(tmp_path):
    db = tmp_path / "results.sqlite"
    bench("--rules", "6x6x5", "--games", "2", "--workers", "1", db=db)
    with sqlite3.connect(str(db)) as con:  # as a run stopped before its first game is kept
        con.execute("DELETE FROM games")
    result = run_cli("report", "--db", str(db))
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if "best" in line and "│" in line)
    assert [cell.strip() for cell in row.split("│")[1:-1]] == ["best", "0", "0", *["-"] * 6]
    assert "0.00%" not in result.stdout and "best: no game played yet" in result.stdout
    data = json.loads(run_cli("report", "--db", str(db), "--json").stdout)["results"][0]
    assert data["games"] == 0 and data["win_rate"] is None  # was 0.0, as if measured
    assert data["ms_per_game_mean"] is None and data["open_rate"] is None


def test_report_shows_every_run_it_can_then_names_a_damaged_one(tmp_path):
    # a run whose record or games were edited by hand stopped report from showing any
    # run (a spec of "games": 1e400 was an internal error, exit 1)
    db = tmp_path / "results.sqlite"
    for seed in ("1", "2", "3"):
        bench("--rules", "6x6x6", "--games", "3", "--strategy", "tank", "--workers", "1",
              "--seed", seed, db=db)
    with sqlite3.connect(str(db)) as con:
        con.execute("UPDATE runs SET spec = replace(spec, '\"games\": 3', '\"games\": 1e400') "
                    "WHERE run_id = 'r1'")
        con.execute("UPDATE games SET seconds = 'abc' WHERE run_id = 'r3' AND game_index = 1")
    con.close()
    for args in ([], ["--json"]):
        result = run_cli("report", "--db", str(db), *args)
        assert_one_error_line(result, "run r1: the stored run record is damaged: the run's "
                              "games must be an integer, got inf (and 1 other damaged run); "
                              "1 other run shown")
        assert "r2" in result.stdout and "r1" not in result.stdout and "r3" not in result.stdout
    result = run_cli("report", "--db", str(db), "r3")
    assert_one_error_line(result, "run r3: ")
    assert "game 1 of 'tank' in run r3 is damaged ('abc' where a time" in result.stderr
    assert "shown" not in result.stderr  # nothing else was asked for
    assert result.stdout == ""
    for run in ("r1", "r3"):  # and resuming either is refused in one line, not played
        assert_one_error_line(run_cli("bench", "--resume", run, "--db", str(db), "--quiet"),
                              "damaged")


def test_the_open_rate_of_no_opened_game_is_a_dash(tmp_path):
    # one safe cell in 400 and no protection: every first click of seed 2's six is a mine
    result = run_cli("bench", "--rules", "20x20x399", "--first-click", "none", "--games", "6",
                     "--workers", "1", "--seed", "2", "--quiet", "--db",
                     str(tmp_path / "results.sqlite"))
    assert result.returncode == 0, result.stderr
    assert "│     6 │    0 │" in result.stdout  # six games, none won
    assert "0.0% of games opened >= 5% of the board, open rate among them -" in result.stdout


def test_report_only_reads_the_store(tmp_path):
    db = tmp_path / "results.sqlite"
    bench("--rules", "6x6x6", "--games", "4", "--strategy", "tank", "--workers", "1", db=db)

    def files():  # the store and its journal, if SQLite left one
        return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}

    before = files()
    for args in ([], ["--json"], ["--json", "r1"]):
        result = run_cli("report", "--db", str(db), *args)
        assert result.returncode == 0, result.stderr
    assert files() == before
    # someone else's SQLite file is refused, and left as it was
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    con.close()
    kept = other.read_bytes()
    assert_one_error_line(run_cli("report", "--db", str(other)),
                          "not a minesolver results store")
    assert other.read_bytes() == kept


# ---------------------------------------------------------------------- errors


@pytest.fixture
def layout_files(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text("".join(layout_line(b) for b in random_layouts(3, 6, 6, 5, seed=1)))
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("".join(layout_line(b) for b in random_layouts(3, 7, 6, 5, seed=1)))
    other_count = tmp_path / "other-count.jsonl"
    other_count.write_text("".join(layout_line(b) for b in random_layouts(3, 6, 6, 9, seed=1)))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"width": 6, "height": 6, "mines": [1, 2]}\n{"width": 6,\n')
    off = tmp_path / "off.jsonl"
    off.write_text('{"width": 6, "height": 6, "mines": [1, 36]}\n')
    return {"good": good, "wrong": wrong, "other-count": other_count, "bad": bad, "off": off}


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--strategy", "nope"], ["unknown strategy 'nope'"]),
        (["--strategy", "tank", "--strategy", "best:horizon=3"], ["no option 'horizon'"]),
        (["--strategy", "tank", "--strategy", " tank:"],
         ["--strategy ' tank:' is 'tank' again", "give it once"]),
        (["--strategy", "best:depth=2", "--strategy", "best:depth=02,endgame=on"],
         ["'best:depth=02,endgame=on' is 'best:depth=2' again"]),
        (["--rules", "6x6"], ["cannot read rules '6x6'"]),
        (["--rules", "3x3x9"], ["9 mines do not fit"]),
        (["--start", "6,0"], ["start (6, 0) is off the 6x6 board"]),
        (["--start", "top"], ["cannot read start 'top'"]),
        (["--games", "0"], ["--games"]),
        (["--resume", "r5"], ["no results store at", "results.sqlite"]),
        (["--layouts", "{missing}"], ["--layouts", "does not exist"]),
        (["--layouts", "{wrong}"], ["not 6x6"]),
        (["--layouts", "{other-count}"], ["not 6x6x5"]),
        (["--layouts", "{bad}"], ["line 2", "not JSON"]),
        (["--layouts", "{off}"], ["line 1", "mine index 36 is off the 6x6 board"]),
        (["--layouts", "{good}", "--games", "4"],
         ["good.jsonl holds 3 boards but the run needs 4"]),
    ],
)
def test_user_errors_are_one_line(args, needles, tmp_path, layout_files):
    paths = {**{k: str(v) for k, v in layout_files.items()},
             "missing": str(tmp_path / "missing.jsonl")}
    args = [a.format(**paths) if a.startswith("{") else a for a in args]
    db = tmp_path / "results.sqlite"
    result = run_cli("bench", "--rules", "6x6x5", "--games", "3", "--db", str(db), "--workers",
                     "1", *args)
    assert_one_error_line(result, *needles)
    # a refused bench is refused before the store is touched: no file, no run
    assert not db.exists()


def test_a_store_that_is_not_sqlite_is_one_line(tmp_path):
    db = tmp_path / "notes.sqlite"
    db.write_text("not a database\n" * 200)
    assert_one_error_line(run_cli("bench", "--db", str(db), "--games", "1"), "cannot use")


def test_resume_of_a_sweep_is_refused(tmp_path):
    db = tmp_path / "results.sqlite"
    result = run_cli("sweep", "--size", "5x5", "--densities", "0.2", "--games", "2",
                     "--strategy", "tank", "--db", str(db), "--csv", str(tmp_path / "s.csv"),
                     "--plot", str(tmp_path / "s.png"), "--workers", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    assert_one_error_line(run_cli("bench", "--resume", "r1", "--db", str(db)),
                          "run r1 is a sweep run, not a bench run")


def test_progress_bar_only_on_a_terminal(tmp_path):
    """On a terminal stderr shows a live bar; piped, stderr stays empty (errors stay one line)."""
    args = ["bench", "--rules", "6x6x5", "--games", "30", "--strategy", "tank", "--workers", "1"]
    piped = run_cli(*args, "--db", str(tmp_path / "piped.sqlite"))
    assert piped.returncode == 0 and piped.stderr == ""
    status, seen = run_on_terminal(*args, "--db", str(tmp_path / "tty.sqlite"))
    assert status == 0
    assert b"30/30" in seen  # the bar's games count
    assert b"tank" in seen


@pytest.mark.parametrize("command", [["bench", "--rules", "expert", "--workers", "1"],
                                     ["flags", "--p1", "exact", "--p2", "mc", "--workers", "1"]])
def test_a_run_stopped_by_its_time_limit_names_the_run_to_resume(tmp_path, command):
    # with --quiet or --json nothing else named it; and the limit in a compiled kernel
    # was "internal error" most of the time
    # (limits long enough for the run to be stored first on a busy machine: the
    # kernels load in a second or two)
    db = tmp_path / "r.sqlite"
    result = run_cli(*command, "--games", "3000", "--db", str(db), "--quiet",
                     "--max-seconds", "6")
    assert_one_error_line(result, "it took longer than --max-seconds 6 s "
                          f"(run r1 in {db}: --resume r1 goes on)")
    resumed = run_cli(command[0], "--resume", "r1", "--db", str(db), "--quiet", "--json",
                      "--max-seconds", "5")
    assert_one_error_line(resumed, "(run r1 in")


def test_resume_reads_options_as_the_run_does(tmp_path):
    # --start 0,0 is the corner the run started from; no noise shows as "none"
    db = tmp_path / "r.sqlite"
    made = run_cli("bench", "--rules", "6x6x5", "--games", "3", "--workers", "1", "--db",
                   str(db), "--quiet")
    assert made.returncode == 0, made.stderr
    same = run_cli("bench", "--resume", "r1", "--start", "0,0", "--db", str(db), "--quiet")
    assert same.returncode == 0, same.stderr
    other = run_cli("bench", "--resume", "r1", "--start", "1,1", "--db", str(db))
    assert_one_error_line(other, "--start 1,1 (the run's: 0,0): leave it out")
    # the center of a 6x6 board is 3,3: the same first click, by either name
    centred = run_cli("bench", "--rules", "6x6x5", "--games", "3", "--workers", "1",
                      "--start", "center", "--db", str(db), "--quiet")
    assert centred.returncode == 0, centred.stderr
    same = run_cli("bench", "--resume", "r2", "--start", "3,3", "--db", str(db), "--quiet")
    assert same.returncode == 0, same.stderr
    other = run_cli("bench", "--resume", "r2", "--start", "corner", "--db", str(db))
    assert_one_error_line(other, "--start 0,0 (the run's: 3,3): leave it out")
    noisy = run_cli("bench", "--resume", "r1", "--noise", "cautious", "--db", str(db))
    assert_one_error_line(noisy, "--noise cautious (the run's: none): leave it out")
