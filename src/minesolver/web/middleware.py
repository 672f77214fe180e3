"""ASGI middleware at the boundary: the session cookie, the body-size cap, safe headers.

* **Session.**  Every browser gets a random ``minesolver_session`` cookie (HttpOnly,
  SameSite=Strict) the first time it asks for anything; games belong to it.
* **Body cap.**  Bodies over the cap get a JSON 413, whether they announce their
  length or stream.
* **Headers.**  A strict Content-Security-Policy (everything from this origin, no
  inline script) and ``nosniff``.

>>> is_session_id("abc")
False
"""

from __future__ import annotations

import re
import secrets
from http.cookies import CookieError, SimpleCookie

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ApiError, error_response

__all__ = [
    "COOKIE",
    "BodyLimitMiddleware",
    "HeadersMiddleware",
    "SessionMiddleware",
    "is_session_id",
    "session_of",
]

COOKIE = "minesolver_session"
_SCOPE_KEY = "minesolver.session"
_SESSION_RE = re.compile(r"[A-Za-z0-9_-]{32,64}")
CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def is_session_id(text: str) -> bool:
    """True for text shaped like the ids this server hands out."""
    return _SESSION_RE.fullmatch(text) is not None


def session_of(conn: HTTPConnection) -> str:
    """The session id of a request or websocket (set by :class:`SessionMiddleware`)."""
    session: str = conn.scope[_SCOPE_KEY]
    return session


class SessionMiddleware:
    """Give every client a session id, from its cookie or freshly made."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        session = _cookie(Headers(scope=scope).get("cookie", ""))
        fresh = session is None
        if session is None:
            session = secrets.token_urlsafe(32)
        scope[_SCOPE_KEY] = session
        if not fresh or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookie = f"{COOKIE}={session}; Path=/; HttpOnly; SameSite=Strict"

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _cookie(header: str) -> str | None:
    try:
        jar = SimpleCookie(header)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    if morsel is None or not is_session_id(morsel.value):
        return None
    return morsel.value


class BodyLimitMiddleware:
    """Refuse request bodies larger than ``limit`` bytes with a JSON 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"request body is larger than the limit of {self.limit} bytes"
        length = Headers(scope=scope).get("content-length")
        if length is not None and (not length.isdecimal() or int(length) > self.limit):
            await error_response(413, message)(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            got = await receive()
            if got["type"] == "http.request":
                seen += len(got.get("body", b""))
                if seen > self.limit:
                    raise ApiError(413, message)
            return got

        await self.app(scope, limited, send)


class HeadersMiddleware:
    """Add the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("content-security-policy", CSP)
                headers.setdefault("x-content-type-options", "nosniff")
                headers.setdefault("referrer-policy", "no-referrer")
                headers.setdefault("cache-control", "no-store")
            await send(message)

        await self.app(scope, receive, send_with_headers)
