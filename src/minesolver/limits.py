"""Time and memory limits, one idea for the command line and the web app alike.

Exact counting is exponential in the width of a front, so a valid position can
need more memory or time than a machine has.  Both faces bound it the same way:

* :func:`cap` caps a process's address space (what it has now plus ``memory``
  bytes), so running out is a ``MemoryError`` in that process, not the machine
  swapping; the web app's sandbox calls it in its worker processes.
* :func:`deadline` makes a block raise :class:`~minesolver.errors.LimitError`
  once ``seconds`` have passed (the command line's ``--max-seconds``).
* :func:`limited` does both for one command and turns a ``MemoryError`` into a
  ``LimitError`` that names the limit, so the user can raise it.

>>> with deadline(None):  # no limit
...     sum(range(10))
45
>>> import time
>>> with deadline(0.05, what="--max-seconds"):
...     time.sleep(1)
Traceback (most recent call last):
minesolver.errors.LimitError: it took longer than --max-seconds 0.05 s
"""

from __future__ import annotations

import contextlib
import mmap
import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

from .errors import LimitError, cause_of

__all__ = [
    "DEFAULT_MEMORY",
    "Limits",
    "cap",
    "deadline",
    "limited",
    "parse_size",
    "size_text",
    "uncap",
]

DEFAULT_MEMORY = 2 << 30  # bytes of new memory a process may take: generous for real play
_RESERVE = 32 << 20  # address space held back under a cap, to get out of it when used up


@dataclass(frozen=True)
class Limits:
    """``memory``: bytes a process may allocate; ``seconds``: wall-clock time per job.

    >>> Limits(seconds=5).memory == DEFAULT_MEMORY
    True
    """

    memory: int = DEFAULT_MEMORY
    seconds: float = 30.0


def size_text(size: int) -> str:
    """``size`` bytes as :func:`parse_size` reads them: whole G when it is, else M.

    >>> size_text(2 << 30), size_text(200 << 20), size_text(1536 << 20)
    ('2G', '200M', '1.5G')
    """
    if size >= 1 << 30 and (size * 10) % (1 << 30) == 0:
        return f"{size / (1 << 30):g}G"
    return f"{size / (1 << 20):g}M"


def parse_size(text: str) -> int:
    """Bytes from ``512M``, ``2G``, ``1.5G`` or a plain number of megabytes.

    >>> parse_size("2G"), parse_size("512M"), parse_size("1000")
    (2147483648, 536870912, 1048576000)
    >>> parse_size("lots")
    Traceback (most recent call last):
    minesolver.errors.InputError: memory size 'lots': expected a number with K, M or G, as 2G
    """
    from .errors import InputError, quote

    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    body = text.strip().upper().removesuffix("B")
    scale = units.get(body[-1:], units["M"])
    if body[-1:] in units:
        body = body[:-1]
    try:
        if len(body) > 20:
            raise ValueError(body)
        value = float(body) * scale
    except ValueError:
        raise InputError(
            f"memory size {quote(text, 30)}: expected a number with K, M or G, as 2G"
        ) from None
    if not 1 << 20 <= value <= 1 << 50:
        raise InputError(f"memory size {quote(text, 30)}: expected 1M to 1024T")
    return int(value)


def cap(memory: int | None, seconds: float | None = None) -> tuple[int, int] | None:
    """Cap this process's address space at what it has now plus ``memory`` bytes,
    and (``seconds``) its CPU time, so it cannot outlive its purpose if its parent
    dies.  Only soft limits are lowered, so :func:`uncap` can undo the first with
    the limits this returns.  Does nothing where the platform cannot (not Linux):
    the time limit still holds through :func:`deadline` or the parent.

    A memory cap also switches counting to the Python kernels for the rest of the
    process: the compiled kernel (numba, LLVM) reserves more address space than a
    capped process allows and dies instead of failing; the Python kernels give the
    same integers."""
    if memory is not None:
        os.environ["MINESOLVER_KERNELS"] = "python"
    try:
        import resource

        before = resource.getrlimit(resource.RLIMIT_AS)
        if memory is not None:
            with open("/proc/self/statm") as handle:
                now = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            hard = before[1]
            soft = now + memory if hard == resource.RLIM_INFINITY else min(now + memory, hard)
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        if seconds is not None:
            cpu = int(seconds) + 5
            _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu_hard))
        return before
    except (ImportError, OSError, ValueError):
        return None


def uncap(before: tuple[int, int] | None) -> None:
    """Restore the address-space limits :func:`cap` returned."""
    if before is None:
        return
    import resource

    with contextlib.suppress(OSError, ValueError):
        resource.setrlimit(resource.RLIMIT_AS, before)


@contextlib.contextmanager
def deadline(seconds: float | None, *, what: str = "the time limit") -> Iterator[None]:
    """Raise :class:`LimitError` in the block once ``seconds`` of wall-clock time
    have passed.  Only in the main thread of a platform with ``SIGALRM``; elsewhere
    (and with ``None``) the block runs unbounded."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    assert seconds is not None

    raised: list[LimitError] = []  # the timer's own, told apart from any other

    def expire(signum: int, frame: FrameType | None) -> None:
        raised.append(LimitError(f"it took longer than {what} {seconds:g} s", limit="seconds"))
        raise raised[-1]

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except SystemError as error:  # the limit met a compiled kernel (numba) mid-call
        expired = cause_of(error, LimitError)
        if expired is None or not any(expired is own for own in raised):
            raise  # another error, or a limit met earlier that was being handled
        for note in getattr(error, "__notes__", ()):  # added on the way up (the run's)
            expired.add_note(note)
        raise expired from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def limited(
    *, seconds: float | None, memory: int | None, names: tuple[str, str] = ("time", "memory")
) -> Iterator[None]:
    """Run a block within ``seconds`` and ``memory`` (each ``None``: unbounded); a
    ``MemoryError`` becomes a :class:`LimitError` naming ``names[1]``.

    Getting out of a cap that is used up is the delicate part: the memory that failed
    is still held by the error's frames, and code run then can fail anywhere (glibc's
    malloc was seen spinning on new arenas, never returning).  So a reserve of address
    space is taken before the cap and given back first thing when the block ends,
    then the cap is lifted, before any other code runs."""
    with deadline(seconds, what=names[0]):
        # address space only: an anonymous map whose pages are never touched
        reserve = mmap.mmap(-1, _RESERVE) if memory is not None else None
        before = cap(memory)
        try:
            yield
        except MemoryError:
            if reserve is not None:
                reserve.close()  # room to lift the cap in
            uncap(before)
            before = None
            size = f" {size_text(memory)}" if memory else ""
            raise LimitError(
                f"it needs more memory than {names[1]}{size} allows", limit="memory"
            ) from None
        finally:
            if reserve is not None:
                reserve.close()  # (a second close does nothing)
            uncap(before)
