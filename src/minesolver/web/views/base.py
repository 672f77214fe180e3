"""What every handler shares: the :class:`~minesolver.web.app.WebState` behind a
request, where the page's files are, and how a download is named.

>>> print(attachment("café.mbf")["content-disposition"])
attachment; filename="caf_.mbf"; filename*=UTF-8''caf%C3%A9.mbf
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from starlette.requests import HTTPConnection

if TYPE_CHECKING:
    from ..app import WebState

__all__ = ["STATIC", "attachment", "web_of"]

STATIC = Path(__file__).parent.parent / "static"


def web_of(conn: HTTPConnection) -> WebState:
    """The :class:`~minesolver.web.app.WebState` behind a request."""
    web: WebState = conn.app.state.web
    return web


def attachment(name: str) -> dict[str, str]:
    """The header that makes a response a download named ``name``: a plain-ASCII
    ``filename`` for old browsers (anything else, quotes and backslashes as ``_``)
    and the exact name, percent-encoded, in ``filename*`` (RFC 6266)."""
    plain = re.sub(r'[^\x20-\x7e]|["\\]', "_", name)
    exact = quote(name.encode("utf-8", "replace"), safe="")
    return {"content-disposition": f"attachment; filename=\"{plain}\"; filename*=UTF-8''{exact}"}
