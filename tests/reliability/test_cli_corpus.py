"""Every bad command line is refused cleanly: the generated corpus of :mod:`corpus`.

For each case: exit status 2, exactly one line on stderr that names the input, no
traceback, no file created or changed in the folder it runs in, and an answer well
within 20 s.  The cases run in-process through ``minesolver.cli.main`` (the real
entry point's function, with its error handling) to keep ``make test`` fast; a
sample of them also runs through the installed ``minesolver`` script.

The limit cases always run through the script: ``--max-memory`` caps the address
space at what the process has now plus the limit, and a pytest process that has run
thousands of tests holds enough freed heap for the analysis to fit inside it, so
in-process the case meets the time limit instead.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from corpus import LIMIT_CASES, Case, cases, make_files, resolve
from support import console_script

from minesolver.cli import main

CASES = cases()
IN_PROCESS = [case for case in CASES if case not in LIMIT_CASES]
SECONDS = 20.0


def test_the_corpus_is_a_few_hundred_cases_over_every_command():
    from minesolver.cli import analyze, bench, flags, one_game, report, review, serve, sweep  # noqa: F401
    from minesolver.cli.base import cli

    assert len(CASES) >= 300
    covered = {case.args[0] for case in CASES}
    assert covered == set(cli.commands) - {"strategies"}  # `strategies` takes no input


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real results store with one bench run, r1 (for the --resume cases)."""
    path = tmp_path_factory.mktemp("store") / "store.sqlite"
    main(["bench", "--rules", "9x9x10", "--games", "1", "--workers", "1", "--quiet",
          "--db", str(path)])  # returns: a success does not exit
    assert path.exists()
    return path


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``folder``: size and modification time."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            info = path.stat()
            out[str(path.relative_to(folder))] = (info.st_size, info.st_mtime_ns)
    return out


def prepare(tmp_path: Path, store: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    make_files(folder)
    shutil.copy(store, folder / "store.sqlite")
    return folder


def check(case: Case, code: object, err: str, before: dict, after: dict, seconds: float) -> None:
    lines = err.splitlines()
    assert code == 2, f"exit {code}: {err[:500]}"
    assert len(lines) == 1, f"{len(lines)} lines: {err[:1000]}"
    line = lines[0]
    assert line.startswith("minesolver: error: "), line
    assert "Traceback" not in err and "internal error" not in line
    assert len(line) < 400, f"{len(line)} characters: {line[:200]}"
    assert any(needle in line for needle in case.needles), (case.needles, line)
    assert after == before, f"files changed: {set(after) ^ set(before)}"
    assert seconds < SECONDS


@pytest.mark.parametrize("case", IN_PROCESS, ids=[c.id for c in IN_PROCESS])
def test_bad_input_is_one_line_and_exit_2(case: Case, tmp_path, store, capsys, monkeypatch):
    folder = prepare(tmp_path, store)
    monkeypatch.chdir(folder)
    interrupt = signal.getsignal(signal.SIGINT)
    before = snapshot(folder)
    started = time.perf_counter()
    code: object = 0
    try:
        main(resolve(case.args, folder))
    except SystemExit as exit_:
        code = exit_.code
    finally:
        signal.signal(signal.SIGINT, interrupt)
    seconds = time.perf_counter() - started
    err = capsys.readouterr().err
    check(case, code, err, before, snapshot(folder), seconds)


SAMPLE = LIMIT_CASES + IN_PROCESS[:: max(1, len(IN_PROCESS) // 12)]


@pytest.mark.parametrize("case", SAMPLE, ids=[c.id for c in SAMPLE])
def test_a_sample_through_the_installed_script(case: Case, tmp_path, store):
    folder = prepare(tmp_path, store)
    before = snapshot(folder)
    started = time.perf_counter()
    done = subprocess.run(
        [console_script(), *resolve(case.args, folder)], cwd=folder, capture_output=True,
        text=True, timeout=SECONDS + 10, stdin=subprocess.DEVNULL,
    )
    check(case, done.returncode, done.stderr, before, snapshot(folder),
          time.perf_counter() - started)
