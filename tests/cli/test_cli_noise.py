"""``--noise`` on the command line: bad models are one line, noisy games play and bench."""

from __future__ import annotations

import json

import pytest
from support import assert_one_error_line, run_cli


@pytest.mark.parametrize("command", ["play", "bench", "sweep"])
@pytest.mark.parametrize(("noise", "needle"), [("gaussian", "unknown noise model 'gaussian'"),
                                              ("withheld:7", "0 <= P <= 1")])
def test_cli_bad_noise_is_one_line(command, noise, needle, tmp_path, entry):
    db = ["--db", str(tmp_path / "n.sqlite")] if command != "play" else []
    result = run_cli(command, "--noise", noise, *db, entry=entry)
    assert_one_error_line(result, needle)


def test_cli_plays_and_benches_noisy_games(tmp_path):
    played = run_cli("play", "--rules", "6x6x5", "--noise", "optimistic", "--seed", "4",
                     "--strategy", "tank", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["noise"] == "optimistic"
    benched = run_cli("bench", "--rules", "6x6x5", "--noise", "withheld:0.5", "--games", "3",
                      "--strategy", "tank", "--db", str(tmp_path / "b.sqlite"), "--json",
                      "--workers", "1")
    assert benched.returncode == 0, benched.stderr
    data = json.loads(benched.stdout)
    assert data["noise"] == "withheld:0.5" and data["games"] == 3
