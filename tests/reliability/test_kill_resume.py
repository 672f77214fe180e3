"""Killed and resumed runs of every kind: 0 lost, 0 duplicated, identical figures.

``bench`` has its own test (tests/cli/test_cli_bench.py); here a ``sweep`` and a
``flags`` match are killed with SIGKILL (the run and its worker processes) once some
games are stored, resumed with ``--resume``, and compared with an uninterrupted run
of the same arguments.  A bench stopped by Ctrl-C resumes the same way.  A parent
killed outright takes its worker processes with it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from support import console_script

TIMING = ("ms", "seconds", "wall", "per_second")


def count(db: Path, table: str) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # the tables are not made yet


def run(*args: str, cwd: Path) -> dict:
    done = subprocess.run([console_script(), *args, "--json", "--quiet"], cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def interrupt(args: list[str], db: Path, table: str, at_least: int, sig: signal.Signals,
              cwd: Path) -> None:
    """Start ``minesolver ARGS`` and send ``sig`` to it and its workers once ``at_least``
    rows are in ``table``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "minesolver", *args, "--quiet"], cwd=cwd,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while count(db, table) < at_least:
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the run stored too few games"
            time.sleep(0.02)
        os.killpg(process.pid, sig)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        err = process.stderr.read().decode()
        process.stderr.close()
    if sig == signal.SIGKILL:
        assert process.returncode == -signal.SIGKILL
    else:
        # one line, naming the run to resume
        assert process.returncode == 130, err
        assert err == f"minesolver: interrupted (run r1 in {db}: --resume r1 goes on)\n", err


def rows(db: Path, table: str, columns: str) -> list[tuple]:
    with sqlite3.connect(str(db)) as con:
        return con.execute(f"SELECT {columns} FROM {table} ORDER BY {columns}").fetchall()


def untimed(table: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if not any(t in k for t in TIMING)} for row in table]


def test_a_killed_sweep_resumes_to_the_same_table(tmp_path):
    total = 2 * 30
    args = ["sweep", "--size", "30x16", "--densities", "0.15,0.2", "--games", "30",
            "--seed", "4", "--workers", "2", "--strategy", "best"]
    killed = tmp_path / "killed.sqlite"
    interrupt([*args, "--db", str(killed)], killed, "games", 8, signal.SIGKILL, tmp_path)
    stored = count(killed, "games")
    assert 8 <= stored < total, "the kill came too late to test anything"
    columns = "strategy, game_index, seed, rules, won, clicks, guesses"
    before = rows(killed, "games", columns)
    resumed = run("sweep", "--resume", "r1", "--db", str(killed), "--workers", "2",
                  "--csv", "a.csv", "--plot", "a.png", cwd=tmp_path)
    after = rows(killed, "games", columns)
    assert len(after) == len(set(after)) == total  # 0 lost, 0 duplicated
    assert set(before) <= set(after)
    whole = run(*args, "--db", str(tmp_path / "whole.sqlite"), "--csv", "b.csv", "--plot",
                "b.png", cwd=tmp_path)
    assert rows(tmp_path / "whole.sqlite", "games", columns) == after
    assert untimed(resumed["points"]) == untimed(whole["points"])


def test_a_killed_flags_match_resumes_to_the_same_figures(tmp_path):
    games = 16
    args = ["flags", "--p1", "exact", "--p2", "mc", "--games", str(games), "--seed", "3",
            "--rules", "16x16x51", "--workers", "2"]
    killed = tmp_path / "killed.sqlite"
    interrupt([*args, "--db", str(killed)], killed, "flags_games", 3, signal.SIGKILL,
              tmp_path)
    stored = count(killed, "flags_games")
    assert 3 <= stored < games, "the kill came too late to test anything"
    columns = "game_index, seed, first, winner, p1_score, p2_score, moves"
    before = rows(killed, "flags_games", columns)
    resumed = run("flags", "--resume", "r1", "--db", str(killed), "--workers", "2",
                  cwd=tmp_path)
    after = rows(killed, "flags_games", columns)
    assert len(after) == len({r[0] for r in after}) == games
    assert set(before) <= set(after)
    whole = run(*args, "--db", str(tmp_path / "whole.sqlite"), cwd=tmp_path)
    assert rows(tmp_path / "whole.sqlite", "flags_games", columns) == after
    assert untimed([resumed]) == untimed([whole])  # boards per second is a timing


def test_a_bench_stopped_by_ctrl_c_resumes_to_the_same_figures(tmp_path):
    games = 40
    args = ["bench", "--rules", "expert", "--games", str(games), "--seed", "8",
            "--workers", "2", "--strategy", "best"]
    stopped = tmp_path / "stopped.sqlite"
    interrupt([*args, "--db", str(stopped)], stopped, "games", 6, signal.SIGINT, tmp_path)
    assert 6 <= count(stopped, "games") < games, "Ctrl-C came too late to test anything"
    resumed = run("bench", "--resume", "r1", "--db", str(stopped), "--workers", "2",
                  cwd=tmp_path)
    columns = "strategy, game_index, seed, won, clicks, guesses"
    after = rows(stopped, "games", columns)
    assert len(after) == len(set(after)) == games
    whole = run(*args, "--db", str(tmp_path / "whole.sqlite"), cwd=tmp_path)
    assert rows(tmp_path / "whole.sqlite", "games", columns) == after
    assert untimed([resumed]) == untimed([whole])  # one strategy: its flat summary


def group_alive(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, _, group = stat.rsplit(")", 1)[1].split()[:3]
        if int(group) == pgid and state != "Z":
            alive.append(int(entry.name))
    return alive


def test_the_workers_of_a_parent_killed_outright_end_too(tmp_path):
    # SIGKILL or SIGTERM to the parent alone (not Ctrl-C, which it handles): its forked
    # workers held the work pipe's other end and waited forever, 180 MB each
    for sig in (signal.SIGKILL, signal.SIGTERM):
        db = tmp_path / f"{sig.name}.sqlite"
        process = subprocess.Popen(
            [sys.executable, "-m", "minesolver", "bench", "--rules", "expert", "--games",
             "400", "--workers", "2", "--db", str(db), "--quiet"],
            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 180
            while count(db, "games") < 4:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.02)
            assert len(group_alive(process.pid)) >= 3  # the parent and two workers
            process.send_signal(sig)
            process.wait(timeout=30)
            deadline = time.monotonic() + 20
            while group_alive(process.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert group_alive(process.pid) == []
        finally:
            if group_alive(process.pid):
                os.killpg(process.pid, signal.SIGKILL)
            if process.poll() is None:
                process.wait(timeout=30)
