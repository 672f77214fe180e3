"""AI-vs-AI Flags matches: stored game by game, resumed after a kill, summarised."""

from __future__ import annotations

import pytest

from minesolver.bench import Store
from minesolver.bench.flags import (
    flags_spec,
    flags_summary,
    pending_flags,
    play_flags_chunk,
    run_flags,
)
from minesolver.rng import derive_seed
from minesolver.rules import Rules
from minesolver.variants.flags import FLAGS, FlagsSetupError

# ---------------------------------------------------------------------- match runner


def test_a_match_is_stored_and_a_killed_match_resumes(tmp_path):
    spec = flags_spec("exact", "mc:samples=20,tries=100", games=6, seed=5,
                      rules=Rules(6, 6, 7))
    whole = Store(tmp_path / "whole.sqlite")
    run = whole.new_run("flags", spec, "test")
    run_flags(spec, run, whole, pending_flags(spec, set()), workers=1)
    rows = list(whole.flags_games(run))
    assert [r.game_index for r in rows] == list(range(6))
    assert [r.first for r in rows] == [0, 1, 0, 1, 0, 1]  # p1 moves first every other game
    # a killed run: only some games reached the store; --resume plays the rest
    part = Store(tmp_path / "part.sqlite")
    run2 = part.new_run("flags", spec, "test")
    run_flags(spec, run2, part, [0, 3], workers=1)
    assert pending_flags(spec, part.flags_done(run2)) == [1, 2, 4, 5]
    run_flags(spec, run2, part, pending_flags(spec, part.flags_done(run2)), workers=2)

    def outcome(r):
        return (r.game_index, r.seed, r.first, r.winner, r.p1_score, r.p2_score, r.moves)

    assert [outcome(r) for r in part.flags_games(run2)] == [outcome(r) for r in rows]
    assert part.add_flags_games(rows[:1]) == 0  # a game is never stored twice
    kind, stored = part.run_spec(run2)
    assert kind == "flags" and stored == spec
    assert stored.strategies == ("exact", "mc:samples=20,tries=100")
    summary = flags_summary(rows)
    assert summary["games"] == 6
    assert summary["p1_wins"] + summary["p2_wins"] + summary["draws"] == 6


def test_the_spec_of_a_match():
    spec = flags_spec("hard", "mc", games=10, seed=3)
    assert spec.rules == FLAGS.with_first_click("none")
    assert spec.strategies == ("hard", "mc") and spec.start is None
    assert spec.total_games == 10
    other = flags_spec("exact", "exact", games=2, seed=1, rules=Rules(6, 6, 7))
    assert other.rules == Rules(6, 6, 7, first_click="none")
    with pytest.raises(FlagsSetupError, match="unknown Flags player 'nope'"):
        flags_spec("hard", "nope", games=1, seed=1)
    with pytest.raises(FlagsSetupError, match="exact clues"):
        flags_spec("mc", "mc", games=1, seed=1, rules=Rules(6, 6, 7, noise="cautious"))


def test_a_chunk_is_the_same_games_in_any_worker():
    spec = flags_spec("exact", "mc:samples=10,tries=50", games=4, seed=8, rules=Rules(5, 5, 5))
    rows = play_flags_chunk(spec, "r1", [3, 1])
    assert [r.game_index for r in rows] == [3, 1]
    assert [r.seed for r in rows] == [derive_seed(8, 3), derive_seed(8, 1)]
    assert [r.first for r in rows] == [1, 1]
    assert all(r.rules == "5x5x5" and (r.p1, r.p2) == ("exact", "mc:samples=10,tries=50")
               for r in rows)
    again = play_flags_chunk(spec, "r1", [1])
    assert (again[0].winner, again[0].p1_score, again[0].moves) == (
        rows[1].winner, rows[1].p1_score, rows[1].moves
    )


def test_the_summary_of_no_games():
    empty = flags_summary([])
    assert empty["games"] == 0 and empty["ci95"] == [0.0, 1.0]
    # nothing measured, not a rate of 0 (the table and line say "-")
    assert all(empty[key] is None for key in (
        "p1_win_rate", "p1_win_rate_moving_first", "p1_win_rate_moving_second",
        "p1_mean_score", "p2_bomb_rate", "moves_per_game", "p2_ms_per_game"))
