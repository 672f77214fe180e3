"""The exact engine against the brute-force oracle (our perft), and inconsistent positions.

Positions come from random layouts, so they are consistent unless a test breaks them on
purpose.  The engine must equal the oracle exactly: the same layout count and the same
Fraction for every cell.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from support import arbitrary_positions, consistent_positions

from minesolver import Game, Position, Rules
from minesolver.analysis import Engine, InconsistentPositionError, analyze, brute_force
from minesolver.codes import COVERED, FLAG, MINE

SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------- checks


def assert_matches_oracle(position, analysis, total, probs):
    assert analysis.solutions == total
    w = position.width
    for i, expected in enumerate(probs):
        r, c = divmod(i, w)
        got = analysis.probability(r, c)
        assert got == expected, f"cell {(r, c)}: engine {got}, oracle {expected}\n{position}"
        assert analysis.prob[r, c] == float(expected)
        assert Fraction(*analysis.exact(i)) == expected
    cells = position.cells
    safe = [divmod(i, w) for i, p in enumerate(probs) if p == 0 and cells[i] == COVERED]
    mines = [
        divmod(i, w) for i, p in enumerate(probs) if p == 1 and cells[i] in (COVERED, FLAG, MINE)
    ]
    assert analysis.safe == safe
    assert analysis.mines == mines
    # every layout has exactly `mines` mines, so the probabilities add up to it
    assert sum(probs) == position.mines


@given(consistent_positions())
@SETTINGS
def test_engine_equals_oracle(position):
    total, probs = brute_force(position)
    assert total > 0  # the true layout is one of them
    analysis = analyze(position)
    assert_matches_oracle(position, analysis, total, probs)


@given(arbitrary_positions())
@SETTINGS
def test_engine_equals_oracle_or_reports_inconsistency(position):
    total, probs = brute_force(position)
    if total == 0:
        with pytest.raises(InconsistentPositionError) as info:
            analyze(position)
        clue = info.value.clue
        assert str(info.value)
        if clue is not None:
            assert position.number(*clue) is not None, f"{clue} is not a clue\n{position}"
            assert f"({clue[0]}, {clue[1]})" in str(info.value)
    else:
        assert_matches_oracle(position, analyze(position), total, probs)


# ---------------------------------------------------------------------- hand-made cases


@given(consistent_positions())
@SETTINGS
def test_the_chance_of_each_number_a_cell_may_show_is_the_oracles(position):
    # P(safe and shows v) = the layouts of the position where it shows v over this one's
    total, _ = brute_force(position)
    engine = Engine(position)
    for cell in list(position.covered_cells())[:4]:
        i = position.index(*cell)
        for outcome in engine.outcomes(cell):
            shown = position.with_cells([(i, outcome.shown)])
            count, _ = brute_force(shown)
            assert outcome.probability == Fraction(count, total), (cell, outcome.shown)


def test_two_clues_sharing_cells():
    analysis = analyze(Position.from_text("3x3x2\nHHH\n2H2\nHHH\n"))
    assert analysis.solutions == 3  # two of the three middle-column cells
    assert analysis.probability(1, 1) == Fraction(2, 3)
    assert analysis.probability(0, 1) == Fraction(2, 3)
    assert analysis.probability(0, 0) == 0
    assert analysis.safe == [(0, 0), (0, 2), (2, 0), (2, 2)]


def test_no_clues_at_all():
    analysis = analyze(Position.covered(4, 3, 5))
    assert analysis.solutions == comb(12, 5)
    assert all(analysis.probability(r, c) == Fraction(5, 12) for r in range(3) for c in range(4))
    assert analysis.fronts == []


def test_fully_solved_boards():
    analysis = analyze(Position.from_text("3x1x1\n1F1\n"))
    assert analysis.solutions == 1
    assert analysis.mines == [(0, 1)]
    assert analysis.safe == []
    assert analysis.prob.tolist() == [[0.0, 1.0, 0.0]]
    empty = analyze(Position.from_text("2x2x0\n00\n00\n"))
    assert empty.solutions == 1
    assert empty.prob.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    single = analyze(Position.from_text("1x1x0\nH\n"))
    assert single.solutions == 1
    assert single.safe == [(0, 0)]


def test_off_front_cells_share_the_rest():
    # the 1 has two candidates; the far cells share what is left of the total
    position = Position.from_text("5x1x2\nH1HHH\n")
    total, probs = brute_force(position)
    analysis = analyze(position)
    assert_matches_oracle(position, analysis, total, probs)
    assert analysis.solutions == 2 * 2  # which side of the 1, times where the other mine is
    assert len(analysis.fronts) == 1
    front = analysis.fronts[0]
    assert front.cells == [(0, 0), (0, 2)]
    assert front.clues == [(0, 1)]
    assert (front.min_mines, front.max_mines) == (1, 1)


def test_probability_sum_and_float_view_on_a_played_game():
    game = Game(Rules(8, 8, 12), seed=3)
    game.reveal(4, 4)
    position = game.position()
    analysis = analyze(position)
    assert analysis.prob.shape == (8, 8)
    total = sum(analysis.probability(r, c) for r in range(8) for c in range(8))
    assert total == 12
    assert abs(analysis.prob.sum() - 12) < 1e-9
    for r, c in game.layout.mine_cells():
        assert analysis.probability(r, c) > 0


# ---------------------------------------------------------------------- big numbers


def stripe_position(seed, *, flag_every=0):
    """A 100x100 board, 20% mines, whose rows 45-54 are revealed (mines there stay covered)."""
    game = Game(Rules(100, 100, 2000, first_click="none"), seed=seed)
    game.reveal(0, 0)
    mines = set(game.layout.mines)
    cells = bytearray([COVERED]) * 10_000
    flagged = 0
    for r in range(45, 55):
        for c in range(100):
            i = r * 100 + c
            if i in mines:
                flagged += 1
                if flag_every and flagged % flag_every == 0:
                    cells[i] = FLAG
            else:
                cells[i] = sum(
                    (rr * 100 + cc) in mines
                    for rr in range(r - 1, r + 2)
                    for cc in range(c - 1, c + 2)
                    if 0 <= rr < 100 and 0 <= cc < 100
                )
    return Position(100, 100, 2000, bytes(cells)), mines


@pytest.mark.parametrize(("seed", "flag_every"), [(1, 0), (2, 2)])
def test_big_board_exact_numbers(seed, flag_every):
    position, mines = stripe_position(seed, flag_every=flag_every)
    analysis = analyze(position)
    assert analysis.solutions > 10**1000
    assert len(analysis.fronts) >= 2  # above and below the stripe
    # exact probabilities, grouped by their (numerator, denominator) to keep it quick
    exact = Counter(analysis.exact(i) for i in range(10_000))
    for num, den in exact:
        assert 0 <= num <= den
    assert sum(count * Fraction(num, den) for (num, den), count in exact.items()) == 2000
    prob = analysis.prob
    assert ((prob >= 0) & (prob <= 1)).all()
    assert abs(prob.sum() - 2000) < 1e-6
    for i in range(10_000):
        num, den = analysis.exact(i)
        if i in mines:
            assert num > 0
        else:
            assert num < den


# ---------------------------------------------------------------------- inconsistent positions


@pytest.mark.parametrize(
    ("text", "clues"),
    [
        ("3x1x1\n2HH\n", ["(0, 0)"]),  # a 2 with one neighbour left
        ("3x1x1\n1H0\n", ["(0, 0)", "(0, 2)"]),  # the 0 clears the 1's only cell
        ("3x1x1\nF0H\n", ["(0, 1)"]),  # a 0 next to a flag
        ("3x2x2\nFFH\n1HH\n", ["(1, 0)"]),  # two flags around a 1
        ("5x2x3\nHHHHH\n12111\n", ["(1, 0)", "(1, 1)", "(1, 2)", "(1, 3)", "(1, 4)"]),
        ("4x3x2\nHHHH\nH33H\nHHHH\n", ["(1, 1)", "(1, 2)"]),
    ],
)
def test_contradicted_clue_is_named(text, clues):
    position = Position.from_text(text)
    assert brute_force(position)[0] == 0
    with pytest.raises(InconsistentPositionError) as info:
        analyze(position)
    message = str(info.value)
    assert any(clue in message for clue in clues), message
    assert info.value.clue is not None
    assert f"({info.value.clue[0]}, {info.value.clue[1]})" in clues


def test_more_flags_than_mines():
    with pytest.raises(InconsistentPositionError, match=r"2 flags and known mines .* only 1 mine$"):
        analyze(Position.from_text("3x1x1\nFMH\n"))


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("3x1x0\n1HH\n", "need more than the 0 mines left"),
        ("3x1x3\n1HH\n", "no layout has 3 mines: the clues .* hold 1 mine, leaving at least 2 "
         "for 1 other cell$"),
        ("3x3x1\nHHH\n2H2\nHHH\n", r"no layout has 1 mine: the clues \(such as the one at "
         r"\(1, 0\)\) and flags hold 2 to 4 mines$"),
        ("3x3x6\nHHH\n2H2\nHHH\n", "no layout has 6 mines: .* hold 2 to 4 mines, leaving at least "
         "2 for 0 other cells$"),
        ("2x1x5\nHH\n", "no layout has 5 mines"),
        # figures were of the front alone: "need 0 to 0 ..., leaving 1 to 1 for 0 other cells"
        ("2x1x2\n1H\n", "no layout has 2 mines: the clues and flags hold 1 mine, leaving at "
         "least 1 for 0 other cells$"),
        ("3x2x2\n?HH\nOH1\n", "no layout has 2 mines: .* and flags hold 3 mines$"),
        ("2x2x1\nHH\n1H\n", None),
    ],
)
def test_mine_count_the_clues_cannot_meet(text, pattern):
    position = Position.from_text(text)
    if pattern is None:  # a consistent control case
        assert analyze(position).solutions == brute_force(position)[0] == 3
        return
    assert brute_force(position)[0] == 0
    with pytest.raises(InconsistentPositionError, match=pattern):
        analyze(position)


def test_inconsistent_error_is_a_value_error():
    assert issubclass(InconsistentPositionError, ValueError)
