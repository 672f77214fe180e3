"""The web API, in-process: games, hints, the solver, watching, analysing, and refusals.

Every request goes through starlette's TestClient with ``raise_server_exceptions``
on, so a bug (a 500) fails the test that triggered it.
"""

from __future__ import annotations

import random
import re
import time
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from support import arbitrary_positions

from minesolver.analysis import InconsistentPositionError, analyze
from minesolver.codes import COVERED
from minesolver.errors import (
    EngineLimitError,
    GameOverError,
    IllegalMoveError,
    LimitError,
    OffBoardError,
)
from minesolver.formats import read_mbf, write_mbf
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.position import Position, PositionError
from minesolver.rules import BEGINNER, Rules, RulesError
from minesolver.serialize import analysis_json
from minesolver.show.palette import NUMBER_RGB, SCALES, hex_colour
from minesolver.strategies import StrategyError
from minesolver.variants.flags import FlagsMove, FlagsMoveError, FlagsOverError, FlagsSetupError
from minesolver.web import WebState, create_app
from minesolver.web.errors import status_of
from minesolver.web.tasks import PROB_DIGITS
from minesolver.web.views.base import STATIC
from minesolver.web.views.games import unflagged

with warnings.catch_warnings():  # starlette would like httpx2, which is not packaged here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web.md"


# ---------------------------------------------------------------------- helpers
@pytest.fixture
def web() -> WebState:
    return WebState()


@pytest.fixture
def client(web: WebState) -> TestClient:
    return TestClient(web.app())


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"rules": "beginner", **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()["game"]
    return game


def act(client: TestClient, gid: str, action: str, row: int, col: int) -> dict[str, Any]:
    body = {"action": action, "row": row, "col": col}
    response = client.post(f"/api/games/{gid}/moves", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def pairs(data: Any) -> set[tuple[int, int]]:
    """Every ``[int, int]`` list anywhere in a JSON value: all the cells it names."""
    found: set[tuple[int, int]] = set()
    if isinstance(data, list):
        if len(data) == 2 and all(type(x) is int for x in data):
            found.add((data[0], data[1]))
        for item in data:
            found |= pairs(item)
    elif isinstance(data, dict):
        for value in data.values():
            found |= pairs(value)
    return found


def server_game(web: WebState, gid: str) -> Game:
    entry = next(e for e in web.games.values() if e.id == gid)
    return entry.game


def assert_no_leak(web: WebState, gid: str, data: dict[str, Any], *, seed: int | None) -> None:
    """Nothing in a response of a running game gives an unrevealed mine away.

    The game JSON is checked against the server's own layout; a hint must be exactly
    the analysis of what the player sees (so it is a function of public information).
    """
    game = server_game(web, gid)
    if game.is_over:
        return
    visible = game.position()
    w = visible.width
    hidden = set()
    if game.layout is not None:
        hidden = {m for m in game.layout.mine_cells() if visible.cells[m[0] * w + m[1]] > 8}
    if "analysis" in data:  # a hint: must be what anyone could compute from the board
        expected = dict(analysis_json(analyze(unflagged(visible)), digits=PROB_DIGITS))
        got = dict(data["analysis"])
        assert got.pop("seconds") >= 0
        expected.pop("seconds")
        assert got == expected
        return
    assert not (pairs(data) & hidden), "a response names an unrevealed mine"
    state = data["game"]
    assert state["mines"] is None and state["wrong_flags"] is None and state["bbbv"] is None
    assert state["position"]["rows"] == visible.to_text().splitlines()[1:]
    for r, c in hidden:
        assert state["position"]["rows"][r][c] in "HF"
    if seed is None:
        assert state["seed"] is None
        assert str(game.seed) not in str(data)


def assert_error(response: Any, status: int, pattern: str = "") -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    data: dict[str, Any] = response.json()
    assert isinstance(data["error"], str) and data["error"]
    if pattern:
        assert re.search(pattern, data["error"]), data["error"]
    return data


def wait_watch(client: TestClient, wid: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        summary: dict[str, Any] = client.get(f"/api/watch/{wid}").json()["watch"]
        if summary["status"] != "running" or time.monotonic() > deadline:
            return summary
        time.sleep(0.05)


# ---------------------------------------------------------------------- the page
def test_meta_lists_presets_strategies_and_limits(client: TestClient) -> None:
    meta = client.get("/api").json()
    assert meta["presets"]["expert"] == "30x16x99"
    assert {"best", "tank"} <= {s["name"] for s in meta["strategies"]}
    assert meta["first_click"] == ["safe", "opening", "none"]
    assert meta["limits"]["max_side"] == 200


def test_page_and_assets_are_served_locally(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        assert client.get(asset).status_code == 200
    for path in STATIC.iterdir():  # no CDN: nothing is fetched from elsewhere
        assert not re.search(r"(?:src|href)=\"https?://|url\(\s*https?://|import .*https?://",
                             path.read_text())


# ---------------------------------------------------------------------- play
def test_a_whole_game_won_through_the_api(web: WebState, client: TestClient) -> None:
    game = new_game(client, seed=12345)
    gid = game["id"]
    assert game["status"] == "ready" and game["seed"] == "12345"
    referee = Game(BEGINNER, seed=12345)  # same seed, same first click: same layout
    referee.reveal(4, 4)
    data = act(client, gid, "reveal", 4, 4)
    assert data["game"]["status"] == "playing"
    assert data["opened"] and [4, 4] in data["opened"]
    mines = set(referee.layout.mine_cells())  # type: ignore[union-attr]
    flagged = next(iter(sorted(mines)))
    data = act(client, gid, "flag", *flagged)
    assert data["game"]["mines_left"] == 9
    while data["game"]["status"] == "playing":
        rows = data["game"]["position"]["rows"]
        cell = next(
            (r, c) for r in range(9) for c in range(9) if rows[r][c] == "H" and (r, c) not in mines
        )
        data = act(client, gid, "reveal", *cell)
    final = data["game"]
    assert final["status"] == "won"
    assert sorted(map(tuple, final["mines"])) == sorted(mines)
    assert final["wrong_flags"] == [] and final["bbbv"] > 0 and final["elapsed"] >= 0
    assert final["mines_left"] == 0  # one mine flagged, every one found
    assert client.get(f"/api/games/{gid}").json()["game"] == final


def test_losing_shows_the_mines_and_the_seed(web: WebState, client: TestClient) -> None:
    game = new_game(client)
    gid = game["id"]
    act(client, gid, "reveal", 0, 0)
    layout = server_game(web, gid).layout
    assert layout is not None
    safe = next(
        (r, c) for r in range(9) for c in range(9)
        if (r, c) not in set(layout.mine_cells()) and not server_game(web, gid).is_revealed(r, c)
    )
    act(client, gid, "flag", *safe)  # a wrong flag, reported after the loss
    data = act(client, gid, "reveal", *layout.mine_cells()[0])
    final = data["game"]
    assert final["status"] == "lost"
    assert final["exploded"] == list(layout.mine_cells()[0])
    assert final["seed"] == str(server_game(web, gid).seed)
    assert final["wrong_flags"] == [list(safe)]
    assert_error(
        client.post(f"/api/games/{gid}/moves", json={"action": "reveal", "row": 0, "col": 1}),
        409, "over",
    )
    assert_error(client.get(f"/api/games/{gid}/hint"), 409, "over")
    assert_error(client.post(f"/api/games/{gid}/solve", json={}), 409, "over")


def test_a_board_file_is_dealt_and_saved_back(client: TestClient) -> None:
    layout = Layout(4, 3, (0, 11))
    response = client.post("/api/games/board?name=two.mbf", content=write_mbf(layout),
                           headers={"content-type": "application/octet-stream"})
    assert response.status_code == 201, response.text
    game = response.json()["game"]
    assert (game["rules"], game["board"], game["seed"]) == ("4x3x2", "two.mbf", None)
    gid = game["id"]
    assert_error(client.get(f"/api/games/{gid}/board.mbf"), 409, "secret")
    data = act(client, gid, "reveal", 0, 0)  # the file's board: no first-click protection
    assert data["game"]["status"] == "lost" and data["game"]["seed"] is None
    saved = client.get(f"/api/games/{gid}/board.mbf")
    assert saved.status_code == 200 and read_mbf(saved.content) == layout
    assert 'filename="two.mbf"' in saved.headers["content-disposition"]
    bad = client.post("/api/games/board", content=bytes([2, 1, 0, 5]),
                      headers={"content-type": "application/octet-stream"})
    assert_error(bad, 400, "MBF")
    two = client.post("/api/games/board", content=write_mbf(layout) * 2,
                      headers={"content-type": "application/octet-stream"})
    assert_error(two, 400, r"bytes after its 4x3 board \(another board\?\)")


@pytest.mark.parametrize(
    ("query", "kept", "plain"),
    [
        ("caf%C3%A9%20%E2%98%83.mbf", "café ☃.mbf", "caf_ _.mbf"),
        ("%0d%0aSet-Cookie:%20x=1", "Set-Cookie: x=1", "Set-Cookie: x=1"),
        ("%22;%20evil=%22", '"; evil="', "_; evil=_"),
        ("..%2F..%2Fetc%2Fboard.mbf", "board.mbf", "board.mbf"),
        ("C:%5Cboards%5Cmine.mbf", "mine.mbf", "mine.mbf"),
        ("%ff", "\ufffd", "_"),
        ("%0a", "board.mbf", "board.mbf"),
    ],
)
def test_any_file_name_is_kept_and_downloads_safely(
    client: TestClient, query: str, kept: str, plain: str
) -> None:
    response = client.post(f"/api/games/board?name={query}", content=write_mbf(Layout(3, 1, (0,))),
                           headers={"content-type": "application/octet-stream"})
    assert response.status_code == 201, response.text
    game = response.json()["game"]
    assert game["board"] == kept
    act(client, game["id"], "reveal", 0, 0)
    saved = client.get(f"/api/games/{game['id']}/board.mbf")
    assert saved.status_code == 200, saved.text
    header = saved.headers["content-disposition"]
    assert header.isascii() and "\r" not in header and "\n" not in header
    assert f'filename="{plain}";' in header
    assert unquote(header.split("filename*=UTF-8''")[1]) == kept


def test_the_solver_plays_a_whole_game(web: WebState, client: TestClient) -> None:
    # seeded: an unseeded board may be lost on the first guess, before any deduction
    gid = new_game(client, rules="intermediate", seed="5")["id"]
    reasons = set()
    for _ in range(500):
        response = client.post(f"/api/games/{gid}/solve", json={"all_deductions": True})
        assert response.status_code == 200, response.text
        data = response.json()
        assert_no_leak(web, gid, data, seed=5)
        moves = data["moves"]
        assert moves and all(m["text"] for m in moves)
        reasons |= {m["reason"] for m in moves}
        if len(moves) > 1:
            assert {m["reason"] for m in moves} == {"deduction"}
        if data["game"]["status"] in ("won", "lost"):
            break
    assert data["game"]["status"] in ("won", "lost")
    assert data["game"]["mines"] is not None
    assert "first" in reasons and "deduction" in reasons


def test_no_response_gives_an_unrevealed_mine_away(web: WebState, client: TestClient) -> None:
    """Reveal, flag (right and wrong), chord, hint and solver moves, checked after each."""
    gid = new_game(client, rules="16x16x40")["id"]
    data = client.get(f"/api/games/{gid}").json()
    assert_no_leak(web, gid, data, seed=None)
    data = act(client, gid, "reveal", 8, 8)
    assert_no_leak(web, gid, data, seed=None)
    for step in range(40):
        game = server_game(web, gid)
        if game.is_over:
            break
        hint = client.get(f"/api/games/{gid}/hint").json()
        assert hint["version"] == data["game"]["version"]
        assert_no_leak(web, gid, hint, seed=None)
        a = hint["analysis"]
        if a["mine"] and step % 3 == 0:  # flag a certain mine, then chord next to it
            r, c = a["mine"][0]
            data = act(client, gid, "flag", r, c)
            assert_no_leak(web, gid, data, seed=None)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if server_game(web, gid).is_over or not (0 <= rr < 16 and 0 <= cc < 16):
                        continue
                    if data["game"]["position"]["rows"][rr][cc] in "12345678":
                        data = act(client, gid, "chord", rr, cc)
                        assert_no_leak(web, gid, data, seed=None)
        elif step % 3 == 1:  # a flag on a covered cell that may well be wrong
            rows = data["game"]["position"]["rows"]
            cell = next(((r, c) for r in range(16) for c in range(16) if rows[r][c] == "H"), None)
            if cell:
                data = act(client, gid, "toggle_flag", *cell)
                assert_no_leak(web, gid, data, seed=None)
        response = client.post(f"/api/games/{gid}/solve", json={"strategy": "tank"})
        assert response.status_code in (200, 409), response.text
        if response.status_code == 200:
            data = response.json()
            assert_no_leak(web, gid, data, seed=None)


def test_flags_do_not_change_the_hint(client: TestClient) -> None:
    gid = new_game(client, seed=5)["id"]
    act(client, gid, "reveal", 4, 4)
    before = client.get(f"/api/games/{gid}/hint").json()["analysis"]
    rows = client.get(f"/api/games/{gid}").json()["game"]["position"]["rows"]
    cell = next((r, c) for r in range(9) for c in range(9) if rows[r][c] == "H")
    act(client, gid, "flag", *cell)
    after = client.get(f"/api/games/{gid}/hint").json()["analysis"]
    before.pop("seconds")
    after.pop("seconds")
    assert before == after


def test_hint_marks_safe_and_mine_cells() -> None:
    a = analysis_json(analyze(Position.from_text("3x2x1\nHHH\n111\n")), digits=PROB_DIGITS)
    assert a["solutions"] == "1" and a["safe"] == [[0, 0], [0, 2]] and a["mine"] == [[0, 1]]
    assert a["prob"] == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    a = analysis_json(analyze(Position.from_text("3x2x1\nHHH\nH1H\n")))
    assert a["solutions"] == "5" and a["prob"][0][0] == 0.2


def test_timer_and_unflag(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert act(client, gid, "flag", 0, 0)["game"]["mines_left"] == 9
    data = act(client, gid, "unflag", 0, 0)
    assert data["game"]["mines_left"] == 10 and data["game"]["elapsed"] == 0
    data = act(client, gid, "reveal", 8, 8)
    assert data["game"]["status"] == "playing"
    assert data["game"]["version"] == 3


def test_a_board_too_dense_for_no_guess_says_so_not_the_server(client: TestClient) -> None:
    gid = new_game(client, rules="9x9x60", no_guess=True)["id"]
    response = client.post(f"/api/games/{gid}/moves", json={"action": "reveal", "row": 4, "col": 4})
    data = assert_error(response, 422, "^no no-guess board found for 9x9x60")
    assert "server" not in data["error"]
    assert client.get(f"/api/games/{gid}").json()["game"]["status"] == "ready"


def test_the_version_counts_changes_only(client: TestClient) -> None:
    gid = new_game(client, seed=7)["id"]
    version = lambda data: data["game"]["version"]  # noqa: E731
    for action in ("unflag", "chord"):  # nothing to unflag, nothing open to chord
        assert version(act(client, gid, action, 0, 0)) == 0
    assert version(act(client, gid, "toggle_flag", 0, 0)) == 1  # flagged
    assert version(act(client, gid, "flag", 0, 0)) == 1  # already flagged
    assert version(act(client, gid, "reveal", 0, 0)) == 1  # a flag is not opened
    assert version(act(client, gid, "toggle_flag", 0, 0)) == 2  # unflagged
    data = act(client, gid, "reveal", 8, 8)
    assert version(data) == 3 and data["opened"]
    assert version(act(client, gid, "reveal", 8, 8)) == 3  # already open


# ---------------------------------------------------------------------- sessions
def test_games_belong_to_one_browser(web: WebState) -> None:
    alice, mallory = TestClient(web.app()), TestClient(web.app())
    first = alice.post("/api/games", json={"rules": "beginner"})
    cookie = first.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    gid = first.json()["game"]["id"]
    assert len(gid) >= 22  # 128 random bits
    assert "set-cookie" not in alice.get(f"/api/games/{gid}").headers  # the cookie is kept
    mallory.get("/api")  # mallory has a session of her own
    for method, path in [
        ("GET", f"/api/games/{gid}"),
        ("POST", f"/api/games/{gid}/moves"),
        ("GET", f"/api/games/{gid}/hint"),
        ("POST", f"/api/games/{gid}/solve"),
    ]:
        body = {"action": "reveal", "row": 0, "col": 0} if method == "POST" else None
        data = assert_error(mallory.request(method, path, json=body), 404)
        assert data == {"error": f"no game {gid!r} in this session"}
    assert alice.get(f"/api/games/{gid}").json()["game"]["status"] == "ready"

    wid = alice.post("/api/watch", json={"rules": "beginner", "seed": 1}).json()["watch"]["id"]
    wait_watch(alice, wid)
    for path in [f"/api/watch/{wid}", f"/api/watch/{wid}/steps/0", f"/api/watch/{wid}/gif"]:
        assert_error(mallory.get(path), 404)
    with mallory.websocket_connect(f"/api/watch/{wid}/ws") as ws:
        assert "error" in ws.receive_json()


def test_a_forged_cookie_gets_a_fresh_session(web: WebState) -> None:
    client = TestClient(web.app())
    client.cookies.set("minesolver_session", "guess")
    response = client.get("/api")
    assert "minesolver_session=" in response.headers["set-cookie"]
    assert "guess" not in response.headers["set-cookie"]


def test_stored_games_are_capped() -> None:
    client = TestClient(create_app(max_games=3))
    ids = [new_game(client)["id"] for _ in range(4)]
    assert_error(client.get(f"/api/games/{ids[0]}"), 404)
    assert client.get(f"/api/games/{ids[3]}").status_code == 200


# ---------------------------------------------------------------------- watch
def test_watch_a_game_step_by_step(client: TestClient) -> None:
    response = client.post(
        "/api/watch", json={"rules": "expert", "seed": 3, "strategy": "best", "start": "center"}
    )
    assert response.status_code == 201
    summary = wait_watch(client, response.json()["watch"]["id"])
    wid, n = summary["id"], summary["steps"]
    assert summary["status"] == "done" and summary["start"] == [8, 15] and summary["seed"] == "3"
    assert summary["result"]["clicks"] > 0
    steps = [client.get(f"/api/watch/{wid}/steps/{i}").json()["step"] for i in range(n)]
    assert steps[0]["moves"][0]["reason"] == "first" and steps[0]["analysis"] is None
    reasons = {m["reason"] for s in steps[1:-1] for m in s["moves"]}
    assert reasons <= {"deduction", "guess", "forced", "fifty", "region", "endgame"}
    for step in steps[1:-1]:
        a = step["analysis"]
        assert len(a["prob"]) == 16 and len(a["prob"][0]) == 30
        front_cells = [tuple(c) for f in a["fronts"] for c in f["cells"]]
        assert len(front_cells) == len(set(front_cells))  # each cell in one front
        for m in step["moves"]:
            assert m["text"] and (m["probability"] is None or 0 <= m["probability"] <= 1)
    end = steps[-1]
    assert end["outcome"] == ("won" if summary["result"]["won"] else "lost")
    assert len(end["mines"]) == 99
    assert_error(client.get(f"/api/watch/{wid}/steps/{n}"), 404, f"has {n} steps")
    gif = client.get(f"/api/watch/{wid}/gif")
    assert gif.status_code == 200 and gif.headers["content-type"] == "image/gif"
    assert gif.content[:6] == b"GIF89a"
    # the same seed and strategy replay the same game
    again = client.post("/api/watch", json={"rules": "expert", "seed": 3, "start": "center"})
    replay = wait_watch(client, again.json()["watch"]["id"])
    last = client.get(f"/api/watch/{replay['id']}/steps/{replay['steps'] - 1}").json()["step"]
    assert last["position"] == end["position"]


def test_the_websocket_pushes_the_summary_until_the_end(client: TestClient) -> None:
    wid = client.post("/api/watch", json={"rules": "30x30x150", "seed": 9}).json()["watch"]["id"]
    seen = []
    with client.websocket_connect(f"/api/watch/{wid}/ws") as ws:
        while True:
            summary = ws.receive_json()["watch"]
            seen.append(summary)
            if summary["status"] != "running":
                break
    assert seen[-1] == client.get(f"/api/watch/{wid}").json()["watch"]
    assert seen[-1]["result"]["seed"] == seen[-1]["seed"] == "9"  # strings: past 2**53 too
    counts = [s["steps"] for s in seen]
    assert counts == sorted(counts)


def test_websocket_from_another_origin_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
        "/api/watch/x/ws", headers={"origin": "http://evil.example"}
    ) as ws:
        ws.receive_json()


def test_watch_limits() -> None:
    busy = TestClient(create_app(max_playing=0))
    assert_error(busy.post("/api/watch", json={"rules": "beginner"}), 429, "wait")
    full = TestClient(create_app(max_playing_total=0))
    assert_error(full.post("/api/watch", json={"rules": "beginner"}), 429, "on this server")


def test_watch_slots_are_per_session() -> None:
    app = create_app(max_playing=1)
    first, second = TestClient(app), TestClient(app)
    slow = {"rules": "200x200x8000", "strategy": "best"}
    started = first.post("/api/watch", json=slow)
    assert started.status_code == 201
    assert_error(first.post("/api/watch", json=slow), 429, "your watched games")
    assert second.post("/api/watch", json={"rules": "beginner"}).status_code == 201
    for watch in app.state.web.watches.values():  # stop the slow game's process now
        watch.cancelled = True
    client = TestClient(create_app())
    wid = client.post("/api/watch", json={"rules": "101x101x10"}).json()["watch"]["id"]
    assert wait_watch(client, wid)["status"] == "done"
    assert_error(client.get(f"/api/watch/{wid}/gif"), 422, "limited to boards of 10000 cells")


def test_a_watch_past_its_time_fails_and_an_evicted_one_stops() -> None:
    client = TestClient(create_app(watch_seconds=0.001))
    wid = client.post("/api/watch", json={"rules": "expert"}).json()["watch"]["id"]
    summary = wait_watch(client, wid)
    assert summary["status"] == "failed" and "longer than" in summary["error"]

    web = WebState(max_watches=1)
    client = TestClient(web.app())
    client.post("/api/watch", json={"rules": "100x100x2000", "seed": 1})
    first = web.watches.values()[0]
    second = client.post("/api/watch", json={"rules": "beginner"}).json()["watch"]["id"]
    assert_error(client.get(f"/api/watch/{first.id}"), 404)
    deadline = time.monotonic() + 30
    while first.status == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert first.status == "cancelled"
    assert wait_watch(client, second)["status"] == "done"


def test_a_running_watch_has_no_gif_yet(web: WebState, client: TestClient) -> None:
    wid = client.post("/api/watch", json={"rules": "beginner"}).json()["watch"]["id"]
    watch = next(w for w in web.watches.values() if w.id == wid)
    wait_watch(client, wid)
    watch.status = "running"  # as it was while playing
    assert_error(client.get(f"/api/watch/{wid}/gif"), 409, "running")
    assert_error(client.get(f"/api/watch/{wid}/steps/999"), 409, "not played yet")
    watch.status = "done"


# ---------------------------------------------------------------------- analyse
EXAMPLE = "5x3x3\nHHHHH\n12H21\n01110\n"


def test_analyse_text_json_and_grid_agree(client: TestClient) -> None:
    expected = dict(analysis_json(analyze(Position.from_text(EXAMPLE)), digits=PROB_DIGITS))
    expected.pop("seconds")
    answers = [
        client.post("/api/analyse", content=EXAMPLE, headers={"content-type": "text/plain"}),
        # saved by Windows Notepad as "UTF-8 with BOM": read as the CLI reads it
        client.post("/api/analyse", content=b"\xef\xbb\xbf" + EXAMPLE.encode(),
                    headers={"content-type": "text/plain"}),
        client.post("/api/analyse", json={"text": EXAMPLE}),
        client.post(
            "/api/analyse",
            json={"position": {"width": 5, "height": 3, "mines": 3, "rows": EXAMPLE.split()[1:]}},
        ),
        # a media type is read in any case; curl's default form type and no type at all
        # were 'the body is not JSON: extra data at character 1'
        client.post("/api/analyse", content=EXAMPLE,
                    headers={"content-type": "Text/Plain; charset=UTF-8"}),
        client.post("/api/analyse", content=EXAMPLE,
                    headers={"content-type": "application/x-www-form-urlencoded"}),
        client.post("/api/analyse", content=EXAMPLE.encode()),
    ]
    for response in answers:
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["text"] == EXAMPLE
        assert data["position"]["rows"] == ["HHHHH", "12H21", "01110"]
        data["analysis"].pop("seconds")
        assert data["analysis"] == expected


def test_inconsistent_positions_name_the_clue(client: TestClient) -> None:
    data = assert_error(client.post("/api/analyse", json={"text": "3x1x1\n1H2\n"}), 422, "clue")
    assert data["clue"] == [0, 2]
    assert data["position"]["rows"] == ["1H2"] and data["text"] == "3x1x1\n1H2\n"
    data = assert_error(client.post("/api/analyse", json={"text": "2x2x9\nHH\nH1\n"}), 422)
    assert "clue" in data


def test_convert_a_painted_grid_to_mine_text(client: TestClient) -> None:
    grid = {"width": 3, "height": 2, "mines": 1, "rows": ["1OH", "11H"]}
    data = client.post("/api/positions", json={"position": grid}).json()
    assert data["text"] == "3x2x1\n1FH\n11H\n"
    inconsistent = {"width": 2, "height": 1, "mines": 0, "rows": ["1H"]}
    assert client.post("/api/positions", json={"position": inconsistent}).status_code == 200


def test_huge_layout_counts_are_exact(client: TestClient) -> None:
    text = "200x200x8000\n" + ("H" * 200 + "\n") * 200
    data = client.post("/api/analyse", json={"text": text}).json()
    assert len(data["analysis"]["solutions"]) > 4300  # beyond Python's default str() limit
    assert data["analysis"]["prob"][0][0] == 0.2


def scattered(width: int, height: int, seed: int) -> str:
    """A consistent position with clues scattered all over: wide fronts, hard to count."""
    rnd = random.Random(seed)
    mines = {i for i in range(width * height) if rnd.random() < 0.2}
    cells = bytearray([COVERED]) * (width * height)
    for i in range(width * height):
        if i not in mines and rnd.random() < 0.3:
            r, c = divmod(i, width)
            cells[i] = sum(
                (rr * width + cc) in mines
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if 0 <= rr < height and 0 <= cc < width
            )
    return Position(width, height, len(mines), bytes(cells)).to_text()


class _BigOverTime(WebState):
    """The real server, whose calls on positions over 30 cells wide get a 1 ms limit (the
    sandbox's real time limit, hit however fast the machine is); small ones the default."""

    async def run(self, func: Any, *args: Any, seconds: float | None = None) -> Any:
        if args and isinstance(args[0], Position) and args[0].width > 30:
            seconds = 0.001
        return await super().run(func, *args, seconds=seconds)


def test_too_hard_positions_get_a_422_and_the_server_lives_on() -> None:
    client = TestClient(create_app(memory=256 << 20))
    data = assert_error(client.post("/api/analyse", json={"text": scattered(60, 60, 1)}), 422)
    assert "too hard" in data["error"] and "memory" in data["error"]
    slow = TestClient(_BigOverTime().app())
    # counts within the memory budget, in about 1 s: far past a 1 ms limit on any machine
    data = assert_error(slow.post("/api/analyse", json={"text": scattered(38, 38, 2)}), 422)
    assert "longer than the server's limit of 0.001 s" in data["error"]
    for survivor in (client, slow):  # the broken workers were replaced
        assert survivor.post("/api/analyse", json={"text": EXAMPLE}).status_code == 200


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(position=arbitrary_positions())
def test_analyse_never_fails_on_any_position(position: Position) -> None:
    client = TestClient(create_app())
    response = client.post("/api/analyse", json={"text": position.to_text()})
    try:
        analyze(position)
        assert response.status_code == 200
    except InconsistentPositionError:
        assert response.status_code == 422


# ---------------------------------------------------------------------- refusals
BAD_REQUESTS = [
    ("POST", "/api/games", b"{not json", 400, "^the body is not JSON: expecting property name"),
    ("POST", "/api/games", b"[1, 2]", 400, "JSON object"),
    ("POST", "/api/games", {"rules": "nonsense"}, 400, "cannot read rules"),
    ("POST", "/api/games", {"rules": 99}, 400, "must be a string"),
    ("POST", "/api/games", {"rules": "201x10x10"}, 400, "at most 200x200"),
    # past the core's own limit (Rules.MAX_CELLS) before the server's 200x200 is checked
    ("POST", "/api/games", {"rules": "99999999x99999999x1"}, 400, "too large: at most 16,000,000"),
    ("POST", "/api/games", {"rules": "4000x4000x1"}, 400, "at most 200x200"),
    ("POST", "/api/games", {"rules": "9x9x81"}, 400, "do not fit"),
    ("POST", "/api/games", {"rules": "9x9x10", "first_click": "lucky"}, 400, "first_click"),
    ("POST", "/api/games", {"seed": -1}, 400, "seed"),
    ("POST", "/api/games", {"seed": 2**64}, 400, "seed"),
    ("POST", "/api/games", {"seed": "12abc"}, 400, "seed"),
    # a misspelt or made-up field is refused, not ignored (its default would be used)
    ("POST", "/api/games", {"width": 9, "height": 9}, 400,
     "unknown field 'width': expected rules, first_click, no_guess or seed"),
    ("POST", "/api/games", {"rules": "beginner", "sede": 7}, 400, "unknown field 'sede'"),
    ("POST", "/api/games/{gid}/moves", {"action": "reveal", "row": 0, "col": 0, "r": 1}, 400,
     "unknown field 'r'"),
    ("POST", "/api/games/{gid}/solve", {"all": True}, 400, "unknown field 'all'"),
    ("POST", "/api/watch", {"stratgy": "random"}, 400, "unknown field 'stratgy'"),
    ("POST", "/api/analyse", {"txt": "3x1x1\n1HH\n"}, 400, "unknown field 'txt'"),
    ("POST", "/api/analyse", {"position": {"width": 2, "height": 1, "mines": 0, "rows": ["HH"],
                                           "flags": []}}, 400, "unknown field 'flags'"),
    ("POST", "/api/positions", {"text": "3x1x1\n1HH\n", "to": "mbf"}, 400, "unknown field 'to'"),
    ("POST", "/api/games", {"seed": True}, 400, "seed"),
    ("POST", "/api/games", {"seed": 1.5}, 400, "seed"),
    ("POST", "/api/games/{gid}/moves", {"action": "explode", "row": 0, "col": 0}, 400, "action"),
    ("POST", "/api/games/{gid}/moves", {"action": "reveal", "row": 9, "col": 0}, 400, "row"),
    ("POST", "/api/games/{gid}/moves", {"action": "reveal", "row": 0}, 400, "'col' is required"),
    ("POST", "/api/games/{gid}/moves", {"action": "reveal", "row": "1", "col": 0}, 400, "integer"),
    ("POST", "/api/games/{gid}/moves", {"action": "reveal", "row": True, "col": 0}, 400, "integer"),
    ("POST", "/api/games/{gid}/moves", {"action": "reveal", "row": -1, "col": 0}, 400, "row"),
    ("POST", "/api/games/{gid}/solve", {"strategy": "nope"}, 400, "unknown strategy"),
    ("POST", "/api/games/{gid}/solve", {"strategy": "best:bogus=1"}, 400, "no option"),
    ("POST", "/api/games/{gid}/solve", {"all_deductions": "yes"}, 400, "true or false"),
    ("GET", "/api/games/unknown-id", None, 404, "no game"),
    ("GET", "/api/games/unknown-id/hint", None, 404, "no game"),
    ("DELETE", "/api/games/{gid}", None, 405, "not allowed"),
    ("GET", "/api/games", None, 405, "not allowed"),
    ("PUT", "/api/analyse", None, 405, "not allowed"),
    ("GET", "/api/nothing-here", None, 404, "nothing at"),
    ("POST", "/api/watch", {"strategy": "nope"}, 400, "unknown strategy"),
    ("POST", "/api/watch", {"rules": "500x500x1"}, 400, "at most 200x200"),
    ("POST", "/api/watch", {"start": "middle"}, 400, "start"),
    ("POST", "/api/watch", {"start": [99, 99]}, 400, "off the"),
    ("POST", "/api/watch", {"start": 5}, 400, "start"),
    ("GET", "/api/watch/unknown-id", None, 404, "no watched game"),
    ("GET", "/api/watch/unknown-id/steps/0", None, 404, "no watched game"),
    ("GET", "/api/watch/unknown-id/gif", None, 404, "no watched game"),
    ("POST", "/api/analyse", {"text": "3x1x1\n1x2\n"}, 400, r"line 2, column 2: .*'x'"),
    ("POST", "/api/analyse", {"text": "3x1x1\n1H\n"}, 400, "line 2: expected 3 characters"),
    ("POST", "/api/analyse", {"text": ""}, 400, "empty"),
    ("POST", "/api/analyse", {"text": 5}, 400, "must be a string"),
    ("POST", "/api/analyse", {"text": "300x1x1\n" + "H" * 300}, 400, "at most 200x200"),
    ("POST", "/api/analyse", {}, 400, "expected"),
    ("POST", "/api/analyse", {"text": "2x1x0\nHH\n", "position": {"width": 2, "height": 1,
     "mines": 0, "rows": ["HH"]}}, 400, "not both"),
    ("POST", "/api/analyse", {"position": {"width": 1, "height": 2, "mines": 0,
     "rows": ["H\nH"]}}, 400, "row 0 holds a line break"),
    ("POST", "/api/analyse", {"position": {"width": 2, "height": 1, "mines": 0}}, 400, "rows"),
    ("POST", "/api/analyse", {"position": {"width": 2, "height": 1, "mines": 0, "rows": [5]}},
     400, "rows"),
    ("POST", "/api/analyse", {"position": {"width": 201, "height": 1, "mines": 0, "rows": []}},
     400, "width"),
    ("POST", "/api/analyse", {"position": {"width": 2, "height": 2, "mines": 0, "rows": ["HH"]}},
     400, "expected 2 rows"),
    ("POST", "/api/positions", {"position": "HH"}, 400, "expected"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "pattern"), BAD_REQUESTS)
def test_bad_requests_get_a_json_4xx(
    client: TestClient, method: str, path: str, body: Any, status: int, pattern: str
) -> None:
    gid = new_game(client)["id"]
    path = path.replace("{gid}", gid)
    if isinstance(body, bytes):
        response = client.request(method, path, content=body)
    else:
        response = client.request(method, path, json=body)
    assert_error(response, status, pattern)


def test_bodies_are_capped(client: TestClient) -> None:
    big = b'{"text": "' + b"H" * (1 << 20) + b'"}'
    assert_error(client.post("/api/analyse", content=big), 413, "larger than the limit")

    def chunks() -> Any:  # no content-length: the cap applies while it streams
        for _ in range(40):
            yield b"H" * 50_000

    assert_error(client.post("/api/analyse", content=chunks(),
                             headers={"content-type": "text/plain"}), 413)
    bad = b"\xff\xfe not utf-8"
    assert_error(client.post("/api/analyse", content=bad,
                             headers={"content-type": "text/plain"}), 400)


# ---------------------------------------------------------------------- docs and CLI
def test_every_endpoint_is_documented(client: TestClient) -> None:
    docs = DOCS.read_text()
    documented = set(re.findall(r"^### `(GET|POST|WS) (/\S*)`", docs, flags=re.M))
    served = set()
    for route in client.app.routes:  # type: ignore[attr-defined]
        path = getattr(route, "path", "")
        if path.startswith("/static"):
            continue
        methods = getattr(route, "methods", None) or {"WS"}
        for method in methods - {"HEAD"}:
            served.add((method, re.sub(r":\w+\}", "}", path)))
    assert served - documented == set(), "undocumented endpoints"
    assert documented - served == set(), "documented endpoints that do not exist"


# ---------------------------------------------------------------------- the error table
def test_core_errors_map_to_statuses_by_one_table() -> None:
    cases = [
        (InconsistentPositionError("clue 2 at (0, 2) cannot be met", clue=(0, 2)), 422),
        (PositionError("line 2: expected 3 characters"), 400),
        (RulesError("cannot read rules 'big'"), 400),
        (OffBoardError("cell (9, 9) is off the 9x9 board"), 400),
        (StrategyError("unknown strategy 'nope'"), 400),
        (FlagsSetupError("cannot read move 'x'"), 400),
        (GameOverError("the game is over (won)"), 409),
        (FlagsOverError("the game is over (a draw)"), 409),
        (IllegalMoveError("cell (0, 0) is already open"), 400),
        (FlagsMoveError("P1 has already used the bomb"), 400),
        (LimitError("it took longer than the server's limit of 30 s"), 422),
        (EngineLimitError("front 1 is 80 clues wide"), 422),
        (ValueError("a bug"), 500),
        (RuntimeError("a bug"), 500),
    ]
    for error, status in cases:
        assert status_of(error) == status, type(error).__name__


def test_the_sandbox_returns_core_errors_as_themselves() -> None:
    web = WebState()
    call = web.sandbox.call
    with pytest.raises(InconsistentPositionError) as info:
        call(analyze, Position.from_text("3x1x1\n1H2\n"))
    assert info.value.clue == (0, 2)
    with pytest.raises(RulesError, match="cannot read rules 'big'"):
        call(Rules.from_string, "big")
    with pytest.raises(FlagsSetupError, match="cannot read move"):
        call(FlagsMove.from_text, "nowhere")
    # anything else is a bug of the worker's: named, not passed off as the user's fault
    with pytest.raises(RuntimeError, match="worker failed: ValueError: invalid literal"):
        call(int, "twelve")
    assert call(sum, [1, 2, 3]) == 6  # the worker lives on


def test_meta_serves_the_palette(client: TestClient) -> None:
    palette = client.get("/api").json()["palette"]
    numbers = palette["numbers"]
    assert len(numbers) == 9 and all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in numbers)
    assert numbers[1:] == [hex_colour(NUMBER_RGB[n]) for n in range(1, 9)]
    assert set(palette["scales"]) == set(SCALES) and palette["scales"]


def test_analyse_counts_flags_among_the_certain_mines(client: TestClient) -> None:
    # the CLI and the web share one analysis shape: "mine" matches prob = 1, flags included
    data = client.post("/api/analyse", json={"text": "4x1x2\nF2H1\n"}).json()
    a = data["analysis"]
    assert a["mine"] == [[0, 0], [0, 2]]
    assert a["prob"][0][0] == a["prob"][0][2] == 1.0
    assert a == {**analysis_json(analyze(Position.from_text("4x1x2\nF2H1\n")), digits=5),
                 "seconds": a["seconds"]}


def test_the_end_of_a_lost_watched_game_names_the_exploded_mine(client: TestClient) -> None:
    for seed in range(1, 30):
        response = client.post("/api/watch", json={"rules": "8x8x20", "seed": seed,
                                                    "strategy": "random"})
        summary = wait_watch(client, response.json()["watch"]["id"])
        if not summary["result"]["won"]:
            break
    else:
        pytest.fail("random never lost")
    end = client.get(f"/api/watch/{summary['id']}/steps/{summary['steps'] - 1}").json()["step"]
    assert end["outcome"] == "lost"
    assert end["exploded"] in end["mines"]
    assert end["exploded"] == summary["result"]["exploded"]
    r, c = end["exploded"]
    assert end["position"]["rows"][r][c] == "M"  # the exploded mine shows as a mine
    steps = [client.get(f"/api/watch/{summary['id']}/steps/{i}").json()["step"]
             for i in range(summary["steps"] - 1)]
    assert all(s["exploded"] is None and s["outcome"] is None for s in steps)
    assert end["exploded"] in [m["cell"] for m in steps[-1]["moves"]]
