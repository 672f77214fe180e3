"""Registries of named, configurable things: strategies and Minesweeper Flags players.

A class registers itself under its ``name`` (exactly as an outside plug-in would)
and is found by a name with options after a colon, ``best:endgame=off,cutoff=0.8``;
the options are the class's keyword-only ``__init__`` parameters
(:mod:`minesolver.options`).  The instance's ``label`` is the name as given.

>>> class Greeter:
...     name = "hello"
...     summary = "says hello"
...     label = ""
...     def __init__(self, *, loud: bool = False) -> None:
...         self.loud = loud
>>> greeters = Registry[Greeter]("greeter", ValueError)
>>> _ = greeters.register(Greeter)
>>> g = greeters.find("hello:loud=on")
>>> g.loud, g.label, greeters.names()
(True, 'hello:loud=on', ['hello'])
>>> greeters.key("hello: loud=true") == greeters.key("hello:loud=on") != greeters.key("hello")
True
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import ClassVar, Generic, Protocol, TypeVar

from .errors import quote
from .options import parse_options

__all__ = ["Named", "Registry"]


class Named(Protocol):
    """What a registered class provides."""

    name: ClassVar[str]
    summary: ClassVar[str]
    label: str


T = TypeVar("T", bound=Named)

# names longer than this are refused before anything is parsed
MAX_NAME = 200


class Registry(Generic[T]):
    """Classes by name; :meth:`find` builds a configured instance."""

    def __init__(self, kind: str, error: type[ValueError]) -> None:
        self.kind = kind
        self.error = error
        self._classes: dict[str, type[T]] = {}

    def register(self, cls: type[T]) -> type[T]:
        """Class decorator: make ``cls`` findable by its ``name``."""
        if not cls.name:
            raise self.error(f"{cls.__name__} has no name")
        self._classes[cls.name] = cls
        return cls

    def find(self, name: str) -> T:
        """A new instance of the class called ``name``, with the options after a colon."""
        if len(name) > MAX_NAME:
            raise self.error(f"{self.kind} name {quote(name, 40)} is too long")
        base, _, opts = name.partition(":")
        cls = self._classes.get(base.strip())
        if cls is None:
            raise self.error(
                f"unknown {self.kind} {quote(base)}: expected one of {', '.join(self.names())}"
            )
        kwargs = parse_options(cls, opts, error=self.error, what=f"{self.kind} {cls.name}")
        instance = cls(**kwargs)
        instance.label = name.strip() if opts.strip() else cls.name
        return instance

    def key(self, name: str) -> tuple[str, tuple[tuple[str, object], ...]]:
        """What ``name`` makes: its class and the value of every option, given or by
        default, so that two spellings of one configuration compare equal."""
        self.find(name)  # an unknown name or a bad option: the same errors as find
        base, _, opts = name.partition(":")
        cls = self._classes[base.strip()]
        given = parse_options(cls, opts, error=self.error, what=f"{self.kind} {cls.name}")
        every = {
            p.name: given.get(p.name, p.default)
            for p in inspect.signature(cls).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY
        }
        return cls.name, tuple(sorted(every.items()))

    def names(self) -> list[str]:
        """Every registered name, sorted."""
        return sorted(self._classes)

    def summaries(self) -> list[tuple[str, str]]:
        """``(name, summary)`` of every registered class, sorted by name."""
        return [(name, self._classes[name].summary) for name in self.names()]

    def __contains__(self, name: object) -> bool:
        return name in self._classes

    def __getitem__(self, name: str) -> type[T]:
        return self._classes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._classes)
