"""AI-vs-AI Minesweeper Flags matches: games in parallel, stored, summarised.

A match is a stored run of kind ``flags`` whose spec names the two players
(``strategies=(p1, p2)``).  Game ``i`` is played on the board of seed
``derive_seed(run_seed, i)``; p1 sits in seat 0 and moves first in even games,
p2 in odd games, so both players open equally often.  Each player's own random
choices are seeded from the game seed and its seat (:mod:`minesolver.variants.flags.match`),
so a killed match resumes where it stopped with the same games.

>>> flags_summary([])["games"]
0
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from .. import __version__
from ..rng import derive_seed
from ..rules import Rules
from ..variants.flags import FLAGS, FlagsGame, FlagsPlayer, find_flags_player, play_flags
from .pool import run_chunks
from .stats import wilson
from .store import FlagsRow, RunSpec, Store

__all__ = [
    "flags_spec",
    "flags_summary",
    "pending_flags",
    "play_flags_chunk",
    "run_flags",
    "sampling_rates",
]

CHUNK = 2  # games per task


def flags_spec(p1: str, p2: str, *, games: int, seed: int, rules: Rules = FLAGS) -> RunSpec:
    """The stored spec of a match (checks that both players exist and that a game can
    be set up on ``rules``, before anything is stored)."""
    find_flags_player(p1)
    find_flags_player(p2)
    FlagsGame(rules.with_first_click("none"), seed=seed)  # FlagsSetupError if it cannot
    return RunSpec(points=(rules.with_first_click("none"),), strategies=(p1, p2), games=games,
                   seed=seed, start=None)


def pending_flags(spec: RunSpec, done: set[int]) -> list[int]:
    """Game indices of a match not yet in the store."""
    return [i for i in range(spec.games) if i not in done]


_PLAYERS: dict[str, FlagsPlayer] = {}  # built once per worker process


def _player(name: str) -> FlagsPlayer:
    player = _PLAYERS.get(name)
    if player is None:
        player = _PLAYERS[name] = find_flags_player(name)
    return player


def play_flags_chunk(spec: RunSpec, run_id: str, indices: Sequence[int]) -> list[FlagsRow]:
    """Play some games of a match (a task for a worker process)."""
    rules = spec.rules
    p1, p2 = spec.strategies
    rows = []
    for index in indices:
        seed = derive_seed(spec.seed, index)
        # the same name twice must still be two players with their own state
        first_player = _player(p1)
        second_player = find_flags_player(p2) if p2 == p1 else _player(p2)
        record = play_flags(rules, first_player, second_player, seed=seed, first=index % 2)
        rows.append(
            FlagsRow(
                run_id=run_id, game_index=index, seed=seed, rules=str(rules), p1=p1, p2=p2,
                first=record.first, winner=record.winner, p1_score=record.scores[0],
                p2_score=record.scores[1], moves=record.moves, p1_bomb=record.bombs_used[0],
                p2_bomb=record.bombs_used[1], p1_seconds=record.seconds[0],
                p2_seconds=record.seconds[1], version=__version__,
                extra=_work(first_player, second_player),
            )
        )
    return rows


def _work(p1: FlagsPlayer, p2: FlagsPlayer) -> str | None:
    """What each player did beyond its moves (:meth:`FlagsPlayer.work`), as stored."""
    work = {seat: w for seat, w in (("p1", p1.work()), ("p2", p2.work())) if w}
    return json.dumps(work) if work else None


def sampling_rates(rows: Sequence[FlagsRow]) -> dict[str, float | None]:
    """Boards sampled per second of sampling by each side (``None``: it samples none).

    >>> sampling_rates([])
    {'p1_boards_per_second': None, 'p2_boards_per_second': None}
    """
    out: dict[str, float | None] = {}
    for seat in ("p1", "p2"):
        boards = seconds = 0.0
        for row in rows:
            work = json.loads(row.extra).get(seat) if row.extra else None
            if work:
                boards += work["boards"]
                seconds += work["sampling_seconds"]
        out[f"{seat}_boards_per_second"] = boards / seconds if seconds else None
    return out


def run_flags(
    spec: RunSpec,
    run_id: str,
    store: Store,
    indices: list[int],
    *,
    workers: int | None = None,
    on_game: Callable[[FlagsRow], None] | None = None,
    chunk: int = CHUNK,
) -> None:
    """Play the games ``indices`` of a match on ``workers`` processes (default: all
    cores; 1 plays here), storing each chunk as it finishes."""
    def finish(rows: list[FlagsRow]) -> None:
        store.add_flags_games(rows)
        if on_game is not None:
            for row in rows:
                on_game(row)

    run_chunks(play_flags_chunk, (spec, run_id), indices, workers=workers, chunk=chunk,
               finish=finish)


def _share(total: float, games: int) -> float | None:
    """``total`` per game, or ``None`` over no games (nothing measured, not 0)."""
    return total / games if games else None


def flags_summary(rows: Sequence[FlagsRow]) -> dict[str, Any]:
    """Wins of each side, p1's win rate with its 95% Wilson interval, and more.

    A draw (possible only with an even mine count) is a win for neither.

    >>> flags_summary([])["games"]
    0
    """
    games = len(rows)
    p1_wins = sum(1 for r in rows if r.winner == 0)
    p2_wins = sum(1 for r in rows if r.winner == 1)
    lo, hi = wilson(p1_wins, games)
    first = [r for r in rows if r.first == 0]
    return {
        "games": games,
        "p1_wins": p1_wins,
        "p2_wins": p2_wins,
        "draws": games - p1_wins - p2_wins,
        "p1_win_rate": _share(p1_wins, games),
        "ci95": [lo, hi],
        "p1_win_rate_moving_first": _share(sum(1 for r in first if r.winner == 0), len(first)),
        "p1_win_rate_moving_second": _share(
            sum(1 for r in rows if r.first == 1 and r.winner == 0), games - len(first)
        ),
        "p1_mean_score": _share(sum(r.p1_score for r in rows), games),
        "p2_mean_score": _share(sum(r.p2_score for r in rows), games),
        "p1_bomb_rate": _share(sum(r.p1_bomb for r in rows), games),
        "p2_bomb_rate": _share(sum(r.p2_bomb for r in rows), games),
        "moves_per_game": _share(sum(r.moves for r in rows), games),
        "p1_ms_per_game": _share(1000 * sum(r.p1_seconds for r in rows), games),
        "p2_ms_per_game": _share(1000 * sum(r.p2_seconds for r in rows), games),
        **sampling_rates(rows),
    }
