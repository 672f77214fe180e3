"""The SQLite store: runs, games, what it refuses to open, and that reading never writes."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
from dataclasses import replace

import pytest

from minesolver import __version__
from minesolver.bench import GameRow, RunSpec, Store, StoreError
from minesolver.bench.store import SCHEMA, FlagsRow
from minesolver.errors import InputError
from minesolver.rules import Rules

SPEC = RunSpec(points=(Rules(7, 7, 9),), strategies=("tank", "random"), games=12, seed=42)


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
    assert isinstance(info.value, InputError)
    store.new_run("bench", SPEC, __version__)
    with pytest.raises(StoreError, match=r"runs: r1"):
        store.run_spec("r9")


def test_a_file_that_is_not_sqlite_is_a_store_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are not the results you are looking for\n" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        Store(path)


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
    rows = [game_row(i, strategy=s) for i in (3, 0, 2, 1) for s in ("tank", "random")]
    store.add_games(rows)
    got = [(r.strategy, r.game_index) for r in store.games("r1")]
    assert got == [("random", i) for i in range(4)] + [("tank", i) for i in range(4)]
    assert [r.game_index for r in store.games("r1", "tank")] == [0, 1, 2, 3]
    with pytest.raises(StoreError, match="no run 'r2'"):
        list(store.games("r2"))


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


# ---------------------------------------------------------------------- opening a store


def files_in(folder):
    return sorted(p.name for p in folder.iterdir())


def test_create_false_needs_an_existing_store(tmp_path):
    path = tmp_path / "results.sqlite"
    with pytest.raises(StoreError, match=r"no results store at .*results\.sqlite"):
        Store(path, create=False)
    assert files_in(tmp_path) == []  # nothing was created
    with Store(path) as store:
        store.new_run("bench", SPEC, __version__)
    with Store(path, create=False) as store:
        assert store.run_spec("r1") == ("bench", SPEC)


def test_a_folder_is_not_a_store(tmp_path):
    for kwargs in ({}, {"create": False}, {"readonly": True}):
        with pytest.raises(StoreError, match="is a folder, not a results store"):
            Store(tmp_path, **kwargs)


def test_a_device_or_a_pipe_is_not_a_store(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in ("/dev/null", fifo):
        for kwargs in ({}, {"create": False}, {"readonly": True}):
            with pytest.raises(StoreError, match="is not a regular file"):
                Store(path, **kwargs)


FOREIGN = {
    "other tables": ["CREATE TABLE recipes (name TEXT, minutes INTEGER)"],
    # tables of the same names from another program: were given a flags_games table
    # and WAL mode before being called damaged
    "runs and games of another program": [
        "CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT)",
        "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)",
    ],
}
STORE_TABLES = [line.strip().rstrip(";") for line in SCHEMA.split(";\n") if line.strip()]


@pytest.mark.parametrize("kwargs", [{}, {"create": False}, {"readonly": True}])
@pytest.mark.parametrize("schema", FOREIGN.values(), ids=FOREIGN.keys())
def test_a_foreign_sqlite_file_is_refused_and_left_alone(tmp_path, kwargs, schema):
    path = tmp_path / "someone_elses.sqlite"
    with sqlite3.connect(path) as con:
        for statement in schema:
            con.execute(statement)
    con.close()
    with sqlite3.connect(path) as con:
        tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master"))
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="a SQLite file but not a minesolver results store"):
        Store(path, **kwargs)
    assert path.read_bytes() == before  # no tables added, nothing written
    assert files_in(tmp_path) == ["someone_elses.sqlite"]
    with sqlite3.connect(path) as con:
        assert sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master")) == tables
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()


def test_a_store_s_tables_beside_someone_else_s_are_read_and_no_table_is_added(tmp_path):
    path = tmp_path / "shared.sqlite"
    with sqlite3.connect(path) as con:
        for statement in [*STORE_TABLES, "CREATE TABLE recipes (name TEXT, minutes INTEGER)"]:
            con.execute(statement)
    con.close()
    before = path.read_bytes()
    for kwargs in ({}, {"create": False}, {"readonly": True}):  # all three tables: a store
        with Store(path, **kwargs) as store:
            assert store.runs() == []
    assert path.read_bytes() == before
    with sqlite3.connect(path) as con:  # an older store's two tables beside the recipes
        con.execute("DROP TABLE flags_games")
    con.close()
    before = path.read_bytes()
    with Store(path, readonly=True) as store:
        assert store.runs() == []
    with pytest.raises(StoreError, match="not a minesolver results store"):
        Store(path)  # would add a table to a file that holds someone else's
    assert path.read_bytes() == before


def test_a_store_whose_columns_differ_names_the_table(tmp_path):
    path = tmp_path / "newer.sqlite"
    with Store(path) as store:
        store.db.execute("ALTER TABLE games ADD COLUMN future TEXT")
        store.db.commit()
    with pytest.raises(StoreError, match=(
            "not a minesolver results store of this version: its games table has other "
            "columns")):
        Store(path, readonly=True)


@pytest.mark.parametrize("name", [":memory:", "file:results.sqlite", "file:x?mode=memory"])
def test_sqlite_s_special_names_are_refused(tmp_path, monkeypatch, name):
    # ':memory:' stored every game nowhere; 'file:' names went where report looked not
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match=r"not a file name to SQLite .*: a results store is a"):
        Store(name)
    assert files_in(tmp_path) == []
    with Store(f"./{name}") as store:  # a file of that very name is taken as one
        store.new_run("bench", SPEC, __version__)
    assert files_in(tmp_path) == [name]


def test_an_empty_sqlite_file_is_only_made_a_store_when_asked(tmp_path):
    # SQLite reads an empty file as an empty database: report had called it "a SQLite
    # file but not a minesolver results store"
    path = tmp_path / "empty.sqlite"
    sqlite3.connect(path).close()
    for kwargs in ({"create": False}, {"readonly": True}):
        with pytest.raises(StoreError, match="is an empty file: no results store yet"):
            Store(path, **kwargs)
    assert path.read_bytes() == b""
    with Store(path) as store:
        assert store.runs() == []


def test_readonly_reads_and_never_writes(tmp_path):
    path = tmp_path / "results.sqlite"
    with pytest.raises(StoreError, match="no results store at"):
        Store(path, readonly=True)
    assert files_in(tmp_path) == []
    with Store(path) as store:
        store.new_run("bench", SPEC, __version__)
        store.add_games([game_row(0), game_row(1, won=False)])
    # the writer is closed: SQLite folded its journal back into the file
    assert files_in(tmp_path) == ["results.sqlite"]
    before = path.read_bytes()
    stamp = path.stat().st_mtime_ns
    with Store(path, readonly=True) as store:
        assert [r[0] for r in store.runs()] == ["r1"]
        assert store.run_spec("r1") == ("bench", SPEC)
        assert [r.won for r in store.games("r1")] == [True, False]
        with pytest.raises(StoreError, match="readonly"):
            store.new_run("bench", SPEC, __version__)
        with pytest.raises(StoreError, match="readonly"):
            store.add_games([game_row(2)])
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stamp
    assert files_in(tmp_path) == ["results.sqlite"]  # no journal files made beside it


def test_readonly_reads_beside_a_running_writer(tmp_path):
    path = tmp_path / "results.sqlite"
    with Store(path) as writer:
        writer.new_run("bench", SPEC, __version__)
        writer.add_games([game_row(0)])
        assert "results.sqlite-wal" in files_in(tmp_path)  # the writer's journal is live
        with Store(path, readonly=True) as reader:
            assert [r.game_index for r in reader.games("r1")] == [0]
            writer.add_games([game_row(1)])
            assert [r.game_index for r in reader.games("r1")] == [0, 1]  # sees new games


def test_readonly_opens_a_store_on_a_read_only_file(tmp_path):
    path = tmp_path / "results.sqlite"
    with Store(path) as store:
        store.new_run("bench", SPEC, __version__)
    path.chmod(0o444)
    try:
        with Store(path, readonly=True) as store:
            assert store.run_spec("r1")[1] == SPEC
    finally:
        path.chmod(0o644)


@contextlib.contextmanager
def read_only_folder(source):
    """``source`` seen through a folder nothing can write: a read-only bind mount as
    root (whom permissions do not stop), the folder's permissions otherwise."""
    if os.geteuid() != 0:
        source.chmod(0o555)
        try:
            yield source
        finally:
            source.chmod(0o755)
        return
    view = source.parent / f"{source.name}-ro"
    view.mkdir()
    made = subprocess.run(["mount", "--bind", str(source), str(view)], capture_output=True)
    if made.returncode:
        pytest.skip(f"cannot bind-mount a folder here: {made.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        yield view
    finally:
        subprocess.run(["umount", str(view)], check=True)


def copy_with_log(tmp_path):
    """A copy of a store taken while its writer had games still in its write-ahead log:
    the file and its ``-wal``, without the ``-shm``; with the games of the whole store."""
    path = tmp_path / "results.sqlite"
    copy = tmp_path / "copy"
    copy.mkdir()
    with Store(path) as writer:
        writer.db.execute("PRAGMA wal_autocheckpoint=0")  # nothing folded into the file
        writer.new_run("bench", SPEC, __version__)
        writer.add_games([game_row(0), game_row(1, won=False)])
        for name in ("results.sqlite", "results.sqlite-wal"):
            shutil.copy(tmp_path / name, copy / name)
    return copy / "results.sqlite"


def test_a_copy_with_its_log_and_no_shm_in_a_read_only_folder_is_refused_in_one_line(
        tmp_path):
    # SQLite cannot read the log without making the -shm beside it; the file alone
    # lacks the games: a clear refusal, never the file's older state
    path = copy_with_log(tmp_path)
    assert (tmp_path / "copy" / "results.sqlite-wal").stat().st_size > 0
    with read_only_folder(path.parent) as folder, pytest.raises(StoreError, match=(
            r"cannot read .*results.sqlite: results.sqlite-wal beside it may hold writes "
            r"not yet in the file, .* copy both files to a folder you can write")):
        Store(folder / path.name, readonly=True)
    with Store(path, readonly=True) as store:  # where the -shm can be made: every game
        assert [r.won for r in store.games("r1")] == [True, False]


def test_a_copy_with_an_empty_log_and_no_shm_in_a_read_only_folder_is_read(tmp_path):
    path = copy_with_log(tmp_path)
    with sqlite3.connect(path) as con:  # the log folded into the file: an empty -wal left
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    (tmp_path / "copy" / "results.sqlite-wal").write_bytes(b"")
    (tmp_path / "copy" / "results.sqlite-shm").unlink(missing_ok=True)
    with read_only_folder(path.parent) as folder, Store(folder / path.name,
                                                         readonly=True) as store:
        assert [r.won for r in store.games("r1")] == [True, False]


def test_a_store_of_an_older_version_is_read(tmp_path):
    # minesolver 0.1 wrote its specs with rules as strings
    path = tmp_path / "old.sqlite"
    with Store(path) as store:
        store.db.execute(
            "INSERT INTO runs VALUES ('r1', 'bench', '2025-01-01 00:00:00', ?, '0.1.0')",
            ('{"extra": {}, "first_click": "safe", "games": 12, "layouts": null, '
             '"noise": null, "points": [], "rules": "7x7x9", "seed": 42, "start": "corner", '
             '"strategies": ["tank", "random"]}',),
        )
        store.db.commit()
    with Store(path, readonly=True) as store:
        assert store.run_spec("r1") == ("bench", SPEC)


# ---------------------------------------------------------------------- damage
def filled_store(path, games=3000):
    with Store(path) as s:
        run_id = s.new_run("bench", replace(SPEC, games=max(games, SPEC.games)), __version__)
        s.add_games(game_row(i, seed=10**12 + i) for i in range(games))
    return run_id


def test_a_store_damaged_past_its_first_pages_is_a_store_error(tmp_path):
    path = tmp_path / "results.sqlite"
    run_id = filled_store(path)
    size = path.stat().st_size
    with open(path, "r+b") as f:  # the games' pages, not the schema that opening reads
        f.seek(size // 2)
        f.write(bytes(range(256)) * 8)
    with Store(path, readonly=True) as s, pytest.raises(StoreError, match=(
            r"results\.sqlite: the results store is damaged \(.*\); its runs cannot be read")):
        list(s.games(run_id))


def test_writing_to_a_store_damaged_past_its_first_pages_is_a_store_error(tmp_path):
    # was "internal error: DatabaseError: database disk image is malformed", exit 1
    path = tmp_path / "results.sqlite"
    filled_store(path)
    size = path.stat().st_size
    with open(path, "r+b") as f:  # every page past the schema's
        f.seek(8192)
        f.write(random.Random(1).randbytes(size - 8192))
    with Store(path) as s, pytest.raises(StoreError, match=(
            r"results\.sqlite: the results store is damaged \(.*\); nothing more can be written")):
        s.new_run("bench", SPEC, __version__)
        s.add_games([game_row(i, seed=i) for i in range(5000, 6000)])


@pytest.mark.parametrize(("column", "value", "why"), [
    ("seed", "abc", "invalid literal"),
    ("safe_cells", 0, "opened 40 of 0"),
    ("won", 7, "won 7"),
    ("extra", "{bad", "Expecting property name"),
    ("extra", "[1]", "extra is not a JSON object"),
    # each of these reached the figures (an index past the run was counted), or was an
    # internal error there
    ("seconds", "abc", "'abc' where a time in seconds belongs"),
    ("seconds", -1.0, "-1.0 where a time"),
    ("clicks", -5, "-5 where a count"),
    ("guesses", "x", "'x' where a count"),
    ("bbbv", 2.5, "2.5 where a count"),
    ("opened", -1, "-1 where a count"),
    ("game_index", 60, "past the run's 12 games"),
])
def test_a_row_edited_by_hand_is_a_store_error_naming_it(tmp_path, column, value, why):
    path = tmp_path / "results.sqlite"
    run_id = filled_store(path, games=4)
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {column} = ? WHERE game_index = 2", (value,))
    with Store(path) as s, pytest.raises(StoreError) as caught:
        list(s.games(run_id))
    message = str(caught.value)
    index = 60 if column == "game_index" else 2
    assert message.startswith(f"{path}: game {index} of 'tank' in run {run_id} is damaged (")
    assert why in message and "\n" not in message


def test_a_game_of_a_strategy_the_run_does_not_play_is_a_store_error(tmp_path):
    path = tmp_path / "results.sqlite"
    run_id = filled_store(path, games=4)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET strategy = 'best' WHERE game_index = 2")
    with Store(path) as s, pytest.raises(StoreError, match="the run's strategies are tank"):
        list(s.games(run_id))


@pytest.mark.parametrize(("column", "value", "why"), [
    ("p1_seconds", "abc", "'abc' where a time"),
    ("p2_seconds", float("inf"), "inf where a time"),
    ("moves", -1, "-1 where a count"),
    ("winner", 2, "winner 2"),
    ("p1_bomb", 3, "bombs 3"),
    ("game_index", 99, "past the run's"),
])
def test_a_flags_row_edited_by_hand_is_a_store_error_naming_it(tmp_path, column, value, why):
    path = tmp_path / "results.sqlite"
    with Store(path) as s:
        spec = RunSpec(points=(Rules(9, 9, 10),), strategies=("greedy", "greedy"), games=3,
                       seed=1, start=None)
        run_id = s.new_run("flags", spec, __version__)
        s.add_flags_games([
            FlagsRow(run_id=run_id, game_index=i, seed=i, rules="9x9x10", p1="greedy",
                     p2="greedy", first=0, winner=1, p1_score=4, p2_score=6, moves=12,
                     p1_bomb=False, p2_bomb=False, p1_seconds=0.1, p2_seconds=0.2,
                     version=__version__)
            for i in range(3)
        ])
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE flags_games SET {column} = ? WHERE game_index = 1", (value,))
    with Store(path) as s, pytest.raises(StoreError) as caught:
        list(s.flags_games(run_id))
    assert why in str(caught.value)


def test_a_store_in_a_folder_that_cannot_be_written_says_so(tmp_path, monkeypatch):
    # SQLite said "attempt to write a readonly database" of a writable file: the folder,
    # where its journal goes, was not (simulated: the tests run as root)
    from minesolver.bench import store as store_module

    with Store(tmp_path / "results.sqlite") as store:
        store.db.execute("PRAGMA query_only = ON")  # SQLite's readonly refusal
        monkeypatch.setattr(store_module.os, "access", lambda path, mode: False)
        with pytest.raises(StoreError, match=(
                f"cannot write to the results store: its folder {tmp_path} cannot be "
                "written, and SQLite keeps its journal beside the store")):
            store.new_run("bench", SPEC, __version__)
        monkeypatch.undo()
        with pytest.raises(StoreError, match="attempt to write a readonly database"):
            store.new_run("bench", SPEC, __version__)


def test_a_bug_s_sqlite_error_is_not_called_damage(tmp_path):
    # IntegrityError is a DatabaseError too: a bug, not a store to throw away
    with Store(tmp_path / "results.sqlite") as store, pytest.raises(sqlite3.IntegrityError), \
            store._writing():
        store.db.execute("INSERT INTO runs VALUES (NULL, NULL, NULL, NULL, NULL)")


@pytest.mark.parametrize("readonly", [False, True])
def test_a_file_that_is_not_sqlite_says_so(tmp_path, readonly):
    path = tmp_path / "notes.sqlite"
    path.write_text("minutes of the meeting\n")
    with pytest.raises(StoreError, match=r"cannot use .* as a results store: it is not a "
                                         "SQLite file"):
        Store(path, readonly=readonly)
    assert path.read_text() == "minutes of the meeting\n"
