"""Play mode (``/api/games``): a game, the hint overlay and the solver's next move.

The game's JSON is built from ``game.position()``, what the player sees, while the
game runs; the mines (and the seed, which would give them away) join it only once
the game is over.  Hints and solver moves look at the same position with the
player's flags removed: flags are the player's guesses, not information, and a
wrong flag must not make the hint fail or mislead.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...codes import COVERED, FLAG
from ...errors import GameOverError
from ...formats import read_mbf, write_mbf
from ...noguess import no_guess_layout
from ...position import Position
from ...rng import new_seed
from ...serialize import cells_json, move_json, position_json
from ...strategies import Move, Strategy, find_strategy
from ..errors import ApiError
from ..middleware import session_of
from ..params import (
    check_size,
    read_body,
    read_cell,
    read_file_name,
    read_json,
    read_rules,
    read_seed,
    read_str,
)
from ..state import PlayEntry
from ..tasks import analysis_of, solver_moves
from .base import attachment, web_of

__all__ = ["ROUTES", "game_json", "unflagged"]

ACTIONS = ("reveal", "flag", "unflag", "toggle_flag", "chord")


def unflagged(position: Position) -> Position:
    """The position with every flag covered again (what the clues alone say).

    >>> unflagged(Position.from_text("2x1x1\\nF1\\n")).to_text()
    '2x1x1\\nH1\\n'
    """
    cells = position.cells.replace(bytes([FLAG]), bytes([COVERED]))
    return Position(position.width, position.height, position.mines, cells)


def game_json(entry: PlayEntry) -> dict[str, Any]:
    """The game as the player may see it: the layout only once it is over."""
    game = entry.game
    rules = entry.rules
    position = game.position()
    over = game.is_over
    data: dict[str, Any] = {
        "id": entry.id,
        "rules": str(rules),
        "first_click": rules.first_click,
        "no_guess": rules.no_guess,
        "status": game.status,
        "version": entry.version,
        "position": position_json(position),
        # a won game has found every mine, flagged or not
        "mines_left": 0 if game.status == "won" else position.mines_left,
        "clicks": game.clicks,
        "elapsed": entry.elapsed,
        "board": entry.board,
        "seed": None if entry.board else str(game.seed) if over or entry.seed_given else None,
        "exploded": list(game.exploded) if game.exploded else None,
        "mines": None,
        "wrong_flags": None,
        "bbbv": None,
    }
    if over:
        layout = game.layout
        assert layout is not None
        mines = layout.mine_cells()
        data["mines"] = cells_json(mines)
        mine_set = set(mines)
        data["wrong_flags"] = cells_json(
            [
                divmod(i, rules.width)
                for i, code in enumerate(position.cells)
                if code == FLAG and divmod(i, rules.width) not in mine_set
            ]
        )
        data["bbbv"] = game.bbbv()
    return data


async def create(request: Request) -> Response:
    """``POST /api/games``: a new game (mines are laid at the first reveal)."""
    web = web_of(request)
    body = await read_json(request, ("rules", "first_click", "no_guess", "seed"))
    rules = read_rules(body, max_side=web.max_side)
    entry = web.new_game(session_of(request), rules, read_seed(body))
    return JSONResponse({"game": game_json(entry)}, status_code=201)


async def from_board(request: Request) -> Response:
    """``POST /api/games/board?name=...``: a new game on the board of an MBF file (the body);
    the first click gets no protection, as in the programs that write MBF."""
    web = web_of(request)
    name = read_file_name(request, "board.mbf")
    layout = read_mbf(await read_body(request))  # FormatError -> 400
    check_size(layout.width, layout.height, web.max_side)
    entry = web.new_board_game(session_of(request), layout, name)
    return JSONResponse({"game": game_json(entry)}, status_code=201)


async def board_file(request: Request) -> Response:
    """``GET /api/games/{id}/board.mbf``: a finished game's board as an MBF file."""
    entry = _entry(request)
    game = entry.game
    if not game.is_over or game.layout is None:
        raise ApiError(409, f"the board is secret until the game is over (it is {game.status})")
    if max(entry.rules.width, entry.rules.height) > 255:
        raise ApiError(422, f"MBF holds boards up to 255x255, not {entry.rules}")
    name = entry.board or f"minesolver-{entry.rules}-{game.seed}.mbf"
    return Response(
        write_mbf(game.layout),
        media_type="application/octet-stream",
        headers=attachment(name),
    )


def _entry(request: Request) -> PlayEntry:
    return web_of(request).game(session_of(request), request.path_params["id"])


async def show(request: Request) -> Response:
    """``GET /api/games/{id}``: the game now."""
    return JSONResponse({"game": game_json(_entry(request))})


async def move(request: Request) -> Response:
    """``POST /api/games/{id}/moves``: reveal, flag, unflag, toggle_flag or chord a cell."""
    entry = _entry(request)
    body = await read_json(request, ("action", "row", "col"))
    action = read_str(body, "action")
    if action not in ACTIONS:
        raise ApiError(400, f"unknown action {action!r}: expected one of {', '.join(ACTIONS)}")
    row, col = read_cell(body, entry.rules.width, entry.rules.height)
    game = entry.game
    if action == "reveal":
        await _lay_no_guess(request, entry, row, col)
    opened: list[tuple[int, int]] = []
    if action == "reveal":
        changed = bool(opened := game.reveal(row, col))
    elif action == "chord":
        changed = bool(opened := game.chord(row, col))
    elif action == "flag":
        changed = game.flag(row, col)
    elif action == "unflag":
        changed = game.unflag(row, col)
    else:
        was = game.is_flagged(row, col)
        changed = game.toggle_flag(row, col) or was
    if changed:  # the version counts changes: a move that changes nothing keeps it
        entry.touch()
    return JSONResponse({"game": game_json(entry), "opened": cells_json(opened)})


async def hint(request: Request) -> Response:
    """``GET /api/games/{id}/hint``: exact probabilities of the position, flags ignored."""
    entry = _entry(request)
    if entry.game.is_over:
        raise GameOverError(f"the game is over ({entry.game.status})")
    version = entry.version
    position = unflagged(entry.game.position())
    analysis = await web_of(request).run(analysis_of, position)
    return JSONResponse({"version": version, "analysis": analysis})


async def solve(request: Request) -> Response:
    """``POST /api/games/{id}/solve``: the solver makes the next move (or every deduction)."""
    entry = _entry(request)
    body = await read_json(request, ("strategy", "all_deductions"))
    name = read_str(body, "strategy", default="best")
    all_deductions = body.get("all_deductions", False)
    if not isinstance(all_deductions, bool):
        raise ApiError(400, f"field 'all_deductions' must be true or false, got {all_deductions!r}")
    game = entry.game
    if game.is_over:
        raise GameOverError(f"the game is over ({game.status})")
    strategy = _solver(entry, name)
    if game.status == "ready":
        moves = [Move((0, 0), reason="first")]
        await _lay_no_guess(request, entry, 0, 0, unflagging=True)  # as _apply plays it
    else:
        if strategy.label in entry.thinking:
            raise ApiError(409, "the solver is already thinking about this game")
        version = entry.version
        entry.thinking.add(strategy.label)
        try:
            moves, strategy = await web_of(request).run(
                solver_moves, strategy, unflagged(game.position())
            )
        finally:
            entry.thinking.discard(strategy.label)
        entry.solvers[name] = strategy  # its random generator moved on in the child
        if entry.version != version or game.is_over:
            raise ApiError(409, "the game changed while the solver was thinking; ask again")
    if all_deductions and moves[0].reason == "deduction":
        chosen = [m for m in moves if m.reason == "deduction"]
    else:
        chosen = moves[:1]
    opened = _apply(entry, chosen)
    return JSONResponse(
        {
            "game": game_json(entry),
            "moves": [move_json(m) for m in chosen],
            "opened": cells_json(opened),
        }
    )


async def _lay_no_guess(request: Request, entry: PlayEntry, row: int, col: int, *,
                        unflagging: bool = False) -> None:
    """Before a no-guess game's first reveal: find its board in the sandbox (it can take a
    second or more; too many mines for any no-guess board is a 422 saying so).  A reveal
    on a flag does nothing, but the solver's takes the flag off first (``unflagging``)."""
    game = entry.game
    if entry.layer is None or game.status != "ready":
        return
    if game.is_flagged(row, col) and not unflagging:
        return
    first = row * entry.rules.width + col
    layout = await web_of(request).run(no_guess_layout, entry.rules, game.seed, first)
    entry.layer.prepare(first, layout)


def _solver(entry: PlayEntry, name: str) -> Strategy:
    strategy = entry.solvers.get(name)
    if strategy is None:
        strategy = find_strategy(name)  # StrategyError -> 400
        strategy.new_game(entry.rules, new_seed())
        entry.solvers[name] = strategy
    return strategy


def _apply(entry: PlayEntry, moves: list[Move]) -> list[tuple[int, int]]:
    """Play the solver's moves; a flag of the player's never blocks a safe cell."""
    game = entry.game
    opened: list[tuple[int, int]] = []
    for m in moves:
        if game.is_over:
            break
        if m.action == "flag":
            game.flag(*m.cell)
            continue
        if game.is_flagged(*m.cell):
            game.unflag(*m.cell)
        opened.extend(game.reveal(*m.cell))
    entry.touch()
    return opened


ROUTES = [
    Route("/api/games", create, methods=["POST"]),
    Route("/api/games/board", from_board, methods=["POST"]),
    Route("/api/games/{id}", show, methods=["GET"]),
    Route("/api/games/{id}/board.mbf", board_file, methods=["GET"]),
    Route("/api/games/{id}/moves", move, methods=["POST"]),
    Route("/api/games/{id}/hint", hint, methods=["GET"]),
    Route("/api/games/{id}/solve", solve, methods=["POST"]),
]
