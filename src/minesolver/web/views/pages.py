"""The page itself, and ``GET /api``: what the page needs to build its menus."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ... import __version__
from ...position import EXAMPLE_POSITION
from ...rules import FIRST_CLICK_RULES, PRESETS
from ...show.palette import NUMBER_RGB, SCALES, hex_colour, scale_table
from ...strategies import STRATEGIES
from ...variants.flags import FLAGS_PLAYERS
from ..watching import GIF_MAX_CELLS
from .base import STATIC, web_of

__all__ = ["ROUTES"]


async def index(request: Request) -> Response:
    """The single page; all four modes fetch their data from the API."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def meta(request: Request) -> Response:
    """Presets, first-click rules, strategies, Flags players, the palette, an example
    position (``.mine`` text, for Analyse) and limits."""
    web = web_of(request)
    return JSONResponse(
        {
            "version": __version__,
            "presets": {name: str(rules) for name, rules in PRESETS.items()},
            "first_click": list(FIRST_CLICK_RULES),
            "strategies": [
                {"name": name, "summary": summary} for name, summary in STRATEGIES.summaries()
            ],
            "flags_players": [
                {"name": name, "summary": summary} for name, summary in FLAGS_PLAYERS.summaries()
            ],
            "palette": {
                "numbers": ["#000000"] + [hex_colour(NUMBER_RGB[n]) for n in range(1, 9)],
                "scales": {scale: scale_table(scale) for scale in SCALES},
            },
            "example": EXAMPLE_POSITION,
            "limits": {
                "max_side": web.max_side,
                "max_body": web.max_body,
                "gif_max_cells": GIF_MAX_CELLS,
            },
        }
    )


ROUTES = [
    Route("/", index, methods=["GET"]),
    Route("/api", meta, methods=["GET"]),
]
