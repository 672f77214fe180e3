"""The Flags endgame search against a brute-force expectimax that replays real games on
every layout."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from support import flags_game_on

from minesolver.minefield import Layout
from minesolver.rules import Rules
from minesolver.variants.flags import FlagsError, FlagsGame, FlagsMove, FlagsView, best_flags_move

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
    game = flags_game_on(7, 1, [(0, 0), (0, 3), (0, 5)])
    game.open(0, 0)
    game.open(0, 1)  # shows 1: P2 to move
    found = best_flags_move(game.view(), max_layouts=1000, budget=10**6)
    assert found is not None
    assert found.move.kind == "bomb" and found.win_chance == 1.0
    game.play(found.move)
    assert game.winner == 1
