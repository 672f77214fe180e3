"""Errors at the web boundary: every failure a client can cause becomes JSON ``{"error": ...}``.

Core errors (:mod:`minesolver.errors`) are translated here, once, by one table,
the most specific class first:

=============================  ======  ==============================================
error                          status  when
=============================  ======  ==============================================
``ApiError``                   any     raised by the views (404 unknown id, 409 ...)
``InconsistentPositionError``  422     no layout agrees with the clues (names the clue)
``InputError``                 400     rules, positions, names, options, files
``GameOverError``              409     a move after the game ended
``IllegalMoveError``           400     a move the game cannot take (an open cell ...)
``LimitError``                 422     the work needs more memory or time than allowed
``HTTPException``              its own unknown route (404), wrong method (405)
anything else                  500     a bug: logged, and still JSON
=============================  ======  ==============================================

>>> ApiError(404, "no game 'x'").status
404
>>> from minesolver.errors import GameOverError
>>> status_of(GameOverError("the game is over (won)"))
409
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import (
    GameOverError,
    IllegalMoveError,
    InconsistentPositionError,
    InputError,
    LimitError,
    MinesolverError,
    shorten,
)
from ..noguess import NoGuessError

__all__ = ["EXCEPTION_HANDLERS", "STATUS", "ApiError", "error_response", "status_of"]

# the table: the first class an error is an instance of gives its status
STATUS: tuple[tuple[type[Exception], int], ...] = (
    (InconsistentPositionError, 422),
    (InputError, 400),
    (GameOverError, 409),
    (IllegalMoveError, 400),
    (LimitError, 422),
)

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
    return JSONResponse({"error": shorten(message), **extra}, status_code=status)


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


def status_of(exc: Exception) -> int:
    """The status of a core error (500 for anything the table does not know)."""
    return next((status for cls, status in STATUS if isinstance(exc, cls)), 500)


async def _core_error(request: Request, exc: Exception) -> Response:
    status = status_of(exc)
    if status == 500:
        return await _bug(request, exc)
    if isinstance(exc, InconsistentPositionError):
        clue = list(exc.clue) if exc.clue is not None else None
        return error_response(status, f"inconsistent position: {exc}", clue=clue)
    if isinstance(exc, LimitError) and not isinstance(exc, NoGuessError):
        # (a board too dense for no-guess says why itself: no server limit is at fault)
        return error_response(status, f"this request is too hard for this server: {exc}")
    return error_response(status, str(exc))


async def _bug(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, f"internal error: {type(exc).__name__}")


EXCEPTION_HANDLERS: dict[Any, Any] = {
    ApiError: _api_error,
    HTTPException: _http_error,
    MinesolverError: _core_error,
    Exception: _bug,
}
