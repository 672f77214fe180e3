"""Minesweeper Flags, the game: claiming, flooding, the bomb, the end, errors, the view.

The rules are checked against small references written here (neighbour counts, the
flood).
"""

from __future__ import annotations

import pytest
from support import around, flags_game_on

from minesolver.codes import COVERED, FLAG
from minesolver.errors import GameOverError, IllegalMoveError, InputError, OffBoardError
from minesolver.minefield import Layout
from minesolver.rng import SplitMix64
from minesolver.rules import Rules
from minesolver.variants.flags import (
    FLAGS,
    FlagsError,
    FlagsGame,
    FlagsMove,
    FlagsMoveError,
    FlagsOverError,
    FlagsSetupError,
    FlagsView,
    bomb_square,
)

# ---------------------------------------------------------------------- references


def ref_count(mines, cell, width, height):
    return sum(n in mines for n in around(*cell, width, height))


def ref_flood(mines, starts, already, width, height):
    """Safe cells opened from ``starts``: zeros spread to covered neighbours."""
    opened = set(starts)
    stack = list(starts)
    while stack:
        cell = stack.pop()
        if ref_count(mines, cell, width, height) == 0:
            for n in around(*cell, width, height):
                if n not in opened and n not in already:
                    opened.add(n)
                    stack.append(n)
    return opened


# 5x5: mines in a corner and near the opposite one; the top right opens an area
CORNERS = [(0, 0), (3, 3), (4, 4)]


# ---------------------------------------------------------------------- rules


def test_a_mine_scores_and_the_player_moves_again():
    game = flags_game_on(5, 5, CORNERS)
    turn = game.open(0, 0)
    assert turn.claimed == ((0, 0),) and turn.opened == ()
    assert (turn.player, turn.next_turn) == (0, 0)
    assert game.scores == (1, 0) and game.turn == 0
    assert game.owner(0, 0) == 0
    assert game.position().cell(0, 0) == FLAG  # both players see the claimed mine


def test_a_safe_cell_shows_its_number_and_passes_the_turn():
    game = flags_game_on(5, 5, CORNERS)
    turn = game.open(1, 1)
    assert turn.opened == ((1, 1),) and turn.claimed == ()
    assert game.position().number(1, 1) == 1
    assert game.turn == 1 and game.scores == (0, 0)
    game.open(2, 2)  # player 2's safe cell passes the turn back
    assert game.turn == 0


@pytest.mark.parametrize("start", [(0, 4), (4, 0), (1, 3), (2, 0)])
def test_zeros_flood_as_usual(start):
    game = flags_game_on(5, 5, CORNERS)
    turn = game.open(*start)
    expected = ref_flood(set(CORNERS), [start], set(), 5, 5)
    assert set(turn.opened) == expected
    position = game.position()
    for cell in expected:
        assert position.number(*cell) == ref_count(set(CORNERS), cell, 5, 5)
    assert position.covered_count == 25 - len(expected)


def test_the_game_ends_when_a_player_holds_more_than_half():
    game = flags_game_on(5, 5, CORNERS)  # 3 mines: 2 win
    game.open(0, 0)
    assert not game.is_over
    game.open(3, 3)
    assert game.is_over and game.winner == 0 and game.turn is None
    assert game.scores == (2, 0) and game.mines_left == 1  # the last mine is never played
    with pytest.raises(FlagsOverError, match="the game is over"):
        game.open(4, 4)
    with pytest.raises(FlagsOverError, match="nobody is to move"):
        game.view()


def test_the_game_ends_when_the_trailing_player_cannot_catch_up():
    # six mines: 3-3 is still possible at 3-2, so the game goes on; 4-1 is beyond reach
    mines = [(0, 0), (0, 2), (0, 4), (4, 0), (4, 2), (4, 4)]
    game = flags_game_on(5, 5, mines)
    game.open(1, 1)  # safe: P2 to move
    game.open(0, 0)
    game.open(0, 2)
    game.open(1, 3)  # P2 safe: P1 to move
    game.open(0, 4)
    game.open(4, 0)
    game.open(4, 2)  # P1 3-2: P2 can still draw
    assert game.scores == (3, 2) and not game.is_over
    game.open(3, 1)  # P1 safe: P2 to move
    game.open(4, 4)
    assert game.is_over and game.is_draw and game.winner is None and game.scores == (3, 3)
    other = flags_game_on(5, 5, mines)
    for cell in [(0, 0), (0, 2), (0, 4), (4, 0)]:
        other.open(*cell)
    assert other.is_over and other.winner == 0 and other.scores == (4, 0)


def test_the_bomb_opens_its_square_scores_its_mines_and_passes_the_turn():
    mines = [(0, 0), (1, 1), (2, 3), (3, 2), (5, 5), (6, 0), (6, 3), (0, 6), (6, 2)]
    game = flags_game_on(7, 7, mines)
    game.open(0, 0)  # P1 1-0
    game.open(6, 6)  # safe: P2 to move, behind
    assert game.can_bomb(1) and not game.can_bomb(0)
    covered_before = {
        (r, c) for r in range(7) for c in range(7) if game.position().cell(r, c) == COVERED
    }
    turn = game.bomb(3, 3)
    square = {(r, c) for r in range(1, 6) for c in range(1, 6)}
    in_square = square & covered_before
    assert set(turn.claimed) == in_square & set(mines) == {(1, 1), (2, 3), (3, 2), (5, 5)}
    starts = sorted(in_square - set(mines))
    everything = {(r, c) for r in range(7) for c in range(7)}
    already = (everything - covered_before) | set(turn.claimed)
    assert set(turn.opened) == ref_flood(set(mines), starts, already, 7, 7)
    assert game.scores == (1, 4) and game.turn == 0 and game.bombs_used == (False, True)
    assert all(game.owner(*cell) == 1 for cell in turn.claimed)
    assert turn.move == FlagsMove((3, 3), "bomb")


def test_the_bomb_once_and_only_while_behind():
    mines = [(0, 0), (0, 6), (6, 0), (6, 6), (6, 3)]
    game = flags_game_on(7, 7, mines)
    with pytest.raises(FlagsMoveError, match="only while behind"):
        game.bomb(3, 3)  # 0-0 is not behind
    game.open(0, 0)
    game.open(3, 3)  # a zero: floods, P2 to move at 0-1
    assert game.can_bomb(1)
    game.bomb(6, 6)  # claims (6, 6) at least: 1-1 or better, P1 to move
    assert game.bombs_used == (False, True) and game.turn == 0
    while game.scores[0] <= game.scores[1]:  # P1 takes the lead
        game.open(*next(m for m in mines if game.position().cell(*m) == COVERED))
    safe = next(c for c in game.position().covered_cells() if c not in mines)
    game.open(*safe)  # P2 to move, behind again
    assert game.turn == 1 and not game.can_bomb(1)
    with pytest.raises(FlagsMoveError, match="already used the bomb"):
        game.bomb(3, 3)


def test_the_bomb_square_is_clipped_at_the_edges():
    assert bomb_square(0, 7, 7) == [r * 7 + c for r in range(3) for c in range(3)]
    assert len(bomb_square(3 * 7 + 3, 7, 7)) == 25
    assert bomb_square(6, 7, 2) == [4, 5, 6, 11, 12, 13]
    mines = [(0, 0), (0, 1), (6, 6), (5, 5)]
    game = flags_game_on(7, 7, mines)
    game.open(6, 6)
    game.open(3, 3)  # P2 behind
    turn = game.bomb(0, 0)
    assert set(turn.claimed) == {(0, 0), (0, 1)}
    assert all(r <= 2 and c <= 2 for r, c in turn.claimed)


def test_a_bomb_on_an_open_square_is_refused():
    game = flags_game_on(7, 7, [(6, 6), (5, 6)])
    game.open(6, 6)
    game.open(0, 0)  # floods the top left
    assert game.position().cell(1, 1) == 0
    with pytest.raises(FlagsMoveError, match="no covered cell"):
        game.bomb(1, 1)
    assert game.bombs_used == (False, False) and game.turn == 1


@pytest.mark.parametrize(
    ("move", "error", "needle"),
    [
        (FlagsMove((5, 0)), OffBoardError, r"cell \(5, 0\) is off the 5x5 board"),
        (FlagsMove((0, -1)), OffBoardError, r"cell \(0, -1\) is off the 5x5 board"),
        (FlagsMove((5, 0), "bomb"), OffBoardError, "off the 5x5 board"),
        (FlagsMove((1, 1)), FlagsMoveError, "already open"),
        (FlagsMove((0, 0)), FlagsMoveError, "already claimed"),
    ],
)
def test_invalid_moves_raise_and_change_nothing(move, error, needle):
    game = flags_game_on(5, 5, CORNERS)
    game.open(0, 0)
    game.open(1, 1)
    before = (game.position(), game.scores, game.turn, len(game.history))
    with pytest.raises(error, match=needle) as info:
        game.play(move)
    assert isinstance(info.value, ValueError)
    # off the board is an input error (as everywhere), an open cell an illegal move
    assert isinstance(info.value, InputError if error is OffBoardError else IllegalMoveError)
    assert (game.position(), game.scores, game.turn, len(game.history)) == before


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"rules": Rules(5, 5, 3, noise="optimistic")}, "exact clues"),
        ({"rules": Rules(5, 5, 0)}, "at least one mine"),
        ({"first": 2}, "seat 0 or 1"),
    ],
)
def test_unplayable_games_raise_setup_errors(kwargs, needle):
    with pytest.raises(FlagsSetupError, match=needle):
        FlagsGame(**{"rules": Rules(5, 5, 3), "seed": 1, **kwargs})


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3,4", FlagsMove((3, 4))),
        (" (3, 4) ", FlagsMove((3, 4))),
        ("3 4", FlagsMove((3, 4))),
        ("bomb 10,2", FlagsMove((10, 2), "bomb")),
        ("B 1,1", FlagsMove((1, 1), "bomb")),
    ],
)
def test_move_text_round_trips(text, move):
    assert FlagsMove.from_text(text) == move
    assert FlagsMove.from_text(move.text()) == move


@pytest.mark.parametrize("text", ["", "3", "a,b", "bomb", "open 3,4", "3,4,5", "-1,2"])
def test_unreadable_moves(text):
    with pytest.raises(FlagsSetupError, match="cannot read move"):
        FlagsMove.from_text(text)


def test_a_long_unreadable_move_is_named_not_echoed():
    with pytest.raises(FlagsSetupError) as info:
        FlagsMove.from_text("x" * 10_000)
    assert "(10000 characters)" in str(info.value) and len(str(info.value)) < 200


def test_seeded_boards_are_splitmix_samples_without_first_click_protection():
    game = FlagsGame(seed=12345)
    assert game.rules == FLAGS and game.rules.first_click == "none"
    assert game.layout.mines == tuple(sorted(SplitMix64(12345).sample(256, 51)))
    assert FlagsGame(seed=12345).layout == game.layout
    assert FlagsGame(seed=12346).layout != game.layout
    # the first-click rule of the rules given is dropped: mines are laid before any click
    assert FlagsGame(Rules(9, 9, 10), seed=4).rules.first_click == "none"
    # over many boards every cell holds a mine sometimes, the corner included
    corner = sum(FlagsGame(Rules(4, 4, 4), seed=s).layout.mines[0] == 0 for s in range(400))
    assert 60 < corner < 140  # 1/4 expected


def test_the_view_is_what_the_player_to_move_sees():
    game = flags_game_on(5, 5, CORNERS)
    game.open(0, 0)
    game.open(2, 2)
    view = game.view()
    assert view == FlagsView(game.position(), 1, (1, 0), (False, False))
    assert view.can_bomb and view.mines_left == 2 and view.to_win == 2


def test_a_game_on_a_given_layout():
    layout = Layout.from_cells(4, 4, [(0, 0), (3, 3)])
    game = FlagsGame(Rules(4, 4, 2, first_click="safe"), seed=9, first=1, layout=layout)
    assert game.layout == layout and game.seed == 9 and game.turn == 1
    assert game.rules == Rules(4, 4, 2, first_click="none")
    same = FlagsGame.from_layout(layout, first=1)
    assert same.layout == layout and same.turn == 1


def test_claimed_lists_each_seats_mines():
    game = flags_game_on(5, 5, [(0, 0), (0, 4), (4, 0), (4, 4), (2, 2)])
    assert game.claimed(0) == game.claimed(1) == []
    game.open(4, 4)
    game.open(0, 0)
    game.open(1, 1)  # safe: P2 to move
    game.open(2, 2)
    assert game.claimed(0) == [(0, 0), (4, 4)]  # row-major, not in the order claimed
    assert game.claimed(1) == [(2, 2)]
    assert [game.owner(*cell) for cell in [(0, 0), (2, 2), (0, 4)]] == [0, 1, None]


def test_the_flags_errors_are_the_core_kinds():
    assert issubclass(FlagsSetupError, InputError)
    assert issubclass(FlagsMoveError, IllegalMoveError)
    assert issubclass(FlagsOverError, GameOverError) and issubclass(FlagsOverError, FlagsMoveError)
    for cls in (FlagsSetupError, FlagsMoveError, FlagsOverError):
        assert issubclass(cls, FlagsError) and issubclass(cls, ValueError)


def test_a_move_never_shows_an_uncertain_chance_as_certain():
    # a 99.97% mine read "at 100.0% → safe" in the web app's log
    from minesolver.variants.flags import FlagsMove

    assert FlagsMove((0, 0), reason="likeliest mine", probability=0.9997).describe() == (
        "open (0, 0): likeliest mine at 99.97%")
    assert FlagsMove((0, 0), reason="certain mine", probability=1.0).describe() == (
        "open (0, 0): certain mine at 100.0%")
