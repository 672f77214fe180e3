"""Monte-Carlo rollouts: which of a few guesses wins most often when the game is
played out on layouts drawn exactly from the position.

The lookahead of :mod:`.best` sees two moves ahead; most expert games are lost to
guesses made long after.  :func:`rollout_values` plays each candidate guess to the
end of the game on the *same* layouts (drawn exactly by
:func:`~minesolver.analysis.sampling.sample_layouts`, so the comparison is paired),
with a cheap policy (:func:`playout`): every certainly safe cell first, else the
safest cell, corner-like cells first among equals; or with a strategy of the
caller's (``policy``: ``best`` hands over a copy of itself without rollouts), ten
times dearer but the player the values are for.

A candidate's value is its exact safety times the share of playouts it won among
the layouts where it is safe: the chance of surviving the click is known, so only
what follows it is estimated (fewer draws for the same noise).

>>> from minesolver.position import Position
>>> from minesolver.rng import SplitMix64
>>> position = Position.from_text("3x1x1\\n1HH\\n")
>>> [v.value for v in rollout_values(position, [1, 2], 8, SplitMix64(1))]
[0.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..analysis.floats import board as float_board
from ..analysis.floats import probabilities
from ..analysis.sampling import sample_layouts
from ..codes import COVERED
from ..geometry import neighbour_sum
from ..minefield import HIDDEN, OPEN, Layout, Minefield
from ..position import Position
from ..rng import SplitMix64
from ..rules import Rules
from .base import Strategy

__all__ = ["RolloutValue", "playout", "rollout_values"]


@dataclass(frozen=True)
class RolloutValue:
    """One candidate's rollouts: ``value`` = exact safety x ``won`` / ``played``
    (``played`` the layouts in which the cell is safe)."""

    cell: int
    safety: float
    won: int
    played: int

    @property
    def value(self) -> float:
        """The estimated chance of winning the game after opening the cell."""
        return self.safety * self.won / self.played if self.played else 0.0


def rollout_values(
    position: Position,
    cells: list[int],
    layouts: int,
    rng: SplitMix64,
    *,
    policy: Strategy | None = None,
) -> list[RolloutValue]:
    """Play each of ``cells`` (flat indices) out on the same ``layouts`` exact draws,
    by the cheap policy or by ``policy`` (a strategy that has seen ``new_game``: each
    playout starts it on a new game of the same rules).

    The safety of each cell is the share of *all* consistent layouts, from the
    exact float probabilities, not the share among the draws."""
    prob = probabilities(position).ravel()
    rules = Rules(position.width, position.height, position.mines, first_click="none")
    if policy is not None and policy.rules is not None:
        rules = policy.rules
    drawn = sample_layouts(position, layouts, rng)
    won = [0] * len(cells)
    played = [0] * len(cells)
    state = bytearray(OPEN if code <= 8 else HIDDEN for code in position.cells)
    for mines in drawn:
        layout = Layout(position.width, position.height, tuple(sorted(mines)))
        for k, cell in enumerate(cells):
            if cell in mines:
                continue
            played[k] += 1
            field = Minefield(layout, bytearray(state))
            if policy is not None:
                policy.new_game(rules, rng.below(2**31))
            won[k] += playout(position, field, cell, policy)
    return [
        RolloutValue(cell, 1.0 - float(prob[cell]), w, n)
        for cell, w, n in zip(cells, won, played, strict=True)
    ]


def playout(
    position: Position, field: Minefield, first: int, policy: Strategy | None = None
) -> bool:
    """Open ``first`` on ``field`` (the layout behind ``position``, its open cells
    open), then play the cheap policy (or ``policy``'s moves) to the end: True when
    the game is won.

    Certainly safe cells are those whose float probability is zero (exact up to
    :data:`~minesolver.analysis.floats.EXACT_ZERO_CELLS` cells; past it a playout
    may open a cell of probability 1e-300 as safe, which costs it only this
    playout).  A policy whose moves open nothing loses the playout (no endless loop).

    >>> from minesolver.minefield import Layout, Minefield
    >>> position = Position.covered(4, 1, 1)
    >>> playout(position, Minefield(Layout(4, 1, (3,))), 0)  # opens 0-2: won
    True
    """
    width, height, mines = position.width, position.height, position.mines
    cells = bytearray(position.cells)
    count = field.count
    todo = [first]
    while True:
        left = field.safe_left
        for index in todo:
            if field.is_mine(index):
                return False
            for opened in field.open(index):
                cells[opened] = count[opened]
        if field.safe_left == 0:
            return True
        if field.safe_left == left:
            return False  # nothing opened: a policy that asks for open cells
        now = Position(width, height, mines, bytes(cells))
        if policy is not None:
            todo = [
                row * width + col
                for (row, col), action in ((m.cell, m.action) for m in policy.moves(now))
                if action == "reveal"
            ]
            if not todo:
                return False  # a policy that only flags or chords here: not for playouts
            continue
        found = float_board(now)
        prob = found.prob if found is not None else probabilities(now).ravel()
        covered = np.frombuffer(cells, dtype=np.uint8) == COVERED
        safe = np.flatnonzero(covered & (prob == 0.0))
        if safe.size:
            todo = safe.tolist()
            continue
        risk = np.where(covered & (prob < 1.0), prob, 2.0)
        lowest = np.flatnonzero(risk <= risk.min() + 1e-12)
        if lowest.size > 1:  # corner-like first: the fewer covered neighbours, the likelier a zero
            around = neighbour_sum(covered.reshape(height, width)).ravel()[lowest]
            lowest = lowest[around == around.min()]
        todo = [int(lowest[0])]
