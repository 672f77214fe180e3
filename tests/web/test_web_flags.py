"""The Flags mode of the web API, in-process: a person against an AI.

A whole seeded game is played to the end through the API and replayed off-line;
every response of a running game is checked against the server's own layout, so
no unclaimed mine (nor a random seed) ever leaves the server.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

from minesolver.codes import COVERED
from minesolver.rng import derive_seed
from minesolver.rules import Rules
from minesolver.serialize import flags_game_json
from minesolver.variants.flags import FlagsGame, FlagsMove, find_flags_player
from minesolver.web import WebState, create_app
from minesolver.web.state import FlagsEntry

with warnings.catch_warnings():  # starlette would like httpx2, which is not packaged here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

STATE_KEYS = {
    "rules", "width", "height", "mines", "to_win", "board", "claimed", "scores", "mines_left",
    "bombs_used", "can_bomb", "first", "turn", "over", "winner", "draw", "last_move",
    "mine_cells",
}


# ---------------------------------------------------------------------- helpers
@pytest.fixture
def web() -> WebState:
    return WebState()


@pytest.fixture
def client(web: WebState) -> TestClient:
    return TestClient(web.app())


def entry_of(web: WebState, gid: str) -> FlagsEntry:
    return next(e for e in web.flags.values() if e.id == gid)


def cells_named(data: Any, skip: frozenset[str] = frozenset({"scores"})) -> set[tuple[int, int]]:
    """Every ``[int, int]`` list anywhere in a JSON value (but under ``skip`` keys)."""
    found: set[tuple[int, int]] = set()
    if isinstance(data, list):
        if len(data) == 2 and all(type(x) is int for x in data):
            found.add((data[0], data[1]))
        for item in data:
            found |= cells_named(item, skip)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in skip:
                found |= cells_named(value, skip)
    return found


def check(web: WebState, data: dict[str, Any], *, seed_given: bool) -> dict[str, Any]:
    """The response's game agrees with the server's; while it runs, nothing leaks."""
    game_json: dict[str, Any] = data["game"]
    entry = entry_of(web, game_json["id"])
    game = entry.game
    assert set(game_json) >= STATE_KEYS
    assert game_json["board"] == game.position().to_text().splitlines()[1:]
    assert game_json["scores"] == list(game.scores)
    assert game_json["version"] == entry.version == len(game.history)
    assert game_json["thinking"] is False
    if game.is_over:
        assert game_json["mine_cells"] == [list(c) for c in game.layout.mine_cells()]
        assert game_json["seed"] == str(game.seed)
        return game_json
    assert game_json["turn"] == 0, "the AI plays until it is the person's turn"
    w = game.rules.width
    unclaimed = {m for m in game.layout.mine_cells() if game.owner(*m) is None}
    assert not cells_named(data) & unclaimed, "a response names an unclaimed mine"
    for r, c in unclaimed:
        assert game_json["board"][r][c] == "H"
    assert game_json["mine_cells"] is None and flags_game_json(game)["mine_cells"] is None
    if not seed_given:
        assert game_json["seed"] is None
        assert str(game.seed) not in str(data)
    assert len(unclaimed) == game_json["mines_left"]
    assert sum(row.count("H") for row in game_json["board"]) >= len(unclaimed)
    assert all(0 <= r < game.rules.height and 0 <= c < w for r, c in cells_named(data))
    return game_json


def covered_safe(game: FlagsGame) -> list[tuple[int, int]]:
    """The safe cells still covered on the server's board, in reading order."""
    mines = set(game.layout.mine_cells())
    w = game.rules.width
    cells = game.position().cells
    return [divmod(i, w) for i, code in enumerate(cells)
            if code == COVERED and divmod(i, w) not in mines]


def new_flags(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/flags", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def move(client: TestClient, gid: str, kind: str, row: int, col: int) -> dict[str, Any]:
    response = client.post(f"/api/flags/{gid}/moves", json={"kind": kind, "row": row, "col": col})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def assert_error(response: Any, status: int, pattern: str = "") -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    data: dict[str, Any] = response.json()
    assert isinstance(data["error"], str) and data["error"]
    if pattern:
        assert re.search(pattern, data["error"]), data["error"]
    return data


def simple_rule(game: dict[str, Any]) -> tuple[str, int, int]:
    """The person's play in these tests: bomb the first covered cell as soon as allowed,
    else open the first covered cell in reading order."""
    rows = game["board"]
    cell = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "H")
    return ("bomb" if game["can_bomb"][0] else "open", *cell)


# ---------------------------------------------------------------------- a whole game
def test_a_whole_seeded_game_against_hard(web: WebState, client: TestClient) -> None:
    seed = 2024
    data = new_flags(client, seed=seed, ai="hard")  # the defaults: 16x16x51, you first
    game = check(web, data, seed_given=True)
    assert (game["rules"], game["ai"], game["players"], game["first"]) == (
        "16x16x51", "hard", ["you", "hard"], 0)
    assert data["ai_moves"] == [] and data["move"] is None and game["seed"] == str(seed)
    turns: list[dict[str, Any]] = []
    while not game["over"]:
        kind, row, col = simple_rule(game)
        data = move(client, game["id"], kind, row, col)
        game = check(web, data, seed_given=True)
        mine = data["move"]
        assert (mine["player"], mine["kind"], mine["cell"]) == (0, kind, [row, col])
        assert all(t["player"] == 1 for t in data["ai_moves"])
        assert all(t["text"] and t["reason"] for t in data["ai_moves"])
        turns += [mine, *data["ai_moves"]]
        assert game["turns"] == len(turns)
        short = [{k: v for k, v in t.items() if k != "opened"} for t in turns]
        assert game["history"] == short[-50:]
    assert any(t["kind"] == "bomb" and t["player"] == 0 for t in turns), "the person bombed"
    assert game["winner"] in (0, 1) or game["draw"]
    a, b = game["scores"]
    assert max(a, b) > min(a, b) + game["mines_left"] or game["draw"]
    assert client.get(f"/api/flags/{game['id']}").json()["game"] == game

    # off-line replay: the same board, and the AI chooses exactly the moves served
    referee = FlagsGame(Rules(16, 16, 51), seed=seed)
    ai = find_flags_player("hard")
    ai.new_game(derive_seed(seed, 0xF1A6, 1))  # as `minesolver flags --p1 human` seeds it
    for t in turns:
        if t["player"] == 1:
            chosen = ai.choose(referee.view())
            assert (list(chosen.cell), chosen.kind, chosen.reason) == (
                t["cell"], t["kind"], t["reason"])
        turn = referee.play(FlagsMove((t["cell"][0], t["cell"][1]), t["kind"]))
        assert [list(c) for c in turn.opened] == t["opened"]
        assert [list(c) for c in turn.claimed] == t["claimed"]
    expected = flags_game_json(referee)
    assert {k: game[k] for k in expected if k != "last_move"} == {
        k: v for k, v in expected.items() if k != "last_move"}
    # the last turn as played; the referee's moves carry no reasons
    same = ("player", "cell", "kind", "move", "claimed", "opened")
    assert {k: game["last_move"][k] for k in same} == {k: expected["last_move"][k] for k in same}
    assert game["last_move"] == turns[-1]


def test_the_ai_moves_first_and_a_random_seed_stays_secret(
    web: WebState, client: TestClient
) -> None:
    data = new_flags(client, rules="9x9x15", ai="mc", first="ai")
    game = check(web, data, seed_given=False)
    assert game["first"] == 1 and data["ai_moves"] and data["ai_moves"][0]["player"] == 1
    assert game["version"] == len(data["ai_moves"])
    for _ in range(200):  # to the end, checking every response
        if game["over"]:
            break
        data = move(client, game["id"], *simple_rule(game))
        game = check(web, data, seed_given=False)
        shown = client.get(f"/api/flags/{game['id']}").json()
        assert check(web, shown, seed_given=False) == game
    assert game["over"] and game["seed"] is not None and len(game["mine_cells"]) == 15


def test_each_ai_plays(client: TestClient) -> None:
    for ai in ("mc", "exact", "hard", "hard:bomb=off"):
        data = new_flags(client, rules="8x8x12", ai=ai, first="ai", seed=3)
        assert data["game"]["ai"] == ai and data["ai_moves"]


def test_a_long_run_of_the_ai_comes_in_parts() -> None:
    """On a crowded board the AI claims mine after mine (and moves again each time): one
    request plays its moves for at most ``flags_run_seconds`` (0 here: one move), and
    ``POST /api/flags/{id}/ai`` asks for the rest.  The game is the one a single run
    plays, move for move."""
    body = {"rules": "6x6x33", "ai": "exact", "first": "ai", "seed": 14}
    whole = TestClient(create_app()).post("/api/flags", json=body).json()
    assert whole["game"]["over"] and len(whole["ai_moves"]) == 17  # won in one run

    web = WebState(flags_run_seconds=0.0)
    client = TestClient(web.app())
    data = new_flags(client, **body)
    game, turns = data["game"], list(data["ai_moves"])
    assert len(turns) == 1 and game["turn"] == 1 and not game["thinking"]
    gid = game["id"]
    assert_error(client.post(f"/api/flags/{gid}/moves", json={"row": 0, "col": 0}), 409,
                 r"the AI's turn, not yours: POST /api/flags/\{id\}/ai")
    while game["turn"] == 1:
        response = client.post(f"/api/flags/{gid}/ai")
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["move"] is None and len(data["ai_moves"]) == 1
        game = data["game"]
        turns += data["ai_moves"]
        assert game["version"] == len(turns) == entry_of(web, gid).version
    assert turns == whole["ai_moves"]
    assert game == {**whole["game"], "id": gid}
    assert_error(client.post(f"/api/flags/{gid}/ai"), 409, r"the game is over \(the AI won")


# ---------------------------------------------------------------------- refusals
BAD_REQUESTS = [
    ("POST", "/api/flags", b"{not json", 400, "the body is not JSON"),
    ("POST", "/api/flags", {"rules": "nonsense"}, 400, "cannot read rules"),
    ("POST", "/api/flags", {"rules": "201x10x10"}, 400, "at most 200x200"),
    ("POST", "/api/flags", {"rules": "x" * 50}, 400, "too long"),
    ("POST", "/api/flags", {"rules": "9x9x0"}, 400, "at least one mine"),
    ("POST", "/api/flags", {"rules": "3x3x9"}, 400, "do not fit"),
    ("POST", "/api/flags", {"rules": "0x5x1"}, 400, "positive"),
    ("POST", "/api/flags", {"ai": "nope"}, 400, "unknown Flags player 'nope'"),
    ("POST", "/api/flags", {"opponent": "hard"}, 400,
     "unknown field 'opponent': expected rules, ai, first or seed"),
    ("POST", "/api/flags", {"ai": "hard:bogus=1"}, 400, "no option"),
    ("POST", "/api/flags", {"ai": "mc:samples=0"}, 400, "expected 1 to 100000"),
    ("POST", "/api/flags", {"ai": "h" * 300}, 400, "too long"),
    ("POST", "/api/flags", {"ai": 5}, 400, "must be a string"),
    ("POST", "/api/flags", {"first": "me"}, 400, "'first' must be 'you' or 'ai'"),
    ("POST", "/api/flags", {"seed": -1}, 400, "seed"),
    ("POST", "/api/flags", {"seed": "abc"}, 400, "seed"),
    ("POST", "/api/flags/{gid}/moves", {"kind": "flag", "row": 0, "col": 0}, 400, "unknown kind"),
    ("POST", "/api/flags/{gid}/moves", {"kind": "open", "row": 0, "column": 0}, 400,
     "unknown field 'column'"),
    ("POST", "/api/flags/{gid}/moves", {"row": 16, "col": 0}, 400, "'row' must be between"),
    ("POST", "/api/flags/{gid}/moves", {"row": 0, "col": -1}, 400, "'col' must be between"),
    ("POST", "/api/flags/{gid}/moves", {"row": 0}, 400, "'col' is required"),
    ("POST", "/api/flags/{gid}/moves", {"row": "1", "col": 0}, 400, "integer"),
    ("POST", "/api/flags/{gid}/moves", {"kind": "bomb", "row": 0, "col": 0}, 400,
     r"only while behind \(score 0-0\)"),
    ("POST", "/api/flags/{gid}/moves", b"[1]", 400, "JSON object"),
    ("GET", "/api/flags/unknown-id", None, 404, "no Flags game 'unknown-id'"),
    ("POST", "/api/flags/unknown-id/moves", {"row": 0, "col": 0}, 404, "no Flags game"),
    ("DELETE", "/api/flags/{gid}", None, 405, "not allowed"),
    ("GET", "/api/flags", None, 405, "not allowed"),
    ("GET", "/api/flags/{gid}/moves", None, 405, "not allowed"),
    ("POST", "/api/flags/{gid}/ai", None, 409, "it is your turn, not the AI's"),
    ("POST", "/api/flags/{gid}/ai", {"row": 0}, 400, "unknown field 'row'"),
    ("POST", "/api/flags/unknown-id/ai", None, 404, "no Flags game"),
    ("GET", "/api/flags/{gid}/ai", None, 405, "not allowed"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "pattern"), BAD_REQUESTS)
def test_bad_requests_get_a_json_4xx(
    client: TestClient, method: str, path: str, body: Any, status: int, pattern: str
) -> None:
    gid = new_flags(client, seed=1)["game"]["id"]
    path = path.replace("{gid}", gid)
    if isinstance(body, bytes):
        response = client.request(method, path, content=body)
    else:
        response = client.request(method, path, json=body)
    assert_error(response, status, pattern)


def test_moves_out_of_turn_on_open_cells_and_after_the_end(
    web: WebState, client: TestClient
) -> None:
    game = new_flags(client, rules="9x9x10", seed=5, ai="exact")["game"]
    gid = game["id"]
    entry = entry_of(web, gid)
    mines = set(entry.game.layout.mine_cells())
    safe = next((r, c) for r in range(9) for c in range(9) if (r, c) not in mines)
    data = move(client, gid, "open", *safe)
    assert_error(client.post(f"/api/flags/{gid}/moves", json={"row": safe[0], "col": safe[1]}),
                 400, "already open")
    mine = sorted(m for m in mines if entry.game.owner(*m) is None)[0]
    data = move(client, gid, "open", *mine)  # a mine: the person moves again
    assert data["ai_moves"] == [] and data["move"]["claimed"] == [list(mine)]
    assert_error(client.post(f"/api/flags/{gid}/moves", json={"row": mine[0], "col": mine[1]}),
                 400, "already claimed")

    entry.thinking = True  # as while the AI chooses its move in another request
    assert_error(client.post(f"/api/flags/{gid}/moves", json={"row": 0, "col": 0}),
                 409, "still thinking")
    entry.thinking = False
    entry.game.open(*covered_safe(entry.game)[0])  # the person's turn ends here, off the API
    assert_error(client.post(f"/api/flags/{gid}/moves", json={"row": 0, "col": 0}),
                 409, "AI's turn")

    while not entry.game.is_over:  # finish the game off the API
        entry.game.open(*next(m for m in sorted(mines) if entry.game.owner(*m) is None))
    final = client.get(f"/api/flags/{gid}").json()["game"]
    assert final["over"] and final["mine_cells"] is not None
    assert_error(client.post(f"/api/flags/{gid}/moves", json={"row": 0, "col": 0}),
                 409, r"the game is over \(")


def test_the_bomb_once_and_only_while_behind(web: WebState, client: TestClient) -> None:
    gid = new_flags(client, rules="12x12x30", seed=8, ai="exact")["game"]["id"]
    entry = entry_of(web, gid)
    game = entry.game
    mines = sorted(game.layout.mine_cells())
    # the AI claims two mines, then opens a safe cell: the person is behind, 0-2
    game.open(*covered_safe(game)[-1])
    game.open(*mines[-1])
    game.open(*mines[-2])
    game.open(*covered_safe(game)[-1])
    entry.version = len(game.history)
    shown = client.get(f"/api/flags/{gid}").json()["game"]
    assert shown["scores"] == [0, 2] and shown["can_bomb"] == [True, False] and shown["turn"] == 0
    data = move(client, gid, "bomb", 2, 2)
    check(web, data, seed_given=True)
    bomb = data["move"]
    assert bomb["kind"] == "bomb" and bomb["text"] == "bomb around (2, 2)"
    square = {(r, c) for r in range(5) for c in range(5)}
    assert {tuple(c) for c in bomb["opened"] + bomb["claimed"]} <= square
    assert {tuple(c) for c in bomb["claimed"]} == {m for m in mines if m in square}
    assert data["game"]["bombs_used"][0] is True
    if not data["game"]["over"]:
        assert_error(client.post(f"/api/flags/{gid}/moves",
                                 json={"kind": "bomb", "row": 8, "col": 8}),
                     400, "already used your bomb")


def test_an_ai_that_fails_is_replaced_by_a_fallback_move(web: WebState) -> None:
    slow = TestClient(create_app(seconds=0.001))  # no AI move fits in a millisecond
    data = new_flags(slow, rules="6x6x8", ai="hard", first="ai", seed=4)
    moves = data["ai_moves"]
    assert moves and moves[0]["reason"].startswith("fallback, the AI failed (it took longer")
    assert moves[0]["text"].endswith("%")
    game = data["game"]
    if not game["over"]:
        assert game["turn"] == 0
        kind, row, col = simple_rule(game)
        response = slow.post(f"/api/flags/{game['id']}/moves",
                             json={"kind": kind, "row": row, "col": col})
        assert response.status_code == 200, response.text


# ---------------------------------------------------------------------- sessions and limits
def test_flags_games_belong_to_one_browser(web: WebState) -> None:
    alice, mallory = TestClient(web.app()), TestClient(web.app())
    gid = new_flags(alice, seed=1)["game"]["id"]
    assert len(gid) >= 22  # 128 random bits
    mallory.get("/api")
    for method, path in [("GET", f"/api/flags/{gid}"), ("POST", f"/api/flags/{gid}/moves")]:
        body = {"row": 0, "col": 0} if method == "POST" else None
        data = assert_error(mallory.request(method, path, json=body), 404)
        assert data == {"error": f"no Flags game {gid!r} in this session"}
    assert alice.get(f"/api/flags/{gid}").json()["game"]["version"] == 0
    # Play games and Flags games are told apart
    assert_error(alice.get(f"/api/games/{gid}"), 404)


def test_stored_flags_games_are_capped() -> None:
    client = TestClient(create_app(max_games=2))
    ids = [new_flags(client, rules="5x5x3")["game"]["id"] for _ in range(3)]
    assert_error(client.get(f"/api/flags/{ids[0]}"), 404)
    assert client.get(f"/api/flags/{ids[2]}").status_code == 200


def test_meta_lists_the_flags_players(client: TestClient) -> None:
    players = client.get("/api").json()["flags_players"]
    assert [p["name"] for p in players] == ["exact", "hard", "mc"]
    assert all(p["summary"] for p in players)
