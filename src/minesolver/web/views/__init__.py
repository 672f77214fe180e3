"""Request handlers, one module per mode; :func:`routes` lists every endpoint.

Handlers read their input with :mod:`..params`, act on the :class:`~..WebState`,
and answer with the JSON shapes of :mod:`..payloads`.  Errors are raised, never
returned: :mod:`..errors` turns them into JSON at the boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

if TYPE_CHECKING:
    from .. import WebState

__all__ = ["routes", "web_of"]


def web_of(conn: HTTPConnection) -> WebState:
    """The :class:`~..WebState` behind a request."""
    web: WebState = conn.app.state.web
    return web


def routes(static: Path) -> list[BaseRoute]:
    """Every route of the app: the page, its assets, the API."""
    from . import analyse, flags, pages, play, watch

    return [
        *pages.ROUTES,
        *play.ROUTES,
        *watch.ROUTES,
        *analyse.ROUTES,
        *flags.ROUTES,
        Mount("/static", app=StaticFiles(directory=static), name="static"),
    ]
