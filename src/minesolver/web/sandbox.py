"""Work the server cannot bound in advance runs in child processes with limits.

The exact engine is fast on positions from real play, but a position with clues
scattered all over a large board (pasted in Analyse, or made by revealing random
cells of a 200x200 game through the API) can need more memory than the machine
has.  So analyses, solver moves, watched games and GIFs run in child processes
whose address space is capped and which are killed when they run out of time:
the server itself never runs out of memory, and the request gets a JSON 422.

* :class:`Sandbox` keeps a few worker processes for short calls (a hint, an
  analysis, a solver move): a call costs a round trip, not a process start.  A
  worker that breaks a limit is replaced.
* :func:`stream` runs one long job (a watched game) in a process of its own and
  yields what it emits as it comes.

Processes come from a ``forkserver`` that has imported minesolver once, so the
server's threads are never forked.

>>> sandbox = Sandbox(Limits(seconds=30), size=1)
>>> sandbox.call(sum, [1, 2, 3])
6
>>> sandbox.close()
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from ..errors import LimitError, MinesolverError
from ..limits import Limits, cap

__all__ = ["LimitError", "Limits", "Sandbox", "stream"]

T = TypeVar("T")
_PRELOAD = ["minesolver.web.tasks", "minesolver.web.watching"]
_context: BaseContext | None = None


def _get_context() -> BaseContext:
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
            _context = context
        else:  # no forkserver (Windows): slower to start, same limits
            _context = multiprocessing.get_context("spawn")
    return _context


# ---------------------------------------------------------------------- short calls
class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, limits: Limits) -> None:
        context = _get_context()
        self.conn, child = context.Pipe()
        self.process = context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(child, limits.memory), daemon=True, name="minesolver-worker"
        )
        self.process.start()
        child.close()
        self.broken = False

    def run(self, func: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        try:
            self.conn.send((func, args))
            if not self.conn.poll(seconds):
                self.broken = True
                raise LimitError(f"it took longer than the server's limit of {seconds:g} s")
            kind, value = self.conn.recv()
        except (EOFError, OSError):
            self.broken = True
            raise LimitError("the worker process died (out of memory?)") from None
        if kind == "memory":
            self.broken = True  # its heap may stay large: start afresh
        return _unpack(kind, value)

    def close(self) -> None:
        self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


class Sandbox:
    """Up to ``size`` idle worker processes kept for short calls under ``limits``.

    Thread-safe; callers bound their own concurrency (each call holds a worker).
    """

    def __init__(self, limits: Limits, *, size: int = 2) -> None:
        self.limits = limits
        self.size = size
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()

    def call(self, func: Callable[..., T], *args: Any, seconds: float | None = None) -> T:
        """``func(*args)`` in a worker; :class:`LimitError` past the limits.

        An error of :mod:`minesolver.errors` in the worker comes back as itself,
        with its fields (an inconsistent position keeps its clue).
        """
        with self._lock:
            worker = self._idle.pop() if self._idle else None
        if worker is None:
            worker = _Worker(self.limits)
        try:
            result: T = worker.run(func, args, seconds or self.limits.seconds)
            return result
        finally:
            with self._lock:
                keep = not worker.broken and len(self._idle) < self.size
                if keep:
                    self._idle.append(worker)
            if not keep:
                worker.close()

    @classmethod
    def shared(cls, limits: Limits, *, size: int = 2) -> Sandbox:
        """One sandbox per process for these limits (apps made in tests share it)."""
        with _SHARED_LOCK:
            key = (limits, size)
            if key not in _SHARED:
                _SHARED[key] = cls(limits, size=size)
            return _SHARED[key]

    def close(self) -> None:
        """Stop the idle workers."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()


_SHARED: dict[tuple[Limits, int], Sandbox] = {}
_SHARED_LOCK = threading.Lock()


def _serve(conn: Connection, memory: int) -> None:
    """A worker's loop: run calls until the pipe closes or memory ran out."""
    cap(memory)
    while True:
        try:
            func, args = conn.recv()
        except (EOFError, OSError):
            return
        answer = _attempt(partial(_ok, func, args))
        conn.send(answer)
        if answer[0] == "memory":
            return


# ---------------------------------------------------------------------- long jobs
def stream(
    func: Callable[..., None], *args: Any, limits: Limits, cancelled: Callable[[], bool]
) -> Iterator[Any]:
    """Run ``func(emit, *args)`` in a process of its own; yield what it emits, as it comes.

    Stops quietly (killing the process) as soon as ``cancelled()`` is true.
    """
    with closing(_stream(func, args, limits, cancelled)) as items:
        yield from items


def _stream(
    func: Callable[..., None],
    args: tuple[Any, ...],
    limits: Limits,
    cancelled: Callable[[], bool],
) -> Generator[Any, None, None]:
    context = _get_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(  # type: ignore[attr-defined]
        target=_job, args=(sender, func, args, limits), daemon=True, name="minesolver-job"
    )
    process.start()
    sender.close()
    deadline = time.monotonic() + limits.seconds
    try:
        while not cancelled():
            left = deadline - time.monotonic()
            if left <= 0:
                raise LimitError(f"it took longer than the server's limit of {limits.seconds:g} s")
            if not receiver.poll(min(left, 0.2)):
                continue
            try:
                kind, value = receiver.recv()
            except EOFError:
                raise LimitError("the worker process died (out of memory?)") from None
            if kind == "item":
                yield value
            else:
                _unpack(kind, value)
                return
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join()


def _job(
    conn: Connection, func: Callable[..., None], args: tuple[Any, ...], limits: Limits
) -> None:
    cap(limits.memory, limits.seconds)

    def emit(item: Any) -> None:
        conn.send(("item", item))

    def run() -> tuple[str, Any]:
        func(emit, *args)
        return ("ok", None)

    conn.send(_attempt(run))
    conn.close()


# ---------------------------------------------------------------------- both
def _ok(func: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
    return ("ok", func(*args))


def _attempt(run: Callable[[], tuple[str, Any]]) -> tuple[str, Any]:
    """Run, turning every failure into a picklable answer."""
    try:
        return run()
    except MemoryError:
        return ("memory", None)
    except MinesolverError as exc:  # pickles with its fields
        return ("error", exc)
    except Exception as exc:
        return ("bug", f"{type(exc).__name__}: {exc}")


def _unpack(kind: str, value: Any) -> Any:
    if kind == "ok":
        return value
    if kind == "memory":
        raise LimitError("it needs more memory than the server allows")
    if kind == "error":
        raise value
    raise RuntimeError(f"worker failed: {value}")
