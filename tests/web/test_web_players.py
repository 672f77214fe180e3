"""The web API for players: advice in Analyse, reviews of uploaded games (in-process)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from support import REPLAYS, WALL_FIFTY_FIFTY, log_of

from minesolver.advice import advise
from minesolver.position import Position
from minesolver.replay import read_replay_bytes
from minesolver.review import review_game
from minesolver.rules import BEGINNER, Rules
from minesolver.web import create_app
from minesolver.web.app import WebState
from minesolver.web.tasks import advice_of

T = TypeVar("T")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_analyse_serves_advice_beside_the_probabilities(client: TestClient) -> None:
    text = WALL_FIFTY_FIFTY
    data = client.post("/api/analyse", json={"text": text}).json()
    advice = advise(Position.from_text(text))
    assert advice is not None
    assert data["advice"]["cell"] == list(advice.cell)
    assert data["advice"]["reason"] == "forced" and data["advice"]["text"] == advice.text
    assert data["pairs"] == [[[0, 0], [1, 0]]]
    assert len(data["zero"]) == 2 and len(data["zero"][0]) == 20
    assert data["advice_error"] is None and data["skipped"] is None
    assert "prob" in data["analysis"]


def test_analyse_of_a_finished_position_has_no_advice(client: TestClient) -> None:
    data = client.post("/api/analyse", json={"text": "3x1x1\n1F1\n"}).json()
    assert data["advice"] is None and data["analysis"]["mine"] == [[0, 1]]


class _AdviceOverTime(WebState):
    """The real server, whose advice calls get a time limit no survey of 40,000 cells can
    meet (1 ms): the limit is hit on any machine, however fast or idle."""

    async def run(self, func: Callable[..., T], *args: Any, seconds: float | None = None) -> T:
        if func is advice_of:
            seconds = 0.001
        return await super().run(func, *args, seconds=seconds)


def test_advice_that_breaks_the_limits_still_serves_the_probabilities() -> None:
    slow = TestClient(_AdviceOverTime().app())
    text = Position.covered(200, 200, 20000).to_text()
    data = slow.post("/api/analyse", json={"text": text}).json()
    assert data["analysis"]["prob"][0][0] == 0.5
    assert data["advice"] is None and data["zero"] is None
    assert data["advice_error"].startswith("no advice:") and "limit" in data["advice_error"]


def test_review_of_a_replay(client: TestClient) -> None:
    pytest.importorskip("ms_toollib")
    data = (REPLAYS / "test_rmv2_24px.rmv").read_bytes()
    response = client.post("/api/review?name=game.rmv", content=data)
    assert response.status_code == 200, response.text
    review = response.json()["review"]
    expected = review_game(read_replay_bytes(data, "game.rmv"))
    assert review["bbbv"] == expected.stats.bbbv and review["seconds"] == 1.849
    assert len(review["clicks"]) == len(expected.clicks)
    for click, judged in zip(review["clicks"], expected.clicks, strict=True):
        assert click["position"] == judged.seen.to_text().splitlines()[1:]
        assert click["cell"] == list(judged.cell)


def test_review_of_a_play_log(client: TestClient) -> None:
    text, record = log_of(BEGINNER, "random", 4)
    response = client.post("/api/review?name=game.jsonl", content=text.encode())
    assert response.status_code == 200, response.text
    review = response.json()["review"]
    assert review["won"] == record.won and review["guesses"] == record.guesses


@pytest.mark.parametrize(
    ("path", "body", "needle"),
    [
        ("/api/review", b"data", "name"),
        ("/api/review?name=game.avf", b"", "empty"),
        ("/api/review?name=game.txt", b"hello", "not a replay"),
        ("/api/review?name=game.jsonl", b'{"index": 0}\n', "no result line"),
        ("/api/review?name=" + "x" * 300, b"data", "too long"),
    ],
)
def test_review_refusals(client: TestClient, path: str, body: bytes, needle: str) -> None:
    response = client.post(path, content=body)
    assert response.status_code == 400
    assert needle in response.json()["error"]


def test_a_review_of_a_board_past_the_cap_is_a_400(client: TestClient) -> None:
    text, _ = log_of(Rules.from_string("201x3x10"), "random", 1)
    response = client.post("/api/review?name=wide.jsonl", content=text.encode())
    assert response.status_code == 400
    assert "board 201x3 is larger than allowed here: at most 200x200" in response.json()["error"]


def test_a_tiny_log_of_a_huge_board_is_refused_before_the_board_is_built(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 300 bytes naming a 4000x4000 game: the server built and flooded it (3 GB) first
    def never(*_: object, **__: object) -> None:
        raise AssertionError("the board was built")

    monkeypatch.setattr("minesolver.replay.Layout.from_cells", never)
    text = ('{"index": 0, "position": {"width": 4000, "height": 4000, "mines": 1, "rows": []}, '
            '"moves": [{"cell": [3999, 3999], "action": "reveal"}], "opened": []}\n'
            '{"result": {"rules": "4000x4000x1", "won": false, "seconds": 0.1}, '
            '"mines": [[0, 0]]}\n')
    response = client.post("/api/review?name=big.jsonl", content=text.encode())
    assert response.status_code == 400
    assert "board 4000x4000 is larger than allowed here" in response.json()["error"]


def test_a_damaged_replay_is_a_400_and_the_server_lives_on(client: TestClient) -> None:
    pytest.importorskip("ms_toollib")
    data = (REPLAYS / "beg_15.52_3bv24.avf").read_bytes()
    response = client.post("/api/review?name=cut.avf", content=data[:300])
    assert response.status_code == 400 and "cut.avf" in response.json()["error"]
    assert client.post("/api/review?name=whole.avf", content=data).status_code == 200


# ---------------------------------------------------------------------- no-guess games
def test_a_no_guess_game_is_the_seeds_no_guess_board(client: TestClient) -> None:
    from minesolver.minefield import Layout
    from minesolver.noguess import no_guess_layout
    from minesolver.rules import Rules

    body = {"rules": "16x16x40", "first_click": "opening", "no_guess": True, "seed": "99"}
    game = client.post("/api/games", json=body).json()["game"]
    assert game["no_guess"] is True and game["status"] == "ready"
    gid = game["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "reveal", "row": 5, "col": 7})
    while True:  # the solver opens every safe cell until the end: no guess is ever needed
        data = client.post(f"/api/games/{gid}/solve", json={"all_deductions": True}).json()
        assert all(m["reason"] == "deduction" for m in data["moves"]), data["moves"]
        if data["game"]["status"] != "playing":
            break
    assert data["game"]["status"] == "won"
    rules = Rules(16, 16, 40, first_click="opening", no_guess=True)
    expected = no_guess_layout(rules, 99, 5 * 16 + 7)
    assert Layout.from_cells(16, 16, [tuple(m) for m in data["game"]["mines"]]) == expected


def test_no_guess_refusals(client: TestClient) -> None:
    response = client.post("/api/games", json={"rules": "9x9x10", "no_guess": "yes"})
    assert response.status_code == 400 and "no_guess" in response.json()["error"]
    response = client.post("/api/games", json={"first_click": "none", "no_guess": True})
    assert response.status_code == 400 and "protected first click" in response.json()["error"]
    gid = client.post("/api/games", json={"rules": "8x8x40", "first_click": "opening",
                                          "no_guess": True}).json()["game"]["id"]
    response = client.post(f"/api/games/{gid}/moves", json={"action": "reveal", "row": 0,
                                                            "col": 0})
    assert response.status_code == 422 and "ask for fewer mines" in response.json()["error"]
    game = client.get(f"/api/games/{gid}").json()["game"]
    assert game["status"] == "ready"  # nothing was laid: the player may start again


@pytest.mark.parametrize(("rules", "status"), [("16x16x40", 200), ("8x8x40", 422)])
def test_a_solver_first_move_on_a_flag_finds_the_board_in_the_sandbox(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, rules: str, status: int
) -> None:
    # the corner flagged, the solver's first move took the flag off and the board was
    # searched in the server's own process: a dense one froze every request for its time
    def in_process(*_: object) -> None:
        raise AssertionError("a no-guess board was searched in the server's process")

    monkeypatch.setattr("minesolver.web.state.no_guess_layout", in_process)
    gid = client.post("/api/games", json={"rules": rules, "first_click": "opening",
                                          "no_guess": True, "seed": 3}).json()["game"]["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "flag", "row": 0, "col": 0})
    response = client.post(f"/api/games/{gid}/solve", json={})
    assert response.status_code == status, response.json()
    if status == 422:
        assert "ask for fewer mines" in response.json()["error"]
    else:
        assert response.json()["game"]["status"] in ("playing", "won")

