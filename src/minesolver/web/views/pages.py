"""The page itself, and ``GET /api``: what the page needs to build its menus."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ... import __version__
from ...position import EXAMPLE_POSITION
from ...rules import FIRST_CLICK_RULES, PRESETS
from ...strategies import STRATEGIES
from ...strategies import _load_builtins as load_strategies
from ...variants.flags_players import load_flags_players
from .. import STATIC
from ..watching import GIF_MAX_CELLS
from . import web_of

__all__ = ["ROUTES"]


async def index(request: Request) -> Response:
    """The single page; all four modes fetch their data from the API."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def meta(request: Request) -> Response:
    """Presets, first-click rules, strategies, Flags players, an example position
    (``.mine`` text, for Analyse) and limits."""
    web = web_of(request)
    load_strategies()
    return JSONResponse(
        {
            "version": __version__,
            "presets": {name: str(rules) for name, rules in PRESETS.items()},
            "first_click": list(FIRST_CLICK_RULES),
            "strategies": [
                {"name": name, "summary": STRATEGIES[name].summary} for name in sorted(STRATEGIES)
            ],
            "flags_players": [
                {"name": name, "summary": cls.summary}
                for name, cls in sorted(load_flags_players().items())
            ],
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
