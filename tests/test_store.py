"""The SQLite store, run specs, and the runner's jobs, in-process (the CLI is in test_bench)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from minesolver import __version__
from minesolver.bench import (
    GameRow,
    Job,
    RunSpec,
    Store,
    StoreError,
    layout_of,
    pending_jobs,
    play_chunk,
    run_jobs,
)
from minesolver.formats import layout_line
from minesolver.game import Layout
from minesolver.play import play_game
from minesolver.rng import derive_seed
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

SPEC = RunSpec(
    rules="7x7x9", first_click="safe", start="corner", strategies=("tank", "random"),
    games=12, seed=42,
)


def outcome(row):
    """What a game's result is, without its timing."""
    return (row.strategy, row.game_index, row.seed, row.rules, row.first_click, row.start,
            row.won, row.clicks, row.guesses, row.bbbv, row.opened, row.safe_cells)


def outcomes(store, run_id):
    return [outcome(r) for r in store.games(run_id)]


def game_row(index, *, strategy="tank", won=True, seed=None, run_id="r1"):
    return GameRow(
        run_id=run_id, strategy=strategy, game_index=index,
        seed=index if seed is None else seed, rules="7x7x9", first_click="safe",
        start="corner", won=won, clicks=5, guesses=1, bbbv=12, seconds=0.002, opened=40,
        safe_cells=40, version=__version__,
    )


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "results.sqlite") as s:
        yield s


# ---------------------------------------------------------------------- runs


def test_runs_are_numbered_and_kept(tmp_path):
    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        assert store.new_run("bench", SPEC, __version__) == "r1"
        assert store.new_run("sweep", replace(SPEC, seed=7), __version__) == "r2"
    with Store(path) as store:  # a new process sees the same runs
        assert store.new_run("bench", SPEC, __version__) == "r3"
        runs = store.runs()
        assert [(r[0], r[1]) for r in runs] == [("r1", "bench"), ("r2", "sweep"), ("r3", "bench")]
        assert runs[1][3] == replace(SPEC, seed=7)
        assert store.run_spec("r1") == ("bench", SPEC)


def test_run_ids_count_past_nine(store):
    ids = [store.new_run("bench", SPEC, __version__) for _ in range(11)]
    assert ids[-2:] == ["r10", "r11"]
    assert [r[0] for r in store.runs()] == ids


def test_an_unknown_run_is_a_store_error(store):
    with pytest.raises(StoreError, match="no run 'r9'") as info:
        store.run_spec("r9")
    assert isinstance(info.value, ValueError)
    store.new_run("bench", SPEC, __version__)
    with pytest.raises(StoreError, match=r"runs: r1"):
        store.run_spec("r9")


def test_a_file_that_is_not_sqlite_is_a_store_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are not the results you are looking for\n" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        Store(path)


def test_run_spec_json_round_trip():
    spec = RunSpec(
        rules="30x16x99", first_click="opening", start="3,4", strategies=("best:endgame=off",),
        games=5, seed=2**63 + 11, layouts="/tmp/boards.jsonl", noise=None,
        points=(("9x9x10", "safe", ""), ("9x9x20", "none", "withheld:0.1")),
        extra={"note": "x"},
    )
    assert RunSpec.from_json(spec.to_json()) == spec
    assert spec.total_games == 10
    assert spec.point(4) == ("9x9x10", "safe", None)
    assert spec.point(5) == ("9x9x20", "none", "withheld:0.1")
    rules = spec.rules_for(7)
    assert (str(rules), rules.first_click) == ("9x9x20", "none")
    assert rules.noise is not None and rules.noise.startswith("withheld")
    plain = replace(spec, points=())
    assert plain.total_games == 5
    assert plain.rules_for(3) == Rules(30, 16, 99, first_click="opening")


# ---------------------------------------------------------------------- games


def test_games_are_stored_once(store):
    store.new_run("bench", SPEC, __version__)
    assert store.add_games([game_row(0), game_row(1), game_row(0, strategy="random")]) == 3
    # the same key again (a chunk replayed after a crash) is ignored, first result kept
    assert store.add_games([game_row(1, won=False), game_row(2)]) == 1
    assert store.done("r1") == {("tank", 0), ("tank", 1), ("tank", 2), ("random", 0)}
    assert [r.won for r in store.games("r1", "tank")] == [True, True, True]
    count = store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert count == 4


def test_rows_round_trip_every_field(store):
    store.new_run("bench", SPEC, __version__)
    original = replace(game_row(3, seed=2**64 - 1), extra='{"noise": "cautious"}', won=False)
    store.add_games([original])
    (back,) = store.games("r1")
    assert back == original  # a 64-bit seed does not fit SQLite's integers: stored as text


def test_games_come_back_by_strategy_then_index(store):
    store.new_run("bench", SPEC, __version__)
    rows = [game_row(i, strategy=s) for i in (3, 0, 2, 1) for s in ("tank", "best")]
    store.add_games(rows)
    got = [(r.strategy, r.game_index) for r in store.games("r1")]
    assert got == [("best", i) for i in range(4)] + [("tank", i) for i in range(4)]
    assert [r.game_index for r in store.games("r1", "tank")] == [0, 1, 2, 3]
    assert list(store.games("r2")) == []


def test_the_schema_has_every_column_the_issue_asks_for(store):
    columns = {r[1] for r in store.db.execute("PRAGMA table_info(games)")}
    assert columns >= {
        "run_id", "rules", "first_click", "start", "strategy", "seed", "game_index", "won",
        "clicks", "guesses", "bbbv", "seconds", "version",
    }
    keys = [r[1] for r in sorted(store.db.execute("PRAGMA table_info(games)"), key=lambda r: r[5])
            if r[5]]
    assert keys == ["run_id", "strategy", "game_index"]
    store.new_run("bench", SPEC, __version__)
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute(
            "INSERT INTO games VALUES ('r1','tank',0,'1','7x7x9','safe','corner',1,1,1,1,0.1,"
            "1,1,'0',NULL),('r1','tank',0,'1','7x7x9','safe','corner',1,1,1,1,0.1,1,1,'0',NULL)"
        )


# ---------------------------------------------------------------------- jobs


def test_pending_jobs_interleave_strategies_and_skip_done():
    jobs = pending_jobs(SPEC, set())
    assert len(jobs) == 24
    assert [(j.strategy, j.game_index) for j in jobs[:4]] == [
        ("tank", 0), ("random", 0), ("tank", 1), ("random", 1)
    ]
    done = {("tank", 0), ("random", 5), ("tank", 11)}
    left = pending_jobs(SPEC, done)
    assert len(left) == 21
    assert not done & {(j.strategy, j.game_index) for j in left}


def test_pending_jobs_need_enough_boards(tmp_path):
    path = tmp_path / "boards.jsonl"
    path.write_text(layout_line(Layout(7, 7, (0, 1, 2, 3, 4, 5, 6, 7, 8))) * 3)
    with pytest.raises(ValueError, match="holds 3 boards, the run needs 12"):
        pending_jobs(replace(SPEC, layouts=str(path)), set())
    jobs = pending_jobs(replace(SPEC, layouts=str(path), games=3), set())
    assert all(j.layout is not None and j.layout.mines[:2] == (0, 1) for j in jobs)


def test_play_chunk_is_play_game_with_the_derived_seed():
    spec = replace(SPEC, first_click="opening", start="center")
    jobs = [Job(name, i) for i in range(6) for name in spec.strategies]
    rows = play_chunk(spec.to_json(), "r7", jobs)
    assert [(r.strategy, r.game_index) for r in rows] == [(j.strategy, j.game_index) for j in jobs]
    rules = Rules(7, 7, 9, first_click="opening")
    for row in rows:
        seed = derive_seed(42, row.game_index)
        record = play_game(rules, find_strategy(row.strategy), seed=seed, start="center")
        assert row.run_id == "r7"
        assert (row.seed, row.rules, row.first_click, row.start) == (
            seed, "7x7x9", "opening", "center"
        )
        assert (row.won, row.clicks, row.guesses, row.bbbv, row.opened, row.safe_cells) == (
            record.won, record.clicks, record.guesses, record.bbbv, record.opened,
            record.safe_cells,
        )
        assert row.version == __version__
        assert row.seconds > 0
        # layout_of rebuilds the very board the game was played on
        assert layout_of(spec, row.game_index) == record.layout


# ---------------------------------------------------------------------- run_jobs


class Crash(Exception):
    pass


def crash_after(n):
    seen = []

    def on_game(row):
        seen.append(row)
        if len(seen) >= n:
            raise Crash

    return on_game


@pytest.mark.parametrize("workers", [1, 2])
def test_a_crashed_run_resumes_to_the_same_results(tmp_path, workers):
    with Store(tmp_path / "whole.sqlite") as whole:
        run = whole.new_run("bench", SPEC, __version__)
        run_jobs(SPEC, run, whole, pending_jobs(SPEC, set()), workers=1)
        reference = outcomes(whole, run)
    assert len(reference) == 24

    with Store(tmp_path / "broken.sqlite") as broken:
        run = broken.new_run("bench", SPEC, __version__)
        with pytest.raises(Crash):
            run_jobs(SPEC, run, broken, pending_jobs(SPEC, set()), workers=workers,
                     on_game=crash_after(5))
        stored = broken.done(run)
        assert 5 <= len(stored) < 24
        left = pending_jobs(SPEC, stored)
        assert len(left) == 24 - len(stored)
        run_jobs(SPEC, run, broken, left, workers=workers)
        assert outcomes(broken, run) == reference
        assert pending_jobs(SPEC, broken.done(run)) == []
        # running everything again stores nothing new
        again = []
        run_jobs(SPEC, run, broken, pending_jobs(SPEC, set()), workers=1, on_game=again.append)
        assert len(again) == 24
        assert outcomes(broken, run) == reference


@pytest.mark.parametrize(("workers", "chunk"), [(1, 1), (1, 5), (2, 1), (2, 3)])
def test_results_do_not_depend_on_workers_or_chunks(tmp_path, workers, chunk):
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        ra, rb = a.new_run("bench", SPEC, __version__), b.new_run("bench", SPEC, __version__)
        run_jobs(SPEC, ra, a, pending_jobs(SPEC, set()), workers=1)
        # the jobs in another order, too: game i is the same game whoever plays it when
        jobs = pending_jobs(SPEC, set())[::-1]
        run_jobs(SPEC, rb, b, jobs, workers=workers, chunk=chunk)
        assert outcomes(a, ra) == outcomes(b, rb)
