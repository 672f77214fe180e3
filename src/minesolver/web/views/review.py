"""Review mode: a played game judged click by click (``POST /api/review``).

The body is the file itself (a replay: ``.avf``, ``.rmv``, ``.evf``, ``.mvf``, or a
``minesolver play --log`` log), its name in the ``name`` query parameter (the name's
extension says the format).  The replay reader runs in a process of its own (it may
abort on a damaged file); the review, which analyses every position, in the sandbox.
"""

from __future__ import annotations

from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...replay import read_replay_bytes
from ..errors import ApiError
from ..params import read_body, read_file_name
from ..tasks import review_of
from .base import web_of

__all__ = ["ROUTES"]


async def review(request: Request) -> Response:
    """``POST /api/review?name=FILE``: the review of the game in the body."""
    web = web_of(request)
    name = read_file_name(request)
    data = await read_body(request)
    if not data:
        raise ApiError(400, "the body is empty: send the replay or log file itself")
    # ReplayError -> 400; a board past the cap is refused before it is built
    read = partial(read_replay_bytes, max_side=web.max_side)
    replay = await web.run_thread(read, data, name)
    return JSONResponse({"review": await web.run(review_of, replay)})


ROUTES = [Route("/api/review", review, methods=["POST"])]
