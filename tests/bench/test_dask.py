"""The Dask backend on a real LocalCluster (worker processes, TCP): same games, same store."""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3

import pytest
from support import assert_one_error_line, run_cli

from minesolver import __version__
from minesolver.bench import RunSpec, Store, pending_jobs, run_jobs
from minesolver.rules import Rules

distributed = pytest.importorskip("distributed")

OUTCOME = "strategy, game_index, seed, rules, first_click, start, won, clicks, guesses, bbbv, " \
          "opened, safe_cells"

SPEC = RunSpec(points=(Rules(8, 8, 12, first_click="opening"),), strategies=("tank", "best"),
               games=16, seed=31, start="center")


# the scheduler starts its HTTP server even with dashboard_address=None, on 127.0.0.1:8787:
# two tests at once (pytest -n 2) clashed there, and distributed warned each time
LOOPBACK_ANY_PORT = "127.0.0.1:0"


@pytest.fixture(scope="module")
def scheduler():
    """The address of a real two-process local cluster, closed after the module."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=LOOPBACK_ANY_PORT,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def rows(db, run_id):
    with sqlite3.connect(str(db)) as con:
        return con.execute(
            f"SELECT {OUTCOME} FROM games WHERE run_id = ? ORDER BY strategy, game_index",
            (run_id,),
        ).fetchall()


def untimed(data):
    skip = {"ms_per_game_mean", "ms_per_game_median", "ms_per_game_p95", "wall_seconds", "run_id"}
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in skip}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data



def test_run_jobs_on_the_cluster_equals_local_processes(tmp_path, scheduler):
    with Store(tmp_path / "results.sqlite") as store:
        local = store.new_run("bench", SPEC, __version__)
        run_jobs(SPEC, local, store, pending_jobs(SPEC, set()), workers=2)
        remote = store.new_run("bench", SPEC, __version__)
        seen = []
        run_jobs(SPEC, remote, store, pending_jobs(SPEC, set()), scheduler=scheduler,
                 on_game=seen.append, chunk=3)
        assert len(seen) == 32
        assert {(r.strategy, r.game_index) for r in seen} == store.done(local)
    assert rows(tmp_path / "results.sqlite", remote) == rows(tmp_path / "results.sqlite", local)


def test_a_run_started_locally_finishes_on_the_cluster(tmp_path, scheduler):
    """Resume across backends: part of a run locally, the rest on Dask, one store."""
    db = tmp_path / "results.sqlite"
    with Store(db) as store:
        whole = store.new_run("bench", SPEC, __version__)
        run_jobs(SPEC, whole, store, pending_jobs(SPEC, set()), workers=1)
        split = store.new_run("bench", SPEC, __version__)
        jobs = list(pending_jobs(SPEC, set()))
        run_jobs(SPEC, split, store, jobs[:11], workers=1)
        left = pending_jobs(SPEC, store.done(split))
        assert len(left) == 32 - 11
        run_jobs(SPEC, split, store, left, scheduler=scheduler)
        assert list(pending_jobs(SPEC, store.done(split))) == []
    assert rows(db, split) == rows(db, whole)


def test_the_cli_on_the_cluster_equals_one_and_two_workers(tmp_path, scheduler):
    db = tmp_path / "results.sqlite"
    args = ("bench", "--json", "--db", str(db), "--rules", "7x7x10", "--first-click", "none",
            "--games", "20", "--strategy", "best", "--strategy", "random", "--seed", "8")
    results = []
    for backend in (["--scheduler", scheduler], ["--workers", "1"], ["--workers", "2"]):
        result = run_cli(*args, *backend)
        assert result.returncode == 0, result.stderr
        results.append(json.loads(result.stdout))
    assert [r["run_id"] for r in results] == ["r1", "r2", "r3"]
    assert len(rows(db, "r1")) == 40
    assert rows(db, "r1") == rows(db, "r2") == rows(db, "r3")
    assert untimed(results[0]) == untimed(results[1]) == untimed(results[2])
    # and a sweep, which is the same machinery over several points
    csv = tmp_path / "sweep.csv"
    sweep = run_cli("sweep", "--json", "--db", str(db), "--size", "6x6", "--densities",
                    "0.1,0.25", "--games", "6", "--strategy", "tank", "--seed", "2", "--csv",
                    str(csv), "--plot", str(tmp_path / "sweep.png"), "--scheduler", scheduler)
    assert sweep.returncode == 0, sweep.stderr
    local = run_cli("sweep", "--json", "--db", str(db), "--size", "6x6", "--densities",
                    "0.1,0.25", "--games", "6", "--strategy", "tank", "--seed", "2", "--csv",
                    str(tmp_path / "local.csv"), "--plot", str(tmp_path / "local.png"),
                    "--workers", "1")
    assert local.returncode == 0, local.stderr
    assert rows(db, "r4") == rows(db, "r5")
    assert csv.read_text().splitlines()[1:] != []


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_one_line_and_stores_no_run(tmp_path):
    port = closed_port()  # bound then released: nothing listens there
    db = tmp_path / "r.sqlite"
    made = run_cli("bench", "--rules", "6x6x5", "--games", "2", "--workers", "1", "--db", str(db))
    assert made.returncode == 0, made.stderr
    kept = db.read_bytes()
    runs = "SELECT COUNT(*) FROM runs"
    for command in (["bench", "--rules", "6x6x5"], ["sweep", "--size", "6x5", "--csv",
                                                    str(tmp_path / "s.csv"), "--plot",
                                                    str(tmp_path / "s.png")]):
        result = run_cli(*command, "--games", "2", "--db", str(db),
                         "--scheduler", f"tcp://127.0.0.1:{port}")
        assert_one_error_line(result, "cannot reach the Dask scheduler", str(port))
    assert db.read_bytes() == kept
    with contextlib.closing(sqlite3.connect(db)) as con:
        assert con.execute(runs).fetchone() == (1,)  # no empty run was stored
    assert not (tmp_path / "s.csv").exists()


@pytest.mark.parametrize(("address", "needle"), [("garbage", "port"), ("nope://x:1", "nope")])
def test_an_unreadable_scheduler_address_is_one_line(tmp_path, address, needle):
    result = run_cli("bench", "--rules", "6x6x5", "--games", "2", "--db",
                     str(tmp_path / "r.sqlite"), "--scheduler", address)
    assert_one_error_line(result, needle)
    assert not (tmp_path / "r.sqlite").exists()


@contextlib.contextmanager
def listener(answer: bytes | None):
    """A TCP server on 127.0.0.1 that accepts and then says ``answer`` (or nothing,
    ever): something listening that is not a Dask scheduler."""
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if answer is not None:
                    conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_a_listener_that_never_answers_is_given_up(monkeypatch):
    from minesolver.bench import check_scheduler, runner

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 0.5)  # 1 s in all; 20 s by default
    with listener(None) as address, pytest.raises(ConnectionError, match=(
            f"the Dask scheduler at {address} did not answer in 1 s")):
        check_scheduler(address)


def test_a_listener_that_is_not_dask_is_one_line(tmp_path):
    # dask reads the first 8 bytes as a message's length (here 3 EiB): not a memory error
    with listener(b"\0" * 4 + b"hello" * 10) as address:
        result = run_cli("bench", "--rules", "6x6x5", "--games", "2", "--db",
                         str(tmp_path / "r.sqlite"), "--scheduler", address)
    assert_one_error_line(result, f"what answers at {address} does not speak Dask's protocol")
    assert not (tmp_path / "r.sqlite").exists()


def test_a_scheduler_lost_mid_run_is_one_line_and_the_run_resumes(tmp_path):
    import subprocess
    import sys
    import time

    port = closed_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], **quiet)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"],
                              **quiet)
    db = tmp_path / "r.sqlite"
    args = ["--rules", "8x8x12", "--games", "3000", "--strategy", "tank", "--db", str(db)]
    try:
        run = subprocess.Popen([sys.executable, "-m", "minesolver", "bench", *args,
                                "--scheduler", address, "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        stored = 0
        while stored < 40 and time.monotonic() < deadline:  # wait for games to be stored
            time.sleep(0.5)
            with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(db)) as c:
                stored = c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        scheduler.kill()
        _, err = run.communicate(timeout=120)
    finally:
        scheduler.kill()
        worker.kill()
        worker.wait(timeout=30)
    assert run.returncode == 2, err
    assert err.startswith(f"minesolver: error: lost the Dask scheduler at {address}"), err
    assert err.count("\n") == 1 and "Traceback" not in err
    with contextlib.closing(sqlite3.connect(db)) as con:
        kept = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 40 <= kept < 3000
    resumed = run_cli("bench", "--resume", "r1", "--workers", "2", "--db", str(db), "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["games"] == 3000


def test_a_run_without_workers_says_so_and_goes_on_when_they_come(tmp_path, monkeypatch):
    # a scheduler with no worker (at the start, or once they all left: the same watch)
    # held the run in silence; an adaptive cluster starts workers only when work is
    # asked of it, so the run waits, says so, and says so again when workers are back
    import threading

    from minesolver.bench import runner

    monkeypatch.setattr(runner, "IDLE_SECONDS", 1.0)
    spec = RunSpec(points=(Rules(8, 8, 12),), strategies=("tank",), games=300, seed=5)
    cluster = distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True,
                                       host="127.0.0.1",
                                       dashboard_address=LOOPBACK_ANY_PORT)
    notes: list[str] = []

    def on_note(text):
        notes.append(text)
        if "no worker" in text:  # a worker joins once the run has said it waits
            threading.Thread(target=cluster.scale, args=(1,), daemon=True).start()

    try:
        with Store(tmp_path / "r.sqlite") as store:
            run_id = store.new_run("bench", spec, __version__)
            run_jobs(spec, run_id, store, pending_jobs(spec, set()),
                     scheduler=cluster.scheduler_address, on_note=on_note, chunk=2)
            assert len(store.done(run_id)) == 300
    finally:
        cluster.close()
    address = cluster.scheduler_address
    waits = f"the Dask scheduler at {address} has had no worker for 1 s; the run waits for one"
    back = f"the Dask scheduler at {address} has workers again"
    assert [n.split(" (")[0] for n in notes] == [waits, back]


def test_a_run_whose_workers_all_leave_waits_and_goes_on_when_one_comes(tmp_path,
                                                                       monkeypatch):
    # the other face of the same watch: workers that were there and left (killed), not a
    # cluster that began empty
    import subprocess
    import sys
    import threading
    import time

    from minesolver.bench import runner

    monkeypatch.setattr(runner, "IDLE_SECONDS", 1.0)
    spec = RunSpec(points=(Rules(8, 8, 12),), strategies=("tank",), games=400, seed=6)
    cluster = distributed.LocalCluster(n_workers=0, threads_per_worker=1, processes=True,
                                       host="127.0.0.1",
                                       dashboard_address=LOOPBACK_ANY_PORT)
    address = cluster.scheduler_address
    workers: list[subprocess.Popen[bytes]] = []

    def start_worker():
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
             "--no-dashboard", "--host", "127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    notes: list[str] = []

    def on_note(text):
        notes.append(text)
        if "no worker" in text and len(workers) == 1:  # all left: another comes
            start_worker()

    db = tmp_path / "r.sqlite"
    killed_at: list[int] = []

    def kill_the_first_worker_mid_run():
        deadline = time.monotonic() + 120
        stored = 0
        while stored < 20 and time.monotonic() < deadline:
            time.sleep(0.2)
            with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(db)) as c:
                stored = c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        workers[0].kill()
        killed_at.append(stored)

    try:
        start_worker()
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(1, timeout=120)
        with Store(db) as store:
            run_id = store.new_run("bench", spec, __version__)
            threading.Thread(target=kill_the_first_worker_mid_run, daemon=True).start()
            run_jobs(spec, run_id, store, pending_jobs(spec, set()), scheduler=address,
                     on_note=on_note, chunk=2)
            assert len(store.done(run_id)) == 400
    finally:
        for worker in workers:
            worker.kill()
            worker.wait(timeout=30)
        cluster.close()
    assert len(workers) == 2 and 20 <= killed_at[0] < 400  # killed mid-run, not at its end
    waits = f"the Dask scheduler at {address} has had no worker for 1 s; the run waits for one"
    back = f"the Dask scheduler at {address} has workers again"
    assert [n.split(" (")[0] for n in notes] == [waits, back]


@pytest.mark.parametrize(("address", "needle"), [
    ("tcp://127.0.0.1:99999", "Port out of range"),  # was 10 s, then "Timed out"
    ("ucx://127.0.0.1:1", "cannot connect to the Dask scheduler at"),  # was internal error
])
def test_an_address_dask_cannot_use_is_one_line_at_once(tmp_path, address, needle):
    result = run_cli("bench", "--rules", "6x6x5", "--games", "2", "--db",
                     str(tmp_path / "r.sqlite"), "--scheduler", address)
    assert_one_error_line(result, needle)
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.parametrize("command", [["bench", "--rules", "6x6x5"],
                                     ["sweep", "--size", "6x5", "--csv", "s.csv"]])
def test_workers_beside_a_scheduler_are_refused(tmp_path, command):
    # --workers counts local processes: it was ignored without a word
    result = run_cli(*command, "--games", "2", "--db", str(tmp_path / "r.sqlite"),
                     "--scheduler", "tcp://127.0.0.1:1", "--workers", "2", cwd=tmp_path)
    assert_one_error_line(result, "--workers is for local processes; a Dask cluster's "
                          "workers are its own: leave it out")
    assert not (tmp_path / "r.sqlite").exists()
