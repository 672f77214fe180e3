"""Game: seeded generation, first-click guarantees, reveal / flag / chord, end states, 3BV."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from support import around, layout_from_rows, random_layout, ref_bbbv, ref_counts, ref_flood

from minesolver import EXPERT, Game, GameError, Layout, Rules
from minesolver.codes import COVERED, FLAG
from minesolver.errors import GameOverError, IllegalMoveError, OffBoardError
from minesolver.game import protected_cells
from minesolver.rng import SplitMix64

# ---------------------------------------------------------------------- seeded boards


def test_same_seed_same_layout():
    for seed in (0, 1, 12345, 2**64 - 1):  # past it a seed is refused, not wrapped
        a, b = Game(EXPERT, seed=seed), Game(EXPERT, seed=seed)
        a.reveal(7, 11)
        b.reveal(7, 11)
        assert a.layout == b.layout
        assert a.position() == b.position()
    layouts = set()
    for seed in range(20):
        game = Game(EXPERT, seed=seed)
        game.reveal(0, 0)
        layouts.add(game.layout)
    assert len(layouts) == 20


def test_layout_follows_the_documented_construction():
    # game.py documents: SplitMix64(seed).sample(n, mines) picks slots among the cells
    # the first click leaves unprotected, in row-major order
    for first_click in ("none", "safe", "opening"):
        rules = Rules(12, 9, 30, first_click=first_click)
        for seed in range(10):
            first = (seed % 9, (seed * 5) % 12)
            index = first[0] * 12 + first[1]
            free = [i for i in range(rules.cells) if i not in protected_cells(rules, index)]
            slots = SplitMix64(seed).sample(len(free), rules.mines)
            expected = tuple(sorted(free[s] for s in slots))
            game = Game(rules, seed=seed)
            game.reveal(*first)
            assert game.layout == Layout(12, 9, expected)


def test_same_seed_same_layout_in_a_fresh_process():
    code = (
        "import json\n"
        "from minesolver import EXPERT, Game\n"
        "g = Game(EXPERT, seed=987654321)\n"
        "g.reveal(8, 15)\n"
        "print(json.dumps(list(g.layout.mines)))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    game = Game(EXPERT, seed=987654321)
    game.reveal(8, 15)
    assert json.loads(out.stdout) == list(game.layout.mines)


def test_random_seed_when_none_given():
    game = Game(EXPERT)
    assert isinstance(game.seed, int)
    assert game.status == "ready"
    assert game.layout is None


def test_mine_count_is_exact():
    cases = [
        Rules(9, 9, 10),
        Rules(30, 16, 99),
        Rules(8, 8, 63),
        Rules(5, 5, 0),
        Rules(6, 6, 27, first_click="opening"),
        Rules(4, 4, 15, first_click="none"),
        Rules(1, 7, 4, first_click="opening"),
    ]
    for rules in cases:
        for seed in range(25):
            game = Game(rules, seed=seed)
            game.reveal(seed % rules.height, seed % rules.width)
            assert len(game.layout.mines) == rules.mines
            assert game.position().mines == rules.mines


# ---------------------------------------------------------------------- first click


def test_first_click_safe():
    rules = Rules(8, 8, 60)  # dense: only 4 safe cells
    for seed in range(300):
        cell = (seed % 8, (seed // 8) % 8)
        game = Game(rules, seed=seed)
        game.reveal(*cell)
        assert not game.is_mine(*cell)
        assert game.status != "lost"
        assert game.first_click == cell


def test_first_click_safe_at_most_mines():
    for seed in range(50):
        game = Game(Rules(4, 4, 15), seed=seed)
        assert game.reveal(2, 1) == [(2, 1)]
        assert game.status == "won"


def test_first_click_opening():
    rules = Rules(8, 8, 40, first_click="opening")
    for seed in range(300):
        cell = (seed % 8, (seed // 8) % 8)
        game = Game(rules, seed=seed)
        opened = game.reveal(*cell)
        zone = [cell, *[nb for nb in around(*cell, 8, 8)]]
        assert not any(game.is_mine(*z) for z in zone)
        assert game.number(*cell) == 0
        assert set(zone) <= set(opened)
        assert len(opened) > 1


def test_first_click_opening_on_narrow_boards():
    for rules, cell in [
        (Rules(7, 1, 4, first_click="opening"), (0, 3)),
        (Rules(1, 6, 3, first_click="opening"), (0, 0)),
        (Rules(2, 5, 4, first_click="opening"), (2, 1)),
        (Rules(4, 4, 7, first_click="opening"), (1, 1)),
    ]:
        for seed in range(100):
            game = Game(rules, seed=seed)
            opened = game.reveal(*cell)
            zone = [cell, *around(*cell, rules.width, rules.height)]
            assert not any(game.is_mine(*z) for z in zone)
            assert set(zone) <= set(opened)
            assert len(opened) > 1


def test_first_click_none_can_hit_a_mine():
    rules = Rules(5, 5, 20, first_click="none")
    lost = 0
    for seed in range(200):
        game = Game(rules, seed=seed)
        game.reveal(2, 2)
        lost += game.status == "lost"
        if game.status == "lost":
            assert game.exploded == (2, 2)
    assert 100 < lost < 200  # each cell is a mine 80% of the time


def test_uniform_layouts_on_a_tiny_board():
    draws = 4000
    counts = Counter()
    for seed in range(draws):
        game = Game(Rules(2, 2, 1, first_click="none"), seed=seed)
        game.reveal(0, 0)
        (mine,) = game.layout.mines
        counts[mine] += 1
    assert set(counts) == {0, 1, 2, 3}
    chi2 = sum((counts[k] - draws / 4) ** 2 / (draws / 4) for k in range(4))
    assert chi2 < 25  # 3 degrees of freedom


def test_uniform_layouts_with_protection():
    draws = 3000
    safe = Counter()
    opening = Counter()
    for seed in range(draws):
        game = Game(Rules(2, 2, 1), seed=seed)
        game.reveal(0, 0)
        safe[game.layout.mines[0]] += 1
        game = Game(Rules(4, 1, 1, first_click="opening"), seed=seed)
        game.reveal(0, 0)
        opening[game.layout.mines[0]] += 1
    assert set(safe) == {1, 2, 3}
    assert all(abs(safe[k] / draws - 1 / 3) < 0.04 for k in safe)
    assert set(opening) == {2, 3}
    assert abs(opening[2] / draws - 1 / 2) < 0.04


# ---------------------------------------------------------------------- reveal


def test_flood_fill_matches_reference():
    rng = random.Random(2024)
    checked = 0
    for _ in range(300):
        layout = random_layout(rng)
        mines = set(layout.mine_cells())
        safe = [
            (r, c) for r in range(layout.height) for c in range(layout.width) if (r, c) not in mines
        ]
        if not safe:
            continue
        start = rng.choice(safe)
        game = Game.from_layout(layout)
        opened = game.reveal(*start)
        expected = ref_flood(layout, start)
        assert opened[0] == start
        assert len(opened) == len(set(opened))
        assert set(opened) == expected
        checked += 1
        counts = ref_counts(layout)
        position = game.position()
        for r in range(layout.height):
            for c in range(layout.width):
                if (r, c) in expected:
                    assert position.number(r, c) == counts[(r, c)] == game.number(r, c)
                else:
                    assert position.cell(r, c) == COVERED
        assert game.safe_left == len(safe) - len(expected)
        assert game.status == ("won" if game.safe_left == 0 else "playing")
    assert checked > 250


def test_reveal_open_cell_does_nothing():
    game = Game.from_layout(layout_from_rows("*..", "...", "..."))
    opened = game.reveal(2, 2)
    assert set(opened) == {(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert game.status == "won"
    game = Game.from_layout(layout_from_rows("*..", ".*.", "..."))
    assert game.reveal(0, 1) == [(0, 1)]
    clicks = game.clicks
    assert game.reveal(0, 1) == []
    assert game.clicks == clicks


def test_lost_on_a_mine():
    game = Game.from_layout(layout_from_rows("*..", "...", "..*"))
    assert game.reveal(0, 0) == [(0, 0)]
    assert game.status == "lost"
    assert game.is_lost and game.is_over and not game.is_won
    assert game.exploded == (0, 0)


def test_won_when_every_safe_cell_is_open():
    game = Game.from_layout(layout_from_rows("*.*", "...", "*.*"))
    for cell in [(0, 1), (1, 0), (1, 1), (1, 2)]:
        game.reveal(*cell)
        assert game.status == "playing"
    assert game.safe_left == 1
    game.reveal(2, 1)
    assert game.status == "won"
    assert game.is_won and game.is_over and not game.is_lost
    assert game.safe_left == 0


def test_moves_after_the_end_raise():
    for finish in ((0, 0), (0, 1)):  # lose, win
        game = Game.from_layout(layout_from_rows("*."))
        game.reveal(*finish)
        assert game.is_over
        for move in (game.reveal, game.flag, game.unflag, game.toggle_flag, game.chord):
            with pytest.raises(GameOverError, match="the game is over"):
                move(0, 0)
    assert issubclass(GameOverError, IllegalMoveError)
    assert issubclass(GameError, IllegalMoveError)


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (3, 0), (0, 4), (10, 10), (1.5, 0), ("0", 0)])
def test_off_board_cells_raise(cell):
    game = Game.from_layout(Layout(4, 3, (0,)))
    for move in (
        game.reveal,
        game.flag,
        game.unflag,
        game.toggle_flag,
        game.chord,
        game.is_revealed,
        game.is_flagged,
        game.is_mine,
        game.number,
    ):
        with pytest.raises(OffBoardError, match="off the 4x3 board"):
            move(*cell)
    assert issubclass(OffBoardError, IndexError)
    assert issubclass(OffBoardError, ValueError)
    assert issubclass(GameError, ValueError)


def test_no_layout_before_the_first_click():
    game = Game(Rules(5, 5, 5), seed=1)
    assert game.status == "ready"
    assert game.layout is None
    for query in (lambda: game.is_mine(0, 0), game.bbbv, lambda: game.number(0, 0)):
        with pytest.raises(GameError, match="before the first click"):
            query()
    assert game.position().is_blank()


# ---------------------------------------------------------------------- flags and chords


def test_flag_unflag_toggle():
    game = Game.from_layout(layout_from_rows("*..", "...", "..."))
    assert game.flag(0, 0) is True
    assert game.is_flagged(0, 0)
    assert game.flag(0, 0) is False  # already flagged
    assert game.position().cell(0, 0) == FLAG
    assert game.unflag(0, 0) is True
    assert game.unflag(0, 0) is False
    assert not game.is_flagged(0, 0)
    assert game.toggle_flag(1, 1) is True
    assert game.is_flagged(1, 1)
    assert game.toggle_flag(1, 1) is False
    assert not game.is_flagged(1, 1)
    assert game.position().cell(1, 1) == COVERED


def test_revealing_a_flagged_cell_does_nothing():
    game = Game.from_layout(layout_from_rows("*..", "...", "..."))
    game.flag(0, 0)
    assert game.reveal(0, 0) == []
    assert game.status == "ready"
    game.flag(2, 2)
    assert game.reveal(2, 2) == []
    assert not game.is_revealed(2, 2)
    assert game.is_flagged(2, 2)


def test_open_cells_cannot_be_flagged():
    game = Game.from_layout(layout_from_rows("*..", ".*.", "..."))
    game.reveal(2, 2)
    assert game.flag(2, 2) is False
    assert game.toggle_flag(2, 2) is False
    assert not game.is_flagged(2, 2)


def test_chord_opens_unflagged_neighbours_when_flags_match():
    game = Game.from_layout(layout_from_rows("*..", "...", "..*"))
    game.reveal(1, 1)  # shows 2
    assert game.number(1, 1) == 2
    assert game.chord(1, 1) == []  # no flags yet
    game.flag(0, 0)
    assert game.chord(1, 1) == []  # one flag for a 2
    game.flag(2, 2)
    opened = game.chord(1, 1)
    assert set(opened) == {(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)}
    assert game.status == "won"


def test_chord_with_too_many_flags_does_nothing():
    game = Game.from_layout(layout_from_rows("*..", "...", "..."))
    game.reveal(1, 1)
    game.flag(0, 0)
    game.flag(0, 1)
    assert game.chord(1, 1) == []
    assert game.status == "playing"


def test_chord_with_a_wrong_flag_loses():
    game = Game.from_layout(layout_from_rows("*..", "...", "..."))
    game.reveal(1, 1)
    game.flag(2, 2)  # wrong: the mine is at (0, 0)
    opened = game.chord(1, 1)
    assert (0, 0) in opened
    assert game.status == "lost"
    assert game.exploded == (0, 0)
    assert game.is_flagged(2, 2)


def test_chord_floods_zeros():
    game = Game.from_layout(layout_from_rows("*....", "*....", ".....", "....."))
    game.reveal(0, 1)
    game.flag(0, 0)
    game.flag(1, 0)
    assert game.number(0, 1) == 2
    opened = game.chord(0, 1)
    assert (3, 4) in opened  # (0, 2) is a zero and floods the board
    assert game.status == "won"


def test_chord_on_a_covered_cell_or_a_settled_number_does_nothing():
    game = Game.from_layout(layout_from_rows("*...", "....", "...*"))
    assert game.chord(1, 1) == []  # covered, nothing opened yet
    assert game.status == "ready" and game.clicks == 0
    game.reveal(0, 3)  # a zero: floods to the numbers around (0, 0) and (2, 3)
    game.flag(0, 0)
    assert game.chord(0, 1) == [(1, 0)]
    clicks = game.clicks
    assert game.chord(0, 1) == []  # nothing left to open around it
    assert game.chord(0, 3) == []  # an open zero
    assert game.clicks == clicks
    assert game.status == "playing"


@pytest.mark.parametrize("noise", ["optimistic", "cautious", "withheld:0.5"])
def test_chord_in_a_noisy_game_goes_by_the_number_shown(noise):
    # it went by the true count: a chord that worked told the player the hidden number
    from minesolver.codes import BLANK

    acted = {True: 0, False: 0}
    for seed in range(60):
        game = Game.from_layout(Layout(3, 3, (0, 1)), noise=noise, seed=seed)
        game.reveal(1, 1)  # true count 2
        game.flag(0, 0)
        game.flag(0, 1)
        shown = game.position().cells[4]
        opened = game.chord(1, 1)
        assert bool(opened) == (shown == 2), (seed, shown)
        assert shown != BLANK or not opened
        acted[bool(opened)] += 1
    assert acted[False] > 0 and acted[True] > 0  # both happen


# ---------------------------------------------------------------------- 3BV


@pytest.mark.parametrize(
    ("rows", "bbbv"),
    [
        (("..*",), 1),  # 0 1 * : one opening holds the 1
        ((".",), 1),
        (("..*..",), 2),  # two openings
        (("*..*",), 2),  # two lonely numbers
        (("...", ".*.", "..."), 8),  # every safe cell is a lonely 1
        (("*..", "...", "..*"), 2),  # the zeros (0, 2) and (2, 0) open every number
        (("*....", ".....", ".....", ".....", "....."), 1),
        (("*.*.*",), 2),  # two lonely 2s
        ((".*.", "...", ".*."), 7),  # no zeros: seven lonely numbers
    ],
)
def test_bbbv_by_hand(rows, bbbv):
    layout = layout_from_rows(*rows)
    assert Game.from_layout(layout).bbbv() == bbbv
    assert ref_bbbv(layout) == bbbv


def test_bbbv_matches_reference():
    rng = random.Random(77)
    for _ in range(300):
        layout = random_layout(rng, max_side=15)
        assert Game.from_layout(layout).bbbv() == ref_bbbv(layout)


def test_bbbv_is_the_clicks_to_win_without_chords():
    # opening every zero area once and then each lonely number wins in exactly 3BV clicks
    rng = random.Random(5)
    for _ in range(50):
        layout = random_layout(rng)
        game = Game.from_layout(layout)
        counts = ref_counts(layout)
        mines = set(layout.mine_cells())
        zeros = [c for c, n in counts.items() if n == 0 and c not in mines]
        for cell in zeros + sorted(c for c in counts if c not in mines):
            if not game.is_revealed(*cell):
                game.reveal(*cell)
        assert game.status == "won"
        assert game.clicks == game.bbbv()


# ---------------------------------------------------------------------- big boards


def test_huge_board():
    game = Game(Rules(2000, 2000, 400000), seed=1)
    opened = game.reveal(1000, 1000)
    assert opened[0] == (1000, 1000)
    assert game.status in ("playing", "won")
    assert not game.is_mine(1000, 1000)
    assert game.number(1000, 1000) == sum(
        game.is_mine(*nb) for nb in around(1000, 1000, 2000, 2000)
    )


# ---------------------------------------------------------------------- misc


def test_from_layout_records_the_rules():
    game = Game.from_layout(Layout(4, 4, (0, 5)), first_click="opening")
    assert game.rules == Rules(4, 4, 2, first_click="opening")
    assert game.status == "ready"
    assert game.layout == Layout(4, 4, (0, 5))
