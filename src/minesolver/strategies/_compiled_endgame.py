"""The numba endgame search behind :mod:`.endgame` (imported only when numba is installed).

The same game tree as :class:`.endgame._Search`, the plain-Python reference, on
arrays: layout ``i`` is row ``i`` of ``mine`` (1 where cell ``j`` holds a mine) and
of ``shown`` (the number cell ``j`` shows, counting only the unknown cells around
it: the rest is the same in every layout).  A state is an array of layout indices
in increasing order.  The steps and their order are the reference's: free cells
first, split by the numbers they show all at once; otherwise the cells that may be
safe, most often safe first, skipped once even winning every branch could not beat
the best so far, and given up part way once the numbers it may show that are left
could not make up the difference; the same budget of states.

States are memoised under a 128-bit Zobrist key (two 64-bit XORs of a random word
per layout), as chess engines key positions: two different sets of layouts share
a key with probability about ``2**-128`` per pair.

A search that runs past its budget returns :data:`OVER`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

from ..position import Position

__all__ = ["OVER", "CompiledSearch", "search"]

OVER = -1.0
_SPLIT = 0
_CHOOSE = 1
_KEY = types.UniTuple(types.int64, 2)  # type: ignore[no-untyped-call]
_MOVE = types.UniTuple(types.float64, 3)  # type: ignore[no-untyped-call]


@njit(cache=True)
def new_tables():  # type: ignore[no-untyped-def]
    """An empty memo (key: value) and an empty table of chosen moves
    (key: (cell, win chance, safety)).  (The tables are made and read only in
    compiled code: used from the interpreter, a typed dict compiles its methods
    afresh in every process.)"""
    memo = Dict.empty(key_type=_KEY, value_type=types.float64)
    chosen = Dict.empty(key_type=_KEY, value_type=_MOVE)
    return memo, chosen


@njit(cache=True, nogil=True)
def numbers_shown(mine, nbr_at, nbr):  # type: ignore[no-untyped-def]
    """``shown[i, j]``: the mines of layout ``i`` around cell ``j`` (its unknown
    neighbours are ``nbr[nbr_at[j]:nbr_at[j + 1]]``)."""
    n, cells = mine.shape
    shown = np.zeros((n, cells), dtype=np.int8)
    for i in range(n):
        for j in range(cells):
            s = 0
            for k in range(nbr_at[j], nbr_at[j + 1]):
                s += mine[i, nbr[k]]
            shown[i, j] = s
    return shown


@njit(cache=True, nogil=True)
def state_key(idx, z1, z2):  # type: ignore[no-untyped-def]
    """The 128-bit key of the state ``idx``."""
    h1 = np.int64(0)
    h2 = np.int64(0)
    for i in range(idx.shape[0]):
        h1 ^= z1[idx[i]]
        h2 ^= z2[idx[i]]
    return (h1, h2)


@njit(cache=True)
def remember(chosen, idx, z1, z2, j, win, safety):  # type: ignore[no-untyped-def]
    """Keep ``(j, win, safety)`` as the move chosen for the state ``idx``."""
    chosen[state_key(idx, z1, z2)] = (float(j), win, safety)


@njit(cache=True)
def recalled(chosen, idx, z1, z2):  # type: ignore[no-untyped-def]
    """The move chosen for the state ``idx``: ``(cell, win, safety)``, cell -1 if none."""
    key = state_key(idx, z1, z2)
    if key in chosen:
        j, win, safety = chosen[key]
        return int(j), win, safety
    return -1, 0.0, 0.0


@njit(cache=True, nogil=True)
def _groups(idx, labels, count):  # type: ignore[no-untyped-def]
    """``idx`` split by ``labels`` (0 .. count-1, numbered by first appearance): the
    members in order, and where each group starts."""
    n = idx.shape[0]
    sizes = np.zeros(count + 1, dtype=np.int64)
    for i in range(n):
        sizes[labels[i] + 1] += 1
    starts = np.cumsum(sizes)
    fill = starts[:-1].copy()
    out = np.empty(n, dtype=idx.dtype)
    for i in range(n):
        g = labels[i]
        out[fill[g]] = idx[i]
        fill[g] += 1
    return out, starts


@njit(cache=True, nogil=True)
def _open_split(idx, j, mine, shown):  # type: ignore[no-untyped-def]
    """The layouts of ``idx`` where cell ``j`` is safe, grouped by the number it
    shows (groups in order of first appearance): members, and where each starts."""
    n = idx.shape[0]
    group = np.full(9, -1, dtype=np.int64)  # the group of each number
    sizes = np.zeros(10, dtype=np.int64)
    count = 0
    for i in range(n):
        row = idx[i]
        if mine[row, j]:
            continue
        v = shown[row, j]
        if group[v] < 0:
            group[v] = count
            count += 1
        sizes[group[v] + 1] += 1
    starts = np.cumsum(sizes[: count + 1])
    fill = starts[:count].copy()
    out = np.empty(starts[count], dtype=np.int64)
    for i in range(n):
        row = idx[i]
        if mine[row, j]:
            continue
        g = group[shown[row, j]]
        out[fill[g]] = row
        fill[g] += 1
    return out, starts


@njit(cache=True, nogil=True)
def _free_split(idx, mines, shown):  # type: ignore[no-untyped-def]
    """The state ``idx`` split by the numbers its free cells (``mines[j] == 0``)
    show, refined one free cell at a time: a label per layout, and their count."""
    n = idx.shape[0]
    labels = np.zeros(n, dtype=np.int64)
    count = 1
    for j in range(mines.shape[0]):
        if mines[j]:
            continue
        first = shown[idx[0], j]
        i = 1
        while i < n and shown[idx[i], j] == first:
            i += 1
        if i == n:
            continue  # the same number everywhere (as for every cell opened on the way)
        seen = np.full(count * 9, -1, dtype=np.int64)
        fresh = 0
        for i in range(n):
            code = labels[i] * 9 + shown[idx[i], j]
            if seen[code] < 0:
                seen[code] = fresh
                fresh += 1
            labels[i] = seen[code]
        count = fresh
    return labels, count


@njit(cache=True, nogil=True)
def _mines(idx, mine):  # type: ignore[no-untyped-def]
    """How many layouts of ``idx`` hold a mine in each cell."""
    mines = np.zeros(mine.shape[1], dtype=np.int64)
    for i in range(idx.shape[0]):
        row = idx[i]
        for j in range(mine.shape[1]):
            mines[j] += mine[row, j]
    return mines


@njit(cache=True, nogil=True)
def _candidates(mines, n, skip_free):  # type: ignore[no-untyped-def]
    """The cells to try in a state of ``n`` layouts with ``mines`` per cell (not a
    mine in every layout; not free when ``skip_free``), most often safe first (ties:
    lower cell first), with how many layouts each is safe in."""
    cells = mines.shape[0]
    cand = np.empty(cells, dtype=np.int64)
    alive = np.empty(cells, dtype=np.int64)
    m = 0
    for j in range(cells):
        if mines[j] < n and (mines[j] > 0 or not skip_free):
            cand[m] = j
            alive[m] = n - mines[j]
            m += 1
    order = np.argsort(-alive[:m], kind="mergesort")
    return cand[order], alive[order]


@njit(cache=True, nogil=True)
def search(mine, shown, z1, z2, memo, chosen, budget, prune):  # type: ignore[no-untyped-def]
    """``(cell, win chance, safety)`` of the best cell to open with every layout
    possible (no cell counted as opened already); cell -2 past the budget.

    Depth first with a stack of frames (a numba function calling itself cannot be
    cached on disk).  A frame is a state and the partition of it being valued:
    the free cells' split (``_SPLIT``) or, for one candidate cell after another,
    the split by the number it shows (``_CHOOSE``).  Without ``prune`` a candidate
    is valued to the end even once it cannot beat the best (the search before the
    cut, kept to measure it).
    """
    n, cells = mine.shape
    cap = 2 * cells + 8  # deeper than any game: each level opens or splits
    size = np.zeros(cap, dtype=np.int64)
    mode = np.zeros(cap, dtype=np.int64)
    g_at = np.zeros(cap, dtype=np.int64)
    o_at = np.zeros(cap, dtype=np.int64)
    k1 = np.zeros(cap, dtype=np.int64)
    k2 = np.zeros(cap, dtype=np.int64)
    total = np.zeros(cap, dtype=np.float64)
    bj = np.zeros(cap, dtype=np.int64)
    bw = np.zeros(cap, dtype=np.float64)
    bs = np.zeros(cap, dtype=np.float64)
    empty = np.zeros(0, dtype=np.int64)
    idxs = List()
    members = List()
    starts = List()
    cands = List()
    alives = List()
    for _ in range(cap):
        idxs.append(empty)
        members.append(empty)
        starts.append(empty)
        cands.append(empty)
        alives.append(empty)

    root = np.arange(n, dtype=np.int64)
    cand, alive = _candidates(_mines(root, mine), n, False)
    if cand.shape[0] == 0:
        return -1, 0.0, 0.0
    d = 0
    idxs[0] = root
    size[0] = n
    mode[0] = _CHOOSE
    cands[0] = cand
    alives[0] = alive
    bj[0], bw[0], bs[0] = -1, -1.0, 0.0
    mem, st = _open_split(root, cand[0], mine, shown)
    members[0] = mem
    starts[0] = st
    while True:
        st = starts[d]
        g = g_at[d]
        if g < st.shape[0] - 1:  # the next part of this frame's partition
            if prune and mode[d] == _CHOOSE and total[d] + (st[-1] - st[g]) <= bw[d] * size[d]:
                # even winning every part left cannot beat the best so far
                g_at[d] = st.shape[0] - 1
                total[d] = -1.0
                continue
            g_at[d] = g + 1
            part = members[d][st[g] : st[g + 1]]
            m = part.shape[0]
            if m == 1:
                total[d] += 1.0
                continue
            key = state_key(part, z1, z2)
            known = memo.get(key, -1.0)
            if known >= 0.0:
                total[d] += m * known
                continue
            budget[0] -= 1
            if budget[0] < 0 or d + 1 >= cap:
                return -2, OVER, 0.0
            d += 1
            part = part.copy()
            idxs[d] = part
            size[d] = m
            k1[d], k2[d] = key
            g_at[d] = 0
            total[d] = 0.0
            mines = _mines(part, mine)
            labels, count = _free_split(part, mines, shown)
            if count > 1:
                mode[d] = _SPLIT
                mem, st = _groups(part, labels, count)
            else:
                cand, alive = _candidates(mines, m, True)
                if cand.shape[0] == 0:
                    return -2, OVER, 0.0  # two layouts no cell tells apart: never
                mode[d] = _CHOOSE
                cands[d] = cand
                alives[d] = alive
                o_at[d] = 0
                bj[d], bw[d], bs[d] = -1, -1.0, 0.0
                mem, st = _open_split(part, cand[0], mine, shown)
            members[d] = mem
            starts[d] = st
            continue
        if mode[d] == _CHOOSE:  # a candidate valued: keep it if best, try the next
            o = o_at[d]
            w = total[d] / size[d]
            if w > bw[d]:
                bj[d], bw[d], bs[d] = cands[d][o], w, alives[d][o] / size[d]
            o += 1
            if o < cands[d].shape[0] and alives[d][o] / size[d] > bw[d]:
                o_at[d] = o
                g_at[d] = 0
                total[d] = 0.0
                mem, st = _open_split(idxs[d], cands[d][o], mine, shown)
                members[d] = mem
                starts[d] = st
                continue
            # the rest cannot beat the best even winning every branch
            if d == 0:
                return bj[0], bw[0], bs[0]
            result = bw[d]
            chosen[(k1[d], k2[d])] = (float(bj[d]), bw[d], bs[d])
        else:
            result = total[d] / size[d]
        memo[(k1[d], k2[d])] = result
        d -= 1
        total[d] += size[d + 1] * result


class CompiledSearch:
    """One position's search on the kernel: what :class:`.endgame.Endgame` asks of
    the plain :class:`.endgame._Search`, built the same way (its root move, then
    recalling the moves it chose), on layouts given as bit masks over ``cells``."""

    def __init__(
        self, position: Position, cells: list[int], budget: int, *, prune: bool = True
    ) -> None:
        self.cells = cells
        self.prune = prune
        index = {c: j for j, c in enumerate(cells)}
        at = [0]
        flat: list[int] = []
        for c in cells:
            flat += [index[n] for n in position.grid.neighbours(c) if n in index]
            at.append(len(flat))
        self._around = np.array(at, dtype=np.int64), np.array(flat, dtype=np.int64)
        self.memo, self.chosen = new_tables()
        self.budget = np.array([budget], dtype=np.int64)
        self.limit = budget
        self.index: dict[int, int] = {}

    @property
    def states(self) -> int:
        """States searched so far (the budget counts these)."""
        return self.limit - int(self.budget[0])

    def root(self, layouts: list[int]) -> tuple[int, float, float] | None:
        """``(cell index, win chance, safety)`` of the best cell to open with every
        one of ``layouts`` possible; ``None`` past the budget.  Call it once."""
        n, width = len(layouts), (len(self.cells) + 7) // 8
        raw = b"".join(lay.to_bytes(width, "little") for lay in layouts)
        bits = np.frombuffer(raw, dtype=np.uint8).reshape(n, width)
        mine = np.unpackbits(bits, axis=1, bitorder="little")[:, : len(self.cells)].copy()
        shown = numbers_shown(mine, *self._around)
        # a cell that is a mine in every layout is never tried and never free: the
        # tree is the same without it (its mines are in the numbers already)
        self.keep = np.flatnonzero(~mine.all(axis=0))
        mine = np.ascontiguousarray(mine[:, self.keep])
        shown = np.ascontiguousarray(shown[:, self.keep])
        rng = np.random.default_rng(n)  # any words do; seeded so runs repeat exactly
        low, high = np.iinfo(np.int64).min, np.iinfo(np.int64).max
        self.z1 = rng.integers(low, high, size=n, dtype=np.int64, endpoint=True)
        self.z2 = rng.integers(low, high, size=n, dtype=np.int64, endpoint=True)
        self.index = {lay: i for i, lay in enumerate(layouts)}
        j, win, safety = search(
            mine, shown, self.z1, self.z2, self.memo, self.chosen, self.budget, self.prune
        )
        if j == -2:
            return None
        if j < 0:
            return -1, float(win), float(safety)
        if mine.any(axis=0).all():  # no free cell: a state the search meets
            remember(self.chosen, np.arange(n, dtype=np.int64), self.z1, self.z2, j, win, safety)
        return int(self.keep[j]), float(win), float(safety)

    def recall(self, layouts: list[int]) -> tuple[int, float, float] | None:
        """The move chosen for the state ``layouts`` (bit masks over ``cells``), if
        the search reached it."""
        try:
            idx = np.array([self.index[lay] for lay in layouts], dtype=np.int64)
        except KeyError:
            return None
        if len(idx) < 2:
            return None
        j, win, safety = recalled(self.chosen, idx, self.z1, self.z2)
        if j < 0:
            return None
        return int(self.keep[j]), float(win), float(safety)
