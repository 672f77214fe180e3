"""The study scripts (``benchmarks/studies``) at a tiny size: they run, print their tables,
and a second run resumes from the store instead of playing again."""

from __future__ import annotations

import json
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
