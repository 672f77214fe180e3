"""Variants of the game that reuse the one exact engine.

* :mod:`.flags`: Minesweeper Flags, a two-player race to claim the mines.

Noisy clues live in the core (:mod:`minesolver.noise`, ``Rules(..., noise=...)``)
because every strategy and command plays them.
"""
