"""The error hierarchy: who is a ValueError (and who is not), and every error pickles whole."""

from __future__ import annotations

import pickle

import pytest

from minesolver import GameError, PositionError, RulesError
from minesolver.bench.store import StoreError
from minesolver.errors import (
    EngineLimitError,
    GameOverError,
    IllegalMoveError,
    InconsistentPositionError,
    InputError,
    LimitError,
    MinesolverError,
    OffBoardError,
    OptionError,
    quote,
)
from minesolver.formats import FormatError
from minesolver.noise import NoiseError
from minesolver.strategies import StrategyError
from minesolver.variants.flags import (
    FlagsError,
    FlagsMoveError,
    FlagsOverError,
    FlagsSetupError,
)

# every error minesolver raises on purpose, with its expected bases
HIERARCHY = {
    InputError: (MinesolverError, ValueError),
    OffBoardError: (InputError, IndexError, ValueError),
    OptionError: (InputError,),
    InconsistentPositionError: (InputError,),
    IllegalMoveError: (MinesolverError, ValueError),
    GameOverError: (IllegalMoveError,),
    LimitError: (MinesolverError,),
    EngineLimitError: (LimitError,),
    RulesError: (InputError,),
    PositionError: (InputError,),
    FormatError: (InputError,),
    NoiseError: (OptionError,),
    StrategyError: (OptionError,),
    StoreError: (InputError,),
    GameError: (IllegalMoveError,),
    FlagsError: (MinesolverError, ValueError),
    FlagsSetupError: (FlagsError, InputError),
    FlagsMoveError: (FlagsError, IllegalMoveError),
    FlagsOverError: (FlagsMoveError, GameOverError),
}


@pytest.mark.parametrize("cls", list(HIERARCHY), ids=lambda cls: cls.__name__)
def test_hierarchy(cls):
    for base in HIERARCHY[cls]:
        assert issubclass(cls, base), f"{cls.__name__} should be a {base.__name__}"
    assert issubclass(cls, MinesolverError)


def test_limits_are_not_the_users_fault():
    # nothing is wrong with the input: a LimitError is no ValueError (the CLI and the web
    # app tell them apart)
    assert not issubclass(LimitError, ValueError)
    assert not issubclass(EngineLimitError, ValueError)
    assert not issubclass(IllegalMoveError, InputError)
    assert not issubclass(InputError, IllegalMoveError)


def test_the_kinds_are_exclusive():
    kinds = (InputError, IllegalMoveError, LimitError)
    for cls in HIERARCHY:
        if cls in (FlagsError, MinesolverError):
            continue  # Flags' base spans its kinds on purpose
        assert sum(issubclass(cls, kind) for kind in kinds) == 1, cls.__name__


@pytest.mark.parametrize("cls", list(HIERARCHY), ids=lambda cls: cls.__name__)
def test_every_error_pickles_with_its_message(cls):
    error = cls("the cell (3, 4) is off the 9x9 board")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is cls
    assert str(back) == str(error)
    assert back.args == error.args


def test_extra_fields_survive_pickling():
    error = InconsistentPositionError("clue 3 at (0, 1) cannot be met", clue=(0, 1))
    back = pickle.loads(pickle.dumps(error))
    assert back.clue == (0, 1)
    assert str(back) == "clue 3 at (0, 1) cannot be met"
    assert pickle.loads(pickle.dumps(InconsistentPositionError("no layout"))).clue is None
    limit = LimitError("it needs more memory than allowed", limit="memory", bytes=2 << 30)
    back = pickle.loads(pickle.dumps(limit))
    assert (back.limit, back.bytes) == ("memory", 2 << 30)
    engine = EngineLimitError("front 2 is 40 clues wide", front=2, width=40)
    back = pickle.loads(pickle.dumps(engine, protocol=0))
    assert (type(back), back.front, back.width) == (EngineLimitError, 2, 40)


def test_errors_can_be_raised_and_caught_as_their_bases():
    with pytest.raises(ValueError, match="off the 3x3 board"):
        raise OffBoardError("cell (5, 5) is off the 3x3 board")
    with pytest.raises(IndexError):
        raise OffBoardError("cell (5, 5) is off the 3x3 board")
    with pytest.raises(GameOverError):
        raise FlagsOverError("the game is over (a draw)")


@pytest.mark.parametrize(
    ("value", "limit", "expected"),
    [
        ("expert", 60, "'expert'"),
        ("9" * 100, 10, "'999999999'... (100 characters)"),
        (12345, 60, "12345"),
        ([1, 2, 3], 60, "[1, 2, 3]"),
        (list(range(100)), 10, "[0, 1, 2, ... (390 characters)"),
        ("a'b", 60, '"a\'b"'),
    ],
)
def test_quote_names_without_echoing(value, limit, expected):
    assert quote(value, limit) == expected
    assert len(quote("x" * 10_000)) < 100
    # a NUL prints as four characters: the cut was of the text, so the repr ran to four
    # times the limit, and the one-line error cut it again ("... (241 characters)")
    assert len(quote("\x00" * 10_000)) < 100
