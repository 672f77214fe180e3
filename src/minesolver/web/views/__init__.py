"""Request handlers, one module per mode; :func:`routes` lists every endpoint.

Handlers read their input with :mod:`..params`, act on the
:class:`~minesolver.web.app.WebState`, and answer with the JSON shapes of
:mod:`minesolver.serialize`.  Errors are raised, never returned: :mod:`..errors`
turns them into JSON at the boundary.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from . import analyse, flags, games, pages, review, watch
from .base import STATIC

__all__ = ["routes"]


def routes() -> list[BaseRoute]:
    """Every route of the app: the page, its assets, the API."""
    return [
        *pages.ROUTES,
        *games.ROUTES,
        *watch.ROUTES,
        *analyse.ROUTES,
        *review.ROUTES,
        *flags.ROUTES,
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
