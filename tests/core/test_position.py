"""Position: .mine text in and out, errors that point at the problem, the ASCII board."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver import Game, Layout, Position, PositionError, Rules
from minesolver.codes import BLANK, COVERED, FLAG, MINE
from minesolver.errors import InputError, OffBoardError

CANONICAL = "HF012345678M."


@st.composite
def canonical_texts(draw):
    width = draw(st.integers(1, 8))
    height = draw(st.integers(1, 8))
    mines = draw(st.integers(0, 100))
    rows = [
        "".join(draw(st.lists(st.sampled_from(CANONICAL), min_size=width, max_size=width)))
        for _ in range(height)
    ]
    return f"{width}x{height}x{mines}\n" + "".join(row + "\n" for row in rows)


@given(canonical_texts())
def test_round_trip(text):
    position = Position.from_text(text)
    assert position.to_text() == text
    assert Position.from_text(position.to_text()) == position
    assert eval(repr(position), {"Position": Position}) == position


def test_reads_the_readme_example():
    text = (
        "9x9x10\n000000000\n001110111\n001F101FH\n002H2012F\n002F31011\n"
        "013FH111H\n12HHHHHHH\nHHHHHHHHH\nHHHHHHHHH\n"
    )
    p = Position.from_text(text)
    assert (p.width, p.height, p.mines) == (9, 9, 10)
    assert p.number(1, 2) == 1
    assert p.cell(2, 3) == FLAG
    assert p.cell(2, 8) == COVERED
    assert p.flag_count == 5
    assert p.mines_left == 5
    assert p.covered_count == sum(row.count("H") for row in text.splitlines()[1:])
    assert p.to_text() == text


@pytest.mark.parametrize(
    ("char", "code", "written"),
    [
        ("O", FLAG, "F"),
        ("F", FLAG, "F"),
        ("M", MINE, "M"),
        ("?", MINE, "M"),
        ("I", MINE, "M"),
        (".", BLANK, "."),
        ("H", COVERED, "H"),
        ("0", 0, "0"),
        ("8", 8, "8"),
    ],
)
def test_jsminesweeper_characters(char, code, written):
    p = Position.from_text(f"3x1x2\n1{char}H\n")
    assert p.cell(0, 1) == code
    assert p.to_text() == f"3x1x2\n1{written}H\n"


def test_known_mines_count_as_flags():
    p = Position.from_text("4x1x3\nFM?I\n")
    assert p.flag_count == 4
    assert all(p.is_flagged(0, c) and p.is_covered(0, c) for c in range(4))
    blank = Position.from_text("2x1x0\n.0\n")
    assert not blank.is_covered(0, 0)
    assert blank.number(0, 0) is None
    assert blank.number(0, 1) == 0


@pytest.mark.parametrize(
    "text",
    [
        "3x2x1\r\n1H1\r\n111\r\n",
        "3x2x1\n1H1   \n111 \n",
        "3x2x1  \n1H1\n111\n\n\n",
        "3x2x1\r\n1H1 \r\n111\r\n\r\n  \r\n",
        "3x2x1\n1H1\n111",
        " 3x2x1\n1H1\n111\n",
        "3X2X1\n1H1\n111\n",
    ],
)
def test_accepted_variations(text):
    assert Position.from_text(text).to_text() == "3x2x1\n1H1\n111\n"


def test_error_names_line_column_and_character():
    with pytest.raises(PositionError) as info:
        Position.from_text("3x3x1\nHHH\nH1x\nHHH\n")
    message = str(info.value)
    assert "line 3" in message
    assert "column 3" in message
    assert "'x'" in message


def test_error_line_numbers_count_leading_blank_lines():
    with pytest.raises(PositionError, match="line 4, column 2: unexpected character 'x'"):
        Position.from_text("\n\n3x1x1\nHxH\n")
    with pytest.raises(PositionError, match="line 3: expected 3 characters, found 2"):
        Position.from_text("\n3x1x1\nHH\n")


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("3x2x1\nHH\n111\n", "line 2: expected 3 characters, found 2"),
        ("3x2x1\nHHH\n1111\n", "line 3: expected 3 characters, found 4"),
        ("3x3x1\nHHH\nHHH\n", "line 4: expected 3 rows of cells, found 2"),
        ("3x3x1\n", "line 2: expected 3 rows of cells, found 0"),
        ("3x1x1\nHHH\nHHH\n", "line 3: expected 1 row of cells, found more: 'HHH'"),
        # blank lines after the rows: the line named is the one with text (it was line 3: '')
        ("3x1x1\nHHH\n\n\nextra\n", "line 5: expected 1 row of cells, found more: 'extra'"),
        ("3x3x1\nHHH\n\nHHH\n", "line 3: a blank line where row 2 of 3 should be"),
        ("3x2x1\nHHH\n\nHHH\n", "line 3: a blank line where row 2 of 2 should be"),
        # it was reported at line 5, as one row too many
        ("3x3x1\n\n1HH\nHHH\nHHH\n", "line 2: a blank line where row 1 of 3 should be"),
        ("", "line 1: empty text"),
        ("\n  \n\n", "line 1: empty text"),
        ("3x3\nHHH\n", "line 1: cannot read header '3x3'"),
        ("axbxc\nH\n", "line 1: cannot read header 'axbxc'"),
        ("3x1x-1\nHHH\n", "line 1: cannot read header '3x1x-1'"),
        ("3x1x1x1\nHHH\n", "line 1: cannot read header"),
        ("3x1x1²\nHHH\n", "line 1: cannot read header '3x1x1²'"),
        ("³x1x1\nHHH\n", "line 1: cannot read header"),
        ("HHH\nHHH\n", "line 1: cannot read header 'HHH'"),
        ("0x1x0\n\n", "line 1: board size must be positive, got 0x1"),
        ("5000x5000x1\nH\n", "line 1: board 5000x5000 is too large"),
        ("99999999999x1x1\nH\n", "line 1: board 99999999999x1x1 is too large"),
        # the mine count, not the board, was called too large
        ("3x3x1000000000\nHHH\nHHH\nHHH\n", "line 1: 1000000000 mines do not fit on a 3x3 board"),
        ("2x1x1\nH\x00\n", r"line 2, column 2: unexpected character '\\x00'"),
        ("2x1x1\nh1\n", "line 2, column 1: unexpected character 'h'"),
        ("2x1x1\n9H\n", "line 2, column 1: unexpected character '9'"),
        # a stray form feed or separator split the row, and a later line was blamed
        ("3x2x1\nH\x0c1\nHHH\n", r"line 2, column 2: unexpected character '\\x0c'"),
        ("3x2x1\nH\x1e1\nHHH\n", r"line 2, column 2: unexpected character '\\x1e'"),
        ("３x３x１\nHHH\nHHH\nHHH\n", "line 1: cannot read header"),  # fullwidth digits
    ],
)
def test_errors(text, pattern):
    with pytest.raises(PositionError, match=pattern):
        Position.from_text(text)


def test_position_error_is_an_input_error():
    assert issubclass(PositionError, InputError)
    assert issubclass(PositionError, ValueError)


@given(st.text(alphabet=st.sampled_from("0123456789xX/HFOM?I.\n\r \t²٣-×ab"), max_size=40))
@settings(max_examples=300)
def test_any_text_reads_or_raises_position_error(text):
    try:
        position = Position.from_text(text)
    except PositionError:
        return
    assert Position.from_text(position.to_text()) == position


@given(st.text(max_size=30).map(lambda body: "2x2x1\n" + body))
@settings(max_examples=200)
def test_any_body_reads_or_raises_position_error(text):
    with contextlib.suppress(PositionError):
        Position.from_text(text)


def test_constructor_checks():
    with pytest.raises(PositionError, match="expected 6 cells for a 3x2 board, got 5"):
        Position(3, 2, 1, bytes(5))
    with pytest.raises(PositionError, match="unknown cell code 13"):
        Position(1, 1, 0, bytes([13]))
    with pytest.raises(PositionError, match="board size must be positive"):
        Position(0, 1, 0, b"")
    with pytest.raises(PositionError, match="must not be negative"):
        Position(1, 1, -1, bytes([COVERED]))


def test_str_is_an_ascii_board():
    p = Position.from_text("4x2x3\n01H.\nFM23\n")
    assert str(p) == ". 1 # -\nF * 2 3"
    assert str(Position.from_text("3x2x1\n1H1\n111\n")) == "1 # 1\n1 1 1"
    big = Position.covered(30, 16, 99)
    text = str(big)
    assert text.isascii()
    assert text.splitlines() == [" ".join("#" * 30)] * 16


def test_accessors():
    p = Position.from_text("3x2x2\n1HF\n.2H\n")
    assert p.shape == (2, 3)
    assert p.index(1, 2) == 5
    assert p.coords(5) == (1, 2)
    assert p.number(0, 0) == 1 and p.number(0, 1) is None
    assert p.is_covered(0, 1) and p.is_covered(0, 2) and not p.is_covered(1, 0)
    assert p.is_flagged(0, 2) and not p.is_flagged(0, 1)
    assert p.covered_count == 2
    assert p.flag_count == 1
    assert p.mines_left == 1
    assert list(p.covered_cells()) == [(0, 1), (1, 2)]
    assert not p.is_blank()
    assert Position.covered(2, 2, 1).is_blank()
    assert Position.from_text("2x1x2\nFH\n").is_blank()
    for bad in [(-1, 0), (2, 0), (0, 3)]:
        with pytest.raises(OffBoardError, match="off the 3x2 board"):
            p.cell(*bad)
        with pytest.raises(IndexError, match="off the 3x2 board"):  # still an IndexError
            p.index(*bad)
    changed = p.with_cells([(1, 1), (5, FLAG)])
    assert changed.to_text() == "3x2x2\n11F\n.2F\n"
    assert p.to_text() == "3x2x2\n1HF\n.2H\n"  # positions are immutable
    with pytest.raises(AttributeError):
        p.mines = 3  # type: ignore[misc]


def test_game_position_agrees_with_the_game():
    rng = random.Random(11)
    for seed in range(40):
        rules = Rules(rng.randint(2, 12), rng.randint(2, 12), 0)
        rules = Rules(rules.width, rules.height, rng.randint(1, rules.cells // 3))
        game = Game(rules, seed=seed)
        for _ in range(rng.randint(1, 12)):
            r, c = rng.randrange(rules.height), rng.randrange(rules.width)
            if game.is_over:
                break
            if rng.random() < 0.3:
                game.toggle_flag(r, c)
            else:
                game.reveal(r, c)
        p = game.position()
        assert (p.width, p.height, p.mines) == (rules.width, rules.height, rules.mines)
        for r in range(rules.height):
            for c in range(rules.width):
                if game.is_revealed(r, c) and game.is_mine(r, c):
                    assert p.cell(r, c) == MINE  # the exploded mine
                elif game.is_revealed(r, c):
                    assert p.number(r, c) == game.number(r, c)
                elif game.is_flagged(r, c):
                    assert p.cell(r, c) == FLAG
                else:
                    assert p.cell(r, c) == COVERED
        assert Position.from_text(p.to_text()) == p


def test_game_position_shows_the_numbers_of_the_layout():
    game = Game.from_layout(Layout.from_cells(4, 3, [(0, 0), (2, 3)]))
    game.reveal(0, 3)
    game.flag(0, 0)
    assert game.position().to_text() == "4x3x2\nF100\nH111\nHHHH\n"
    game.reveal(2, 0)
    assert game.position().to_text() == "4x3x2\nF100\n1111\n001H\n"
    assert game.status == "won"


def test_leading_zeros_in_the_header_are_numbers_like_any_other():
    # "0000000003x3x1" was called too large for its ten characters
    assert Position.from_text("0000000003x3x01\nHHH\nHHH\nHHH\n") == Position.covered(3, 3, 1)
