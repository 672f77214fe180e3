"""Variants of the game that reuse the one exact engine.

* :mod:`.flags`: Minesweeper Flags, a two-player race to claim the mines;
  :mod:`.flags_players` its AI players, :mod:`.flags_match` AI-vs-AI matches.

Noisy clues live in the core (:mod:`minesolver.noise`, ``Rules(..., noise=...)``)
because every strategy and command plays them.
"""

from .flags import (
    FLAGS,
    FlagsError,
    FlagsGame,
    FlagsMove,
    FlagsTurn,
    FlagsView,
)

__all__ = ["FLAGS", "FlagsError", "FlagsGame", "FlagsMove", "FlagsTurn", "FlagsView"]
