"""Minesweeper Flags: two players race to claim the mines.

* :mod:`.game`: the game itself, on the same minefield as the classic game;
* :mod:`.players`: AI players found by name (``mc``, ``exact``), :mod:`.hard` the
  strongest (``hard``) and :mod:`.endgame` its exact endgame search;
* :mod:`.match`: one game between two players.

Importing this package registers every built-in player.

>>> find_flags_player("hard").name
'hard'
"""

from . import hard
from .endgame import FlagsEndgame, best_flags_move
from .game import (
    BOMB_SIZE,
    FLAGS,
    FlagsError,
    FlagsGame,
    FlagsMove,
    FlagsMoveError,
    FlagsOverError,
    FlagsPlayerError,
    FlagsSetupError,
    FlagsTurn,
    FlagsView,
    bomb_square,
)
from .match import PLAYER_SALT, FlagsRecord, play_flags
from .players import (
    FLAGS_PLAYERS,
    FlagsPlayer,
    find_flags_player,
    likeliest_cells,
    naive_density,
    register_flags_player,
)

__all__ = [
    "BOMB_SIZE",
    "FLAGS",
    "FLAGS_PLAYERS",
    "PLAYER_SALT",
    "FlagsEndgame",
    "FlagsError",
    "FlagsGame",
    "FlagsMove",
    "FlagsMoveError",
    "FlagsOverError",
    "FlagsPlayer",
    "FlagsPlayerError",
    "FlagsRecord",
    "FlagsSetupError",
    "FlagsTurn",
    "FlagsView",
    "best_flags_move",
    "bomb_square",
    "find_flags_player",
    "hard",
    "likeliest_cells",
    "naive_density",
    "play_flags",
    "register_flags_player",
]
