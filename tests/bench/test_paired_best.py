"""``benchmarks/paired_best.py``: two real ``minesolver bench`` stores of the same seed,
compared game by game, through the script's own entry point."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def bench(db: Path, *strategies: str, seed: int = 7) -> None:
    args = [sys.executable, "-m", "minesolver", "bench", "--rules", "beginner",
            "--games", "40", "--seed", str(seed), "--workers", "1", "--db", str(db), "--quiet"]
    for name in strategies:
        args += ["--strategy", name]
    subprocess.run(args, check=True, capture_output=True)


def paired(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / "paired_best.py"), *args],
                          capture_output=True, text=True)


def test_runs_of_different_ids_and_strategies_pair_by_board(tmp_path):
    old, new = tmp_path / "old.sqlite", tmp_path / "new.sqlite"
    bench(old, "tank")
    bench(old, "tank", "best")  # the second run of this store: r2
    bench(new, "best")
    out = paired(str(old), str(new), "--run", "r2", "--new-run", "r1", "--strategy", "best")
    assert out.returncode == 0, out.stderr
    # best against itself on the same boards: no game won by one side only
    assert "40 paired games" in out.stdout and "won by old only 0, by new only 0" in out.stdout
    out = paired(str(old), str(new), "--run", "r2", "--new-run", "r1",
                 "--strategy", "tank", "--new-strategy", "best")
    assert out.returncode == 0 and "40 paired games" in out.stdout
    # other boards are refused, not compared
    other = tmp_path / "other.sqlite"
    bench(other, "best", seed=8)
    out = paired(str(old), str(other), "--run", "r2", "--new-run", "r1", "--strategy", "best")
    assert out.returncode == 2 and "different boards" in out.stderr
