"""Every bad request is refused cleanly: a generated corpus over every endpoint.

Each endpoint is described once by the fields of its JSON body (:data:`ENDPOINTS`);
each kind of field by bad values (:data:`BAD`), plus values of every wrong JSON type.
A case sets one field of a valid body to one bad value.  Then bodies that are not
JSON objects at all, unknown ids, wrong methods.  Every answer must be a 4xx with a
JSON ``{"error": "..."}`` naming what is wrong in a line of reasonable length, and
the server must keep serving.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette would like httpx2, which is not packaged here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from minesolver.web import create_app

HUGE = int("9" * 60)
# (null is not among them: for an optional field it means the default)
WRONG_TYPES: list[Any] = [[], {}, [1, 2], {"a": 1}, True, 1.5, -1, HUGE, "x" * 5000]

BAD: dict[str, list[Any]] = {
    "rules": ["0x0x0", "99999x99999x1", "1x99999999999999999999x1", "abc", "", "9x9x81",
              "201x10x5", "9x9x-1", "9" * 5000, 5, [], {"w": 9}],
    "first_click": ["maybe", "", 3, []],
    "seed": [-1, 2**64, "abc", 1.5, HUGE, [], {}, "9" * 5000],
    "row": [-1, 9, 10**30, "a", None, 1.5, [], HUGE],
    "col": [-1, 9, 10**30, "a", None, 1.5, [], HUGE],
    "action": ["explode", "", None, 3, []],
    "strategy": ["nosuch", "best:depth=-1", "best:breadth=0", "best:cutoff=nan", "best:depth=5",
                 "best:nope=1", "x" * 5000, 7, []],
    "all_deductions": ["yes", 3, [], None],
    "start": ["9,99", "a,b", "middle", -1, [], None, [1, 2, 3], ["a", "b"], [99, 99]],
    "ai": ["nosuch", "hard:zero_samples=0", "mc:samples=0", "human", 5],
    "first": ["p3", 1],
    "kind": ["nuke", 1],
    "text": ["", "3x3x1\n00Z\n011\n01H\n", "3x3x1\n000\n031\n01H\n", "999x999x1\nH\n",
             "9" * 5000 + "x3x1\nHHH\n", 5, None, []],
    "no_guess": ["yes", 3, []],
}


VALID = {"no_guess": [True], "all_deductions": [True], "start": [[1, 2]]}


def _fields(*names: str) -> dict[str, list[Any]]:
    return {
        name: BAD[name] + [v for v in WRONG_TYPES
                           if v not in BAD[name] and v not in VALID.get(name, [])]
        for name in names
    }


# endpoint -> (valid body, {field: bad values}); "{game}" / "{flags}" are made per test
ENDPOINTS: dict[str, tuple[dict[str, Any], dict[str, list[Any]]]] = {
    "/api/games": ({"rules": "9x9x10", "seed": 1},
                   _fields("rules", "first_click", "seed", "no_guess")),
    "/api/games/{game}/moves": ({"action": "reveal", "row": 0, "col": 0},
                                _fields("action", "row", "col")),
    "/api/games/{game}/solve": ({"strategy": "best"}, _fields("strategy", "all_deductions")),
    "/api/analyse": ({"text": "3x3x1\n000\n011\n01H\n"}, _fields("text")),
    "/api/watch": ({"rules": "9x9x10", "seed": 1},
                   _fields("rules", "strategy", "seed", "start")),
    "/api/flags": ({"rules": "8x8x10", "ai": "mc", "seed": 1}, _fields("rules", "ai", "first",
                                                                       "seed")),
    "/api/flags/{flags}/moves": ({"kind": "open", "row": 0, "col": 0},
                                 _fields("kind", "row", "col")),
    "/api/flags/{flags}/ai": ({}, {}),  # no fields: the raw bodies below
}

# the watch endpoint starts a game when the body is valid: keep it to bad values only
CASES = [
    (path, field, index, value)
    for path, (_, fields) in ENDPOINTS.items()
    for field, values in fields.items()
    for index, value in enumerate(values)
]
RAW_BODIES = [b"{", b"[]", b"3", b'"text"', b"null", b"\xff\xfe", b"{" * 100_000,
              b'{"rules": ' + b"9" * 5000 + b"}", b'{"seed": NaN}', b"{'rules': 1}"]
OTHER = [
    ("GET", "/api/games/nosuchgame", None),
    ("POST", "/api/games/nosuchgame/moves", {"action": "reveal", "row": 0, "col": 0}),
    ("GET", "/api/games/nosuchgame/hint", None),
    ("GET", "/api/watch/nosuchwatch", None),
    ("GET", "/api/watch/nosuchwatch/steps/0", None),
    ("GET", "/api/watch/nosuchwatch/gif", None),
    ("GET", "/api/flags/nosuchflags", None),
    ("POST", "/api/flags/nosuchflags/ai", None),
    ("POST", "/api/flags/nosuchflags/ai", {"go": True}),
    ("DELETE", "/api/games", None),
    ("PUT", "/api/analyse", None),
    ("GET", "/api/nothing-here", None),
    ("POST", "/api/review", None),
    ("POST", "/api/review?name=game.avf", None),
    ("POST", "/api/positions", {"text": 5}),
]


@pytest.fixture(scope="module")
def client() -> TestClient:
    with TestClient(create_app(max_side=200)) as client:
        yield client


def _path(client: TestClient, path: str) -> str:
    if "{game}" in path:
        game = client.post("/api/games", json={"rules": "9x9x10", "seed": 1}).json()["game"]
        return path.replace("{game}", game["id"])
    if "{flags}" in path:
        game = client.post("/api/flags", json={"rules": "8x8x10", "ai": "mc", "seed": 1})
        return path.replace("{flags}", game.json()["game"]["id"])
    return path


def _check(response: Any) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    data = response.json()
    assert isinstance(data, dict) and isinstance(data.get("error"), str), data
    assert data["error"] and len(data["error"]) < 400, data["error"][:300]
    assert "Traceback" not in data["error"]
    for python in ("NoneType", "<class", "'utf-8' codec", "Expecting value"):  # Python's words
        assert python not in data["error"], data["error"]


def test_the_corpus_covers_every_body_endpoint_with_a_few_hundred_cases():
    assert len(CASES) + len(RAW_BODIES) * len(ENDPOINTS) + len(OTHER) >= 250


@pytest.mark.parametrize(("path", "field", "index", "value"), CASES,
                         ids=[f"{p}-{f}-{i}" for p, f, _, i in
                              [(c[0], c[1], c[3], c[2]) for c in CASES]])
def test_a_bad_field_is_a_4xx_with_a_json_error(client, path, field, index, value):
    body, _ = ENDPOINTS[path]
    response = client.post(_path(client, path), json={**body, field: value})
    _check(response)


@pytest.mark.parametrize("raw", RAW_BODIES, ids=[f"raw{i}" for i in range(len(RAW_BODIES))])
@pytest.mark.parametrize("path", list(ENDPOINTS))
def test_a_body_that_is_not_a_json_object_is_a_400(client, path, raw):
    response = client.post(_path(client, path), content=raw,
                           headers={"content-type": "application/json"})
    _check(response)


@pytest.mark.parametrize(("method", "path", "body"), OTHER,
                         ids=[f"{m} {p}" for m, p, _ in OTHER])
def test_unknown_ids_and_wrong_methods_are_json_4xx(client, method, path, body):
    response = client.request(method, path, json=body)
    _check(response)


def test_the_server_keeps_serving_after_the_corpus(client):
    assert client.post("/api/games", json={"rules": "9x9x10", "seed": 1}).status_code == 201
