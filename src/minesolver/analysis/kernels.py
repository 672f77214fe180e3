"""Compiled counting of small hard fronts (numba), behind the plain-Python reference.

:func:`~.counting.count_front` is the reference: exact Python integers, any front.
Most fronts of the boards people play are small and have exact clues; for those
every count fits in a 64-bit integer (a front of ``n`` cells has at most ``2**n``
layouts, and the per-box totals at most 8 times that), so the same dynamic
programme runs compiled, on arrays, with no loss of exactness.  Every front that a
board needs counted goes to the kernel in one call (:func:`count_fronts`).

Which path runs is chosen by the environment variable ``MINESOLVER_KERNELS``:
``python`` (the reference only), ``numba`` (compiled; an error if numba is not
installed) or ``auto`` (the default: compiled when numba is installed and the batch
has a front of at least :data:`AUTO_MIN_CELLS` cells, or the kernel is loaded already:
a process that only meets small fronts never imports numba).

``MINESOLVER_ENGINE_WORKERS`` (``minesolver play --engine-workers``; default 1)
splits a compiled batch of at least :data:`PARALLEL_MIN_BOXES` boxes over that many
threads: the kernel releases the GIL, so the fronts of one position count on
several cores at once.  The fronts and their counts are the same either way.  numba is
an optional dependency (``pip install minesolver[fast]``); it is imported on first
use, and the kernel is compiled once and cached on disk.  The tests require both
paths to give the same integers on the oracle and the fixtures.

>>> from minesolver.position import Position
>>> from .fronts import split_fronts
>>> from .system import build_system
>>> fronts, _ = split_fronts(build_system(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")))
>>> [c.poly for c in count_fronts(fronts, kernel="python")]
[[0, 0, 3, 12, 1]]
>>> compiled = count_fronts(fronts)  # numba when installed: the same integers
>>> [c.poly for c in compiled]
[[0, 0, 3, 12, 1]]
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np

from ..errors import InputError, OptionError
from .counting import FrontCount, count_front, no_layout
from .fronts import Front

__all__ = [
    "KERNELS",
    "PARALLEL_MIN_BOXES",
    "WORKERS_ENV",
    "Kernel",
    "check_environment",
    "compiled_available",
    "count_fronts",
    "engine_workers",
    "kernel_choice",
    "kernel_in_use",
]

Kernel = Literal["python", "numba", "auto"]
KERNELS: tuple[Kernel, ...] = ("python", "numba", "auto")

# fronts the compiled path takes: exact clues, at most this many cells (so every
# count fits in an int64 with room for the per-box totals), at most 15 clues open
# at once (4 bits each in one 64-bit state)
_MAX_CELLS = 58
_MAX_OPEN = 15
# ``auto`` goes compiled only for a batch with a front at least this large
AUTO_MIN_CELLS = 16
# a compiled batch goes to several threads only with at least this many boxes: below,
# handing it out costs more than it saves (benchmarks/huge_board.py --threshold)
PARALLEL_MIN_BOXES = 4000
WORKERS_ENV = "MINESOLVER_ENGINE_WORKERS"
MAX_ENGINE_WORKERS = 64

_compiled: Callable[..., Any] | None = None
_tried = False
_pools: dict[int, ThreadPoolExecutor] = {}


def engine_workers(workers: int | None = None) -> int:
    """Threads that count one position's fronts: ``workers``, else
    ``MINESOLVER_ENGINE_WORKERS``, else 1.

    >>> engine_workers(2)
    2
    """
    if workers is None:
        text = os.environ.get(WORKERS_ENV, "").strip() or "1"
        try:
            workers = int(text)
        except ValueError:
            raise OptionError(f"{WORKERS_ENV}={text!r}: expected a whole number") from None
        if not 1 <= workers <= MAX_ENGINE_WORKERS:
            raise OptionError(f"{WORKERS_ENV}={text!r}: expected 1 to {MAX_ENGINE_WORKERS}")
    if not 1 <= workers <= MAX_ENGINE_WORKERS:
        raise OptionError(f"engine workers must be 1 to {MAX_ENGINE_WORKERS}, got {workers}")
    return workers


def check_environment() -> None:
    """Refuse a ``MINESOLVER_KERNELS`` or ``MINESOLVER_ENGINE_WORKERS`` that cannot be
    used, at once: each is read only when a position first needs it, which on small
    boards may be never (the value was then ignored without a word), on huge ones
    minutes in."""
    _choice(None)
    engine_workers()


def kernel_in_use(kernel: Kernel | None = None) -> Literal["python", "numba"]:
    """The path that runs: ``kernel``, else ``MINESOLVER_KERNELS``, else ``auto``.

    >>> kernel_in_use("python")
    'python'
    """
    choice = _choice(kernel)
    if choice == "python":
        return "python"
    if compiled_available():
        return "numba"
    if choice == "numba":
        raise OptionError("MINESOLVER_KERNELS=numba needs numba: pip install minesolver[fast]")
    return "python"


def kernel_choice(kernel: Kernel | None = None) -> Kernel:
    """What was asked for: ``kernel``, else ``MINESOLVER_KERNELS``, else ``auto``
    (:func:`kernel_in_use` says what runs).

    >>> kernel_choice("numba")
    'numba'
    """
    return _choice(kernel)


def _choice(kernel: Kernel | None) -> Kernel:
    choice = kernel or os.environ.get("MINESOLVER_KERNELS", "auto").strip().lower() or "auto"
    if choice not in KERNELS:
        raise OptionError(
            f"MINESOLVER_KERNELS={choice!r}: expected one of {', '.join(KERNELS)}"
        )
    return choice


def compiled_available() -> bool:
    """Whether numba is installed (and the kernel compiled: done on the first call)."""
    global _compiled, _tried
    if not _tried:
        _tried = True
        try:
            from ._compiled import count_many
        except ImportError:
            return False
        _compiled = count_many
        _warm_up()
    return _compiled is not None


def count_fronts(
    fronts: list[Front], *, kernel: Kernel | None = None, workers: int | None = None
) -> list[FrontCount]:
    """Count every front; the small hard ones in one compiled call when it runs (split
    over :func:`engine_workers` threads when the batch is large).

    Raises what :func:`~.counting.count_front` raises.
    """
    choice = _choice(kernel)
    if (
        not fronts
        or choice == "python"
        # a process that only meets small fronts (a small board, the web app's
        # sandbox) never imports numba; once loaded, the kernel counts them all
        or (choice == "auto" and _compiled is None and max(f.size for f in fronts) < AUTO_MIN_CELLS)
        or kernel_in_use(choice) == "python"
    ):
        return [count_front(f) for f in fronts]
    out: list[FrontCount | None] = [None] * len(fronts)
    batch: list[tuple[int, Front, _Plan]] = []
    for i, front in enumerate(fronts):
        plan = _plan(front)
        if plan is None:
            out[i] = count_front(front)
        else:
            batch.append((i, front, plan))
    if batch:
        for (i, _, _), count in zip(batch, _run_split(batch, engine_workers(workers)),
                                    strict=True):
            out[i] = count
    return [c for c in out if c is not None]


# a front as the kernel reads it: per box its size and where its (box, clue) pairs
# end; per pair the clue's 4-bit shift, need, capacity after the box, and whether
# the clue closes at this box
_Plan = tuple[list[int], list[int], list[int], list[int], list[int], list[bool]]


def _plan(front: Front) -> _Plan | None:
    """The front as the kernel's columns, or ``None`` when it must be counted in Python.

    Plain lists: a batch is joined and turned into arrays once (small fronts are
    most of them, and numpy's cost per call would outweigh their counting).
    """
    boxes = front.boxes
    clues = front.clues
    if len(boxes) == 1 or front.size > _MAX_CELLS or any(c.factor is not None for c in clues):
        return None
    _, last = front.spans()
    box_slots, used = front.slots()
    if used > _MAX_OPEN:
        return None
    capacity = [len(c.cells) for c in clues]
    sizes: list[int] = []
    ends: list[int] = []
    shifts: list[int] = []
    needs: list[int] = []
    caps: list[int] = []
    closes: list[bool] = []
    for i, box in enumerate(boxes):
        sizes.append(box.size)
        slots = box_slots[i]
        for k in box.clues:
            capacity[k] -= box.size
            shifts.append(4 * slots[k])
            needs.append(clues[k].need)
            caps.append(capacity[k])
            closes.append(last[k] == i)
        ends.append(len(shifts))
    return sizes, ends, shifts, needs, caps, closes


def _run_split(
    batch: list[tuple[int, Front, _Plan]], workers: int
) -> list[FrontCount]:
    """:func:`_run` on the batch, in parts on ``workers`` threads when it is large."""
    boxes = sum(len(plan[0]) for _, _, plan in batch)
    if workers == 1 or len(batch) == 1 or boxes < PARALLEL_MIN_BOXES:
        return _run(batch)
    # the largest fronts first, each to the least loaded part (boxes stand in for work)
    parts: list[list[int]] = [[] for _ in range(min(workers, len(batch)))]
    load = [0] * len(parts)
    for j in sorted(range(len(batch)), key=lambda j: -len(batch[j][2][0])):
        k = load.index(min(load))
        parts[k].append(j)
        load[k] += len(batch[j][2][0])
    pool = _pools.get(workers)
    if pool is None:
        pool = _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="fronts")
    try:
        counted = list(pool.map(_run, [[batch[j] for j in sorted(part)] for part in parts]))
    except InputError:
        return _run(batch)  # raise what the serial count raises: its first front that fails
    out: list[FrontCount | None] = [None] * len(batch)
    for part, counts in zip(parts, counted, strict=True):
        for j, count in zip(sorted(part), counts, strict=True):
            out[j] = count
    return [c for c in out if c is not None]


def _run(batch: list[tuple[int, Front, _Plan]]) -> list[FrontCount]:
    assert _compiled is not None
    # the fronts one after the other: offsets into the joined columns
    box_at = [0]
    ptrs = [0]
    cells: list[int] = []
    sizes: list[int] = []
    shifts: list[int] = []
    needs: list[int] = []
    caps: list[int] = []
    closes: list[bool] = []
    for _, front, (f_sizes, f_ends, f_shifts, f_needs, f_caps, f_closes) in batch:
        pairs = len(shifts)
        ptrs.extend(pairs + e for e in f_ends)
        box_at.append(box_at[-1] + len(f_sizes))
        cells.append(front.size)
        sizes += f_sizes
        shifts += f_shifts
        needs += f_needs
        caps += f_caps
        closes += f_closes
    i64 = np.int64
    polys, marks, failed = _compiled(
        np.array(box_at, dtype=i64),
        np.array(ptrs, dtype=i64),
        np.array(cells, dtype=i64),
        np.array(sizes, dtype=i64),
        np.array(shifts, dtype=i64),
        np.array(needs, dtype=i64),
        np.array(caps, dtype=i64),
        np.array(closes, dtype=np.bool_),
    )
    bad = failed.tolist()
    all_polys = polys.tolist()
    out = []
    poly_at = 0
    for j, (_, front, _) in enumerate(batch):
        width = cells[j] + 1
        if bad[j] >= 0:
            raise no_layout(front, front.boxes[bad[j]].clues)
        poly = all_polys[poly_at : poly_at + width]
        while poly and not poly[-1]:
            poly.pop()
        if not poly:
            raise no_layout(front)
        rows = marks[box_at[j] : box_at[j + 1], : len(poly)].tolist()
        out.append(FrontCount.compiled(front, poly, rows))
        poly_at += width
    return out


def _warm_up() -> None:
    """Compile (or load from the disk cache) the kernel on a two-box front."""
    from .fronts import Box

    assert _compiled is not None
    from .system import Clue

    front = Front([Box([0], [0]), Box([1], [0])], [Clue(2, [0, 1], 1)], 3)
    plan = _plan(front)
    assert plan is not None
    _run([(0, front, plan)])
