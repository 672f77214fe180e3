"""Errors at the web boundary: every failure a client can cause becomes JSON ``{"error": ...}``.

Core errors are translated here, once, into a status:

============================  ======  ==============================================
error                         status  when
============================  ======  ==============================================
``ApiError``                  any     raised by the views (404 unknown id, 409 ...)
``InconsistentPositionError`` 422     no layout agrees with the clues (names the clue)
``GameError``                 409     a move after the game ended
``LimitError``                422     the work needs more memory or time than allowed
``ValueError`` (the others)   400     ``RulesError``, ``PositionError``, ``StrategyError``,
                                      ``FlagsError``
``HTTPException``             its own unknown route (404), wrong method (405)
anything else                 500     a bug: logged, and still JSON
============================  ======  ==============================================

>>> ApiError(404, "no game 'x'").status
404
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..analysis import InconsistentPositionError
from ..game import GameError
from .sandbox import LimitError

__all__ = ["EXCEPTION_HANDLERS", "ApiError", "error_response"]

log = logging.getLogger("minesolver.web")


class ApiError(Exception):
    """A request the API refuses: a status and a message, plus extra JSON fields."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def error_response(status: int, message: str, **extra: Any) -> JSONResponse:
    """``{"error": message, ...extra}`` with ``status``."""
    return JSONResponse({"error": message, **extra}, status_code=status)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.message, **exc.extra)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        message = f"method {request.method} is not allowed on {request.url.path}"
    elif exc.status_code == 404:
        message = f"nothing at {request.url.path}"
    else:
        message = str(exc.detail)
    return error_response(exc.status_code, message)


async def _value_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, InconsistentPositionError):
        clue = list(exc.clue) if exc.clue is not None else None
        return error_response(422, f"inconsistent position: {exc}", clue=clue)
    if isinstance(exc, GameError):
        return error_response(409, str(exc))
    return error_response(400, str(exc))


async def _limit(request: Request, exc: Exception) -> Response:
    return error_response(422, f"this request is too hard for this server: {exc}")


async def _bug(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, f"internal error: {type(exc).__name__}")


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ApiError: _api_error,
    HTTPException: _http_error,
    ValueError: _value_error,
    LimitError: _limit,
    Exception: _bug,
}
