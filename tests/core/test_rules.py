"""Rules: presets, parsing, and the checks that keep a board playable."""

from __future__ import annotations

import pytest

from minesolver import BEGINNER, EXPERT, INTERMEDIATE, Game, Rules, RulesError
from minesolver.errors import InputError, counted
from minesolver.game import protected_cells
from minesolver.rules import PRESETS


def test_presets():
    assert (BEGINNER.width, BEGINNER.height, BEGINNER.mines) == (9, 9, 10)
    assert (INTERMEDIATE.width, INTERMEDIATE.height, INTERMEDIATE.mines) == (16, 16, 40)
    assert (EXPERT.width, EXPERT.height, EXPERT.mines) == (30, 16, 99)
    assert {r.first_click for r in (BEGINNER, INTERMEDIATE, EXPERT)} == {"safe"}
    assert PRESETS == {"beginner": BEGINNER, "intermediate": INTERMEDIATE, "expert": EXPERT}
    assert EXPERT.cells == 480
    assert EXPERT.shape == (16, 30)
    assert str(EXPERT) == "30x16x99"


def test_repr_round_trips():
    rules = Rules(5, 4, 3, first_click="opening")
    assert eval(repr(rules), {"Rules": Rules}) == rules


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        EXPERT.mines = 10  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("beginner", BEGINNER),
        ("Beginner", BEGINNER),
        ("INTERMEDIATE", INTERMEDIATE),
        ("  eXpErT \n", EXPERT),
        ("30x16x99", EXPERT),
        ("30x16/99", EXPERT),
        ("30X16X99", EXPERT),
        ("30 x 16 x 99", EXPERT),
        ("9x9x10", BEGINNER),
        ("1x1x0", Rules(1, 1, 0)),
        ("100x50/7", Rules(100, 50, 7)),
    ],
)
def test_from_string(text, expected):
    assert Rules.from_string(text) == expected


def test_from_string_keeps_first_click():
    rules = Rules.from_string("Expert", first_click="opening")
    assert rules == Rules(30, 16, 99, first_click="opening")
    assert Rules.from_string("8x8x5", first_click="none").first_click == "none"


def test_with_first_click():
    assert EXPERT.with_first_click("none") == Rules(30, 16, 99, first_click="none")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "expertt",
        "9x9",
        "9x9x",
        "ax9x10",
        "9x9x-1",
        "-9x9x10",
        "9x9x10x1",
        "9,9,10",
        "9x9x1.5",
    ],
)
def test_from_string_unreadable(text):
    with pytest.raises(RulesError) as info:
        Rules.from_string(text)
    message = str(info.value)
    assert repr(text) in message
    assert "30x16x99" in message  # says what it expected
    assert "expert" in message


def test_from_string_checks_the_numbers():
    with pytest.raises(RulesError, match="board size must be positive"):
        Rules.from_string("0x9x1")
    with pytest.raises(RulesError, match="at most 80"):
        Rules.from_string("9x9x81")


def test_rules_error_is_an_input_error():
    assert issubclass(RulesError, InputError)
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(("width", "height"), [(0, 5), (5, 0), (-1, 5), (5, -3), (0, 0)])
def test_non_positive_size(width, height):
    with pytest.raises(RulesError, match=f"board size must be positive, got {width}x{height}"):
        Rules(width, height, 0)


def test_negative_mines():
    with pytest.raises(RulesError, match="mine count must not be negative, got -1"):
        Rules(5, 5, -1)


@pytest.mark.parametrize("value", [9.0, "9", True, None])
def test_non_integer_sizes(value):
    with pytest.raises(RulesError, match="must be an integer"):
        Rules(value, 9, 10)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="must be an integer"):
        Rules(9, 9, value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("width", "height", "first_click", "most"),
    [
        (3, 3, "safe", 8),
        (30, 16, "safe", 479),
        (3, 3, "none", 8),
        (1, 1, "none", 0),
        (1, 1, "safe", 0),
        (3, 3, "opening", 0),
        (4, 4, "opening", 7),
        (30, 16, "opening", 471),
        (5, 1, "opening", 2),  # a 1-row board protects at most 3 cells
        (1, 2, "opening", 0),
        (2, 5, "opening", 4),
    ],
)
def test_too_many_mines(width, height, first_click, most):
    assert Rules(width, height, most, first_click=first_click).max_mines() == most
    with pytest.raises(RulesError) as info:
        Rules(width, height, most + 1, first_click=first_click)
    message = str(info.value)
    assert f"{counted(most + 1, 'mine')} do" in message  # do, or does for one mine
    assert f"not fit on a {width}x{height} board" in message
    assert f"at most {most}" in message


def test_too_many_mines_names_the_guarantee():
    with pytest.raises(RulesError, match="first click is safe"):
        Rules(3, 3, 9)
    with pytest.raises(RulesError, match="first click opens an area"):
        Rules(3, 3, 1, first_click="opening")
    with pytest.raises(RulesError, match="at least one safe cell"):
        Rules(3, 3, 9, first_click="none")


def test_unknown_first_click_rule():
    with pytest.raises(RulesError) as info:
        Rules(9, 9, 10, first_click="corner")  # type: ignore[arg-type]
    message = str(info.value)
    assert "'corner'" in message
    for name in ("safe", "opening", "none"):
        assert name in message
    with pytest.raises(RulesError, match="unknown first-click rule"):
        Rules.from_string("expert", first_click="always")  # type: ignore[arg-type]


def test_one_by_one_with_no_mines():
    for first_click in ("safe", "opening", "none"):
        rules = Rules(1, 1, 0, first_click=first_click)
        assert rules.density == 0
        game = Game(rules, seed=5)
        assert game.reveal(0, 0) == [(0, 0)]
        assert game.status == "won"


def test_density():
    assert Rules(10, 10, 25).density == 0.25


def test_protected_cells():
    assert protected_cells(Rules(3, 3, 1, first_click="none"), 4) == []
    assert protected_cells(Rules(3, 3, 1), 4) == [4]
    assert protected_cells(Rules(4, 4, 1, first_click="opening"), 5) == [0, 1, 2, 4, 5, 6, 8, 9, 10]
    assert protected_cells(Rules(4, 3, 1, first_click="opening"), 0) == [0, 1, 4, 5]
