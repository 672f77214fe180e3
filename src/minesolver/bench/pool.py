"""Run chunks of work on local worker processes, handing back each chunk's results.

One place for what bench runs and Flags matches share: cut the items into small
chunks, keep a few chunks per worker in flight (so memory stays flat however many
games a run has), and hand each finished chunk to ``finish`` in the parent process
(which stores it).  With one worker everything runs in this process.

>>> seen = []
>>> run_chunks(_double, ("x",), [1, 2, 3], workers=1, chunk=2, finish=seen.extend)
>>> seen
['x2', 'x4', 'x6']
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from multiprocessing import get_context
from typing import Any, TypeVar

__all__ = ["chunks", "run_chunks"]

T = TypeVar("T")
R = TypeVar("R")


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive runs of at most ``size`` of ``items``, taken as they are needed (the
    items may be made one by one: a run of 10**8 games never lists them all)."""
    it = iter(items)
    while part := list(islice(it, size)):
        yield part


def run_chunks(
    task: Callable[..., list[R]],
    args: tuple[Any, ...],
    items: Iterable[T],
    *,
    workers: int | None,
    chunk: int,
    finish: Callable[[list[R]], None],
) -> None:
    """Call ``task(*args, part)`` on every chunk ``part`` of ``items``.

    ``workers``: processes (default: all cores).  ``task`` must be a module-level
    function (it is sent to the workers); processes are forked, so each builds
    its strategies once and starts cheaply.
    """
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for part in chunks(items, chunk):
            finish(task(*args, part))
        return
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context("fork"),
        initializer=_end_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        pending: set[Future[list[R]]] = set()
        parts = chunks(items, chunk)
        exhausted = False
        while True:
            while not exhausted and len(pending) < 3 * workers:
                part = next(parts, [])
                if not part:
                    exhausted = True
                    break
                pending.add(pool.submit(task, *args, part))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finish(future.result())


def _end_with_parent(parent: int) -> None:
    """In a worker: end as soon as the parent process is gone.  A parent killed
    outright (SIGKILL, SIGTERM) cannot stop its workers, and they would wait for work
    forever: each holds the other end of the pipe the work comes through, so none
    ever reads its end."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _double(prefix: str, part: list[int]) -> list[str]:
    return [f"{prefix}{2 * x}" for x in part]
