"""A results store under contention and on a full disk.

Sixteen processes start runs on one store at once: each gets its own run id (no
"UNIQUE constraint failed").  A store whose disk fills up refuses the write with a
:class:`StoreError` naming the file, keeping what it held; a store that cannot be
made at all is not left behind as a file.
"""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from minesolver.bench import GameRow, RunSpec, Store, StoreError
from minesolver.rules import Rules

SPEC = RunSpec(points=(Rules(7, 7, 9),), strategies=("tank",), games=4, seed=1)


def _start_run(path: str) -> str:
    with Store(path) as store:
        return store.new_run("bench", SPEC, "test")


def test_sixteen_runs_started_at_once_get_sixteen_ids(tmp_path):
    path = str(tmp_path / "shared.sqlite")
    Store(path).close()
    with multiprocessing.get_context("fork").Pool(16) as pool:
        ids = pool.map(_start_run, [path] * 16)
    assert sorted(ids, key=lambda r: int(r[1:])) == [f"r{i}" for i in range(1, 17)]


def _row(index: int) -> GameRow:
    return GameRow(run_id="r1", strategy="tank", game_index=index, seed=index, rules="7x7x9",
                   first_click="safe", start="corner", won=True, clicks=1, guesses=0, bbbv=1,
                   seconds=0.0, opened=40, safe_cells=40, version="test",
                   extra=json.dumps({"pad": "x" * 3000}))  # fills the disk sooner


def test_a_full_disk_is_a_store_error_naming_the_file(tmp_path):
    path = tmp_path / "full.sqlite"
    store = Store(path)
    store.new_run("bench", SPEC, "test")
    store.add_games([_row(0)])
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages + 1}")  # the disk is full now
    with pytest.raises(StoreError, match=r"full\.sqlite: cannot write .*full"):
        store.add_games([_row(i) for i in range(1, 50)])
    assert [g.game_index for g in store.games("r1")] == [0]  # the batch rolled back whole
    store.close()


def test_a_store_that_cannot_be_made_leaves_no_file(tmp_path, monkeypatch):
    path = tmp_path / "new.sqlite"
    real = Store.__init__

    def full_disk(self: Store, *args: object, **kwargs: object) -> None:
        import sqlite3

        connect = sqlite3.connect

        class Full:
            def __init__(self, db: sqlite3.Connection) -> None:
                self.db = db

            def __getattr__(self, name: str) -> object:
                return getattr(self.db, name)

            def executescript(self, script: str) -> None:
                raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: Full(connect(*a, **k)))
        try:
            real(self, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            monkeypatch.setattr(sqlite3, "connect", connect)

    monkeypatch.setattr(Store, "__init__", full_disk)
    with pytest.raises(StoreError, match="disk is full"):
        Store(path)
    assert list(Path(tmp_path).iterdir()) == []
