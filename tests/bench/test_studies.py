"""The study scripts (``benchmarks/studies``) at a tiny size: they run, print their tables,
and a second run resumes from the store instead of playing again."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

STUDIES = Path(__file__).resolve().parents[2] / "benchmarks" / "studies"

TINY = {
    "cpp_writeup.py": ["--games", "6", "--rule-games", "2", "--cap-games", "3",
                       "--sweep-games", "2"],
    "haskell_tank.py": ["--games", "3"],
    "flags_sampling.py": ["--seconds", "0.2", "--games", "2", "--moves", "4"],
    "openmp_threads.py": ["--size", "12x12", "--repeat", "1"],
    "kb_agent.py": ["--games", "1", "--noise-games", "1"],
}


def run(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, script, "--db", str(tmp_path / "studies.sqlite"), *TINY[script]]
    if script in ("cpp_writeup.py", "kb_agent.py"):
        args += ["--out", str(tmp_path), "--workers", "1"]
    if script == "haskell_tank.py":
        args += ["--times", str(tmp_path / "times.json")]
    else:
        args += ["--json", str(tmp_path / "figures.json")]
    return subprocess.run(args, cwd=STUDIES, capture_output=True, text=True, timeout=300,
                          check=False)


def stored_games(db: Path) -> int:
    with sqlite3.connect(str(db)) as con:
        games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        flags = con.execute("SELECT COUNT(*) FROM flags_games").fetchone()[0]
    return int(games) + int(flags)


@pytest.mark.parametrize("script", sorted(TINY))
def test_a_study_runs_then_resumes_from_the_store(script, tmp_path):
    first = run(script, tmp_path)
    assert first.returncode == 0, first.stderr
    assert "| " in first.stdout and "load average" in first.stdout
    assert "games" in first.stderr  # the progress lines
    played = stored_games(tmp_path / "studies.sqlite")
    assert played > 0
    again = run(script, tmp_path)
    assert again.returncode == 0, again.stderr
    assert stored_games(tmp_path / "studies.sqlite") == played  # nothing played twice
    # throughput and engine timings are measured afresh every time; the rest is read back
    if script not in ("flags_sampling.py", "openmp_threads.py"):
        assert again.stdout.split("\n", 1)[1] == first.stdout.split("\n", 1)[1]
    if script != "haskell_tank.py":
        assert json.loads((tmp_path / "figures.json").read_text())


@pytest.mark.parametrize(("script", "bad", "said"), [
    ("openmp_threads.py", ["--size", "abc"], "cannot read size 'abc'"),
    ("haskell_tank.py", ["--games", "0"], "argument --games: 0 is below 1"),
    ("cpp_writeup.py", ["--parts", "bogus"], "unknown part 'bogus'"),
    ("cpp_writeup.py", ["--start", "nowhere"], "cannot read start 'nowhere'"),
    # found only once every game was played, and a timing not saved is lost for good
    ("cpp_writeup.py", ["--out", "/no/such/folder"], "/no/such/folder: no such folder"),
    ("haskell_tank.py", ["--times", "/no/such/folder/t.json"], "no such folder"),
    ("flags_sampling.py", ["--seconds", "0"], "argument --seconds: 0 is below 0.1"),
    ("kb_agent.py", ["--noise-size", "30"], "cannot read size '30'"),
])
def test_a_bad_value_is_one_line_before_any_game(script, bad, said, tmp_path):
    db = tmp_path / "studies.sqlite"
    if script in ("cpp_writeup.py", "kb_agent.py") and "--out" not in bad:
        bad = [*bad, "--out", str(tmp_path)]  # docs/images is not beside the scripts
    done = subprocess.run([sys.executable, script, "--db", str(db), *bad], cwd=STUDIES,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"{script}: error: ")
    assert said in done.stderr
    assert not db.exists() or stored_games(db) == 0


@pytest.mark.parametrize("script", sorted(TINY))
def test_every_study_option_says_what_it_is(script):
    done = subprocess.run([sys.executable, script, "--help"], cwd=STUDIES, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    entries = re.split(r"\n(?=  -)", done.stdout.split("options:", 1)[1].strip("\n"))
    for entry in entries:
        assert len(entry.split()) > 2 or entry.startswith("  -h"), f"{script}: {entry!r}"
    assert "(default: studies.sqlite)" in done.stdout


def test_haskell_tank_says_how_many_boards_a_resumed_row_was_timed_over(tmp_path):
    assert run("haskell_tank.py", tmp_path).returncode == 0
    with sqlite3.connect(str(tmp_path / "studies.sqlite")) as con:  # as if cut after 2 games
        con.execute("DELETE FROM games WHERE run_id = 'r1' AND game_index = 2")
    again = run("haskell_tank.py", tmp_path)
    assert again.returncode == 0, again.stderr
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in again.stdout.splitlines()
             if line.startswith("| ") and line[2].isdigit()]
    timed = {row[0]: row[2] for row in cells}  # workers -> boards timed
    assert timed == {"1": "1", "2": "3", "4": "3", "8": "3"}  # the cut row: its last game only
