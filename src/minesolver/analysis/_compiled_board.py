"""The numba kernel behind :mod:`.floats`: a whole position's mine probabilities in
one compiled call (imported only when numba is installed).

The same steps as the engine (:mod:`.engine`), on arrays, from the board's bytes:

1. the clues of the revealed numbers over their covered neighbours, flags and
   known mines taken off, and the trivial rules run from a work list;
2. boxes (covered cells with the same clues around them) and fronts (clues joined
   through shared boxes, by union-find);
3. each front counted by :func:`._compiled._count_one`, the engine's dynamic
   programme, with float64 counts, along the better of a row-major and a
   column-major order of its boxes;
4. the join through the mine count, with ``comb(off_front, remaining - t)`` as a
   float ratio to its largest value, a forward product of the fronts and a backward
   correlation with the weights, so each front's share costs one pass.

It answers a status with the probabilities: :data:`OK`; :data:`INCONSISTENT` (no
layout agrees: the caller asks the engine, which names the clue); :data:`TOO_BIG`
(a front wider than 15 open clues or longer than :data:`MAX_FRONT` cells, or a join
larger than :data:`MAX_JOIN`: the caller asks the engine).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..codes import COVERED, FLAG, MINE
from ._compiled import _BINOM, _count_one

__all__ = ["INCONSISTENT", "MAX_FRONT", "MAX_JOIN", "OK", "TOO_BIG", "board_probabilities"]

OK = 0
INCONSISTENT = 1
TOO_BIG = 2
MAX_OPEN = 15  # clues open at once: 4 bits each in the 64-bit state
MAX_FRONT = 800  # cells of one front: its float counts stay below 2**800
MAX_JOIN = 20_000_000  # fronts x span of the mine count, the join's table

_BINOM_F = _BINOM.astype(np.float64)


@njit(cache=True, nogil=True)
def _find(parent, k):
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


@njit(cache=True, nogil=True)
def _clues_around(j, width, height, clue_of, around):
    """Fill ``around`` with the clue cells next to cell ``j``, row-major; their count."""
    r, q = j // width, j % width
    cnt = 0
    for rr in range(max(r - 1, 0), min(r + 2, height)):
        for cc in range(max(q - 1, 0), min(q + 2, width)):
            if clue_of[rr * width + cc] >= 0:
                around[cnt] = rr * width + cc
                cnt += 1
    return cnt


@njit(cache=True, nogil=True)
def _open_width(order, first_of, last_of, box_ptr, box_clues):
    """Most clues open at once along ``order``; fills each clue's first/last step."""
    for i in range(len(order)):
        b = order[i]
        for j in range(box_ptr[b], box_ptr[b + 1]):
            first_of[box_clues[j]] = -1
    for i in range(len(order)):
        b = order[i]
        for j in range(box_ptr[b], box_ptr[b + 1]):
            k = box_clues[j]
            if first_of[k] < 0:
                first_of[k] = i
            last_of[k] = i
    opened = np.zeros(len(order) + 1, dtype=np.int64)
    for i in range(len(order)):
        b = order[i]
        for j in range(box_ptr[b], box_ptr[b + 1]):
            k = box_clues[j]
            if first_of[k] == i:
                opened[i] += 1
                opened[last_of[k] + 1] -= 1
    best = 0
    now = 0
    for i in range(len(order)):
        now += opened[i]
        best = max(best, now)
    return best


@njit(cache=True, nogil=True)
def _count_front(order, box_ptr, box_clues, box_size, need, unknown, first_of, last_of,
                 slot, left, binom):
    """Count one front along ``order``: (poly by mines, marks per step by mines, ok).
    ``slot`` and ``left`` are scratch, per clue: its 4-bit slot, its cells not yet met."""
    nb = len(order)
    cells = 0
    pairs = 0
    for i in range(nb):
        b = order[i]
        cells += box_size[b]
        pairs += box_ptr[b + 1] - box_ptr[b]
    sizes = np.empty(nb, dtype=np.int64)
    ptr = np.zeros(nb + 1, dtype=np.int64)
    shifts = np.empty(pairs, dtype=np.int64)
    needs = np.empty(pairs, dtype=np.int64)
    caps = np.empty(pairs, dtype=np.int64)
    closes = np.empty(pairs, dtype=np.bool_)
    free = (1 << MAX_OPEN) - 1
    at = 0
    for i in range(nb):
        b = order[i]
        sizes[i] = box_size[b]
        for j in range(box_ptr[b], box_ptr[b + 1]):
            k = box_clues[j]
            if first_of[k] == i:
                s = 0
                while not (free >> s) & 1:
                    s += 1
                free &= ~(1 << s)
                slot[k] = s
                left[k] = unknown[k]
            left[k] -= box_size[b]
            shifts[at] = 4 * slot[k]
            needs[at] = need[k]
            caps[at] = left[k]
            closes[at] = last_of[k] == i
            at += 1
        ptr[i + 1] = at
        for j in range(box_ptr[b], box_ptr[b + 1]):
            k = box_clues[j]
            if last_of[k] == i:
                free |= 1 << slot[k]
    marks = np.zeros((nb, cells + 1), dtype=np.float64)
    poly, bad = _count_one(sizes, ptr, shifts, needs, caps, closes, cells + 1, binom, marks)
    return poly, marks, bad < 0


@njit(cache=True, nogil=True)
def _board(codes, height, width, mines, binom):
    n = height * width
    out = np.zeros(n, dtype=np.float64)

    # 1. clues, and the trivial rules from a work list
    clue_of = np.full(n, -1, dtype=np.int64)
    clue_at = np.empty(n, dtype=np.int64)
    need = np.empty(n, dtype=np.int64)
    unknown = np.empty(n, dtype=np.int64)
    nclues = 0
    marked = 0
    for i in range(n):
        c = codes[i]
        if c in (FLAG, MINE):
            out[i] = 1.0
            marked += 1
        elif c <= 8:
            r, q = i // width, i % width
            cov = 0
            mk = 0
            for rr in range(max(r - 1, 0), min(r + 2, height)):
                for cc in range(max(q - 1, 0), min(q + 2, width)):
                    d = codes[rr * width + cc]
                    if d == COVERED:
                        cov += 1
                    elif d in (FLAG, MINE):
                        mk += 1
            if c < mk or c - mk > cov:
                return out, INCONSISTENT, 0.0
            if cov:
                clue_of[i] = nclues
                clue_at[nclues] = i
                need[nclues] = c - mk
                unknown[nclues] = cov
                nclues += 1
    if marked > mines:
        return out, INCONSISTENT, 0.0
    settled = np.full(n, -1, dtype=np.int8)
    queued = np.zeros(nclues, dtype=np.bool_)
    stack = np.empty(nclues, dtype=np.int64)
    top = 0
    for k in range(nclues):
        if need[k] == 0 or need[k] == unknown[k]:
            stack[top] = k
            top += 1
            queued[k] = True
    settled_mines = 0
    while top:
        top -= 1
        k = stack[top]
        queued[k] = False
        if unknown[k] == 0:
            continue
        fill = 0
        if need[k] == unknown[k]:
            fill = 1
        elif need[k] != 0:
            continue
        r, q = clue_at[k] // width, clue_at[k] % width
        for rr in range(max(r - 1, 0), min(r + 2, height)):
            for cc in range(max(q - 1, 0), min(q + 2, width)):
                j = rr * width + cc
                if codes[j] != COVERED or settled[j] >= 0:
                    continue
                settled[j] = fill
                out[j] = fill
                settled_mines += fill
                for r2 in range(max(rr - 1, 0), min(rr + 2, height)):
                    for c2 in range(max(cc - 1, 0), min(cc + 2, width)):
                        kk = clue_of[r2 * width + c2]
                        if kk < 0:
                            continue
                        unknown[kk] -= 1
                        need[kk] -= fill
                        if need[kk] < 0 or need[kk] > unknown[kk]:
                            return out, INCONSISTENT, 0.0
                        if unknown[kk] and not queued[kk] and (
                            need[kk] == 0 or need[kk] == unknown[kk]
                        ):
                            stack[top] = kk
                            top += 1
                            queued[kk] = True

    # 2. boxes: the covered cells with the same clues around, found by sorting a key
    # (the first clue in row-major order and the others' offsets from it)
    box_of = np.full(n, -1, dtype=np.int64)
    around = np.empty(8, dtype=np.int64)
    free_cells = 0
    for j in range(n):
        if codes[j] == COVERED and settled[j] < 0:
            free_cells += 1
    cell_at = np.empty(free_cells, dtype=np.int64)
    cell_key = np.empty(free_cells, dtype=np.int64)
    # the cells next to a clue, marked from the clues (far fewer than covered cells)
    near = np.zeros(n, dtype=np.bool_)
    for k in range(nclues):
        r, q = clue_at[k] // width, clue_at[k] % width
        for rr in range(max(r - 1, 0), min(r + 2, height)):
            for cc in range(max(q - 1, 0), min(q + 2, width)):
                near[rr * width + cc] = True
    off_front = 0
    front_cells = 0
    for j in range(n):
        if codes[j] != COVERED or settled[j] >= 0:
            continue
        if not near[j]:
            off_front += 1
            continue
        cnt = _clues_around(j, width, height, clue_of, around)
        if cnt == 0:
            off_front += 1
            continue
        head = around[0]  # the others are 0-2 rows below it
        mask = 0
        for t in range(1, cnt):
            dr = around[t] // width - head // width
            dc = around[t] % width - head % width
            mask |= 1 << (dr * 5 + dc + 2)
        cell_at[front_cells] = j
        cell_key[front_cells] = head * 32768 + mask
        front_cells += 1
    box_size = np.zeros(front_cells, dtype=np.int64)
    box_rep = np.empty(front_cells, dtype=np.int64)  # its first cell in row-major order
    box_ptr = np.zeros(front_cells + 1, dtype=np.int64)
    box_clues = np.empty(8 * front_cells, dtype=np.int64)
    nbox = 0
    previous = -1
    for m in np.argsort(cell_key[:front_cells], kind="mergesort"):
        j = cell_at[m]
        if cell_key[m] != previous:
            previous = cell_key[m]
            box_rep[nbox] = j
            cnt = _clues_around(j, width, height, clue_of, around)
            for t in range(cnt):
                box_clues[box_ptr[nbox] + t] = clue_of[around[t]]
            box_ptr[nbox + 1] = box_ptr[nbox] + cnt
            nbox += 1
        box_size[nbox - 1] += 1
        box_of[j] = nbox - 1
    parent = np.arange(nclues)
    for b in range(nbox):
        k0 = _find(parent, box_clues[box_ptr[b]])
        for t in range(box_ptr[b] + 1, box_ptr[b + 1]):
            k1 = _find(parent, box_clues[t])
            if k1 != k0:
                parent[k1] = k0
    front_of_root = np.full(nclues, -1, dtype=np.int64)
    box_front = np.empty(nbox, dtype=np.int64)
    nfronts = 0
    for b in range(nbox):
        root = _find(parent, box_clues[box_ptr[b]])
        if front_of_root[root] < 0:
            front_of_root[root] = nfronts
            nfronts += 1
        box_front[b] = front_of_root[root]
    # boxes grouped by front, in row-major order of their first cell within each
    front_ptr = np.zeros(nfronts + 1, dtype=np.int64)
    for b in range(nbox):
        front_ptr[box_front[b] + 1] += 1
    for f in range(nfronts):
        front_ptr[f + 1] += front_ptr[f]
    by_front = np.empty(nbox, dtype=np.int64)
    fill_at = front_ptr[:-1].copy()
    for b in np.argsort(box_rep[:nbox]):
        by_front[fill_at[box_front[b]]] = b
        fill_at[box_front[b]] += 1
    front_size = np.zeros(nfronts, dtype=np.int64)
    for b in range(nbox):
        front_size[box_front[b]] += box_size[b]
    room = 0  # the fronts' marks, one row per box and a column per number of mines
    for f in range(nfronts):
        if front_size[f] > MAX_FRONT:
            return out, TOO_BIG, 0.0
        room += (front_ptr[f + 1] - front_ptr[f]) * (front_size[f] + 1)

    # 3. count each front along its better order (written back into by_front)
    first_of = np.full(nclues, -1, dtype=np.int64)
    last_of = np.full(nclues, -1, dtype=np.int64)
    slot = np.empty(nclues, dtype=np.int64)
    left = np.empty(nclues, dtype=np.int64)
    poly_at = np.zeros(nfronts + 1, dtype=np.int64)  # each front's poly, lowest count on
    polys = np.empty(front_cells + nfronts, dtype=np.float64)
    mark_at = np.zeros(nfronts + 1, dtype=np.int64)  # its marks, box after box
    all_marks = np.empty(room, dtype=np.float64)
    los = np.zeros(nfronts, dtype=np.int64)
    span = 0
    log_scale = 0.0  # the logs of the factors each front's counts were divided by
    for f in range(nfronts):
        rows = by_front[front_ptr[f] : front_ptr[f + 1]]
        by_col = np.empty(len(rows), dtype=np.int64)
        for i in range(len(rows)):
            rep = box_rep[rows[i]]
            by_col[i] = (rep % width) * height + rep // width
        cols = rows[np.argsort(by_col, kind="mergesort")]
        opened = _open_width(rows, first_of, last_of, box_ptr, box_clues)
        if opened > 2 and _open_width(cols, first_of, last_of, box_ptr, box_clues) < opened:
            rows[:] = cols
        if _open_width(rows, first_of, last_of, box_ptr, box_clues) > MAX_OPEN:
            return out, TOO_BIG, 0.0
        poly, marks, ok = _count_front(
            rows, box_ptr, box_clues, box_size, need, unknown, first_of, last_of, slot, left,
            binom,
        )
        if not ok:
            return out, INCONSISTENT, 0.0
        lo = 0
        while lo < len(poly) and poly[lo] == 0:
            lo += 1
        if lo == len(poly):
            return out, INCONSISTENT, 0.0
        hi = len(poly) - 1
        while poly[hi] == 0:
            hi -= 1
        top_value = poly[lo : hi + 1].max()
        log_scale += math.log(top_value)
        size = hi - lo + 1
        poly_at[f + 1] = poly_at[f] + size
        polys[poly_at[f] : poly_at[f + 1]] = poly[lo : hi + 1] / top_value
        mark_at[f + 1] = mark_at[f] + len(rows) * size
        all_marks[mark_at[f] : mark_at[f + 1]] = (marks[:, lo : hi + 1] / top_value).ravel()
        los[f] = lo
        span += hi - lo
    if nfronts * (span + 1) > MAX_JOIN:
        return out, TOO_BIG, 0.0

    # 4. join through the mine count: excess e = t - least over the fronts' mines t
    remaining = mines - marked - settled_mines
    least = los.sum()
    logw = np.full(span + 1, -np.inf)
    first_rest = 0
    for e in range(span + 1):
        rest = remaining - least - e  # mines off the fronts
        if 0 <= rest <= off_front:
            if e > 0 and logw[e - 1] > -np.inf:
                # comb(U, rest) / comb(U, rest + 1) = (rest + 1) / (U - rest)
                logw[e] = logw[e - 1] + math.log(rest + 1) - math.log(off_front - rest)
            else:
                logw[e] = 0.0  # the first possible count: the others relative to it
                first_rest = rest
    peak = logw.max()
    if peak == -np.inf:
        return out, INCONSISTENT, 0.0
    weight = np.exp(logw - peak)
    # backward: after[f][x] = sum over the mines c of the fronts from f on: w(x + c)
    after = np.zeros((nfronts + 1, span + 1), dtype=np.float64)
    after[nfronts] = weight
    for f in range(nfronts - 1, -1, -1):
        poly = polys[poly_at[f] : poly_at[f + 1]]
        for x in range(span + 1):
            s = 0.0
            for c in range(min(len(poly), span + 1 - x)):
                s += poly[c] * after[f + 1][x + c]
            after[f][x] = s
    z = after[0][0]  # every front's layouts, each weighed by its off-front ways
    if not z > 0.0:
        return out, INCONSISTENT, 0.0
    # forward: before[a] = the fronts before f convolved; front f's weights g[k]
    box_p = np.zeros(nbox, dtype=np.float64)
    before = np.zeros(span + 1, dtype=np.float64)
    before[0] = 1.0
    reach = 0  # before[a] is zero past reach
    for f in range(nfronts):
        poly = polys[poly_at[f] : poly_at[f + 1]]
        marks = all_marks[mark_at[f] : mark_at[f + 1]].reshape((-1, len(poly)))
        order = by_front[front_ptr[f] : front_ptr[f + 1]]
        g = np.zeros(len(poly), dtype=np.float64)
        for k in range(len(poly)):
            s = 0.0
            for a in range(min(reach, span - k) + 1):
                s += before[a] * after[f + 1][a + k]
            g[k] = s
        for i in range(len(order)):
            s = 0.0
            for k in range(len(poly)):
                s += marks[i, k] * g[k]
            box_p[order[i]] = s / (z * box_size[order[i]])
        new = np.zeros(span + 1, dtype=np.float64)
        for a in range(reach + 1):
            if before[a] != 0.0:
                for c in range(min(len(poly), span + 1 - a)):
                    new[a + c] += before[a] * poly[c]
        before = new
        reach = min(span, reach + len(poly) - 1)
    off_p = 0.0
    if off_front:
        for e in range(span + 1):
            off_p += before[e] * weight[e] * (remaining - least - e)
        off_p /= z * off_front
    for j in range(n):
        if codes[j] == COVERED and settled[j] < 0:
            out[j] = box_p[box_of[j]] if box_of[j] >= 0 else off_p
    # the layouts' count: z times every factor taken out on the way
    log_layouts = (
        math.log(z) + peak + log_scale + math.lgamma(off_front + 1)
        - math.lgamma(first_rest + 1) - math.lgamma(off_front - first_rest + 1)
    )
    return out, OK, log_layouts


def board_probabilities(
    cells: bytes, height: int, width: int, mines: int
) -> tuple[np.ndarray, int, float]:
    """Mine probability of every cell (flat, row-major), a status (:data:`OK`,
    :data:`INCONSISTENT` or :data:`TOO_BIG`: then the rest means nothing) and the
    natural log of the number of layouts that agree with the position."""
    codes = np.frombuffer(cells, dtype=np.uint8)
    out, status, log_layouts = _board(codes, height, width, mines, _BINOM_F)
    return out, int(status), float(log_layouts)
