"""The numba kernel behind :mod:`.kernels` (imported only when numba is installed).

The same dynamic programme as :func:`~.counting.count_front`, on int64 arrays: a
state is the 4-bit partial sums of the open clues packed in one int64; the table
after each box is the sorted array of its states and one row of coefficients (by
number of mines so far) per state.  A backward pass then gives, per box, the total
of its mines by the front's number of mines.  :mod:`.kernels` only sends fronts
whose counts cannot overflow.

The counts take the type of ``binom``: int64 for the engine, float64 for
:mod:`._compiled_board`, whose fronts may be too large for int64 (its answers are
floats anyway).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.typed import List

__all__ = ["count_many"]

_BINOM = np.array(
    [[1 if m in (0, n) else 0 for m in range(9)] for n in range(9)], dtype=np.int64
)
for _n in range(2, 9):
    for _m in range(1, _n):
        _BINOM[_n, _m] = _BINOM[_n - 1, _m - 1] + _BINOM[_n - 1, _m]


@njit(cache=True, nogil=True)
def _count_one(sizes, ptr, shifts, needs, caps, closes, width, binom, marks):
    """Count one front; fill ``marks`` (boxes x width); return (poly, failing box or -1).

    Counts are of ``binom``'s type (and ``marks`` must be too)."""
    n = len(sizes)
    states = np.zeros(1, dtype=np.int64)
    table = np.zeros((1, width), dtype=binom.dtype)
    table[0, 0] = 1
    tables = List()
    srcs = List()
    dsts = List()
    ms = List()
    ws = List()
    for i in range(n):
        size = sizes[i]
        inc = 0
        for j in range(ptr[i], ptr[i + 1]):
            inc += 1 << shifts[j]
        cap_t = len(states) * (size + 1)
        t_src = np.empty(cap_t, dtype=np.int64)
        t_s2 = np.empty(cap_t, dtype=np.int64)
        t_m = np.empty(cap_t, dtype=np.int64)
        nt = 0
        for a in range(len(states)):
            s = states[a]
            for m in range(size + 1):
                s2 = s + m * inc
                ok = True
                stop = False
                for j in range(ptr[i], ptr[i + 1]):
                    v = (s2 >> shifts[j]) & 15
                    if v > needs[j]:
                        ok = False
                        stop = True  # more mines only make it worse
                        break
                    if v + caps[j] < needs[j]:
                        ok = False
                        break
                    if closes[j]:
                        s2 -= v << shifts[j]
                if stop:
                    break
                if not ok:
                    continue
                t_src[nt] = a
                t_s2[nt] = s2
                t_m[nt] = m
                nt += 1
        if nt == 0:
            return np.zeros(width, dtype=binom.dtype), i
        order = np.argsort(t_s2[:nt], kind="mergesort")
        dst = np.empty(nt, dtype=np.int64)
        new_states = np.empty(nt, dtype=np.int64)
        count = 0
        for r in range(nt):
            t = order[r]
            if count == 0 or new_states[count - 1] != t_s2[t]:
                new_states[count] = t_s2[t]
                count += 1
            dst[t] = count - 1
        new_table = np.zeros((count, width), dtype=binom.dtype)
        w_t = np.empty(nt, dtype=binom.dtype)
        for t in range(nt):
            a = t_src[t]
            m = t_m[t]
            w = binom[size, m]
            w_t[t] = w
            row = new_table[dst[t]]
            src = table[a]
            for k in range(width - m):
                if src[k]:
                    row[k + m] += w * src[k]
        tables.append(table)
        srcs.append(t_src[:nt].copy())
        dsts.append(dst)
        ms.append(t_m[:nt].copy())
        ws.append(w_t)
        states = new_states[:count].copy()
        table = new_table
    # the last table holds state 0 alone: every clue closed
    poly = table[0].copy()
    after = np.zeros((1, width), dtype=binom.dtype)
    after[0, 0] = 1
    for i in range(n - 1, -1, -1):
        fwd = tables[i]
        src_i = srcs[i]
        dst_i = dsts[i]
        m_i = ms[i]
        w_i = ws[i]
        here = np.zeros((fwd.shape[0], width), dtype=binom.dtype)
        mark = marks[i]
        for t in range(len(src_i)):
            a = src_i[t]
            d = dst_i[t]
            m = m_i[t]
            w = w_i[t]
            b = after[d]
            f = fwd[a]
            for c in range(width - m):
                bc = b[c]
                if bc == 0:
                    continue
                here[a, c + m] += w * bc
                if m:
                    scale = m * w * bc
                    for x in range(width - m - c):
                        if f[x]:
                            mark[x + c + m] += scale * f[x]
        after = here
    return poly, -1


@njit(cache=True, nogil=True)
def _count_all(box_at, ptrs, cells, sizes, shifts, needs, caps, closes, binom):
    fronts = len(cells)
    total = 0
    for j in range(fronts):
        total += cells[j] + 1
    widest = 0
    for j in range(fronts):
        widest = max(widest, cells[j] + 1)
    polys = np.zeros(total, dtype=np.int64)
    marks = np.zeros((box_at[fronts], widest), dtype=np.int64)
    failed = np.full(fronts, -1, dtype=np.int64)
    at = 0
    for j in range(fronts):
        width = cells[j] + 1
        lo, hi = box_at[j], box_at[j + 1]
        poly, bad = _count_one(
            sizes[lo:hi],
            ptrs[lo : hi + 1],
            shifts,
            needs,
            caps,
            closes,
            width,
            binom,
            marks[lo:hi, :width],
        )
        polys[at : at + width] = poly
        failed[j] = bad
        at += width
    return polys, marks, failed


def count_many(box_at, ptrs, cells, sizes, shifts, needs, caps, closes):
    """Count the fronts laid one after the other in the arrays (see :mod:`.kernels`)."""
    return _count_all(box_at, ptrs, cells, sizes, shifts, needs, caps, closes, _BINOM)
