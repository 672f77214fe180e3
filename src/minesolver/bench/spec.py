"""What a run was asked to do: typed, and written as JSON only when it is stored.

A run plays ``games`` games at each of its *points* (the rules: board, mine count,
first-click rule, noise model), with every strategy, on boards seeded from the run
seed, so that it can be resumed and replayed exactly.  A bench has one point; a
sweep has one per density, first-click rule and noise model; a Flags match has
one point and two players.

>>> from minesolver.rules import EXPERT
>>> spec = RunSpec(points=(EXPERT,), strategies=("best",), games=10, seed=1)
>>> RunSpec.from_json(spec.to_json()) == spec
True
>>> spec.rules_for(3)
Rules(30, 16, 99, first_click='safe')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, make_whole
from ..formats import read_json
from ..play import Start, format_start, parse_start
from ..rules import Rules

__all__ = ["MAX_GAMES", "RunSpec", "rules_from_json", "rules_json"]

MAX_GAMES = 100_000_000  # games per point: the most any command plays (bench --games)


@dataclass(frozen=True)
class RunSpec:
    """Everything needed to (re)play a run exactly.

    ``points``: the rules of each point, ``games`` games each (game ``i`` is
    played at point ``i // games``); ``start``: the first click (``None`` for
    Flags, which has none); ``layouts``: a layout file whose boards are played
    instead of seeded ones.
    """

    points: tuple[Rules, ...]
    strategies: tuple[str, ...]
    games: int
    seed: int
    start: Start | None = "corner"
    layouts: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        make_whole(self, ("games", "seed"), InputError, "the run's ")
        if not self.points:
            raise InputError("a run needs at least one point (rules)")
        if not 1 <= self.games <= MAX_GAMES:
            raise InputError(f"a run plays 1 to {MAX_GAMES:,} games per point, got {self.games}")
        if not 0 <= self.seed < 2**64:
            raise InputError(f"a run's seed is from 0 to 2**64 - 1, got {self.seed}")

    @property
    def rules(self) -> Rules:
        """The rules of the first point (the only one, unless this is a sweep)."""
        return self.points[0]

    @property
    def total_games(self) -> int:
        """Games per strategy over the whole run."""
        return self.games * len(self.points)

    @property
    def all_games(self) -> int:
        """Games over every strategy: what a finished run has stored."""
        return self.total_games * len(self.strategies)

    def point_of(self, game_index: int) -> int:
        """Which point game ``game_index`` belongs to."""
        return game_index // self.games

    def rules_for(self, game_index: int) -> Rules:
        """The rules game ``game_index`` of this run is played under."""
        return self.points[self.point_of(game_index)]

    # ------------------------------------------------------------------ storing
    def to_json(self) -> str:
        """The spec as stored in the results store."""
        data = {
            "points": [rules_json(rules) for rules in self.points],
            "strategies": list(self.strategies),
            "games": self.games,
            "seed": self.seed,
            "start": None if self.start is None else format_start(self.start),
            "layouts": self.layouts,
            "extra": self.extra,
        }
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RunSpec:
        """Read a stored spec (also the shape of minesolver 0.1's stores)."""
        try:
            data = read_json(text)
            if "rules" in data:  # 0.1: rules, first_click, noise, and string points
                data = _upgrade(data)
            start = data.get("start")
            return cls(
                points=tuple(rules_from_json(p) for p in data["points"]),
                strategies=tuple(str(s) for s in data["strategies"]),
                games=data["games"],
                seed=data["seed"],
                start=None if start in (None, "-") else parse_start(str(start)),
                layouts=data.get("layouts"),
                extra=dict(data.get("extra") or {}),
            )
        except (ValueError, KeyError, TypeError, AttributeError, InputError) as exc:
            what = f"no {exc.args[0]!r}" if isinstance(exc, KeyError) else exc
            raise InputError(f"the stored run record is damaged: {what}") from None


def rules_json(rules: Rules) -> dict[str, Any]:
    """Rules as JSON: ``{"rules": "30x16x99", "first_click": "safe", "noise": null,
    "no_guess": false}``."""
    return {
        "rules": str(rules),
        "first_click": rules.first_click,
        "noise": rules.noise_text,
        "no_guess": rules.no_guess,
    }


def rules_from_json(data: dict[str, Any]) -> Rules:
    """The inverse of :func:`rules_json` (runs stored before no-guess boards have no
    ``no_guess``: they are not no-guess)."""
    return Rules.from_string(
        str(data["rules"]), first_click=data.get("first_click", "safe"), noise=data.get("noise"),
        no_guess=bool(data.get("no_guess", False)),
    )


def _upgrade(old: dict[str, Any]) -> dict[str, Any]:
    points = old.get("points") or [[old["rules"], old["first_click"], old.get("noise") or ""]]
    return {
        **old,
        "points": [
            {"rules": p[0], "first_click": p[1], "noise": (p[2] if len(p) > 2 else "") or None}
            for p in points
        ],
    }

