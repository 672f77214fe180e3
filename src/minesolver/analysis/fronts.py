"""Boxes and fronts: the structure the counting works on.

* A **box** is a set of unknown cells constrained by exactly the same clues.  Its
  cells are interchangeable, so the counting only needs how many of them are mines
  (``comb(len(box), m)`` ways to place ``m``).
* A **front** is a connected component of boxes, two boxes being linked when they
  share a clue.  Fronts are independent given how many mines each holds.
* Boxes within a front are put in an order that keeps few clues *open* (touched by
  boxes already counted and by boxes still to come): the counting keeps one table
  entry per combination of open-clue sums, so its cost follows the width of this
  path decomposition, not the length of the front.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .system import Clue, System

__all__ = ["Box", "Front", "ordered", "split_fronts"]


@dataclass
class Box:
    """Unknown cells that share the same clues (``clues`` are indices into the front)."""

    cells: list[int]
    clues: list[int]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass
class Front:
    """An independent part of the frontier: its boxes in counting order, its clues."""

    boxes: list[Box]
    clues: list[Clue]
    board_width: int

    def coords(self, index: int) -> tuple[int, int]:
        """``(row, col)`` of a flat index on this board."""
        return divmod(index, self.board_width)

    @property
    def cells(self) -> list[int]:
        """Every unknown cell of the front (flat indices)."""
        return [c for box in self.boxes for c in box.cells]

    @property
    def size(self) -> int:
        return sum(box.size for box in self.boxes)

    def spans(self) -> tuple[dict[int, int], dict[int, int]]:
        """For each clue, the first and the last box (in counting order) that it sees."""
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for i, box in enumerate(self.boxes):
            for k in box.clues:
                first.setdefault(k, i)
                last[k] = i
        return first, last

    def slots(self) -> tuple[list[dict[int, int]], int]:
        """For each box (in counting order), the slot of each clue it sees, and how many
        slots there are: a clue holds its slot from its first box to its last, then
        frees it for a later clue (the counting packs one clue's tally per slot).
        """
        first, last = self.spans()
        free: list[int] = []
        slot_of: dict[int, int] = {}
        used = 0
        out: list[dict[int, int]] = []
        for i, box in enumerate(self.boxes):
            for k in box.clues:
                if first[k] == i:
                    if free:
                        slot_of[k] = free.pop()
                    else:
                        slot_of[k] = used
                        used += 1
            out.append({k: slot_of[k] for k in box.clues})
            for k in box.clues:
                if last[k] == i:
                    free.append(slot_of.pop(k))
        return out, used

    def width(self) -> int:
        """Most clues open at once along the box order (the counting's width)."""
        first, last = self.spans()
        best = 0
        for i in range(len(self.boxes)):
            open_now = sum(1 for k in first if first[k] <= i < last[k])
            best = max(best, open_now)
        return best


def split_fronts(system: System, *, order: bool = True) -> tuple[list[Front], list[int]]:
    """Group the system's unknown cells into fronts; return them and the off-front cells.

    Off-front cells touch no clue: they are interchangeable with each other.  With
    ``order=False`` the boxes are left in the order found (a front whose count is
    cached needs no counting order: :func:`ordered` puts them in it when counted).
    """
    clues = system.clues
    cell_clues: dict[int, list[int]] = {}
    for k, clue in enumerate(clues):
        for c in clue.cells:
            cell_clues.setdefault(c, []).append(k)
    off_front = [c for c in system.unknown if c not in cell_clues]

    # boxes: cells keyed by their clue list
    box_of_key: dict[tuple[int, ...], list[int]] = {}
    for c, ks in cell_clues.items():
        box_of_key.setdefault(tuple(ks), []).append(c)

    # fronts: union-find over clues
    parent = list(range(len(clues)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key in box_of_key:
        root = find(key[0])
        for k in key[1:]:
            other = find(k)
            if other != root:
                parent[other] = root
    groups: dict[int, list[tuple[int, ...]]] = {}
    for key in box_of_key:
        groups.setdefault(find(key[0]), []).append(key)

    fronts = []
    for keys in groups.values():
        local: dict[int, int] = {}
        for key in keys:
            for k in key:
                if k not in local:
                    local[k] = len(local)
        boxes = [
            Box(sorted(box_of_key[key]), [local[k] for k in key]) for key in keys
        ]
        front_clues = [clues[k] for k in sorted(local, key=local.__getitem__)]
        front = Front(boxes, front_clues, system.width)
        fronts.append(ordered(front) if order else front)
    fronts.sort(key=lambda f: min(f.cells))
    return fronts, off_front


def ordered(front: Front) -> Front:
    """``front`` with its boxes in counting order (see :func:`split_fronts`)."""
    return Front(_order(front.boxes, len(front.clues)), front.clues, front.board_width)


def _order(boxes: list[Box], nclues: int) -> list[Box]:
    """Order boxes to keep the number of open clues small (greedy frontier)."""
    n = len(boxes)
    if n <= 2:
        return boxes
    clue_boxes: list[list[int]] = [[] for _ in range(nclues)]
    for b, box in enumerate(boxes):
        for k in box.clues:
            clue_boxes[k].append(b)

    def bfs(start: int) -> list[int]:
        dist = [-1] * n
        dist[start] = 0
        queue = deque([start])
        while queue:
            b = queue.popleft()
            for k in boxes[b].clues:
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
        for k in boxes[b].clues:
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
                sum(1 for k in boxes[b].clues if not opened[k])
                - sum(1 for k in boxes[b].clues if remaining[k] == 1),
                dist[b],
                b,
            ),
        )
        order.append(best)
        place(best)
    return [boxes[b] for b in order]
