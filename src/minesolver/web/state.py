"""What the server remembers: games played, watched and played against an AI, per session.

Nothing here knows about HTTP.  Each browser has a session id (a random cookie);
each game and each watched game has an unguessable id and belongs to one session.
Looking an id up from another session fails exactly as an unknown id does, so one
browser cannot even learn that another's game exists.  The stores are LRU caches
with a fixed size, so memory cannot grow without bound.

>>> store = SessionStore[str](capacity=2)
>>> for key in "abc":
...     _ = store.put(key, "session", key.upper())
>>> store.get("a", "session") is None, store.get("c", "session")
(True, 'C')
>>> store.get("c", "someone else") is None
True
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..game import Game
from ..minefield import Layout
from ..noguess import no_guess_layout
from ..rules import Rules
from ..strategies import Strategy
from ..variants.flags import FlagsGame, FlagsPlayer

__all__ = ["FlagsEntry", "NoGuessLayer", "PlayEntry", "SessionStore", "new_id"]

T = TypeVar("T")


def new_id() -> str:
    """An unguessable id (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


class SessionStore(Generic[T]):
    """An LRU map ``id -> (session, value)``; the oldest entry goes when it is full."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, tuple[str, T]] = OrderedDict()

    def put(self, key: str, session: str, value: T) -> list[T]:
        """Store ``value``; returns the values evicted to make room."""
        self._items[key] = (session, value)
        self._items.move_to_end(key)
        evicted = []
        while len(self._items) > self.capacity:
            _, (_, old) = self._items.popitem(last=False)
            evicted.append(old)
        return evicted

    def get(self, key: str, session: str) -> T | None:
        """The value, if it exists *and* belongs to ``session``."""
        item = self._items.get(key)
        if item is None or not hmac.compare_digest(item[0], session):
            return None
        self._items.move_to_end(key)
        return item[1]

    def values(self) -> list[T]:
        """Every value, oldest first."""
        return [value for _, value in self._items.values()]

    def values_of(self, session: str) -> list[T]:
        """The values ``session`` owns, oldest first."""
        return [value for owner, value in self._items.values() if owner == session]

    def __len__(self) -> int:
        return len(self._items)


class NoGuessLayer:
    """Lays a no-guess game's board (a :data:`~minesolver.game.Layer`).

    Finding one can take a second or more, too long for the event loop: the view works it
    out in the sandbox first and hands it over with :meth:`prepare`; without that, the
    board is laid here.  Either way it is ``no_guess_layout(rules, seed, first)``.
    """

    def __init__(self) -> None:
        self.ready: dict[int, Layout] = {}

    def prepare(self, first: int, layout: Layout) -> None:
        """The board for a first click at flat index ``first``."""
        self.ready[first] = layout

    def __call__(self, rules: Rules, seed: int, first: int) -> Layout:
        return self.ready.get(first) or no_guess_layout(rules, seed, first)


@dataclass
class PlayEntry:
    """A game a person plays in the browser.  Mutable; changed only on the event loop.

    ``version`` counts the changes, so a hint or a solver move computed on an
    older position can be recognised as stale.
    """

    id: str
    rules: Rules
    game: Game
    seed_given: bool
    version: int = 0
    started: float | None = None  # monotonic time of the first reveal
    ended: float | None = None
    solvers: dict[str, Strategy] = field(default_factory=dict)
    thinking: set[str] = field(default_factory=set)  # solvers busy on this game now
    layer: NoGuessLayer | None = None  # lays the board of a no-guess game
    board: str | None = None  # the name of the board file the game was dealt from

    def touch(self) -> None:
        """Note a change: bump the version, start or stop the clock."""
        self.version += 1
        now = time.monotonic()
        if self.started is None and self.game.status != "ready":
            self.started = now
        if self.ended is None and self.game.is_over:
            self.ended = now

    @property
    def elapsed(self) -> float:
        """Seconds since the first reveal (frozen once the game is over)."""
        if self.started is None:
            return 0.0
        end = self.ended if self.ended is not None else time.monotonic()
        return round(end - self.started, 3)


@dataclass
class FlagsEntry:
    """A Minesweeper Flags game a person plays against an AI.  Mutable; changed only on
    the event loop.

    The person sits in seat ``HUMAN`` (0), the AI in seat ``AI`` (1).  ``version``
    counts the turns played; ``thinking`` is true while the AI chooses its moves, and
    the game takes no move from the person meanwhile.
    """

    HUMAN = 0
    AI = 1

    id: str
    game: FlagsGame
    player: FlagsPlayer
    seed_given: bool
    version: int = 0
    thinking: bool = False
