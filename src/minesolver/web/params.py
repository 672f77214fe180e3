"""Reading requests: JSON bodies and their fields, checked, with messages that quote them.

Every reader raises :class:`~.errors.ApiError` (400) on bad input, so a view can
read its fields in a few lines and never meet a ``KeyError`` or ``TypeError``.

>>> read_int({"row": 3}, "row", low=0, high=8)
3
>>> read_int({"row": "3"}, "row")
Traceback (most recent call last):
...
minesolver.web.errors.ApiError: field 'row' must be an integer, got '3'
"""

from __future__ import annotations

import re
from typing import Any, get_args

from starlette.requests import Request

from ..formats import json_kind
from ..formats import read_json as parse_json
from ..rules import FirstClick, Rules
from .errors import ApiError

__all__ = [
    "check_fields",
    "check_size",
    "read_body",
    "read_cell",
    "read_file_name",
    "read_int",
    "read_json",
    "read_rules",
    "read_seed",
    "read_str",
]

_MISSING = object()
SEED_LIMIT = 2**64


async def read_body(request: Request) -> bytes:
    """The raw body (the size cap is enforced by the middleware while it streams in)."""
    return await request.body()


async def read_json(request: Request, fields: tuple[str, ...]) -> dict[str, Any]:
    """The body as a JSON object with no field but ``fields``
    (:func:`check_fields`); an empty body reads as ``{}``."""
    raw = await read_body(request)
    if not raw.strip():
        return {}
    try:
        data = parse_json(raw)
    except ValueError as exc:  # "not JSON: ...", "not UTF-8 text ...", or why not
        why = str(exc)
        raise ApiError(400, f"the body is {why}" if why.startswith("not ")
                       else f"the body is not valid JSON: {why}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"body must be a JSON object, got {json_kind(data)}")
    check_fields(data, fields)
    return data


def check_fields(body: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Refuse a field that is not one of ``fields``: a misspelt name would otherwise
    be ignored without a word, and its default used instead.

    >>> check_fields({"rules": "expert"}, ("rules", "seed"))
    >>> check_fields({"rules": "expert", "sed": 7}, ("rules", "seed"))
    Traceback (most recent call last):
    ...
    minesolver.web.errors.ApiError: unknown field 'sed': expected rules or seed
    """
    unknown = [name for name in body if name not in fields]
    if unknown:
        expected = (", ".join(fields[:-1]) + " or " + fields[-1] if len(fields) > 1
                    else fields[0] if fields else "no fields")
        raise ApiError(400, f"unknown field {unknown[0][:40]!r}: expected {expected}")


def read_int(
    body: dict[str, Any],
    name: str,
    *,
    default: Any = _MISSING,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    """An integer field within ``[low, high]``; ``default`` when absent (or null)."""
    value = body.get(name)
    if value is None:
        if default is _MISSING:
            raise ApiError(400, f"field {name!r} is required")
        return default
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, f"field {name!r} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiError(400, f"field {name!r} must be between {low} and {high}, got {value}")
    return value


def read_str(body: dict[str, Any], name: str, *, default: Any = _MISSING) -> Any:
    """A string field; ``default`` when absent (or null)."""
    value = body.get(name)
    if value is None:
        if default is _MISSING:
            raise ApiError(400, f"field {name!r} is required")
        return default
    if not isinstance(value, str):
        raise ApiError(400, f"field {name!r} must be a string, got {value!r}")
    return value


def read_rules(body: dict[str, Any], *, max_side: int) -> Rules:
    """``rules`` (a preset name or ``WxHxM``), ``first_click`` and ``no_guess``, within
    the size cap.

    >>> read_rules({"rules": "9x9x10", "first_click": "opening"}, max_side=200)
    Rules(9, 9, 10, first_click='opening')
    >>> read_rules({"rules": "beginner", "no_guess": True}, max_side=200)
    Rules(9, 9, 10, first_click='safe', no_guess=True)
    """
    no_guess = body.get("no_guess", False)
    if not isinstance(no_guess, bool):
        raise ApiError(400, f"field 'no_guess' must be true or false, got {no_guess!r}")
    first_click = read_str(body, "first_click", default="safe")
    if first_click not in get_args(FirstClick):
        choices = ", ".join(get_args(FirstClick))
        raise ApiError(400, f"unknown first_click {first_click!r}: expected one of {choices}")
    text = read_str(body, "rules", default="expert")
    if len(text) > 40:
        raise ApiError(400, f"cannot read rules {text[:40]!r}...: too long")
    rules = Rules.from_string(text, first_click=first_click, no_guess=no_guess)  # RulesError: 400
    check_size(rules.width, rules.height, max_side)
    return rules


def check_size(width: int, height: int, max_side: int) -> None:
    """Refuse boards wider or taller than the web app's cap."""
    if width > max_side or height > max_side:
        raise ApiError(
            400,
            f"board {width}x{height} is larger than this server allows: "
            f"at most {max_side}x{max_side}",
        )


def read_cell(body: dict[str, Any], width: int, height: int) -> tuple[int, int]:
    """``row`` and ``col``, on the board."""
    row = read_int(body, "row", low=0, high=height - 1)
    col = read_int(body, "col", low=0, high=width - 1)
    return (row, col)


def read_seed(body: dict[str, Any]) -> int | None:
    """An optional board seed, ``0 <= seed < 2**64``: an integer or a decimal string.

    Strings let JavaScript send seeds above 2**53 without rounding them.

    >>> read_seed({"seed": "18446744073709551615"}), read_seed({})
    (18446744073709551615, None)
    """
    value = body.get("seed")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if not text.isdecimal() or len(text) > 20:
            raise ApiError(400, f"field 'seed' must be a whole number, got {value!r}")
        body = {"seed": int(text)}
    seed: int | None = read_int(body, "seed", default=None, low=0, high=SEED_LIMIT - 1)
    return seed


def read_file_name(request: Request, default: str | None = None, *, limit: int = 200) -> str:
    """The ``name`` query parameter: the name of the file in the body, as a browser
    gives it (a folder part and control characters dropped).  Missing or empty: the
    ``default``, or a 400 when there is none.

    >>> from starlette.requests import Request
    >>> read_file_name(Request({"type": "http", "query_string": b"name=..%2Fx%0D%0A.mbf"}))
    'x.mbf'
    """
    given = request.query_params.get("name", "")
    name = re.sub(r"[\x00-\x1f\x7f]", "", given.replace("\\", "/").rsplit("/", 1)[-1]).strip()
    if not name:
        if default is None:
            raise ApiError(400, "give the file's name in the query: ?name=game.avf")
        return default
    if len(name) > limit:
        raise ApiError(400, f"the file's name is too long (at most {limit} characters)")
    return name
