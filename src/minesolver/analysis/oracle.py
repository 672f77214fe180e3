"""The brute-force oracle: enumerate every layout of a small position.

This is minesolver's *perft*: it shares no code with the engine beyond reading
the position, and the engine must equal it exactly wherever it can be run.

>>> from minesolver.position import Position
>>> solutions, probs = brute_force(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n"))
>>> solutions, probs[4]
(3, Fraction(2, 3))
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb

from ..codes import BLANK, COVERED, FLAG, MINE
from ..position import Position

__all__ = ["brute_force"]

# likelihood(shown, true mines around, neighbours, covered neighbours) -> weight
Likelihood = Callable[[int, int, int, int], Fraction | int]


def brute_force(
    position: Position,
    *,
    likelihood: Likelihood | None = None,
    limit: int = 5_000_000,
) -> tuple[Fraction | int, list[Fraction]]:
    """Total weight of consistent layouts and the exact mine probability of each cell.

    With ``likelihood`` the revealed cells are noisy: a layout weighs the product
    over revealed cells (numbers and blanks) of
    ``likelihood(shown, true count, neighbour count, covered neighbour count)``.
    Raises ``ValueError`` if there are more than ``limit`` layouts to try, and
    ``ZeroDivisionError``-free: an inconsistent position returns weight 0 and
    probabilities of 0.
    """
    w, h = position.width, position.height
    cells = position.cells
    unknown = [i for i, c in enumerate(cells) if c == COVERED]
    known = [i for i, c in enumerate(cells) if c in (FLAG, MINE)]
    left = position.mines - len(known)
    if left < 0 or left > len(unknown):
        return 0, [Fraction(0)] * (w * h)
    if comb(len(unknown), left) > limit:
        raise ValueError(f"{comb(len(unknown), left)} layouts is more than the limit {limit}")
    around = []
    for i in range(w * h):
        r, c = divmod(i, w)
        around.append(
            [
                rr * w + cc
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if 0 <= rr < h and 0 <= cc < w and (rr, cc) != (r, c)
            ]
        )
    numbers = [i for i, c in enumerate(cells) if c <= 8 or (likelihood and c == BLANK)]
    covered_around = [sum(1 for j in around[i] if cells[j] in (COVERED, FLAG, MINE))
                      for i in range(w * h)]
    total: Fraction | int = 0
    per_cell: list[Fraction | int] = [0] * (w * h)
    mine = bytearray(w * h)
    for k in known:
        mine[k] = 1
    for chosen in combinations(unknown, left):
        for i in chosen:
            mine[i] = 1
        weight: Fraction | int = 1
        for i in numbers:
            count = sum(mine[j] for j in around[i])
            if likelihood is None:
                if count != cells[i]:
                    weight = 0
                    break
            else:
                weight *= likelihood(cells[i], count, len(around[i]), covered_around[i])
                if not weight:
                    break
        if weight:
            total += weight
            for i in chosen:
                per_cell[i] += weight
        for i in chosen:
            mine[i] = 0
    probs = []
    for i in range(w * h):
        if cells[i] in (FLAG, MINE):
            probs.append(Fraction(1))
        elif cells[i] != COVERED or not total:
            probs.append(Fraction(0))
        else:
            probs.append(Fraction(per_cell[i]) / Fraction(total))
    return total, probs
