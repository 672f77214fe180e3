"""Flags mode: a person plays Minesweeper Flags against an AI.

The game's JSON is :func:`~minesolver.serialize.flags_game_json`, which never
names an unclaimed mine while the game runs, plus the id, the players,
the version, the recent turns and the seed (which would give the layout away: only
once the game is over, or when the person chose it).

After the person's move, and after a new game in which the AI moves first, the
server lets the AI move until it is the person's turn again or the game is over;
the response lists the AI's turns so the page can show them one by one.  A player
who claims a mine moves again, so on a crowded board the AI may find mine after
mine for thousands of moves: one request plays them for at most
``WebState.flags_run_seconds``, and the page asks ``POST /api/flags/{id}/ai`` for
the rest until it is the person's turn.  Each AI
move is chosen in a :mod:`..sandbox` child from the :class:`FlagsView` (all the AI
may see), like a solver move in Play.  A move the AI cannot make in time, or a
failure of the AI, never stops the person's game: the server then opens the cell
of highest naive density for it and says so in the move's reason.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from anyio import CancelScope
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...errors import MinesolverError
from ...rules import Rules
from ...serialize import flags_game_json, turn_json
from ...variants.flags import FlagsGame, FlagsMove, FlagsTurn, FlagsView, naive_density
from ..errors import ApiError
from ..middleware import session_of
from ..params import check_size, read_cell, read_json, read_seed, read_str
from ..state import FlagsEntry
from ..tasks import flags_choice
from .base import web_of

if TYPE_CHECKING:
    from ..app import WebState

__all__ = ["HISTORY", "ROUTES", "fallback_move", "flags_json"]

log = logging.getLogger("minesolver.web")

HUMAN, AI = FlagsEntry.HUMAN, FlagsEntry.AI
KINDS = ("open", "bomb")
FIRST = {"you": HUMAN, "ai": AI}
DEFAULT_RULES = "16x16x51"
HISTORY = 50  # turns kept in the game's JSON (a 200x200 game has thousands)


def flags_json(entry: FlagsEntry) -> dict[str, Any]:
    """The game as the person may see it: every mine, and the seed, only once it is over."""
    game = entry.game
    history = game.history[-HISTORY:]
    data: dict[str, Any] = {
        "id": entry.id,
        "you": HUMAN,
        "players": ["you", entry.player.label],
        "ai": entry.player.label,
        "seed": str(game.seed) if game.is_over or entry.seed_given else None,
        "version": entry.version,
        "thinking": entry.thinking,
        "turns": len(game.history),
        "history": [turn_json(turn, opened=False) for turn in history],
    }
    data.update(flags_game_json(game))  # mine_cells only once the game is over
    return data


def fallback_move(view: FlagsView, why: str) -> FlagsMove:
    """A move made for an AI that failed: the covered cell of highest naive density.

    >>> from minesolver.position import Position
    >>> view = FlagsView(Position.from_text("3x1x1\\n1HH\\n"), 1, (0, 0), (False, False))
    >>> fallback_move(view, "too slow")
    FlagsMove((0, 1))
    """
    density = naive_density(view.position)
    best = max(density.values())
    index = min(i for i, p in density.items() if p >= best - 1e-12)
    cell = view.position.coords(index)
    reason = f"fallback, the AI failed ({why}): highest naive density"
    return FlagsMove(cell, reason=reason, probability=best)


def _read_rules(body: dict[str, Any], max_side: int) -> Rules:
    text = read_str(body, "rules", default=DEFAULT_RULES)
    if len(text) > 40:
        raise ApiError(400, f"cannot read rules {text[:40]!r}...: too long")
    rules = Rules.from_string(text, first_click="none")  # RulesError: a 400
    check_size(rules.width, rules.height, max_side)
    return rules


def _result(game: FlagsGame) -> str:
    """``you won 26-20``, ``the AI won 26-20`` or ``a draw, 25-25``."""
    lead, trail = max(game.scores), min(game.scores)
    if game.winner is None:
        return f"a draw, {lead}-{trail}"
    return f"{'you' if game.winner == HUMAN else 'the AI'} won {lead}-{trail}"


async def _ai_move(web: WebState, entry: FlagsEntry) -> FlagsTurn:
    """One AI move, chosen in a sandbox child; a fallback move if the AI fails."""
    game = entry.game
    view = game.view()
    try:
        move, player = await web.run(flags_choice, entry.player, view)
        entry.player = player  # its random generator moved on in the child
        return game.play(move)  # FlagsError on an illegal move: the AI's fault
    except Exception as exc:  # an AI is a plug-in: its failure must not stop the game
        log.warning("Flags AI %s failed on game %s: %r", entry.player.label, entry.id[:8], exc)
        # the limit or the AI's own message; only the kind of anything else (as for a 500)
        why = str(exc) if isinstance(exc, MinesolverError) else type(exc).__name__
        return game.play(fallback_move(view, " ".join(why.split())[:120] or "no reason given"))


async def _ai_plays(web: WebState, entry: FlagsEntry) -> list[dict[str, Any]]:
    """Let the AI move until it is the person's turn, the game is over, or its moves
    have taken ``web.flags_run_seconds`` (at least one move is made)."""
    turns: list[dict[str, Any]] = []
    entry.thinking = True
    end = time.monotonic() + web.flags_run_seconds
    try:
        # shielded: a client that goes away must not leave the game in the middle of a
        # move (a request ends within the run's time and one move's limit)
        with CancelScope(shield=True):
            while entry.game.turn == AI:
                turn = await _ai_move(web, entry)
                entry.version += 1
                turns.append(turn_json(turn))
                if time.monotonic() >= end:
                    break
    finally:
        entry.thinking = False
    return turns


async def create(request: Request) -> Response:
    """``POST /api/flags``: a new game against an AI (which moves at once if it is first)."""
    web = web_of(request)
    body = await read_json(request, ("rules", "ai", "first", "seed"))
    rules = _read_rules(body, web.max_side)
    ai = read_str(body, "ai", default="hard")
    first = read_str(body, "first", default="you")
    if first not in FIRST:
        raise ApiError(400, f"field 'first' must be 'you' or 'ai', got {first!r}")
    entry = web.new_flags(session_of(request), rules, ai, read_seed(body), first=FIRST[first])
    ai_moves = await _ai_plays(web, entry)
    return JSONResponse(
        {"game": flags_json(entry), "move": None, "ai_moves": ai_moves}, status_code=201
    )


def _entry(request: Request) -> FlagsEntry:
    return web_of(request).flags_game(session_of(request), request.path_params["id"])


async def show(request: Request) -> Response:
    """``GET /api/flags/{id}``: the game now."""
    return JSONResponse({"game": flags_json(_entry(request))})


async def move(request: Request) -> Response:
    """``POST /api/flags/{id}/moves``: the person opens a cell or drops the bomb; the AI
    answers."""
    web = web_of(request)
    entry = _entry(request)
    body = await read_json(request, ("kind", "row", "col"))
    kind = read_str(body, "kind", default="open")
    if kind not in KINDS:
        raise ApiError(400, f"unknown kind {kind!r}: expected open or bomb")
    game = entry.game
    row, col = read_cell(body, game.rules.width, game.rules.height)
    if entry.thinking:
        raise ApiError(409, "the AI is still thinking: wait for its move")
    if game.is_over:
        raise ApiError(409, f"the game is over ({_result(game)})")
    if game.turn != HUMAN:
        raise ApiError(409, "it is the AI's turn, not yours: POST /api/flags/{id}/ai lets it "
                       "go on")
    if kind == "bomb" and not game.can_bomb(HUMAN):
        you, them = game.scores
        if game.bombs_used[HUMAN]:
            raise ApiError(400, "you have already used your bomb")
        raise ApiError(400, f"you may bomb only while behind (score {you}-{them})")
    turn = game.play(FlagsMove((row, col), kind))  # an open cell ...: FlagsMoveError, a 400
    entry.version += 1
    ai_moves = await _ai_plays(web, entry)
    return JSONResponse({"game": flags_json(entry), "move": turn_json(turn), "ai_moves": ai_moves})


async def ai_goes_on(request: Request) -> Response:
    """``POST /api/flags/{id}/ai``: the AI goes on with a run of moves the last answer cut
    short (as long as the run's time allows again)."""
    web = web_of(request)
    entry = _entry(request)
    await read_json(request, ())
    if entry.thinking:
        raise ApiError(409, "the AI is still thinking: wait for its move")
    if entry.game.is_over:
        raise ApiError(409, f"the game is over ({_result(entry.game)})")
    if entry.game.turn != AI:
        raise ApiError(409, "it is your turn, not the AI's")
    ai_moves = await _ai_plays(web, entry)
    return JSONResponse({"game": flags_json(entry), "move": None, "ai_moves": ai_moves})


ROUTES = [
    Route("/api/flags", create, methods=["POST"]),
    Route("/api/flags/{id}", show, methods=["GET"]),
    Route("/api/flags/{id}/moves", move, methods=["POST"]),
    Route("/api/flags/{id}/ai", ai_goes_on, methods=["POST"]),
]
