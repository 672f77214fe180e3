"""A bounded cache of front counts, owned by whoever counts (an :class:`~.engine.Engine`).

Fronts recur: a hypothetical position differs from the real one in one cell, and
successive positions of a game share most fronts.  A front's count depends only on
its clues, so counts are kept in a small LRU keyed by them.  Its size and hit rate
are visible (``Engine.cache``), and two engines share one only when given the same.

>>> cache = FrontCache[int](2)
>>> cache.get(("a",)) is None, cache.misses
(True, 1)
>>> import pickle
>>> cache.put(("a",), 1); len(pickle.loads(pickle.dumps(cache)))
0
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["FrontCache"]

V = TypeVar("V")


@dataclass
class FrontCache(Generic[V]):
    """Least-recently-used map from a front's clues to its count, with hit counts.

    >>> c = FrontCache[int](1)
    >>> c.put(("x",), 3); c.get(("x",)), c.hits, f"{c.hit_rate:.0%}"
    (3, 1, '100%')
    """

    capacity: int = 4096
    hits: int = 0
    misses: int = 0
    _items: OrderedDict[tuple[object, ...], V] = field(default_factory=OrderedDict, repr=False)

    def get(self, key: tuple[object, ...]) -> V | None:
        """The value kept for ``key`` (counted as a hit) or ``None`` (a miss)."""
        hit = self._items.get(key)
        if hit is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return hit

    def put(self, key: tuple[object, ...], value: V) -> None:
        """Keep ``value``; the least recently used entry goes past ``capacity``."""
        self._items[key] = value
        if len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def hit_rate(self) -> float:
        """Share of lookups that found their count (0 before any lookup)."""
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def __getstate__(self) -> dict[str, object]:
        # a cache crossing processes (the web app's sandbox) travels empty: it is
        # only an accelerator, and its tables can be large
        return {"capacity": self.capacity, "hits": self.hits, "misses": self.misses}

    def __setstate__(self, state: dict[str, int]) -> None:
        self.capacity = state["capacity"]
        self.hits = state["hits"]
        self.misses = state["misses"]
        self._items = OrderedDict()

    def clear(self) -> None:
        """Forget every count and the hit statistics."""
        self._items.clear()
        self.hits = self.misses = 0
