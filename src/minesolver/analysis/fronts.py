"""Boxes and fronts: the structure the counting works on.

* A **box** is a set of unknown cells constrained by exactly the same clues.  Its
  cells are interchangeable, so the counting only needs how many of them are mines
  (``comb(len(box), m)`` ways to place ``m``).
* A **front** is a connected component of boxes, two boxes being linked when they
  share a clue.  Fronts are independent given how many mines each holds.
* Boxes within a front are put in an order that keeps the counting's tables small
  (:mod:`.order`): the counting keeps one table entry per combination of the sums of
  the clues *open* at that point (touched by boxes already counted and by boxes
  still to come), so its cost follows the width of this path decomposition, not the
  length of the front.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import order
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
        return order.spans([box.clues for box in self.boxes])

    def slots(self) -> tuple[list[dict[int, int]], int]:
        """For each box (in counting order), the slot of each clue it sees, and how many
        slots there are (:func:`.order.slots`)."""
        return order.slots([box.clues for box in self.boxes])

    def width(self) -> int:
        """Most clues open at once along the box order (the counting's width)."""
        return order.width([box.clues for box in self.boxes])


def split_fronts(system: System, *, in_order: bool = True) -> tuple[list[Front], list[int]]:
    """Group the system's unknown cells into fronts; return them and the off-front cells.

    Off-front cells touch no clue: they are interchangeable with each other.  With
    ``in_order=False`` the boxes are left in the order found (a front whose count is
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
        fronts.append(ordered(front) if in_order else front)
    fronts.sort(key=lambda f: min(f.cells))
    return fronts, off_front


def ordered(front: Front) -> Front:
    """``front`` with its boxes in counting order (:func:`.order.best_order`; see
    :func:`split_fronts`)."""
    boxes = front.boxes
    ranked = order.best_order(
        [box.cells for box in boxes], [box.clues for box in boxes], front.clues, front.board_width
    )
    return Front([boxes[b] for b in ranked], front.clues, front.board_width)
