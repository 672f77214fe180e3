"""Exact counting over one front by dynamic programming along its boxes.

The boxes of a front are processed in the order :mod:`.fronts` chose.  The table
after ``i`` boxes maps a *state* (the mine sums, so far, of every clue that is open
at that point) to a polynomial in the number of mines placed so far: coefficient
``k`` is the (weighted) number of ways to fill the first ``i`` boxes with ``k``
mines so that every clue already closed is met.  Placing ``m`` mines in a box of
``n`` cells multiplies by ``comb(n, m) * x**m``; a clue closes when its last box is
placed, and must then equal its number (or, when soft, multiplies by its
likelihood factor).  The cost is ``O(boxes * states * 9)`` big-integer operations,
with ``states`` bounded by the product of ``need + 1`` over the open clues: it grows
with the *width* of the front, not its length.

Two implementation tricks keep this fast in pure Python:

* a state is one ``int`` with 4 bits per open clue (clue sums never exceed 8);
* a polynomial is one ``int`` too, its coefficients packed in fixed-width slots
  (Kronecker substitution): ``x**m * p`` is a shift and adding polynomials is an
  integer addition, so the inner loop does a few big-int operations, each a C loop.
  The counting runs twice along the boxes: first with each state's total weight (the
  polynomial at ``x = 1``) to find the transitions and the largest total, then with
  the polynomials in slots just that wide (a packed ``int`` is the polynomial's exact
  value at ``x = 2**slot``; only the coefficients that are read back, the tables' and
  the results', need to fit).

Per-box marginals come from a backward pass (reverse-mode differentiation of the
same sum-product): given ``g[k]``, the weight of the rest of the board when this
front holds ``k`` mines, the backward table holds, for each state after ``i``
boxes, the weight of all completions as a function of the mines placed so far;
pairing it with the forward table gives, for every box, the total of
``mines in box * weight``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import comb, gcd

import numpy as np

from ..errors import EngineLimitError, InconsistentPositionError
from ..rng import SplitMix64
from .fronts import Front

__all__ = [
    "FrontCount",
    "below_big",
    "count_front",
    "name_clues",
    "pack",
    "sample_front",
    "unpack",
    "weighted_index",
]

_SLOT = 4  # bits per open clue in a state
_NIBBLE = (1 << _SLOT) - 1


def _bytes_for(bits: int) -> int:
    return max(1, (bits + 7) // 8)


def pack(values: list[int], nbytes: int) -> int:
    """Pack non-negative ints into one int, ``nbytes`` bytes per slot (slot 0 lowest).

    >>> unpack(pack([3, 0, 5], 2), 2)
    [3, 0, 5]
    """
    return int.from_bytes(b"".join(v.to_bytes(nbytes, "little") for v in values), "little")


def unpack(packed: int, nbytes: int) -> list[int]:
    """Inverse of :func:`pack` (trailing zero slots dropped)."""
    if packed == 0:
        return []
    raw = packed.to_bytes(_bytes_for(packed.bit_length()), "little")
    return [
        int.from_bytes(raw[i : i + nbytes], "little") for i in range(0, len(raw), nbytes)
    ]


# A transition: (state before, mines in the box, state after, weight)
_Transition = tuple[int, int, int, int]


@dataclass
class FrontCount:
    """The counted front: its mine-count polynomial and what the backward pass needs."""

    front: Front
    poly: list[int]  # poly[k]: weighted ways for the front to hold k mines
    _slot_bytes: int
    _tables: list[dict[int, int]] | None  # forward tables before each box
    _moves: list[list[_Transition]] | None  # transitions out of each box
    # what the tables' weights are multiplied by in ``poly`` and ``box_polys`` (the
    # soft clues' common factors, taken out while counting: see ``_reduced``)
    _scale: int = 1
    _bytes: int = 0  # the tables' size (count_front's estimate)

    @classmethod
    def compiled(cls, front: Front, poly: list[int], box_polys: list[list[int]]) -> FrontCount:
        """A count made by the compiled kernel: no tables (sampling recounts them)."""
        out = cls(front, poly, 0, None, None)
        out.__dict__["box_polys"] = box_polys
        return out

    def tables(self) -> tuple[int, list[dict[int, int]], list[list[_Transition]]]:
        """Slot bytes, forward tables and transitions, counted in Python if not kept."""
        if self._tables is None or self._moves is None:
            full = count_front(self.front)
            return full._slot_bytes, full._tables or [], full._moves or []
        return self._slot_bytes, self._tables, self._moves

    @property
    def min_mines(self) -> int:
        return next(k for k, v in enumerate(self.poly) if v)

    @property
    def max_mines(self) -> int:
        return len(self.poly) - 1

    def box_weights(self, g: np.ndarray) -> tuple[int, list[int]]:
        """Total weight and per-box mine weight when ``k`` front mines weigh ``g[k]``.

        Returns ``(z, nums)`` with ``z = sum_k poly[k] * g[k]`` and ``nums[b]`` the sum
        over layouts of ``(mines in box b) * weight * g[front mines]``; the mine
        probability of a cell of box ``b`` is ``nums[b] / (len(box) * z)``.
        """
        k = len(self.poly)
        if len(g) < k:
            g = np.concatenate([g, np.zeros(k - len(g), dtype=object)])
        return int(np.dot(self._poly_array, g[:k])), (self._box_matrix @ g[:k]).tolist()

    @cached_property
    def _poly_array(self) -> np.ndarray:
        out = np.empty(len(self.poly), dtype=object)
        out[:] = self.poly
        return out

    @cached_property
    def _box_matrix(self) -> np.ndarray:
        out = np.empty((len(self.box_polys), len(self.poly)), dtype=object)
        out[:] = self.box_polys
        return out

    @cached_property
    def box_polys(self) -> list[list[int]]:
        """Per box ``b``, ``M_b[k]``: the (weighted) total of mines in box ``b`` over the
        front's layouts with ``k`` mines.

        Counted once per front (the rest of the board only changes ``g`` in
        :meth:`box_weights`): a backward pass builds, for every state, the
        polynomial of the completions; a box's polynomial is the sum over its
        transitions of ``m * w * forward * backward``, both polynomials packed, so
        the product is one integer multiplication (one per state before the box).
        """
        if len(self.front.boxes) == 1:  # one box: no tables, just the polynomial
            return [[k * p for k, p in enumerate(self.poly)]]
        fb, tables, moves = self.tables()
        unit = 8 * fb
        after: dict[int, int] = {0: 1}
        out: list[list[int]] = [[] for _ in moves]
        for i in range(len(moves) - 1, -1, -1):
            here: dict[int, int] = {}
            table = tables[i]
            # per state before the box: the sum of m * w * backward over its moves, so
            # that each state costs one product with its forward polynomial
            marks: dict[int, int] = {}
            for s, m, s2, w in moves[i]:
                a = after.get(s2)
                if not a:
                    continue
                shifted = w * (a << (m * unit))
                here[s] = here.get(s, 0) + shifted
                if m:
                    marks[s] = marks.get(s, 0) + m * shifted
            marked = sum(_product(table[s], x, unit) for s, x in marks.items() if s in table)
            out[i] = [v * self._scale for v in _padded(unpack(marked, fb), len(self.poly))]
            after = here
        if self._bytes > KEEP_TABLE_BYTES:
            # a cache of counts keeps this object: let go of large tables once the
            # per-box totals are made (sampling counts them again if it ever needs them)
            self._tables = self._moves = None
        return out


def _product(a: int, b: int, unit: int) -> int:
    """``a * b`` for two packed polynomials, their empty low slots set aside first (a
    table's polynomials start at the fewest mines its state allows: often half their
    slots are empty, and a product costs more than linear time)."""
    if not a or not b:
        return 0
    low_a = ((a & -a).bit_length() - 1) // unit
    low_b = ((b & -b).bit_length() - 1) // unit
    return ((a >> (low_a * unit)) * (b >> (low_b * unit))) << ((low_a + low_b) * unit)


def _padded(values: list[int], length: int) -> list[int]:
    return (values + [0] * length)[:length]


# Tables are kept for the backward pass; past this many bytes (an estimate: the
# process uses two to three times more) the engine stops with EngineLimitError
# rather than exhaust the machine's memory.  128 MB keeps a process within 512 MB.
MAX_TABLE_BYTES = 1 << 27
# Past this many bytes a count drops its tables once its per-box totals are made.
KEEP_TABLE_BYTES = 1 << 22


def count_front(front: Front, *, max_bytes: int | None = None) -> FrontCount:
    """Count the layouts of ``front`` by number of mines (see the module docstring).

    Raises :class:`InconsistentPositionError` naming a clue when no layout of the
    front meets its clues, and :class:`EngineLimitError` when its tables would
    outgrow ``max_bytes`` (default :data:`MAX_TABLE_BYTES`).
    """
    limit = MAX_TABLE_BYTES if max_bytes is None else max_bytes
    boxes = front.boxes
    clues = front.clues
    if len(boxes) == 1:
        return _count_one_box(front)
    _, last = front.spans()
    box_slots, _ = front.slots()
    # capacity of each clue in boxes after step i, tracked as we go
    capacity = [len(c.cells) for c in clues]
    factors, scale = _reduced(front)

    # an estimate of the slot bytes while the states are found: coefficients never
    # exceed (ways to fill the front) * (box size) * factors
    bound_bits = sum(b.size for b in boxes) + 4
    for factor in factors:
        if factor is not None:
            bound_bits += max(factor).bit_length()
    fb = _bytes_for(bound_bits)

    # first pass: the transitions, with each state's total weight (every polynomial
    # at x = 1) in place of its polynomial
    used_bytes = 0
    table: dict[int, int] = {0: 1}
    moves: list[list[_Transition]] = []
    widest = 1  # the largest total: no coefficient of a table is larger
    placed = 1  # slots of the polynomials so far: cells placed, plus one
    for i, box in enumerate(boxes):
        size = box.size
        placed += size
        inc = 0
        hard: list[tuple[int, int, int, bool]] = []
        soft: list[tuple[int, tuple[int, ...], bool]] = []
        for k in box.clues:
            shift = _SLOT * box_slots[i][k]
            inc += 1 << shift
            capacity[k] -= size
            closes = last[k] == i
            factor = factors[k]
            if factor is None:
                hard.append((shift, clues[k].need, capacity[k], closes))
            else:
                soft.append((shift, factor, closes))
        binoms = [comb(size, m) for m in range(size + 1)]
        out: dict[int, int] = {}
        step_moves: list[_Transition] = []
        for s, total in table.items():
            for m in range(size + 1):
                s2 = s + m * inc
                ok = True
                stop = False
                for shift, need, cap, closes in hard:
                    v = (s2 >> shift) & _NIBBLE
                    if v > need:
                        ok = False
                        stop = True  # more mines only make it worse
                        break
                    if v + cap < need:
                        ok = False
                        break
                    if closes:
                        s2 -= v << shift
                if stop:
                    break
                if not ok:
                    continue
                w = binoms[m]
                for shift, factor, closes in soft:
                    if closes:
                        v = (s2 >> shift) & _NIBBLE
                        w *= factor[v]
                        s2 -= v << shift
                if not w:
                    continue
                step_moves.append((s, m, s2, w))
                out[s2] = out.get(s2, 0) + w * total
                if not len(step_moves) & 0xFFF and (
                    used_bytes + 120 * len(step_moves) + len(out) * (100 + fb * placed) > limit
                ):  # stop while growing, not after the step has taken the memory
                    raise _too_wide(front, limit)
        moves.append(step_moves)
        used_bytes += 120 * len(step_moves) + 100 * len(out)
        if used_bytes > limit:
            raise _too_wide(front, limit)
        if not out:
            raise no_layout(front, box.clues)
        widest = max(widest, max(out.values()))
        table = out
    if not table.get(0):
        raise no_layout(front)
    # slots just wide enough for every table's coefficients and for the per-box
    # totals (at most 8 times the front's total): the products of the backward pass
    # cost less the shorter the integers
    fb = _bytes_for(max(widest.bit_length(), table[0].bit_length() + 3) + 1)
    tables, last_poly, used_bytes = _polynomials(front, moves, fb, used_bytes, limit)
    poly = [v * scale for v in unpack(last_poly, fb)]
    return FrontCount(front, poly, fb, tables, moves, scale, used_bytes)


def _polynomials(
    front: Front, moves: list[list[_Transition]], fb: int, used_bytes: int, limit: int
) -> tuple[list[dict[int, int]], int, int]:
    """Second pass: the tables before each box (polynomials packed with ``fb`` bytes per
    coefficient), the front's polynomial (packed) and the bytes kept."""
    unit = 8 * fb
    table: dict[int, int] = {0: 1}
    tables: list[dict[int, int]] = []
    for step_moves in moves:
        out: dict[int, int] = {}
        for s, m, s2, w in step_moves:
            out[s2] = out.get(s2, 0) + w * (table[s] << (m * unit))
        tables.append(table)
        # what this step keeps alive: packed polynomials
        if len(out) > 256:
            used_bytes += sum(v.bit_length() for v in out.values()) // 8
        if used_bytes > limit:
            raise _too_wide(front, limit)
        table = out
    return tables, table[0], used_bytes


def _reduced(front: Front) -> tuple[list[tuple[int, ...] | None], int]:
    """The clues' factors each divided by the gcd of its values, and the product of
    those gcds.

    Noise models scale likelihoods to large integers (``(0, 504000000, 630000000)``
    is ``126000000 * (0, 4, 5)``); every layout's weight carries every clue's common
    factor, so the counting works with the small factors (integers a tenth as long,
    and the backward pass multiplies them) and multiplies the results by the
    product at the end: the same integers.
    """
    factors: list[tuple[int, ...] | None] = []
    scale = 1
    for clue in front.clues:
        if clue.factor is None:
            factors.append(None)
            continue
        g = gcd(*clue.factor) or 1
        factors.append(tuple(v // g for v in clue.factor))
        scale *= g
    return factors, scale


def _too_wide(front: Front, limit: int) -> EngineLimitError:
    return EngineLimitError(
        f"the front of {front.size} cells around {front.coords(front.clues[0].at)} is too "
        f"complex to count exactly: with up to {front.width()} clues open at once its "
        f"tables would need more memory than its budget of {limit >> 20} MB"
    )


def _count_one_box(front: Front) -> FrontCount:
    """A front of one box: every clue sees exactly its cells."""
    size = front.boxes[0].size
    poly = []
    for m in range(size + 1):
        w = comb(size, m)
        for clue in front.clues:
            w *= clue.factor[m] if clue.factor is not None else int(m == clue.need)
        poly.append(w)
    while poly and not poly[-1]:
        poly.pop()
    if not poly:
        raise no_layout(front)
    return FrontCount(front, poly, 0, [], [])


def no_layout(front: Front, ks: list[int] | None = None) -> InconsistentPositionError:
    """The error for a front whose clues ``ks`` (default: all) no layout meets, placed
    at the first of them."""
    ks = list(range(len(front.clues))) if ks is None else ks
    return InconsistentPositionError(
        f"no layout meets {name_clues(front, ks)}", front.coords(front.clues[ks[0]].at)
    )


def name_clues(front: Front, ks: list[int]) -> str:
    names = [f"the clue at {front.coords(front.clues[k].at)}" for k in ks[:3]]
    return " and ".join(names)


def below_big(rng: SplitMix64, n: int) -> int:
    """A uniform integer in ``[0, n)`` for any positive ``n`` (exact, by rejection)."""
    if n <= 0:
        raise ValueError(f"below_big() needs a positive bound, got {n}")
    bits = n.bit_length()
    words = (bits + 63) // 64
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next64()
        x >>= words * 64 - bits
        if x < n:
            return x


def weighted_index(rng: SplitMix64, weights: list[int]) -> int:
    """Index ``i`` with probability ``weights[i] / sum(weights)``, exactly."""
    total = sum(weights)
    pick = below_big(rng, total)
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    raise AssertionError("unreachable: pick below total")


def sample_front(count: FrontCount, mines: int, rng: SplitMix64) -> list[int]:
    """The mine cells of one layout of the front with exactly ``mines`` mines,
    drawn uniformly (weighted by the clues' factors) by walking the counting
    tables backwards."""
    front = count.front
    if len(front.boxes) == 1:  # one box: no tables; every choice of its cells is equally likely
        box = front.boxes[0]
        return [box.cells[j] for j in rng.sample(box.size, mines)]
    fb, tables, moves = count.tables()
    state = 0
    k = mines
    chosen: list[int] = []
    for i in range(len(front.boxes) - 1, -1, -1):
        table = tables[i]
        options = []
        weights = []
        for s, m, s2, w in moves[i]:
            if s2 != state or m > k:
                continue
            coeffs = unpack(table.get(s, 0), fb)
            c = coeffs[k - m] if k - m < len(coeffs) else 0
            if c:
                options.append((s, m))
                weights.append(c * w)
        s, m = options[weighted_index(rng, weights)]
        box = front.boxes[i]
        chosen.extend(box.cells[j] for j in rng.sample(box.size, m))
        state, k = s, k - m
    return chosen
