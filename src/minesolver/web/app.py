"""The core object of the web app: :class:`WebState`.

:class:`WebState` it owns the games being played and watched
and builds the ASGI app (`starlette`).  Handlers live in :mod:`.views`, the page
in ``static/``.  The page is built only from the JSON the API serves, documented
in ``docs/web.md``.  Coordinates are ``(row, col)`` everywhere.

Safety: the server keeps the mine layout.  Until a game is over no response
carries an unrevealed mine (nor the seed that would give the layout away); ids
are unguessable and bound to the browser's session cookie; board sizes, bodies
and the number of stored games are capped; every bad request gets a JSON error
with a 4xx status.

>>> web = WebState(max_side=50)
>>> app = web.app()
>>> app.state.web is web, [route.path for route in app.routes][:3]
(True, ['/', '/api', '/api/games'])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from starlette.applications import Starlette
from starlette.middleware import Middleware

from ..errors import quote
from ..game import Game
from ..minefield import Layout
from ..rng import derive_seed
from ..rules import Rules
from ..strategies import find_strategy
from ..variants.flags import PLAYER_SALT, FlagsGame, find_flags_player
from .errors import EXCEPTION_HANDLERS, ApiError
from .middleware import BodyLimitMiddleware, HeadersMiddleware, SessionMiddleware
from .sandbox import Limits, Sandbox
from .state import FlagsEntry, NoGuessLayer, PlayEntry, SessionStore, new_id
from .views import routes
from .watching import Watch

__all__ = ["WebState", "create_app"]

T = TypeVar("T")


class WebState:
    """Everything the server remembers, with its limits; builds the app.

    ``max_side`` caps boards (width and height); ``max_games`` and
    ``max_watches`` cap the LRU stores; ``max_playing`` caps the strategies
    playing one session's watched games at once, ``max_playing_total`` all sessions'
    (so one session cannot take every slot); ``max_body`` caps request bodies (bytes);
    ``workers`` caps the analyses running at once; each runs in a child process
    that may use ``memory`` bytes and ``seconds`` seconds (``watch_seconds`` for a
    watched game).  Flags games share the ``max_games`` cap, in a store of their own;
    each move of their AI is such an analysis, and one request plays the AI's moves for
    at most ``flags_run_seconds`` (the page asks for the rest of a long run).
    """

    def __init__(
        self,
        *,
        max_side: int = 200,
        max_games: int = 256,
        max_watches: int = 32,
        max_playing: int = 2,
        max_playing_total: int = 8,
        max_body: int = 1 << 20,
        workers: int = 2,
        memory: int = 2 << 30,
        seconds: float = 30.0,
        watch_seconds: float = 600.0,
        flags_run_seconds: float = 10.0,
    ) -> None:
        self.max_side = max_side
        self.flags_run_seconds = flags_run_seconds
        self.max_playing = max_playing
        self.max_playing_total = max_playing_total
        self.max_body = max_body
        self.workers = workers
        self.games: SessionStore[PlayEntry] = SessionStore(max_games)
        self.flags: SessionStore[FlagsEntry] = SessionStore(max_games)
        self.watches: SessionStore[Watch] = SessionStore(max_watches)
        self.sandbox = Sandbox.shared(Limits(memory=memory, seconds=seconds), size=workers)
        self.watch_limits = Limits(memory=memory, seconds=watch_seconds)
        self._limiter: CapacityLimiter | None = None

    # ------------------------------------------------------------------ games
    def new_game(self, session: str, rules: Rules, seed: int | None) -> PlayEntry:
        """Start a game for ``session``; mines are laid at the first reveal (a no-guess
        board by :mod:`minesolver.noguess`, worked out in the sandbox by the view)."""
        layer = NoGuessLayer() if rules.no_guess else None
        game = Game(rules, seed=seed, lay=layer)
        entry = PlayEntry(new_id(), rules, game, seed_given=seed is not None, layer=layer)
        self.games.put(entry.id, session, entry)
        return entry

    def new_board_game(self, session: str, layout: Layout, name: str) -> PlayEntry:
        """Start a game for ``session`` on a given board (read from the file ``name``)."""
        game = Game.from_layout(layout)
        entry = PlayEntry(new_id(), game.rules, game, seed_given=False, board=name)
        self.games.put(entry.id, session, entry)
        return entry

    def game(self, session: str, id: str) -> PlayEntry:
        """``session``'s game ``id``; 404 if it is unknown or someone else's."""
        return _find(self.games, id, session, "game")

    # ------------------------------------------------------------------ flags
    def new_flags(
        self, session: str, rules: Rules, ai: str, seed: int | None, *, first: int
    ) -> FlagsEntry:
        """Start a Flags game for ``session`` against the AI named ``ai``.

        The person sits in seat 0; ``first`` is the seat that moves first.  Unknown
        players and impossible rules raise
        :class:`~minesolver.variants.flags.FlagsSetupError` (a 400).
        """
        player = find_flags_player(ai)
        game = FlagsGame(rules, seed=seed, first=first)
        # the AI's own random choices, seeded as `minesolver flags --p1 human` seeds them,
        # so a seed and the same moves replay the same game there
        player.new_game(derive_seed(game.seed, PLAYER_SALT, 1))
        entry = FlagsEntry(new_id(), game, player, seed_given=seed is not None)
        self.flags.put(entry.id, session, entry)
        return entry

    def flags_game(self, session: str, id: str) -> FlagsEntry:
        """``session``'s Flags game ``id``; 404 if it is unknown or someone else's."""
        return _find(self.flags, id, session, "Flags game")

    # ------------------------------------------------------------------ watches
    def new_watch(
        self, session: str, rules: Rules, strategy: str, seed: int, start: tuple[int, int]
    ) -> Watch:
        """Start a strategy playing a game in the background."""
        label = find_strategy(strategy).label  # StrategyError -> 400, before anything starts
        yours = sum(1 for w in self.watches.values_of(session) if w.status == "running")
        if yours >= self.max_playing:
            raise ApiError(
                429, f"{yours} of your watched games are being played already; "
                "wait for one to finish"
            )
        playing = sum(1 for w in self.watches.values() if w.status == "running")
        if playing >= self.max_playing_total:
            raise ApiError(
                429, f"{playing} watched games are being played on this server already; "
                "wait for one to finish"
            )
        watch = Watch(new_id(), rules, label, seed=seed, start=start, limits=self.watch_limits)
        for old in self.watches.put(watch.id, session, watch):
            old.cancelled = True
        watch.start_thread()
        return watch

    def watch(self, session: str, id: str) -> Watch:
        """``session``'s watched game ``id``; 404 if it is unknown or someone else's."""
        return _find(self.watches, id, session, "watched game")

    # ------------------------------------------------------------------ work
    async def run(self, func: Callable[..., T], *args: Any, seconds: float | None = None) -> T:
        """``func(*args)`` in a sandboxed worker process, waited for in a thread.

        Raises :class:`~.sandbox.LimitError` (a 422) past the memory or time limit.
        """
        if self._limiter is None:
            self._limiter = CapacityLimiter(self.workers)
        call = partial(self.sandbox.call, func, *args, seconds=seconds)
        return await anyio.to_thread.run_sync(call, limiter=self._limiter)

    async def run_thread(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in a thread of this process, under the same cap on work at once
        (for work that starts a process of its own, such as reading a replay)."""
        if self._limiter is None:
            self._limiter = CapacityLimiter(self.workers)
        return await anyio.to_thread.run_sync(partial(func, *args), limiter=self._limiter)

    # ------------------------------------------------------------------ app
    def app(self) -> Starlette:
        """The ASGI app serving the page and the API from this state."""
        app = Starlette(
            routes=routes(),
            middleware=[
                Middleware(HeadersMiddleware),
                Middleware(SessionMiddleware),
                Middleware(BodyLimitMiddleware, limit=self.max_body),
            ],
            exception_handlers=EXCEPTION_HANDLERS,
        )
        app.state.web = self
        return app


def _find(store: SessionStore[T], id: str, session: str, what: str) -> T:
    value = store.get(id, session)
    if value is None:
        raise ApiError(404, f"no {what} {quote(id, 40)} in this session")
    return value


def create_app(**options: Any) -> Starlette:
    """A new app with a fresh :class:`WebState` (``options`` are its limits).

    >>> create_app(max_side=50).state.web.max_side
    50
    """
    return WebState(**options).app()
