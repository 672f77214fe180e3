"""The results store: every game of every run in one SQLite file.

Tables: ``runs`` (what a run was asked to do, so it can be resumed), ``games``
(one row per game and strategy) and ``flags_games`` (one row per Minesweeper
Flags match game, key ``(run_id, game_index)``).  ``(run_id, strategy, game_index)``
is the key of a game, so replaying a game after a crash can never count it twice.
Writes are committed in small batches in WAL mode: a killed run loses at most the
games of the last batch, which ``--resume`` plays again.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store(os.path.join(d, "results.sqlite"))
...     store.runs()
[]
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from .spec import RunSpec

__all__ = ["FlagsRow", "GameRow", "RunSpec", "Store", "StoreError"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id      TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    created     TEXT NOT NULL,
    spec        TEXT NOT NULL,
    version     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run_id      TEXT NOT NULL REFERENCES runs(run_id),
    strategy    TEXT NOT NULL,
    game_index  INTEGER NOT NULL,
    seed        TEXT NOT NULL,
    rules       TEXT NOT NULL,
    first_click TEXT NOT NULL,
    start       TEXT NOT NULL,
    won         INTEGER NOT NULL,
    clicks      INTEGER NOT NULL,
    guesses     INTEGER NOT NULL,
    bbbv        INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    opened      INTEGER NOT NULL,
    safe_cells  INTEGER NOT NULL,
    version     TEXT NOT NULL,
    extra       TEXT,
    PRIMARY KEY (run_id, strategy, game_index)
);
CREATE TABLE IF NOT EXISTS flags_games (
    run_id      TEXT NOT NULL REFERENCES runs(run_id),
    game_index  INTEGER NOT NULL,
    seed        TEXT NOT NULL,
    rules       TEXT NOT NULL,
    p1          TEXT NOT NULL,
    p2          TEXT NOT NULL,
    first       INTEGER NOT NULL,
    winner      INTEGER,
    p1_score    INTEGER NOT NULL,
    p2_score    INTEGER NOT NULL,
    moves       INTEGER NOT NULL,
    p1_bomb     INTEGER NOT NULL,
    p2_bomb     INTEGER NOT NULL,
    p1_seconds  REAL NOT NULL,
    p2_seconds  REAL NOT NULL,
    version     TEXT NOT NULL,
    extra       TEXT,
    PRIMARY KEY (run_id, game_index)
);
"""


class StoreError(InputError):
    """A store that cannot be opened or a run that does not exist."""


@dataclass(frozen=True)
class GameRow:
    """One stored game (``extra``: a JSON object's text, or ``None``)."""

    run_id: str
    strategy: str
    game_index: int
    seed: int
    rules: str
    first_click: str
    start: str
    won: bool
    clicks: int
    guesses: int
    bbbv: int
    seconds: float
    opened: int
    safe_cells: int
    version: str
    extra: str | None = None


@dataclass(frozen=True)
class FlagsRow:
    """One stored Minesweeper Flags game: ``p1`` is seat 0, ``p2`` seat 1.

    ``first`` is the seat that moved first; ``winner`` the winning seat, or
    ``None`` for a draw; ``extra``: a JSON object's text, or ``None``.
    """

    run_id: str
    game_index: int
    seed: int
    rules: str
    p1: str
    p2: str
    first: int
    winner: int | None
    p1_score: int
    p2_score: int
    moves: int
    p1_bomb: bool
    p2_bomb: bool
    p1_seconds: float
    p2_seconds: float
    version: str
    extra: str | None = None


_TABLES = {"runs", "games", "flags_games"}


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def _schema_columns() -> dict[str, list[str]]:
    """Each table's columns, as :data:`SCHEMA` makes them."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        return {table: _columns(db, table) for table in _TABLES}
    finally:
        db.close()


_COLUMNS = _schema_columns()


class Store:
    """A SQLite file of runs and games.  Not shared between threads.

    ``create``: make the file (and its tables) if missing; otherwise it must be
    a results store already.  ``readonly``: only read (a store on a read-only
    disk, or someone else's); nothing of the store is ever written, not even the tables
    (beside a store with a write-ahead log, ``-wal``, SQLite keeps the ``-shm`` file it
    reads the log with).  A copy with its ``-wal`` but not its ``-shm`` is read whole
    where SQLite can make the ``-shm``; in a read-only folder it is refused in one line,
    never read without the log's games (an empty log has none: that copy is read).
    Tables are never added to a SQLite file that holds other tables: that is
    not a results store.
    """

    def __init__(self, path: str | Path, *, create: bool = True, readonly: bool = False) -> None:
        name = str(path)
        if name == ":memory:" or name.startswith("file:"):  # SQLite's names, not files
            raise StoreError(f"{name!r} is not a file name to SQLite (it is memory, or a "
                             f"URI): a results store is a file (./{name} if it is a file "
                             "of that name)")
        self.path = Path(path)
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a results store")
        exists = self.path.exists()
        if exists and not self.path.is_file():  # /dev/null, a pipe: SQLite needs a file
            raise StoreError(f"{self.path} is not a regular file: a results store is a file")
        if not exists and (readonly or not create):
            raise StoreError(f"no results store at {self.path}")
        if exists:
            _check_header(self.path, readonly or not create)
        try:
            if readonly:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                if _unlogged(self.path):
                    # no writer has it open: read the file as it is, and make no -wal and
                    # -shm files beside it (a read-only WAL connection would)
                    uri += "&immutable=1"
                self.db = sqlite3.connect(uri, uri=True, timeout=30)
            else:
                # absolute: never a name SQLite reads as its own (":memory:", "file:...")
                self.db = sqlite3.connect(str(self.path.absolute()), timeout=30)
            tables = {
                row[0]
                for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            # checked before anything is written: someone else's file is left as it is
            others = {t for t in tables if not t.startswith("sqlite_")} - _TABLES
            if (
                (tables and not {"runs", "games"} <= tables)
                or (not tables and (readonly or not create))
                or (others and not readonly and not tables >= _TABLES)  # no table added
            ):
                self.db.close()
                raise StoreError(f"{self.path} is a SQLite file but not a minesolver results store")
            differ = sorted(t for t in tables & _TABLES if _columns(self.db, t) != _COLUMNS[t])
            if differ:
                self.db.close()
                raise StoreError(
                    f"{self.path} is a SQLite file but not a minesolver results store of this "
                    f"version: its {differ[0]} table has other columns (another program's "
                    "file, or another version of minesolver's store)")
            if not readonly and not tables >= _TABLES:
                self.db.execute("PRAGMA journal_mode=WAL")
                # all tables or none: a store killed while being made is not half a store
                self.db.executescript(f"BEGIN IMMEDIATE;\n{SCHEMA}\nCOMMIT;")
            if not readonly:
                self.db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            db = getattr(self, "db", None)
            if db is not None:  # the file is not held open by a store never returned
                db.close()
            if not exists:  # a store that could not be made is not left behind half-made
                for leftover in ("", "-wal", "-shm", "-journal"):
                    with contextlib.suppress(OSError):
                        _side(self.path, leftover).unlink()
            wal, shm = _side(self.path, "-wal"), _side(self.path, "-shm")
            if (readonly and not _unlogged(self.path) and not shm.exists()
                    and os.access(wal, os.R_OK)):
                raise StoreError(
                    f"cannot read {self.path}: {wal.name} beside it may hold writes not yet "
                    f"in the file, and SQLite could not make the {shm.name} file it needs to "
                    "read them (a read-only folder?): copy both files to a folder you can "
                    "write, and read the copy") from None
            raise StoreError(f"cannot use {self.path} as a results store: {exc}") from None

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A write transaction; a full disk or a locked file is a :class:`StoreError`
        naming the store, and what was being written is rolled back."""
        try:
            with self.db:
                yield
        except sqlite3.OperationalError as exc:  # full, locked, read-only
            folder = self.path.resolve().parent  # a link's target's: the journal goes there
            if "readonly" in str(exc) and not os.access(folder, os.W_OK):
                exc = sqlite3.OperationalError(  # the file may be writable: its folder is not
                    f"its folder {folder} cannot be written, and SQLite keeps its journal "
                    "beside the store")
            raise StoreError(f"{self.path}: cannot write to the results store: {exc}") from None
        except sqlite3.DatabaseError as exc:  # damaged past the pages opening it read
            if type(exc) is not sqlite3.DatabaseError:  # IntegrityError and such: a bug
                raise
            raise StoreError(f"{self.path}: the results store is damaged ({exc}); "
                             "nothing more can be written to it") from None

    def _read(self, query: str, args: tuple[Any, ...] = ()) -> Iterator[Any]:
        """The rows of a query; a file damaged past its first pages (which opening it
        reads) is a :class:`StoreError` naming it."""
        try:
            yield from self.db.execute(query, args)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: the results store is damaged ({exc}); "
                             "its runs cannot be read") from None

    def _damaged(self, what: str, why: object) -> StoreError:
        return StoreError(f"{self.path}: {what} is damaged ({why}); the store was edited "
                          "or broken outside minesolver")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ runs
    def new_run(self, kind: str, spec: RunSpec, version: str) -> str:
        """Record a new run and return its id (``r1``, ``r2``, ...); two processes
        starting runs at once get different ids (the id is taken in one write
        transaction)."""
        with self._writing():
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute(
                "SELECT COALESCE(MAX(CAST(SUBSTR(run_id, 2) AS INTEGER)), 0) FROM runs "
                "WHERE run_id GLOB 'r[0-9]*'"
            ).fetchone()
            run_id = f"r{int(row[0]) + 1}"
            self.db.execute(
                "INSERT INTO runs (run_id, kind, created, spec, version) VALUES (?, ?, ?, ?, ?)",
                (run_id, kind, time.strftime("%Y-%m-%d %H:%M:%S"), spec.to_json(), version),
            )
        return run_id

    def run_spec(self, run_id: str) -> tuple[str, RunSpec]:
        """``(kind, spec)`` of a stored run."""
        row = next(self._read("SELECT kind, spec FROM runs WHERE run_id = ?", (run_id,)), None)
        if row is None:
            known = ", ".join(r[0] for r in self._read("SELECT run_id FROM runs"))
            raise StoreError(
                f"no run {run_id!r} in {self.path}" + (f" (runs: {known})" if known else "")
            )
        return row[0], RunSpec.from_json(row[1])

    def runs(
        self, damaged: list[tuple[str, str]] | None = None
    ) -> list[tuple[str, str, str, RunSpec]]:
        """``(run_id, kind, created, spec)`` of every run, oldest first.  A run whose
        record cannot be read raises, unless ``damaged`` is a list: then it is left
        out and ``(run_id, why)`` added to it (``report`` shows the others)."""
        rows = list(self._read(
            "SELECT run_id, kind, created, spec FROM runs ORDER BY created, "
            "CAST(SUBSTR(run_id, 2) AS INTEGER)"
        ))
        runs = []
        for run_id, kind, created, text in rows:
            try:
                runs.append((run_id, kind, created, RunSpec.from_json(text)))
            except InputError as exc:
                if damaged is None:
                    raise
                damaged.append((run_id, str(exc)))
        return runs

    def unfinished_twin(self, kind: str, spec: RunSpec) -> tuple[str, int] | None:
        """``(run_id, games stored)`` of the latest run of ``kind`` asked to do
        exactly ``spec`` that has not finished (its games are in the ``games``
        table: bench and sweep runs), or ``None``: what a user who reruns a
        stopped command may have meant to continue with ``--resume``."""
        wanted = spec.to_json()
        rows = list(self._read(
            "SELECT run_id FROM runs WHERE kind = ? AND spec = ? "
            "ORDER BY CAST(SUBSTR(run_id, 2) AS INTEGER) DESC",
            (kind, wanted),
        ))
        for (run_id,) in rows:
            (stored,) = next(self._read("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)))
            if stored < spec.all_games:
                return run_id, int(stored)
        return None

    # ----------------------------------------------------------------- games
    def add_games(self, rows: Iterable[GameRow]) -> int:
        """Insert games (ignoring ones already stored); returns how many were new."""
        values = [
            (
                r.run_id, r.strategy, r.game_index, str(r.seed), r.rules, r.first_click, r.start,
                int(r.won), r.clicks, r.guesses, r.bbbv, r.seconds, r.opened, r.safe_cells,
                r.version, r.extra,
            )
            for r in rows
        ]
        with self._writing():
            before = self.db.total_changes
            self.db.executemany(
                f"INSERT OR IGNORE INTO games VALUES ({', '.join('?' * 16)})",
                values,
            )
            return self.db.total_changes - before

    def done(self, run_id: str) -> set[tuple[str, int]]:
        """``(strategy, game_index)`` pairs already stored for a run."""
        return {
            (r[0], r[1])
            for r in self._read(
                "SELECT strategy, game_index FROM games WHERE run_id = ?", (run_id,)
            )
        }

    def games(self, run_id: str, strategy: str | None = None) -> Iterator[GameRow]:
        """Stored games of a run, by strategy then game index.  A row that no run of
        minesolver could have written (a game of another strategy or past the run's
        end, a count below zero, a time that is not a number) is a :class:`StoreError`."""
        _, spec = self.run_spec(run_id)
        query = "SELECT * FROM games WHERE run_id = ?"
        args: tuple[Any, ...] = (run_id,)
        if strategy is not None:
            query += " AND strategy = ?"
            args += (strategy,)
        for row in self._read(query + " ORDER BY strategy, game_index", args):
            try:
                seed = int(row[3])
                if row[1] not in spec.strategies:
                    raise ValueError(f"the run's strategies are {', '.join(spec.strategies)}")
                _check_counts((row[2], *row[8:11], *row[12:14]), spec.total_games)
                if row[7] not in (0, 1) or not row[12] <= row[13] or row[13] < 1:
                    raise ValueError(f"won {row[7]!r}, opened {row[12]!r} of {row[13]!r}")
                _check_seconds(row[11])
                _check_extra(row[15])
            except (ValueError, TypeError) as exc:
                raise self._damaged(f"game {row[2]!r} of {row[1]!r} in run {run_id}", exc) from None
            yield GameRow(
                run_id=row[0], strategy=row[1], game_index=row[2], seed=seed,
                rules=row[4], first_click=row[5], start=row[6], won=bool(row[7]),
                clicks=row[8], guesses=row[9], bbbv=row[10], seconds=row[11], opened=row[12],
                safe_cells=row[13], version=row[14], extra=row[15],
            )

    # ----------------------------------------------------------- flags games
    def add_flags_games(self, rows: Iterable[FlagsRow]) -> int:
        """Insert Flags games (ignoring ones already stored); returns how many were new."""
        values = [
            (
                r.run_id, r.game_index, str(r.seed), r.rules, r.p1, r.p2, r.first, r.winner,
                r.p1_score, r.p2_score, r.moves, int(r.p1_bomb), int(r.p2_bomb), r.p1_seconds,
                r.p2_seconds, r.version, r.extra,
            )
            for r in rows
        ]
        with self._writing():
            before = self.db.total_changes
            self.db.executemany(
                f"INSERT OR IGNORE INTO flags_games VALUES ({', '.join('?' * 17)})", values
            )
            return self.db.total_changes - before

    def flags_done(self, run_id: str) -> set[int]:
        """Game indices already stored for a Flags run."""
        return {
            r[0]
            for r in self._read("SELECT game_index FROM flags_games WHERE run_id = ?", (run_id,))
        }

    def flags_games(self, run_id: str) -> Iterator[FlagsRow]:
        """Stored Flags games of a run, by game index (rows checked as in :meth:`games`)."""
        _, spec = self.run_spec(run_id)
        for row in self._read(
            "SELECT * FROM flags_games WHERE run_id = ? ORDER BY game_index", (run_id,)
        ):
            try:
                seed = int(row[2])
                _check_counts((row[1], *row[8:11]), spec.total_games)
                if row[6] not in (0, 1) or row[7] not in (0, 1, None):
                    raise ValueError(f"first {row[6]!r}, winner {row[7]!r}")
                if row[11] not in (0, 1) or row[12] not in (0, 1):
                    raise ValueError(f"bombs {row[11]!r} and {row[12]!r}")
                _check_seconds(row[13])
                _check_seconds(row[14])
                _check_extra(row[16])
            except (ValueError, TypeError) as exc:
                raise self._damaged(f"Flags game {row[1]!r} of run {run_id}", exc) from None
            yield FlagsRow(
                run_id=row[0], game_index=row[1], seed=seed, rules=row[3], p1=row[4],
                p2=row[5], first=row[6], winner=row[7], p1_score=row[8], p2_score=row[9],
                moves=row[10], p1_bomb=bool(row[11]), p2_bomb=bool(row[12]),
                p1_seconds=row[13], p2_seconds=row[14], version=row[15], extra=row[16],
            )


def _side(path: Path, suffix: str) -> Path:
    """SQLite's file beside the store: ``-wal`` (the write-ahead log), ``-shm``,
    ``-journal`` (``""``: the store itself)."""
    return path.with_name(path.name + suffix)


def _unlogged(path: Path) -> bool:
    """True when the file alone is the whole store: no write-ahead log beside it, or an
    empty one and no ``-shm`` (no writer has it open: a writer keeps an ``-shm``)."""
    wal = _side(path, "-wal")
    try:
        return wal.stat().st_size == 0 and not _side(path, "-shm").exists()
    except FileNotFoundError:
        return True


def _check_header(path: Path, reading: bool) -> None:
    """Refuse a file that is not SQLite's, and (when only ``reading``) an empty one, in
    words of their own: SQLite takes an empty file for an empty database."""
    try:
        with open(path, "rb") as file:
            head = file.read(16)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not head and reading:
        raise StoreError(f"{path} is an empty file: no results store yet (a bench or sweep "
                         "with this --db makes one)")
    if head and head != b"SQLite format 3\x00":
        raise StoreError(f"cannot use {path} as a results store: it is not a SQLite file")


def _check_counts(counts: tuple[object, ...], games: int) -> None:
    """A row's game index (first, below ``games``) and counts: whole and not below zero."""
    for n in counts:
        if type(n) is not int or n < 0:
            raise ValueError(f"{n!r} where a count or an index belongs")
    if counts[0] >= games:  # type: ignore[operator]
        raise ValueError(f"past the run's {games} games")


def _check_seconds(seconds: object) -> None:
    """A stored time: a number of seconds, finite and not below zero."""
    if type(seconds) not in (int, float) or not 0 <= seconds < math.inf:  # type: ignore[operator]
        raise ValueError(f"{seconds!r} where a time in seconds belongs")


def _check_extra(extra: object) -> None:
    """A game's ``extra`` column: nothing, or a JSON object (ValueError if not)."""
    if extra is not None and not isinstance(json.loads(str(extra)), dict):
        raise ValueError(f"extra is not a JSON object: {str(extra)[:40]!r}")
