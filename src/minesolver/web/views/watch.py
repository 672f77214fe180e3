"""Watch mode: a strategy plays a game; the page steps through it at its own pace.

``POST /api/watch`` starts the game in the background and answers at once; steps
can be read while later ones are still being played.  The websocket
``/api/watch/{id}/ws`` pushes the same summary ``GET /api/watch/{id}`` serves each
time it changes, so the page need not poll (it polls when websockets fail).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...play import parse_start, start_cell
from ...rng import new_seed
from ...rules import Rules
from ..errors import ApiError
from ..middleware import session_of
from ..params import read_json, read_rules, read_seed, read_str
from ..watching import GIF_MAX_CELLS, Watch, render_gif
from .base import attachment, web_of

__all__ = ["ROUTES"]


def _start(body: dict[str, Any], rules: Rules) -> tuple[int, int]:
    value = body.get("start", "corner")
    if isinstance(value, list) and len(value) == 2:
        value = ",".join(str(v) for v in value)
    if not isinstance(value, str):
        raise ApiError(400, f"field 'start' must be corner, center or [row, col], got {value!r}")
    return start_cell(rules, parse_start(value))  # RulesError -> 400


async def create(request: Request) -> Response:
    """``POST /api/watch``: a strategy starts playing a new game."""
    web = web_of(request)
    body = await read_json(
        request, ("rules", "first_click", "no_guess", "strategy", "start", "seed")
    )
    rules = read_rules(body, max_side=web.max_side)
    strategy = read_str(body, "strategy", default="best")
    seed = read_seed(body)
    watch = web.new_watch(
        session_of(request),
        rules,
        strategy,
        seed if seed is not None else new_seed(),
        _start(body, rules),
    )
    return JSONResponse({"watch": watch.summary()}, status_code=201)


def _watch(request: Request) -> Watch:
    return web_of(request).watch(session_of(request), request.path_params["id"])


async def show(request: Request) -> Response:
    """``GET /api/watch/{id}``: the game's summary and how many steps are recorded."""
    return JSONResponse({"watch": _watch(request).summary()})


async def step(request: Request) -> Response:
    """``GET /api/watch/{id}/steps/{index}``: one step, the position and the move."""
    watch = _watch(request)
    index: int = request.path_params["index"]
    if index >= watch.count:
        if watch.status == "running":
            raise ApiError(409, f"step {index} is not played yet; {watch.count} are recorded")
        raise ApiError(404, f"no step {index}: the game has {watch.count} steps")
    return JSONResponse({"step": watch.step(index)})


async def gif(request: Request) -> Response:
    """``GET /api/watch/{id}/gif``: the finished game as an animated GIF."""
    watch = _watch(request)
    if watch.status != "done":
        raise ApiError(409, f"the game is {watch.status}: a GIF needs a finished game")
    if watch.rules.cells > GIF_MAX_CELLS:
        raise ApiError(
            422,
            f"GIF export is limited to boards of {GIF_MAX_CELLS} cells, not {watch.rules.cells}",
        )
    web = web_of(request)
    if watch.gif is None:
        steps = watch.recorded()
        watch.gif = await web.run(render_gif, steps, seconds=web.watch_limits.seconds)
    data = watch.gif
    filename = f"minesolver-{watch.rules}-{watch.seed}.gif"
    return Response(
        data,
        media_type="image/gif",
        headers=attachment(filename),
    )


async def stream(websocket: WebSocket) -> None:
    """``WS /api/watch/{id}/ws``: the summary, again each time it changes."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host")
    if origin is not None and origin.split("://", 1)[-1] != host:
        # closed before it is accepted: the handshake itself is refused (HTTP 403)
        await websocket.close(code=4403, reason="cross-origin websocket refused")
        return
    await websocket.accept()
    try:
        watch = web_of(websocket).watch(session_of(websocket), websocket.path_params["id"])
    except ApiError as exc:
        await websocket.send_json({"error": exc.message})
        await websocket.close(code=4404)
        return
    sent: tuple[int, str] | None = None
    try:
        while True:
            now = (watch.count, watch.status)
            if now != sent:
                await websocket.send_json({"watch": watch.summary()})
                sent = now
            if watch.status != "running":
                break
            await asyncio.sleep(0.1)
        await websocket.close()
    except WebSocketDisconnect:
        pass


ROUTES = [
    Route("/api/watch", create, methods=["POST"]),
    Route("/api/watch/{id}", show, methods=["GET"]),
    Route("/api/watch/{id}/steps/{index:int}", step, methods=["GET"]),
    Route("/api/watch/{id}/gif", gif, methods=["GET"]),
    WebSocketRoute("/api/watch/{id}/ws", stream),
]
