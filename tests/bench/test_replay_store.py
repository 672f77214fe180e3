"""``benchmarks/replay_store.py``: stored games replayed through the script's own entry
point, against a real ``minesolver bench`` store."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / "replay_store.py"), *args],
                          capture_output=True, text=True)


def test_stored_games_replay_as_stored_and_other_play_is_caught(tmp_path):
    db = tmp_path / "run.sqlite"
    subprocess.run([sys.executable, "-m", "minesolver", "bench", "--rules", "beginner",
                    "--games", "30", "--seed", "11", "--workers", "1", "--db", str(db),
                    "--quiet", "--strategy", "best", "--strategy", "tank"],
                   check=True, capture_output=True)
    out = replay(str(db), "--strategy", "best")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "30 games replayed, 0 differ"
    # only the games where tank played otherwise than best
    with sqlite3.connect(db) as con:
        (apart,) = con.execute(
            "select count(*) from games a join games b on a.game_index = b.game_index"
            " and a.strategy = 'best' and b.strategy = 'tank' where a.clicks <> b.clicks"
            " or a.guesses <> b.guesses or a.opened <> b.opened or a.won <> b.won").fetchone()
    assert 0 < apart < 30
    out = replay(str(db), "--strategy", "tank", "--differing-from", "best")
    assert out.returncode == 0 and out.stdout.startswith(f"{apart} games replayed, 0 differ")
    # best's games played by tank do not come out the same
    out = replay(str(db), "--strategy", "best", "--differing-from", "tank", "--play", "tank")
    assert out.returncode == 1 and f"{apart} games replayed" in out.stdout
    assert " 0 differ" not in out.stdout


def test_bad_input_is_one_line_and_status_2(tmp_path):
    missing = replay(str(tmp_path / "none.sqlite"), "--strategy", "best")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    db = tmp_path / "run.sqlite"
    subprocess.run([sys.executable, "-m", "minesolver", "bench", "--rules", "beginner",
                    "--games", "2", "--seed", "1", "--workers", "1", "--db", str(db),
                    "--quiet", "--strategy", "best"], check=True, capture_output=True)
    for args in (["--strategy", "nobody"], ["--strategy", "best", "--play", "best:nope=1"]):
        out = replay(str(db), *args)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
