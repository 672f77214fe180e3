"""One Minesweeper Flags game between two AI players, start to end.

Each player's own random choices are seeded from the game seed and its seat,
so a game replays exactly, in any worker, in any order.

>>> from minesolver.rules import Rules
>>> from minesolver.variants.flags import find_flags_player
>>> record = play_flags(Rules(6, 6, 7), find_flags_player("exact"),
...                     find_flags_player("mc"), seed=3, first=0)
>>> sum(record.scores) >= 4
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ...rng import derive_seed
from ...rules import Rules
from .game import FlagsGame, FlagsTurn
from .players import FlagsPlayer

__all__ = ["PLAYER_SALT", "FlagsRecord", "play_flags"]

PLAYER_SALT = 0xF1A6  # a player's seed is derive_seed(game seed, PLAYER_SALT, seat)


@dataclass(frozen=True)
class FlagsRecord:
    """The outcome of one game: ``scores[s]`` and ``seconds[s]`` for seat ``s``."""

    rules: Rules
    seed: int
    first: int
    winner: int | None
    scores: tuple[int, int]
    moves: int
    bombs_used: tuple[bool, bool]
    seconds: tuple[float, float]
    history: tuple[FlagsTurn, ...]


Observer = Callable[[FlagsGame, FlagsTurn], None]


def play_flags(
    rules: Rules,
    p1: FlagsPlayer,
    p2: FlagsPlayer,
    *,
    seed: int,
    first: int = 0,
    observer: Observer | None = None,
) -> FlagsRecord:
    """Play one game, ``p1`` in seat 0 and ``p2`` in seat 1, to its end."""
    game = FlagsGame(rules, seed=seed, first=first)
    players = (p1, p2)
    for seat, player in enumerate(players):
        player.new_game(derive_seed(seed, PLAYER_SALT, seat))
    seconds = [0.0, 0.0]
    while game.turn is not None:
        seat = game.turn
        started = time.perf_counter()
        move = players[seat].choose(game.view())
        seconds[seat] += time.perf_counter() - started
        turn = game.play(move)
        if observer is not None:
            observer(game, turn)
    return FlagsRecord(
        rules=game.rules,
        seed=seed,
        first=first,
        winner=game.winner,
        scores=game.scores,
        moves=len(game.history),
        bombs_used=game.bombs_used,
        seconds=(seconds[0], seconds[1]),
        history=tuple(game.history),
    )
