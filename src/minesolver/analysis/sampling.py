"""Drawing layouts consistent with a position: exactly, or by rejection.

* :func:`sample_layouts` draws layouts *exactly* from the uniform distribution
  over consistent layouts (weighted by noisy clues' likelihoods): first how many
  mines each front holds, with the exact weights the engine uses, then, front by
  front, a path back through its counting tables, then the off-front mines.
  Each draw costs about one pass over the fronts.
* :func:`rejection_layouts` is the simple method: scatter the remaining mines
  uniformly over the covered cells and keep the boards that match every clue.
  It is unbiased but its acceptance rate collapses as soon as a few clues show.

>>> from minesolver.position import Position
>>> from minesolver.rng import SplitMix64
>>> layouts = sample_layouts(Position.from_text("3x1x1\\n1HH\\n"), 3, SplitMix64(1))
>>> [sorted(lay) for lay in layouts]
[[1], [1], [1]]
"""

from __future__ import annotations

from math import comb

from ..codes import COVERED, FLAG, MINE
from ..position import Position
from ..rng import SplitMix64
from .counting import count_front, sample_front, weighted_index
from .fronts import split_fronts
from .joining import front_weights
from .system import InconsistentPositionError, SoftClue, build_system

__all__ = ["rejection_layouts", "sample_layouts"]


def sample_layouts(
    position: Position, n: int, rng: SplitMix64, *, soft: SoftClue | None = None
) -> list[frozenset[int]]:
    """``n`` independent exact draws; each is the set of mine cells (flags included)."""
    system = build_system(position, soft=soft)
    fronts, off_front = split_fronts(system)
    counts = [count_front(f) for f in fronts]
    polys = [c.poly for c in counts]
    remaining = system.remaining
    n_out = len(off_front)
    total_front = sum(len(p) - 1 for p in polys)
    w_out = [
        comb(n_out, remaining - t) if 0 <= remaining - t <= n_out else 0
        for t in range(total_front + 1)
    ]
    _, product, tails = front_weights(polys, w_out)
    if not any(p * w for p, w in zip(product, w_out, strict=False)):
        raise InconsistentPositionError(f"no layout has {position.mines} mines")
    fixed = [i for i, code in enumerate(position.cells) if code in (FLAG, MINE)]
    fixed += system.settled_mines
    out = []
    for _ in range(n):
        mines = list(fixed)
        placed = 0
        for c, count in enumerate(counts):
            tail = tails[c + 1]
            weights = [
                v * tail[placed + k] if placed + k < len(tail) else 0
                for k, v in enumerate(count.poly)
            ]
            k = weighted_index(rng, weights)
            mines.extend(sample_front(count, k, rng))
            placed += k
        left = remaining - placed
        mines.extend(off_front[j] for j in rng.sample(n_out, left))
        out.append(frozenset(mines))
    return out


def rejection_layouts(
    position: Position, tries: int, rng: SplitMix64, *, want: int | None = None
) -> tuple[list[frozenset[int]], int]:
    """Propose up to ``tries`` uniform boards; keep those matching every clue.

    Stops early after ``want`` accepted layouts.  Returns ``(accepted, tries used)``.
    """
    cells = position.cells
    grid = position.grid
    table = grid.table()
    unknown = [i for i, code in enumerate(cells) if code == COVERED]
    fixed = [i for i, code in enumerate(cells) if code in (FLAG, MINE)]
    left = position.mines - len(fixed)
    if not 0 <= left <= len(unknown):
        return [], 0
    checks = []
    for i, code in enumerate(cells):
        if code > 8:
            continue
        around = table[i] if table is not None else grid.neighbours(i)
        flagged = sum(1 for j in around if cells[j] in (FLAG, MINE))
        covered = [j for j in around if cells[j] == COVERED]
        if covered or code != flagged:
            checks.append((covered, code - flagged))
    accepted: list[frozenset[int]] = []
    used = 0
    for used in range(1, tries + 1):  # noqa: B007 - the count is returned
        mines = {unknown[j] for j in rng.sample(len(unknown), left)}
        if all(sum(1 for j in covered if j in mines) == need for covered, need in checks):
            accepted.append(frozenset(mines | set(fixed)))
            if want is not None and len(accepted) >= want:
                break
    return accepted, used
