"""Minesweeper Flags: the rules, the players, the endgame search, the match runner, the CLI.

The rules are checked against small references written here (neighbour counts, the
flood), the endgame search against a brute-force expectimax that replays real games on
every layout, and the CLI through the real entry point.
"""

from __future__ import annotations

import json
import random
import sqlite3
from fractions import Fraction
from itertools import combinations

import pytest
from conftest import assert_one_error_line, run_cli

from minesolver.bench.store import RunSpec, Store
from minesolver.game import Layout
from minesolver.position import COVERED, FLAG
from minesolver.rng import SplitMix64
from minesolver.rules import Rules
from minesolver.variants.flags import (
    FLAGS,
    FlagsError,
    FlagsGame,
    FlagsMove,
    FlagsView,
    bomb_square,
)
from minesolver.variants.flags_endgame import best_flags_move
from minesolver.variants.flags_match import (
    flags_spec,
    flags_summary,
    pending_flags,
    play_flags,
    run_flags,
)
from minesolver.variants.flags_players import (
    FLAGS_PLAYERS,
    find_flags_player,
    load_flags_players,
)

# ---------------------------------------------------------------------- references


def around(r, c, width, height):
    return [
        (rr, cc)
        for rr in range(r - 1, r + 2)
        for cc in range(c - 1, c + 2)
        if 0 <= rr < height and 0 <= cc < width and (rr, cc) != (r, c)
    ]


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


def game_on(width, height, mines, first=0):
    return FlagsGame.from_layout(Layout.from_cells(width, height, mines), first=first)


# 5x5: mines in a corner and near the opposite one; the top right opens an area
CORNERS = [(0, 0), (3, 3), (4, 4)]


# ---------------------------------------------------------------------- rules


def test_a_mine_scores_and_the_player_moves_again():
    game = game_on(5, 5, CORNERS)
    turn = game.open(0, 0)
    assert turn.claimed == ((0, 0),) and turn.opened == ()
    assert (turn.player, turn.next_turn) == (0, 0)
    assert game.scores == (1, 0) and game.turn == 0
    assert game.owner(0, 0) == 0
    assert game.position().cell(0, 0) == FLAG  # both players see the claimed mine


def test_a_safe_cell_shows_its_number_and_passes_the_turn():
    game = game_on(5, 5, CORNERS)
    turn = game.open(1, 1)
    assert turn.opened == ((1, 1),) and turn.claimed == ()
    assert game.position().number(1, 1) == 1
    assert game.turn == 1 and game.scores == (0, 0)
    game.open(2, 2)  # player 2's safe cell passes the turn back
    assert game.turn == 0


@pytest.mark.parametrize("start", [(0, 4), (4, 0), (1, 3), (2, 0)])
def test_zeros_flood_as_usual(start):
    game = game_on(5, 5, CORNERS)
    turn = game.open(*start)
    expected = ref_flood(set(CORNERS), [start], set(), 5, 5)
    assert set(turn.opened) == expected
    position = game.position()
    for cell in expected:
        assert position.number(*cell) == ref_count(set(CORNERS), cell, 5, 5)
    assert position.covered_count == 25 - len(expected)


def test_the_game_ends_when_a_player_holds_more_than_half():
    game = game_on(5, 5, CORNERS)  # 3 mines: 2 win
    game.open(0, 0)
    assert not game.is_over
    game.open(3, 3)
    assert game.is_over and game.winner == 0 and game.turn is None
    assert game.scores == (2, 0) and game.mines_left == 1  # the last mine is never played
    with pytest.raises(FlagsError, match="the game is over"):
        game.open(4, 4)


def test_the_game_ends_when_the_trailing_player_cannot_catch_up():
    # six mines: 3-3 is still possible at 3-2, so the game goes on; 4-1 is beyond reach
    mines = [(0, 0), (0, 2), (0, 4), (4, 0), (4, 2), (4, 4)]
    game = game_on(5, 5, mines)
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
    other = game_on(5, 5, mines)
    for cell in [(0, 0), (0, 2), (0, 4), (4, 0)]:
        other.open(*cell)
    assert other.is_over and other.winner == 0 and other.scores == (4, 0)


def test_the_bomb_opens_its_square_scores_its_mines_and_passes_the_turn():
    mines = [(0, 0), (1, 1), (2, 3), (3, 2), (5, 5), (6, 0), (6, 3), (0, 6), (6, 2)]
    game = game_on(7, 7, mines)
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
    game = game_on(7, 7, mines)
    with pytest.raises(FlagsError, match="only while behind"):
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
    with pytest.raises(FlagsError, match="already used the bomb"):
        game.bomb(3, 3)


def test_the_bomb_square_is_clipped_at_the_edges():
    assert bomb_square(0, 7, 7) == [r * 7 + c for r in range(3) for c in range(3)]
    assert len(bomb_square(3 * 7 + 3, 7, 7)) == 25
    assert bomb_square(6, 7, 2) == [4, 5, 6, 11, 12, 13]
    mines = [(0, 0), (0, 1), (6, 6), (5, 5)]
    game = game_on(7, 7, mines)
    game.open(6, 6)
    game.open(3, 3)  # P2 behind
    turn = game.bomb(0, 0)
    assert set(turn.claimed) == {(0, 0), (0, 1)}
    assert all(r <= 2 and c <= 2 for r, c in turn.claimed)


def test_a_bomb_on_an_open_square_is_refused():
    game = game_on(7, 7, [(6, 6), (5, 6)])
    game.open(6, 6)
    game.open(0, 0)  # floods the top left
    assert game.position().cell(1, 1) == 0
    with pytest.raises(FlagsError, match="no covered cell"):
        game.bomb(1, 1)
    assert game.bombs_used == (False, False) and game.turn == 1


@pytest.mark.parametrize(
    ("move", "needle"),
    [
        (FlagsMove((5, 0)), "off the 5x5 board"),
        (FlagsMove((0, -1)), "off the 5x5 board"),
        (FlagsMove((1, 1)), "already open"),
        (FlagsMove((0, 0)), "already claimed"),
    ],
)
def test_invalid_moves_raise_flags_errors(move, needle):
    game = game_on(5, 5, CORNERS)
    game.open(0, 0)
    game.open(1, 1)
    with pytest.raises(FlagsError, match=needle) as info:
        game.play(move)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"rules": Rules(5, 5, 3, noise="optimistic")}, "exact clues"),
        ({"rules": Rules(5, 5, 0)}, "at least one mine"),
        ({"first": 2}, "seat 0 or 1"),
    ],
)
def test_unplayable_games_raise_flags_errors(kwargs, needle):
    with pytest.raises(FlagsError, match=needle):
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
    with pytest.raises(FlagsError, match="cannot read move"):
        FlagsMove.from_text(text)


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


def test_state_is_json_and_hides_the_mines_until_the_end():
    game = game_on(5, 5, CORNERS)
    game.open(0, 0)
    game.open(1, 1)
    state = json.loads(json.dumps(game.state()))
    assert state["board"][0][0] == "F" and state["board"][1][1] == "1"
    assert state["claimed"] == [[[0, 0]], []]
    assert state["scores"] == [1, 0] and state["turn"] == 1 and not state["over"]
    assert state["to_win"] == 2 and state["mines_left"] == 2
    assert "mine_cells" not in state
    assert "H" in state["board"][3][3] and "H" in state["board"][4][4]
    assert state["last_move"]["move"] == "1,1" and state["last_move"]["opened"] == [[1, 1]]
    game.open(3, 3)
    game.open(4, 4)
    final = game.state()
    assert final["over"] and final["winner"] == 1 and final["turn"] is None
    assert final["mine_cells"] == [[0, 0], [3, 3], [4, 4]]


def test_the_view_is_what_the_player_to_move_sees():
    game = game_on(5, 5, CORNERS)
    game.open(0, 0)
    game.open(2, 2)
    view = game.view()
    assert view == FlagsView(game.position(), 1, (1, 0), (False, False))
    assert view.can_bomb and view.mines_left == 2 and view.to_win == 2


# ---------------------------------------------------------------------- players

PLAYER_NAMES = ["mc", "mc:samples=20,tries=200", "exact", "hard", "hard:careful=off",
                "hard:bomb=off", "hard:bomb=off,endgame=0", "hard:passes=off",
                "hard:threshold=0.5,candidates=8"]


def test_the_registry_and_options():
    assert set(load_flags_players()) == {"mc", "exact", "hard"}
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
        ("hard:bomb=maybe", "expected bool"),
        ("mc:samples=0", "positive samples"),
    ],
)
def test_bad_player_names(name, needle):
    with pytest.raises(FlagsError, match=needle):
        find_flags_player(name)


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_players_only_make_legal_moves(name):
    """Every move opens a covered cell, or bombs while allowed."""
    from minesolver.analysis import analyze

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
    from minesolver.position import Position
    from minesolver.variants.flags_players import naive_density

    # the 1 has one covered neighbour, so (0, 2) is a mine; one proposal rarely fits
    position = Position.from_text("10x1x1\n01HHHHHHHH\n")
    estimate = naive_density(position)
    assert estimate[2] == 1.0 and estimate[5] == 1 / 8
    for seed in range(10):
        mc = find_flags_player("mc:samples=1,tries=1")
        mc.new_game(seed)
        move = mc.choose(FlagsView(position, 0, (0, 0), (False, False)))
        assert move.cell == (0, 2)


def test_hard_passes_only_on_cells_that_tell_nothing():
    """A "quiet" cell is safe and shows the same non-zero number in every layout."""
    from minesolver.analysis import analyze
    from minesolver.analysis.sampling import sample_layouts
    from minesolver.variants.flags_hard import Hard

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


# ---------------------------------------------------------------------- endgame search


def ref_value(game_moves, layouts, width, height, first, memo):
    """The mover's exact win chance by replaying real games on every layout (no bombs)."""

    def replay(lay, moves):
        game = FlagsGame.from_layout(Layout(width, height, lay), first=first)
        for move in moves:
            game.play(move)
        return game

    now = replay(layouts[0], game_moves)
    key = (frozenset(layouts), now.position().cells, now.scores, now.turn)
    if key in memo:
        return memo[key]
    mover = now.turn
    best = Fraction(-1)
    for cell in sorted(now.position().covered_cells()):
        outcomes: dict[object, list[tuple[int, ...]]] = {}
        for lay in layouts:
            game = replay(lay, [*game_moves, FlagsMove(cell)])
            outcomes.setdefault((game.position().cells, game.scores, game.turn), []).append(lay)
        total = Fraction(0)
        for (_, scores, turn), group in outcomes.items():
            if turn is None:
                mine, theirs = scores[mover], scores[1 - mover]
                win = Fraction(1) if mine > theirs else Fraction(1, 2) if mine == theirs else 0
            else:
                value = ref_value([*game_moves, FlagsMove(cell)], group, width, height, first,
                                  memo)
                win = value if turn == mover else 1 - value
            total += len(group) * win
        best = max(best, total / len(layouts))
    memo[key] = best
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_endgame_search_equals_a_brute_force_expectimax(seed):
    rnd = random.Random(seed)
    width, height = rnd.choice([(3, 2), (4, 2), (2, 4), (5, 1), (7, 1)])
    n = width * height
    mines = rnd.randint(1, 3)
    layout = tuple(sorted(rnd.sample(range(n), mines)))
    game = FlagsGame.from_layout(Layout(width, height, layout), first=rnd.randint(0, 1))
    moves = []
    for _ in range(rnd.randint(0, 2)):  # a few random opening moves
        if game.turn is None:
            break
        move = FlagsMove(rnd.choice(sorted(game.position().covered_cells())))
        game.play(move)
        moves.append(move)
    if game.turn is None:
        return
    position = game.position()
    layouts = [
        lay
        for lay in combinations(range(n), mines)
        if _consistent(lay, position, moves, width, height, game.first)
    ]
    assert layout in layouts
    view = FlagsView(position, game.turn, game.scores, (True, True))
    found = best_flags_move(view, max_layouts=100, budget=10**6)
    assert found is not None
    expected = ref_value(moves, layouts, width, height, game.first, {})
    assert Fraction(found.win_chance).limit_denominator(10**6) == expected


def _consistent(lay, position, moves, width, height, first):
    game = FlagsGame.from_layout(Layout(width, height, lay), first=first)
    try:
        for move in moves:
            game.play(move)
    except FlagsError:  # on this layout an earlier move opened the cell already
        return False
    return game.position() == position


def test_the_endgame_search_gives_up_past_its_budget_or_layouts():
    game = FlagsGame(Rules(6, 6, 9), seed=2)
    assert best_flags_move(game.view(), max_layouts=10) is None  # too many layouts
    small = FlagsGame.from_layout(Layout(4, 2, (0, 5, 6)))
    assert best_flags_move(small.view(), max_layouts=100, budget=1) is None


def test_the_endgame_search_may_drop_the_bomb():
    # P2 trails 0-1; the last two mines hide among four cells of one 5x5 square
    game = game_on(7, 1, [(0, 0), (0, 3), (0, 5)])
    game.open(0, 0)
    game.open(0, 1)  # shows 1: P2 to move
    found = best_flags_move(game.view(), max_layouts=1000, budget=10**6)
    assert found is not None
    assert found.move.kind == "bomb" and found.win_chance == 1.0
    game.play(found.move)
    assert game.winner == 1


# ---------------------------------------------------------------------- match runner


def test_play_flags_swaps_nothing_itself_and_records_the_game():
    rules = Rules(6, 6, 7)
    record = play_flags(rules, find_flags_player("exact"), find_flags_player("mc"), seed=4,
                        first=1)
    assert record.first == 1 and record.history[0].player == 1
    assert record.moves == len(record.history)
    assert max(record.scores) >= 4 and record.winner == record.scores.index(max(record.scores))


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


# ---------------------------------------------------------------------- CLI



def test_cli_match_json_resume_and_report(tmp_path, entry):
    db = str(tmp_path / "flags.sqlite")
    args = ["flags", "--p1", "hard", "--p2", "exact", "--games", "4", "--seed", "3",
            "--rules", "7x7x11", "--db", db, "--workers", "2", "--json"]
    result = run_cli(*args, entry=entry)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["games", "p1_wins", "p2_wins", "p1_win_rate", "ci95"]
    assert data["games"] == 4 and data["p1_wins"] + data["p2_wins"] <= 4
    assert data["p1_win_rate"] == data["p1_wins"] / 4
    lo, hi = data["ci95"]
    assert 0 <= lo <= data["p1_win_rate"] <= hi <= 1
    # kill the run after the fact: drop two games, resume, same figures
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM flags_games WHERE game_index IN (1, 2)")
    resumed = run_cli("flags", "--resume", "r1", "--db", db, "--json", entry=entry)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == data
    report = run_cli("report", "--db", db, entry=entry)
    assert report.returncode == 0, report.stderr
    assert "r1 flags" in report.stdout and "hard (p1) against exact (p2)" in report.stdout
    as_json = json.loads(run_cli("report", "--db", db, "--json", entry=entry).stdout)
    assert as_json["kind"] == "flags" and as_json["p1_wins"] == data["p1_wins"]


def test_cli_table_output(tmp_path):
    result = run_cli("flags", "--p1", "exact", "--p2", "mc:tries=100", "--games", "2",
                     "--rules", "6x6x7", "--db", str(tmp_path / "t.sqlite"), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "p1 exact" in result.stdout and "p2 mc:tries=100" in result.stdout
    assert "stored in" in result.stdout


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--p1", "nope"], ["unknown Flags player 'nope'"]),
        (["--p2", "hard:x=1"], ["no option 'x'"]),
        (["--rules", "3x3x9"], ["9 mines do not fit"]),
        (["--rules", "big"], ["cannot read rules 'big'"]),
        (["--games", "0"], ["--games"]),
        (["--p2", "human"], ["--p2 must be an AI"]),
        (["--resume", "r9"], ["no run 'r9'"]),
        (["--p1", "human", "--resume", "r1"], ["cannot be resumed"]),
    ],
)
def test_cli_errors_are_one_line(args, needles, tmp_path):
    result = run_cli("flags", "--db", str(tmp_path / "e.sqlite"), *args)
    assert_one_error_line(result, *needles)


def test_cli_resume_refuses_other_kinds_of_run(tmp_path):
    db = str(tmp_path / "mixed.sqlite")
    with Store(db) as store:
        store.new_run("bench", RunSpec(rules="9x9x10", first_click="safe", start="corner",
                                       strategies=("tank",), games=1, seed=1), "test")
    assert_one_error_line(run_cli("flags", "--resume", "r1", "--db", db), "not a flags run")
    played = run_cli("flags", "--p1", "exact", "--p2", "exact", "--games", "2", "--rules",
                     "5x5x5", "--db", db, "--workers", "1", "--json")
    assert played.returncode == 0, played.stderr
    report = run_cli("report", "--db", db)  # both kinds of run, each in its own form
    assert report.returncode == 0, report.stderr
    assert "r1 bench" in report.stdout and "r2 flags" in report.stdout


def human(*lines, seed=11, rules="5x5x5", extra=()):
    return run_cli("flags", "--p1", "human", "--p2", "exact", "--rules", rules, "--seed",
                   str(seed), *extra, input="".join(f"{line}\n" for line in lines))


def test_human_plays_through_stdin_to_the_end():
    every = [f"{r},{c}" for r in range(5) for c in range(5)]
    result = human("hello", "9,9", "bomb 2,2", *every)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "invalid move: cannot read move 'hello'" in out
    assert "invalid move: cell (9, 9) is off the 5x5 board" in out
    assert "invalid move: P1 may bomb only while behind" in out
    assert "game over:" in out
    assert "Traceback" not in result.stderr
    # the board has row and column numbers, and the AI's moves are described
    assert "  0  1  2  3  4" in out and "P2 (exact) opens" in out


def test_human_quit_and_end_of_input_end_cleanly():
    quit_ = human("quit")
    assert quit_.returncode == 0 and "game abandoned" in quit_.stdout
    eof = human()
    assert eof.returncode == 0 and "end of input" in eof.stdout
    assert not eof.stderr


def test_human_moves_second_when_asked():
    result = human(extra=("--first", "p2"))
    assert result.returncode == 0
    out = result.stdout
    assert out.index("P2 (exact) opens") < out.index("your move")
