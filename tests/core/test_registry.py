"""Registries and options: names with options after a colon, found or refused in one line."""

from __future__ import annotations

from typing import ClassVar

import pytest

from minesolver.errors import InputError, OptionError
from minesolver.options import parse_options
from minesolver.registry import Registry
from minesolver.strategies import STRATEGIES, Strategy
from minesolver.variants.flags import FLAGS_PLAYERS, FlagsPlayer


class Error(OptionError):
    pass


class Greeter:
    name: ClassVar[str] = "hello"
    summary: ClassVar[str] = "says hello"
    label = ""

    def __init__(self, *, loud: bool = False, times: int = 1, pitch: float = 1.0,
                 word: str = "hi") -> None:
        self.loud = loud
        self.times = times
        self.pitch = pitch
        self.word = word


class Waver:
    name: ClassVar[str] = "wave"
    summary: ClassVar[str] = "waves"
    label = ""


@pytest.fixture
def greeters():
    registry = Registry[Greeter]("greeter", Error)
    assert registry.register(Greeter) is Greeter  # a class decorator
    registry.register(Waver)  # type: ignore[arg-type]
    return registry


def test_find_builds_a_configured_instance(greeters):
    g = greeters.find("hello:loud=on, times=3,pitch=0.5,word=hey")
    assert isinstance(g, Greeter)
    assert (g.loud, g.times, g.pitch, g.word) == (True, 3, 0.5, "hey")
    assert g.label == "hello:loud=on, times=3,pitch=0.5,word=hey"
    plain = greeters.find(" hello ")
    assert (plain.loud, plain.times, plain.label) == (False, 1, "hello")
    assert greeters.find("hello:").label == "hello"
    assert greeters.find("hello") is not greeters.find("hello")  # a new instance each time


def test_listing(greeters):
    assert greeters.names() == ["hello", "wave"]
    assert greeters.summaries() == [("hello", "says hello"), ("wave", "waves")]
    assert list(greeters) == ["hello", "wave"]
    assert len(greeters) == 2
    assert "hello" in greeters and "nope" not in greeters
    assert greeters["wave"] is Waver
    with pytest.raises(KeyError):
        greeters["nope"]


def test_unknown_names_list_the_known(greeters):
    with pytest.raises(Error, match="unknown greeter 'nope': expected one of hello, wave"):
        greeters.find("nope:loud=on")


def test_long_names_are_refused_before_parsing(greeters):
    with pytest.raises(Error, match=r"greeter name 'x+'\.\.\. \(500 characters\) is too long"):
        greeters.find("x" * 500)


def test_a_class_needs_a_name(greeters):
    class Nameless(Greeter):
        name: ClassVar[str] = ""

    with pytest.raises(Error, match="Nameless has no name"):
        greeters.register(Nameless)


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ("speed=3", "greeter hello has no option 'speed' (options: loud, times, pitch, word)"),
        ("loud", "option 'loud' of greeter hello needs a value: loud=..."),
        ("loud=maybe", "option loud='maybe' of greeter hello: expected bool"),
        ("times=two", "option times='two' of greeter hello: expected int"),
        ("pitch=high", "option pitch='high' of greeter hello: expected finite number"),
    ],
)
def test_bad_options_say_what_is_wrong(greeters, options, needle):
    with pytest.raises(Error) as info:
        greeters.find(f"hello:{options}")
    assert needle in str(info.value)


def test_a_class_without_options(greeters):
    with pytest.raises(Error, match=r"has no option 'x' \(options: none\)"):
        greeters.find("wave:x=1")


@pytest.mark.parametrize("text", ["on", "true", "1", "yes", "ON", "Yes"])
def test_boolean_spellings(text):
    assert parse_options(Greeter, f"loud={text}", error=ValueError, what="g") == {"loud": True}


@pytest.mark.parametrize("text", ["off", "false", "0", "no", "OFF"])
def test_boolean_spellings_off(text):
    assert parse_options(Greeter, f"loud={text}", error=ValueError, what="g") == {"loud": False}


def test_empty_items_are_skipped():
    assert parse_options(Greeter, " , times=2,, ", error=ValueError, what="g") == {"times": 2}
    assert parse_options(Greeter, "", error=ValueError, what="g") == {}


def test_the_two_registries_are_one_type():
    assert isinstance(STRATEGIES, Registry) and isinstance(FLAGS_PLAYERS, Registry)
    assert {"best", "tank", "random"} <= set(STRATEGIES.names())
    assert {"mc", "exact", "hard"} <= set(FLAGS_PLAYERS.names())
    assert all(issubclass(STRATEGIES[name], Strategy) for name in STRATEGIES)
    assert all(issubclass(FLAGS_PLAYERS[name], FlagsPlayer) for name in FLAGS_PLAYERS)
    assert issubclass(STRATEGIES.error, OptionError)
    assert issubclass(FLAGS_PLAYERS.error, InputError)  # FlagsSetupError
