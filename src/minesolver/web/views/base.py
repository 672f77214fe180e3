"""What every handler shares: the :class:`~minesolver.web.app.WebState` behind a
request, and where the page's files are."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

if TYPE_CHECKING:
    from ..app import WebState

__all__ = ["STATIC", "web_of"]

STATIC = Path(__file__).parent.parent / "static"


def web_of(conn: HTTPConnection) -> WebState:
    """The :class:`~minesolver.web.app.WebState` behind a request."""
    web: WebState = conn.app.state.web
    return web
