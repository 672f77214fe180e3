"""The numba endgame search behind :mod:`.endgame` (imported only when numba is installed).

The same game tree as :class:`.endgame._Search`, the plain-Python reference, on
arrays: ``code[j, i]`` is what cell ``j`` holds in layout ``i``, :data:`MINE` or the
number it shows (counting only the unknown cells around it: the rest is the same
in every layout), stored cell by cell so that a state's layouts, kept in increasing
order, are read front to back; ``words[i]`` has layout ``i``'s mines as bits.  A
state is a run of layout indices.  The steps and their order are the reference's: free cells
first, split by the numbers they show all at once; otherwise the cells that may be
safe, most often safe first, skipped once even winning every branch could not beat
the best so far, and given up part way once the numbers it may show that are left
could not make up the difference; the same budget of states.

States are memoised under a 128-bit Zobrist key (two 64-bit XORs of a random word
per layout), as chess engines key positions: two different sets of layouts share
a key with probability about ``2**-128`` per pair.  The memo is a table probed
linearly, key and value in one row (a probe mostly reads one cache line); the
moves chosen, read back from Python, are a typed dict.

A search that runs past its budget returns :data:`OVER`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ..position import Position

__all__ = ["OVER", "CompiledSearch", "search"]

OVER = -1.0
_SPLIT = 0
_CHOOSE = 1
MINE = 9  # what a layout's cell shows in ``code`` when it holds a mine
_KEY = types.UniTuple(types.int64, 2)  # type: ignore[no-untyped-call]
_MOVE = types.UniTuple(types.float64, 3)  # type: ignore[no-untyped-call]


@njit(cache=True)
def new_chosen():  # type: ignore[no-untyped-def]
    """An empty table of chosen moves (key: (cell, win chance, safety)).  (It is
    made and read only in compiled code: used from the interpreter, a typed dict
    compiles its methods afresh in every process.)"""
    return Dict.empty(key_type=_KEY, value_type=_MOVE)


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
    return _key(idx.reshape(1, -1), 0, 0, idx.shape[0], z1, z2)


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
def _key(buf, r, lo, hi, z1, z2):  # type: ignore[no-untyped-def]
    """:func:`state_key` of the state ``buf[r, lo:hi]``."""
    h1 = np.int64(0)
    h2 = np.int64(0)
    for i in range(lo, hi):
        h1 ^= z1[buf[r, i]]
        h2 ^= z2[buf[r, i]]
    return h1, h2


@njit(cache=True, nogil=True)
def _slot(table, h1, h2):  # type: ignore[no-untyped-def]
    """The row of the memo ``table`` (rows: ``h1, h2``, the value's bits; bits -1:
    empty) holding the key ``(h1, h2)``, or the empty row where it goes."""
    mask = table.shape[0] - 1
    s = h1 & mask
    while table[s, 2] != -1 and not (table[s, 0] == h1 and table[s, 1] == h2):
        s = (s + 1) & mask
    return s


@njit(cache=True, nogil=True)
def _some_mine(buf, r, lo, hi, words, out):  # type: ignore[no-untyped-def]
    """``out``: the cells (bit masks) holding a mine in some layout of the state."""
    for k in range(words.shape[1]):
        out[k] = 0
    for i in range(lo, hi):
        row = buf[r, i]
        for k in range(words.shape[1]):
            out[k] |= words[row, k]


@njit(cache=True, nogil=True)
def _free_split(buf, r, lo, hi, some, settled, code, labels, seen):  # type: ignore[no-untyped-def]
    """The state split by the numbers its free cells (not in ``some``) show, refined
    one free cell at a time; the cells in ``settled`` show one number throughout
    already.  Fills ``labels[:hi - lo]`` (numbered by first appearance); returns
    how many groups."""
    n = hi - lo
    for i in range(n):
        labels[i] = 0
    count = 1
    for j in range(code.shape[0]):
        if (some[j >> 6] | settled[j >> 6]) & (np.uint64(1) << np.uint64(j & 63)):
            continue
        col = code[j]
        first = col[buf[r, lo]]
        i = 1
        while i < n and col[buf[r, lo + i]] == first:
            i += 1
        if i == n:
            continue  # the same number everywhere
        for c in range(count * 9):
            seen[c] = -1
        fresh = 0
        for i in range(n):
            at = labels[i] * 9 + col[buf[r, lo + i]]
            if seen[at] < 0:
                seen[at] = fresh
                fresh += 1
            labels[i] = seen[at]
        count = fresh
    return count


@njit(cache=True, nogil=True)
def _group(buf, r, lo, hi, labels, count, out, bounds):  # type: ignore[no-untyped-def]
    """The state regrouped by ``labels`` into ``out``, group ``g`` at
    ``bounds[g]:bounds[g + 1]``, members in order."""
    for g in range(count + 1):
        bounds[g] = 0
    for i in range(hi - lo):
        bounds[labels[i] + 1] += 1
    for g in range(count):
        bounds[g + 1] += bounds[g]
    for i in range(hi - lo):  # bounds[g] runs ahead as group g fills ...
        g = labels[i]
        out[bounds[g]] = buf[r, lo + i]
        bounds[g] += 1
    for g in range(count, 0, -1):  # ... and is put back
        bounds[g] = bounds[g - 1]
    bounds[0] = 0


@njit(cache=True, nogil=True)
def _open_split(buf, r, lo, hi, j, code, out, bounds, group, fill):  # type: ignore[no-untyped-def]
    """The layouts of the state where cell ``j`` is safe, grouped by the number it
    shows (groups in order of first appearance) into ``out``, group ``g`` at
    ``bounds[g]:bounds[g + 1]``; returns how many groups.  ``group`` (9 entries: the
    group of each number) and ``fill`` (10) are scratch."""
    group[:] = -1
    fill[:] = 0
    count = 0
    col = code[j]
    for i in range(lo, hi):
        v = col[buf[r, i]]
        if v == MINE:
            continue
        if group[v] < 0:
            group[v] = count
            count += 1
        fill[group[v] + 1] += 1
    bounds[0] = 0
    for g in range(count):
        bounds[g + 1] = bounds[g] + fill[g + 1]
        fill[g] = bounds[g]  # where group g fills next
    for i in range(lo, hi):
        row = buf[r, i]
        v = col[row]
        if v == MINE:
            continue
        g = group[v]
        out[fill[g]] = row
        fill[g] += 1
    return count


@njit(cache=True, nogil=True)
def _candidates(buf, r, lo, hi, code, some, skip_free, cand, alive):  # type: ignore[no-untyped-def]
    """The cells to try in the state (not a mine in every layout; not free when
    ``skip_free``; only the cells in ``some`` can hold a mine) into ``cand``, most
    often safe first (ties: lower cell first), and how many layouts each is safe
    in into ``alive``; returns how many."""
    n = hi - lo
    cells = code.shape[0]
    mines = np.zeros(cells, dtype=np.int64)
    for j in range(cells):
        if some[j >> 6] & (np.uint64(1) << np.uint64(j & 63)):
            col = code[j]
            for i in range(lo, hi):
                mines[j] += col[buf[r, i]] == MINE
    m = 0
    for j in range(cells):
        if mines[j] < n and (mines[j] > 0 or not skip_free):
            a = n - mines[j]
            t = m  # insert after every cell safe as often (a stable sort)
            while t > 0 and alive[t - 1] < a:
                cand[t] = cand[t - 1]
                alive[t] = alive[t - 1]
                t -= 1
            cand[t] = j
            alive[t] = a
            m += 1
    return m


@njit(cache=True, nogil=True)
def _dominated(buf, r, lo, hi, code, cand, o):  # type: ignore[no-untyped-def]
    """Whether candidate ``cand[o]`` is safe in the state ``buf[r, lo:hi]`` only where
    one of the candidates before it is safe (it cannot win more than that one)."""
    col = code[cand[o]]
    for t in range(o):
        other = code[cand[t]]
        covered = True
        for i in range(lo, hi):
            row = buf[r, i]
            if other[row] == MINE and col[row] != MINE:
                covered = False
                break
        if covered:
            return True
    return False


@njit(cache=True, nogil=True)
def search(code, words, z1, z2, chosen, budget, prune, skip):  # type: ignore[no-untyped-def]
    """``(cell, win chance, safety)`` of the best cell to open with every layout
    possible (no cell counted as opened already); cell -2 past the budget.

    Depth first with a stack of frames (a numba function calling itself cannot be
    cached on disk).  A frame is a state and the partition of it being valued:
    the free cells' split (``_SPLIT``) or, for one candidate cell after another,
    the split by the number it shows (``_CHOOSE``).  Without ``prune`` a candidate
    is valued to the end even once it cannot beat the best (the search before the
    cut, kept to measure it).

    Nothing is allocated per state: frame ``d``'s state is ``buf[d, lo[d]:hi[d]]``
    (a part of the frame above), its partition is row ``d + 1`` of ``buf`` with the
    parts' bounds in row ``d`` of ``bounds``.  The free cells known to show one
    number throughout (``settled``) are handed down and not looked at again.  The
    memo is a table of keys and values probed linearly, doubled when 3/4 full.
    """
    cells, n = code.shape
    nw = words.shape[1]
    cap = 2 * cells + 8  # deeper than any game: each level opens or splits
    buf = np.empty((cap + 1, n), dtype=np.int64)  # rows are touched only when reached
    bounds = np.empty((cap, n + 1), dtype=np.int64)
    parts = np.zeros(cap, dtype=np.int64)
    lo = np.zeros(cap, dtype=np.int64)
    hi = np.zeros(cap, dtype=np.int64)
    mode = np.zeros(cap, dtype=np.int64)
    g_at = np.zeros(cap, dtype=np.int64)
    o_at = np.zeros(cap, dtype=np.int64)
    k1 = np.zeros(cap, dtype=np.int64)
    k2 = np.zeros(cap, dtype=np.int64)
    total = np.zeros(cap, dtype=np.float64)
    bj = np.zeros(cap, dtype=np.int64)
    bw = np.zeros(cap, dtype=np.float64)
    bs = np.zeros(cap, dtype=np.float64)
    cand = np.empty((cap, cells), dtype=np.int64)
    alive = np.empty((cap, cells), dtype=np.int64)
    ncand = np.zeros(cap, dtype=np.int64)
    settled = np.zeros((cap, nw), dtype=np.uint64)
    some = np.zeros(nw, dtype=np.uint64)
    labels = np.empty(n, dtype=np.int64)
    seen = np.empty(9 * n + 9, dtype=np.int64)
    group = np.empty(9, dtype=np.int64)  # scratch of _open_split
    fill = np.empty(10, dtype=np.int64)
    table = np.full((1 << 12, 3), -1, dtype=np.int64)
    stored = 0
    value = np.zeros(1, dtype=np.float64)  # a value, and as bits the way the table keeps it
    bits = value.view(np.int64)

    for i in range(n):
        buf[0, i] = i
    hi[0] = n
    _some_mine(buf, 0, 0, n, words, some)
    ncand[0] = _candidates(buf, 0, 0, n, code, some, False, cand[0], alive[0])
    if ncand[0] == 0:
        return -1, 0.0, 0.0
    d = 0
    mode[0] = _CHOOSE
    bj[0], bw[0], bs[0] = -1, -1.0, 0.0
    parts[0] = _open_split(buf, 0, 0, n, cand[0, 0], code, buf[1], bounds[0], group, fill)
    while True:
        g = g_at[d]
        if g < parts[d]:  # the next part of this frame's partition
            left = bounds[d, parts[d]] - bounds[d, g]
            if prune and mode[d] == _CHOOSE and total[d] + left <= bw[d] * (hi[d] - lo[d]):
                # even winning every part left cannot beat the best so far
                g_at[d] = parts[d]
                total[d] = -1.0
                continue
            g_at[d] = g + 1
            plo, phi = bounds[d, g], bounds[d, g + 1]
            m = phi - plo
            if m == 1:
                total[d] += 1.0
                continue
            h1, h2 = _key(buf, d + 1, plo, phi, z1, z2)
            s = _slot(table, h1, h2)
            if table[s, 2] != -1:
                bits[0] = table[s, 2]
                total[d] += m * value[0]
                continue
            budget[0] -= 1
            if budget[0] < 0 or d + 1 >= cap:
                return -2, OVER, 0.0
            settled[d + 1] = settled[d]
            if mode[d] == _CHOOSE:  # the cell opened shows one number in each part
                j = cand[d, o_at[d]]
                settled[d + 1, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
            d += 1
            lo[d], hi[d] = plo, phi
            k1[d], k2[d] = h1, h2
            g_at[d] = 0
            total[d] = 0.0
            _some_mine(buf, d, plo, phi, words, some)
            count = _free_split(buf, d, plo, phi, some, settled[d], code, labels, seen)
            for k in range(nw):  # in each part below, every free cell shows one number
                settled[d, k] |= ~some[k]
            if count > 1:
                mode[d] = _SPLIT
                _group(buf, d, plo, phi, labels, count, buf[d + 1], bounds[d])
                parts[d] = count
            else:
                ncand[d] = _candidates(buf, d, plo, phi, code, some, True, cand[d], alive[d])
                if ncand[d] == 0:
                    return -2, OVER, 0.0  # two layouts no cell tells apart: never
                mode[d] = _CHOOSE
                o_at[d] = 0
                bj[d], bw[d], bs[d] = -1, -1.0, 0.0
                parts[d] = _open_split(
                    buf, d, plo, phi, cand[d, 0], code, buf[d + 1], bounds[d], group, fill
                )
            continue
        size = hi[d] - lo[d]
        if mode[d] == _CHOOSE:  # a candidate valued: keep it if best, try the next
            o = o_at[d]
            w = total[d] / size
            if w > bw[d]:
                bj[d], bw[d], bs[d] = cand[d, o], w, alive[d, o] / size
            o += 1
            while (skip and o < ncand[d] and alive[d, o] / size > bw[d]
                   and _dominated(buf, d, lo[d], hi[d], code, cand[d], o)):
                o += 1
            if o < ncand[d] and alive[d, o] / size > bw[d]:
                o_at[d] = o
                g_at[d] = 0
                total[d] = 0.0
                parts[d] = _open_split(
                    buf, d, lo[d], hi[d], cand[d, o], code, buf[d + 1], bounds[d], group, fill
                )
                continue
            # the rest cannot beat the best even winning every branch
            if d == 0:
                return bj[0], bw[0], bs[0]
            result = bw[d]
            chosen[(k1[d], k2[d])] = (float(bj[d]), bw[d], bs[d])
        else:
            result = total[d] / size
        if 4 * (stored + 1) > 3 * table.shape[0]:  # keep the table at most 3/4 full
            old = table
            table = np.full((2 * old.shape[0], 3), -1, dtype=np.int64)
            for t in range(old.shape[0]):
                if old[t, 2] != -1:
                    u = _slot(table, old[t, 0], old[t, 1])
                    table[u, 0], table[u, 1], table[u, 2] = old[t, 0], old[t, 1], old[t, 2]
        s = _slot(table, k1[d], k2[d])
        if table[s, 2] == -1:
            stored += 1
        value[0] = result
        table[s, 0], table[s, 1], table[s, 2] = k1[d], k2[d], bits[0]
        d -= 1
        total[d] += size * result


class CompiledSearch:
    """One position's search on the kernel: what :class:`.endgame.Endgame` asks of
    the plain :class:`.endgame._Search`, built the same way (its root move, then
    recalling the moves it chose), on layouts given as bit masks over ``cells``."""

    def __init__(
        self,
        position: Position,
        cells: list[int],
        budget: int,
        *,
        prune: bool = True,
        skip_dominated: bool = False,
    ) -> None:
        self.cells = cells
        self.prune = prune
        self.skip_dominated = skip_dominated
        index = {c: j for j, c in enumerate(cells)}
        at = [0]
        flat: list[int] = []
        for c in cells:
            flat += [index[n] for n in position.grid.neighbours(c) if n in index]
            at.append(len(flat))
        self._around = np.array(at, dtype=np.int64), np.array(flat, dtype=np.int64)
        self.chosen = new_chosen()
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
        pad = np.pad(mine, ((0, 0), (0, -mine.shape[1] % 64)))  # whole 64-bit words
        words = np.packbits(pad, axis=1, bitorder="little").view("<u8").astype(np.uint64)
        code = np.ascontiguousarray(np.where(mine == 1, MINE, shown).T.astype(np.int8))
        j, win, safety = search(
            code, words, self.z1, self.z2, self.chosen, self.budget, self.prune,
            self.skip_dominated,
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
