"""The runner in-process: jobs, chunks, validation, board files, crashes and resumes,
and a run's figures from the store (the CLI is in tests/cli/test_cli_bench.py)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from minesolver import __version__
from minesolver.bench import (
    GameRow,
    Job,
    RunSpec,
    Store,
    compare,
    comparison_json,
    layout_of,
    load_layouts,
    pending_jobs,
    play_chunk,
    run_jobs,
    run_results,
    summarize,
    validate,
)
from minesolver.errors import InputError, OffBoardError
from minesolver.formats import layout_line, write_mbf
from minesolver.minefield import Layout
from minesolver.play import play_game
from minesolver.rng import derive_seed
from minesolver.rules import Rules
from minesolver.strategies import StrategyError, find_strategy

SPEC = RunSpec(points=(Rules(7, 7, 9),), strategies=("tank", "random"), games=12, seed=42)


def outcome(row):
    """What a game's result is, without its timing."""
    return (row.strategy, row.game_index, row.seed, row.rules, row.first_click, row.start,
            row.won, row.clicks, row.guesses, row.bbbv, row.opened, row.safe_cells)


def outcomes(store, run_id):
    return [outcome(r) for r in store.games(run_id)]


# ---------------------------------------------------------------------- jobs


def test_pending_jobs_interleave_strategies_and_skip_done():
    jobs = list(pending_jobs(SPEC, set()))
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
    with pytest.raises(InputError, match="holds 3 boards, the run needs 12"):
        pending_jobs(replace(SPEC, layouts=str(path)), set())
    jobs = pending_jobs(replace(SPEC, layouts=str(path), games=3), set())
    assert all(j.layout is not None and j.layout.mines[:2] == (0, 1) for j in jobs)


def test_play_chunk_is_play_game_with_the_derived_seed():
    spec = replace(SPEC, points=(Rules(7, 7, 9, first_click="opening"),), start="center")
    jobs = [Job(name, i) for i in range(6) for name in spec.strategies]
    rows = play_chunk(spec, "r7", jobs)
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


def test_each_thread_warms_a_strategy_up_once_and_nothing_carries_over(monkeypatch):
    """The first game of a strategy in a thread is preceded by an untimed warm-up
    game (the compiled kernels load then, not inside a timed game); the games after
    it are exactly what a fresh strategy plays.  Boards too big for a cheap warm-up
    go without."""
    from minesolver.bench import runner

    played = []
    real = runner.play_game

    def recording(rules, strategy, **kw):
        played.append(kw["seed"])
        return real(rules, strategy, **kw)

    monkeypatch.setattr(runner, "play_game", recording)
    monkeypatch.setattr(runner, "_LOCAL", threading.local())
    spec = replace(SPEC, points=(Rules(16, 16, 40),), strategies=("best",))
    rows = play_chunk(spec, "r1", [Job("best", i) for i in range(4)])
    assert played == [runner.WARM_UP_SEED] + [derive_seed(42, i) for i in range(4)]
    for row in rows:
        fresh = real(Rules(16, 16, 40), find_strategy("best"), seed=row.seed)
        assert (row.won, row.clicks, row.guesses, row.opened) == (
            fresh.won, fresh.clicks, fresh.guesses, fresh.opened
        )
    played.clear()
    play_chunk(spec, "r1", [Job("best", 4)])  # the same thread: no second warm-up
    assert played == [derive_seed(42, 4)]

    played.clear()
    monkeypatch.setattr(runner, "_LOCAL", threading.local())
    big = replace(SPEC, points=(Rules(40, 30, 100),), strategies=("tank",), games=1)
    play_chunk(big, "r2", [Job("tank", 0)])
    assert played == [derive_seed(42, 0)]


def test_threads_of_one_process_play_with_strategies_of_their_own():
    """A Dask worker may run several threads: each plays with its own strategy
    objects (a strategy keeps the game it is playing), so games played side by side
    are the games played one after the other."""
    spec = replace(SPEC, points=(Rules(9, 9, 10),), strategies=("best", "tank"), games=24)
    jobs = list(pending_jobs(spec, set()))
    alone = [outcome(r) for r in play_chunk(spec, "r1", jobs)]
    parts = [jobs[k::4] for k in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        rows = [r for part in pool.map(lambda p: play_chunk(spec, "r1", p), parts) for r in part]
    assert sorted(outcome(r) for r in rows) == sorted(alone)


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
        assert list(pending_jobs(SPEC, broken.done(run))) == []
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
        jobs = list(pending_jobs(SPEC, set()))[::-1]
        run_jobs(SPEC, rb, b, jobs, workers=workers, chunk=chunk)
        assert outcomes(a, ra) == outcomes(b, rb)


# ---------------------------------------------------------------------- sweeps and noise


def test_a_game_is_played_under_the_rules_of_its_point():
    spec = RunSpec(points=(Rules(6, 6, 4), Rules(6, 6, 8, first_click="none", noise="cautious")),
                   strategies=("tank",), games=3, seed=2)
    rows = play_chunk(spec, "r1", [Job("tank", i) for i in range(6)])
    assert [(r.rules, r.first_click) for r in rows] == [("6x6x4", "safe")] * 3 + [
        ("6x6x8", "none")
    ] * 3
    measures = {"turns", "engine_turns", "chain", "chain_cells"}
    assert all(set(json.loads(r.extra)) == measures for r in rows[:3])
    assert all(set(json.loads(r.extra)) == measures | {"noise"} for r in rows[3:])
    assert all(json.loads(r.extra)["noise"] == "cautious" for r in rows[3:])
    # noisy numbers defeat the cheap rules: every turn of those games needed the engine
    assert all(json.loads(r.extra)["engine_turns"] == json.loads(r.extra)["turns"]
               for r in rows[3:])
    assert all(len(layout_of(spec, i).mines) == (4 if i < 3 else 8) for i in range(6))


# ---------------------------------------------------------------------- validate


def test_validate_accepts_a_playable_run(tmp_path):
    validate(SPEC)
    path = tmp_path / "boards.jsonl"
    path.write_text(layout_line(Layout(7, 7, tuple(range(40, 49)))) * 12)
    validate(replace(SPEC, layouts=str(path)))


def test_validate_refuses_a_board_that_breaks_the_first_click_rule(tmp_path):
    path = tmp_path / "boards.jsonl"
    fine = layout_line(Layout(7, 7, tuple(range(40, 49))))
    path.write_text(fine + "\n" + fine + layout_line(Layout(7, 7, tuple(range(9)))) + fine * 9)
    with pytest.raises(InputError, match=r"line 4 \(board 3\) has a mine at \(0, 0\)"):
        validate(replace(SPEC, layouts=str(path)))


@pytest.mark.parametrize(
    ("change", "error", "needle"),
    [
        ({"strategies": ("tank", "nope")}, StrategyError, "unknown strategy 'nope'"),
        ({"strategies": ("best:horizon=3",)}, StrategyError, "no option 'horizon'"),
        ({"start": (7, 0)}, OffBoardError, r"start \(7, 0\) is off the 7x7 board"),
        ({"points": (Rules(7, 7, 9), Rules(5, 5, 3)), "start": (6, 6)}, OffBoardError,
         "off the 5x5 board"),
    ],
)
def test_validate_refuses_a_run_that_cannot_be_played(change, error, needle):
    with pytest.raises(error, match=needle):
        validate(replace(SPEC, **change))


def test_validate_checks_the_board_file(tmp_path):
    few = tmp_path / "few.jsonl"
    few.write_text(layout_line(Layout(7, 7, tuple(range(9)))) * 3)
    with pytest.raises(InputError, match=r"few\.jsonl holds 3 boards but the run needs 12"):
        validate(replace(SPEC, layouts=str(few)))
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(layout_line(Layout(7, 7, tuple(range(40, 49)))) * 5
                     + layout_line(Layout(7, 7, tuple(range(41, 49)))) * 7)
    with pytest.raises(InputError, match=r"board 6 of .*wrong\.jsonl is 7x7x8, not 7x7x9"):
        validate(replace(SPEC, layouts=str(wrong)))


def test_load_layouts_reads_mbf_too(tmp_path):
    boards = [Layout(7, 7, tuple(range(i + 1, i + 10))) for i in range(12)]
    mbf = tmp_path / "boards.mbf"
    mbf.write_bytes(b"".join(write_mbf(b) for b in boards))
    spec = replace(SPEC, layouts=str(mbf))
    assert load_layouts(spec) == boards
    validate(spec)
    jobs = list(pending_jobs(spec, set()))
    assert [j.layout for j in jobs[::2]] == boards
    assert layout_of(spec, 5, load_layouts(spec)) == boards[5]


@pytest.mark.parametrize("suffix", [".jsonl", ".mbf"])
def test_a_run_reads_only_the_boards_it_plays(tmp_path, suffix):
    # a file of many boards, broken past the ones a short run plays: the run reads its
    # own and never reaches the rest (it had parsed all of them, seconds for 100,000)
    boards = [Layout(7, 7, tuple(range(i + 1, i + 10))) for i in range(12)]
    path = tmp_path / f"boards{suffix}"
    if suffix == ".mbf":
        path.write_bytes(b"".join(write_mbf(b) for b in boards) + b"\x00\x07")
    else:
        path.write_text("".join(layout_line(b) for b in boards) + "{broken\n")
    short = replace(SPEC, games=4, layouts=str(path))
    assert load_layouts(short) == boards[:4]
    validate(short)
    assert [j.layout for j in list(pending_jobs(short, set()))[::2]] == boards[:4]
    broken = "MBF board 13" if suffix == ".mbf" else "layout line 13"
    with pytest.raises(InputError, match=broken):  # a run of 13 reads the broken end
        validate(replace(SPEC, games=13, layouts=str(path)))


# ---------------------------------------------------------------------- results


def test_run_results_summarise_and_compare_from_the_store(tmp_path):
    spec = replace(SPEC, games=6, start=(3, 3))
    with Store(tmp_path / "results.sqlite") as store:
        run = store.new_run("bench", spec, __version__)
        run_jobs(spec, run, store, pending_jobs(spec, set()), workers=1)
        data = run_results(store, run, spec)
        tank, random_ = list(store.games(run, "tank")), list(store.games(run, "random"))
    assert data["run_id"] == run
    assert [s["strategy"] for s in data["results"]] == ["tank", "random"]
    first = data["results"][0]
    assert {k: v for k, v in first.items() if not k.startswith("ms_")} == {
        **{k: v for k, v in summarize(tank).items() if not k.startswith("ms_")},
        "run_id": run, "strategy": "tank", "rules": "7x7x9", "first_click": "safe",
        "noise": None, "no_guess": False, "start": "3,3", "seed": 42,
    }
    assert data["comparisons"] == [comparison_json("tank", "random", compare(tank, random_))]
    assert isinstance(first["games"], int) and first["games"] == 6
    assert all(isinstance(r, GameRow) for r in tank)


def test_pending_jobs_are_made_as_they_are_taken():
    # a list of every job of a 10**8-game run took GBs before the first game was played
    from itertools import islice

    spec = RunSpec((Rules(9, 9, 10),), ("tank", "best"), 10**8, seed=1)
    jobs = pending_jobs(spec, {("tank", 0), ("best", 1), ("other", 5), ("tank", 10**8)})
    assert len(jobs) == 2 * 10**8 - 2
    first = [(j.strategy, j.game_index) for j in islice(jobs, 4)]
    assert first == [("best", 0), ("tank", 1), ("tank", 2), ("best", 2)]
    assert Job("best", 0) in jobs and Job("tank", 0) not in jobs and Job("x", 3) not in jobs


def test_games_on_big_boards_are_stored_one_by_one(tmp_path):
    # four to a task, a 400x400 game's bar moved every four games (tens of seconds)
    big = RunSpec((Rules(101, 100, 30),), ("tank",), 3, seed=1)
    small = RunSpec((Rules(9, 9, 10),), ("tank",), 8, seed=1)
    for spec, want in ((big, [1, 1, 1]), (small, [4, 4])):
        with Store(tmp_path / f"{spec.rules}.sqlite") as store:
            run = store.new_run("bench", spec, __version__)
            batches: list[int] = []
            add = store.add_games

            def counted(rows, add=add, batches=batches):
                rows = list(rows)
                batches.append(len(rows))
                return add(rows)

            store.add_games = counted  # type: ignore[method-assign]
            run_jobs(spec, run, store, pending_jobs(spec, set()), workers=1)
        assert batches == want
