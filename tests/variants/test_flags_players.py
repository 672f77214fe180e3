"""Minesweeper Flags players: the registry, legal and deterministic moves, what they know,
and one whole game between two of them."""

from __future__ import annotations

import pytest
from support import around

from minesolver.analysis import analyze
from minesolver.analysis.sampling import sample_layouts
from minesolver.codes import COVERED
from minesolver.position import Position
from minesolver.rng import SplitMix64
from minesolver.rules import Rules
from minesolver.variants.flags import (
    FLAGS_PLAYERS,
    FlagsGame,
    FlagsSetupError,
    FlagsView,
    find_flags_player,
    naive_density,
    play_flags,
)
from minesolver.variants.flags.hard import Hard

# ---------------------------------------------------------------------- players

PLAYER_NAMES = ["mc", "mc:samples=20,tries=200", "exact", "hard", "hard:careful=off",
                "hard:bomb=off", "hard:bomb=off,endgame=0", "hard:passes=off",
                "hard:threshold=0.5,candidates=8"]


def test_the_registry_and_options():
    # importing minesolver.variants.flags registers every built-in player
    assert FLAGS_PLAYERS.names() == ["exact", "hard", "mc"]
    hard = find_flags_player("hard:bomb=off,endgame=10,threshold=0.3")
    assert (hard.bomb, hard.endgame, hard.threshold) == (False, 10, 0.3)
    assert hard.label == "hard:bomb=off,endgame=10,threshold=0.3"
    assert find_flags_player("mc").label == "mc"
    for name in FLAGS_PLAYERS:
        assert FLAGS_PLAYERS[name].summary


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("nope", "unknown Flags player 'nope'"),
        ("hard:speed=3", "has no option 'speed'"),
        ("hard:bomb", "needs a value"),
        ("hard:bomb=off,bomb=on", "option 'bomb' of Flags player hard is given twice"),
        ("hard:bomb=maybe", "expected bool"),
        ("mc:samples=0", "expected 1 to 100000"),
    ],
)
def test_bad_player_names(name, needle):
    with pytest.raises(FlagsSetupError, match=needle):
        find_flags_player(name)


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_players_only_make_legal_moves(name):
    """Every move opens a covered cell, or bombs while allowed."""
    player = find_flags_player(name)
    opponent = find_flags_player("exact")
    boards = [Rules(6, 6, 9), Rules(8, 5, 11), Rules(7, 7, 15)]
    for seed in range(4):
        rules = boards[seed % len(boards)]
        game = FlagsGame(rules, seed=seed, first=seed % 2)
        player.new_game(seed)
        opponent.new_game(seed + 100)
        while game.turn is not None:
            view = game.view()
            mover = player if view.player == 0 else opponent
            move = mover.choose(view)
            if move.kind == "open":
                assert view.position.cell(*move.cell) == COVERED, (name, move)
            else:
                assert view.can_bomb, (name, move)
                assert mover is opponent or (name.startswith("hard") and "bomb=off" not in name)
            if mover is player and name == "exact":  # the likeliest mine, certain ones first
                analysis = analyze(view.position)
                top = max(analysis.prob[c] for c in view.position.covered_cells())
                assert analysis.prob[move.cell] == top
            game.play(move)
        assert game.is_over


def test_players_are_deterministic_by_seed():
    rules = Rules(8, 8, 13)
    for name in ["mc", "hard"]:
        records = [
            play_flags(rules, find_flags_player(name), find_flags_player("exact"), seed=9,
                       first=1)
            for _ in range(2)
        ]
        assert records[0].history == records[1].history
        assert records[0].scores == records[1].scores


def test_mc_falls_back_to_naive_density_when_no_board_fits():
    # the 1 has one covered neighbour, so (0, 2) is a mine; one proposal rarely fits
    position = Position.from_text("10x1x1\n01HHHHHHHH\n")
    estimate = naive_density(position)
    assert estimate[2] == 1.0 and estimate[5] == 1 / 8
    for seed in range(10):
        mc = find_flags_player("mc:samples=1,tries=1")
        mc.new_game(seed)
        move = mc.choose(FlagsView(position, 0, (0, 0), (False, False)))
        assert move.cell == (0, 2)


def test_mc_with_one_sampled_board_does_not_claim_a_frequency():
    position = Position.from_text("4x1x1\nHHHH\n")  # any board fits: one sample is kept
    mc = find_flags_player("mc:samples=1")
    mc.new_game(3)
    move = mc.choose(FlagsView(position, 0, (0, 0), (False, False)))
    assert move.reason == "a mine in the one board sampled (a guess, not a certainty)"
    many = find_flags_player("mc:samples=20")
    many.new_game(3)
    assert many.choose(FlagsView(position, 0, (0, 0), (False, False))).reason == (
        "most often a mine in 20 sampled boards")


def test_hard_passes_only_on_cells_that_tell_nothing():
    """A "quiet" cell is safe and shows the same non-zero number in every layout."""
    hard = Hard()
    hard.new_game(1)
    exact = find_flags_player("exact")
    exact.new_game(2)
    found = 0
    for seed in range(6):
        game = FlagsGame(Rules(8, 8, 13), seed=seed)
        while game.turn is not None:
            view = game.view()
            position = view.position
            analysis = analyze(position)
            quiet = hard._quiet_cells(position, analysis)
            layouts = sample_layouts(position, 30, SplitMix64(seed))
            for i in quiet:
                r, c = divmod(i, 8)
                shown = {sum(1 for n in around(r, c, 8, 8) if n[0] * 8 + n[1] in lay)
                         for lay in layouts}
                assert all(i not in lay for lay in layouts)
                assert len(shown) == 1 and 0 not in shown
                found += 1
            game.play(exact.choose(view))
    assert found > 0


# ---------------------------------------------------------------------- one game


def test_play_flags_swaps_nothing_itself_and_records_the_game():
    rules = Rules(6, 6, 7)
    record = play_flags(rules, find_flags_player("exact"), find_flags_player("mc"), seed=4,
                        first=1)
    assert record.first == 1 and record.history[0].player == 1
    assert record.moves == len(record.history)
    assert max(record.scores) >= 4 and record.winner == record.scores.index(max(record.scores))
