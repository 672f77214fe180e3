"""Analyse mode: exact probabilities of a pasted or painted position.

A position arrives as JSMinesweeper ``.mine`` text (a ``text/*`` body or one that
starts with its header, or
``{"text": ...}``) or as the painting grid ``{"position": {"width", "height",
"mines", "rows"}}`` whose rows use the same characters.  Unreadable input is a
400 naming the line, column and character (of the equivalent ``.mine`` text);
a position no layout satisfies is a 422 naming the clue involved.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import InconsistentPositionError, InputError, LimitError
from ...formats import json_kind
from ...position import Position
from ...serialize import position_json
from ..errors import ApiError, error_response
from ..params import check_fields, check_size, read_body, read_int, read_json
from ..tasks import advice_of, analysis_of
from .base import web_of

__all__ = ["ROUTES", "read_position"]


async def read_position(request: Request, max_side: int) -> Position:
    """The position in the request, in any of its three forms, within the size cap."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await read_body(request)
    # .mine text: sent as text, or with no JSON type and a header first (curl's default
    # form type, application/octet-stream); JSON otherwise
    looks_like_text = raw.removeprefix(b"\xef\xbb\xbf").lstrip()[:1].isdigit()
    if media.startswith("text/") or (media != "application/json" and looks_like_text):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"the body is not UTF-8 text (byte {exc.start} is {raw[exc.start]:#04x})"
            ) from None
    else:
        text = _text_of(await read_json(request, ("text", "position")), max_side)
    first = text.removeprefix("\ufeff").lstrip().split("\n", 1)[0]
    header = first.lower().replace("×", "x").split("x")
    if len(header) == 3 and all(part.strip().isdecimal() and len(part) < 10 for part in header[:2]):
        check_size(int(header[0]), int(header[1]), max_side)  # before reading every row
    position = Position.from_text(text)  # PositionError -> 400
    check_size(position.width, position.height, max_side)
    return position


def _text_of(body: dict[str, Any], max_side: int) -> str:
    if "text" in body and "position" in body:
        raise ApiError(400, "give the position once: field 'text' or field 'position', not both")
    if "text" in body:
        text = body["text"]
        if not isinstance(text, str):
            raise ApiError(400, f"field 'text' must be a string, got {json_kind(text)}")
        return text
    grid = body.get("position")
    if not isinstance(grid, dict):
        raise ApiError(400, "expected {\"text\": \".mine text\"} or {\"position\": {...}}")
    check_fields(grid, ("width", "height", "mines", "rows"))
    width = read_int(grid, "width", low=1, high=max_side)
    height = read_int(grid, "height", low=1, high=max_side)
    mines = read_int(grid, "mines", low=0, high=width * height)
    rows = grid.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ApiError(400, "field 'rows' must be a list of strings, one per board row")
    for number, row in enumerate(rows):
        if "\n" in row or "\r" in row:
            raise ApiError(400, f"row {number} holds a line break: give one string per board row")
    return f"{width}x{height}x{mines}\n" + "".join(row + "\n" for row in rows)


async def analyse(request: Request) -> Response:
    """``POST /api/analyse``: probabilities, safe and mine cells, the number of layouts;
    then the advice (what to click and why), the chance of a zero of every cell, the
    dead cells and the 50/50 pairs.

    The advice is worked out after the probabilities, in its own call: when it breaks
    the server's limits the probabilities are still served, with ``advice`` null and
    ``advice_error`` saying why.
    """
    web = web_of(request)
    position = await read_position(request, web.max_side)
    shown = {"position": position_json(position), "text": position.to_text()}
    try:
        analysis = await web.run(analysis_of, position)
    except InconsistentPositionError as exc:
        clue = list(exc.clue) if exc.clue is not None else None
        return error_response(422, f"inconsistent position: {exc}", clue=clue, **shown)
    try:
        advice = {**await web.run(advice_of, position), "advice_error": None}
    except LimitError as exc:
        advice = {"advice": None, "zero": None, "dead": [], "pairs": [], "skipped": None,
                  "advice_error": f"no advice: {exc}"}
    return JSONResponse({**shown, "analysis": analysis, **advice})


async def convert(request: Request) -> Response:
    """``POST /api/positions``: a painted grid (or text) as canonical ``.mine`` text."""
    position = await read_position(request, web_of(request).max_side)
    return JSONResponse({"position": position_json(position), "text": position.to_text()})


ROUTES = [
    Route("/api/analyse", analyse, methods=["POST"]),
    Route("/api/positions", convert, methods=["POST"]),
]
