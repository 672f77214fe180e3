"""The order in which the counting visits a front's boxes.

:mod:`.counting` keeps one table entry per combination of the sums of the *open*
clues (seen by boxes already placed and by boxes still to come), so its time and
memory follow how many such combinations each step meets, not the length of the
front.  Any order gives the same integers; a good one keeps the tables small.

* :func:`greedy_order` grows the order from a peripheral box, taking next the box
  that opens the fewest new clues (closing clues counts in its favour).  On the
  thin fronts of ordinary games it is all that is needed.
* On a wide two-dimensional front (a spiral, a dense island) the fewest open clues
  is a poor guide: on a 489-cell spiral the greedy order (36 clues open) costs 45
  times what a sweep along the rows (37 open) does, because clues next to each other
  on a sweep line share cells and their sums move together; on a front of noisy
  (soft) clues, which prune nothing, it can cost several times a sweep too
  (``python benchmarks/wide_fronts.py --orders`` prints the figures).
  :func:`best_order` therefore also tries straight sweeps across the board (rows and
  columns, each way) and keeps the order whose tables, simulated without their
  polynomials (:func:`table_cost`), cost the least.

>>> from .system import Clue
>>> # three cells in a row, two clues: the middle box first would open both at once
>>> clues = [Clue(10, [0, 1], 1), Clue(12, [1, 2], 1)]
>>> greedy_order([[0], [1], [2]], [[0], [0, 1], [1]], 2)
[2, 1, 0]
>>> table_cost([0, 1, 2], [1, 1, 1], [[0], [0, 1], [1]], clues, limit=100)
14
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator

from .system import Clue

__all__ = [
    "SEARCH_MIN_WIDTH",
    "best_order",
    "greedy_order",
    "slots",
    "spans",
    "sweep_orders",
    "table_cost",
    "width",
]

# fronts whose greedy order keeps fewer clues than this open at once are counted in
# that order: their tables are small whatever the order, and a search would cost more
SEARCH_MIN_WIDTH = 9
# the search drops an order past this cost (3,000,000 is about a third of a second of
# counting): when every candidate costs more, the front is counted in the greedy order
# (as it would have been without the search) and the search has cost little
_COST_LIMIT = 20_000_000


def greedy_order(cells: list[list[int]], box_clues: list[list[int]], nclues: int) -> list[int]:
    """Box indices in the greedy order: from a pseudo-peripheral box, next the box that
    opens the fewest new clues less those it closes (then the nearest to the start)."""
    n = len(box_clues)
    if n <= 2:
        return list(range(n))
    clue_boxes: list[list[int]] = [[] for _ in range(nclues)]
    for b, ks in enumerate(box_clues):
        for k in ks:
            clue_boxes[k].append(b)

    def bfs(start: int) -> list[int]:
        dist = [-1] * n
        dist[start] = 0
        queue = deque([start])
        while queue:
            b = queue.popleft()
            for k in box_clues[b]:
                for b2 in clue_boxes[k]:
                    if dist[b2] < 0:
                        dist[b2] = dist[b] + 1
                        queue.append(b2)
        return dist

    # start at a pseudo-peripheral box: the farthest from the farthest of box 0
    dist = bfs(0)
    start = max(range(n), key=lambda b: (dist[b], -b))
    dist = bfs(start)

    remaining = [len(bs) for bs in clue_boxes]  # boxes of each clue not yet placed
    opened = [False] * nclues
    placed = [False] * n
    order = [start]
    candidates: set[int] = set()

    def place(b: int) -> None:
        placed[b] = True
        candidates.discard(b)
        for k in box_clues[b]:
            remaining[k] -= 1
            if not opened[k]:
                opened[k] = True
                for b2 in clue_boxes[k]:
                    if not placed[b2]:
                        candidates.add(b2)

    place(start)
    while len(order) < n:
        if not candidates:  # cannot happen within a connected front; stay safe
            rest = min(b for b in range(n) if not placed[b])
            candidates.add(rest)
        best = min(
            candidates,
            key=lambda b: (
                sum(1 for k in box_clues[b] if not opened[k])
                - sum(1 for k in box_clues[b] if remaining[k] == 1),
                dist[b],
                b,
            ),
        )
        order.append(best)
        place(best)
    return order


def sweep_orders(cells: list[list[int]], board_width: int) -> list[list[int]]:
    """Box indices sorted along the rows and along the columns (by the mean
    ``(row, col)`` of each box's cells), each forwards and backwards.

    (Diagonal sweeps won on none of the spirals, islands and noisy fronts tried when
    this was built, and each candidate costs search time.)

    >>> sweep_orders([[0], [5], [1]], 4)[:2]
    [[0, 2, 1], [1, 2, 0]]
    """
    centres = []
    for box in cells:
        rows = sum(c // board_width for c in box) / len(box)
        cols = sum(c % board_width for c in box) / len(box)
        centres.append((rows, cols))
    keys = (
        lambda b: (centres[b][0], centres[b][1]),
        lambda b: (centres[b][1], centres[b][0]),
    )
    out = []
    for key in keys:
        forward = sorted(range(len(cells)), key=key)
        out += [forward, forward[::-1]]
    return out


def spans(box_clues: list[list[int]]) -> tuple[dict[int, int], dict[int, int]]:
    """For each clue, the first and the last step (box) of the order that sees it."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, ks in enumerate(box_clues):
        for k in ks:
            first.setdefault(k, i)
            last[k] = i
    return first, last


def slots(box_clues: list[list[int]]) -> tuple[list[dict[int, int]], int]:
    """For each step (the clues of the boxes, in order), the slot of each clue it sees,
    and how many slots there are: a clue holds its slot from its first box to its
    last, then frees it for a later clue (the counting packs one clue's sum per slot).

    >>> slots([[0], [0, 1], [1]])
    ([{0: 0}, {0: 0, 1: 1}, {1: 1}], 2)
    """
    first, last = spans(box_clues)
    free: list[int] = []
    slot_of: dict[int, int] = {}
    used = 0
    out: list[dict[int, int]] = []
    for i, ks in enumerate(box_clues):
        for k in ks:
            if first[k] == i:
                if free:
                    slot_of[k] = free.pop()
                else:
                    slot_of[k] = used
                    used += 1
        out.append({k: slot_of[k] for k in ks})
        for k in ks:
            if last[k] == i:
                free.append(slot_of.pop(k))
    return out, used


def table_cost(
    order: list[int],
    sizes: list[int],
    box_clues: list[list[int]],
    clues: list[Clue],
    *,
    limit: int,
) -> int | None:
    """What counting in ``order`` costs: the sum over its steps of the number of table
    states times the cells placed so far plus one (the polynomials' length), or
    ``None`` past ``limit``."""
    cost = 0
    for cost in running_costs(order, sizes, box_clues, clues):
        if cost > limit:
            return None
    return cost


def running_costs(
    order: list[int], sizes: list[int], box_clues: list[list[int]], clues: list[Clue]
) -> Iterator[int]:
    """The cost of counting in ``order`` (see :func:`table_cost`) after each step.

    The states are simulated as :func:`.counting.count_front` makes them (4 bits per
    open clue; a clue's sum may not pass its need nor fall short of what its unplaced
    cells can still bring; a soft clue may not close on a value of likelihood 0),
    without the polynomials.  Only the speed of the counting rests on this estimate,
    never its integers.
    """
    steps = [box_clues[b] for b in order]
    _, last = spans(steps)
    step_slots, _ = slots(steps)
    capacity = [len(c.cells) for c in clues]
    states = {0}
    placed = 1
    cost = 0
    for i, b in enumerate(order):
        size = sizes[b]
        placed += size
        inc = 0
        checks = []
        for k in steps[i]:
            shift = 4 * step_slots[i][k]
            inc += 1 << shift
            capacity[k] -= size
            clue = clues[k]
            checks.append((shift, clue.need, capacity[k], last[k] == i, clue.factor))
        following = set()
        for s in states:
            for m in range(size + 1):
                s2 = s + m * inc
                for shift, need, cap, closes, factor in checks:
                    v = (s2 >> shift) & 15
                    if factor is None:
                        if v > need or v + cap < need:
                            break
                    elif closes and not factor[v]:
                        break
                    if closes:
                        s2 -= v << shift
                else:
                    following.add(s2)
        states = following
        cost += len(states) * placed
        yield cost


def best_order(
    cells: list[list[int]], box_clues: list[list[int]], clues: list[Clue], board_width: int
) -> list[int]:
    """The box order to count a front in: the greedy order, unless it keeps at least
    :data:`SEARCH_MIN_WIDTH` clues open and a sweep costs less (:func:`table_cost`)."""
    greedy = greedy_order(cells, box_clues, len(clues))
    if width([box_clues[b] for b in greedy]) < SEARCH_MIN_WIDTH:
        return greedy
    sizes = [len(box) for box in cells]
    candidates = [greedy, *sweep_orders(cells, board_width)]
    # simulate the candidates side by side, always advancing the cheapest so far: the
    # first to finish is the cheapest, and the others stop at its cost (a poor order
    # on a wide front meets far more states than a good one; it is never run out)
    runs = [running_costs(order, sizes, box_clues, clues) for order in candidates]
    heap = [(0, j) for j in range(len(runs))]
    while heap:
        _, j = heapq.heappop(heap)
        after = next(runs[j], None)
        if after is None:
            return candidates[j]
        if after <= _COST_LIMIT:
            heapq.heappush(heap, (after, j))
    return greedy


def width(box_clues: list[list[int]]) -> int:
    """Most clues open at once along the steps (the clues of the boxes, in order).

    >>> width([[0], [0, 1], [1]])
    1
    """
    first, last = spans(box_clues)
    change = [0] * (len(box_clues) + 1)
    for k, i in first.items():
        change[i] += 1
        change[last[k]] -= 1
    width = most = 0
    for delta in change:
        width += delta
        most = max(most, width)
    return most
