"""Writing files whole or not at all, and reading them within a size.

A file is written under a temporary name in its own folder and renamed into
place only once it is complete: an error, a full disk or Ctrl-C never leaves a
half-written or empty file behind, and an existing file is replaced only by a
complete new one.  A symbolic link is written through (its target replaced); a
device or a pipe (``/dev/stdout``, a FIFO) is written straight, as a shell's ``>``
would, since it cannot be replaced.  Errors name the file, and two options naming the
same file are refused before anything is written (:func:`check_distinct`).  A file
read whole is read to one byte past its cap at most (:func:`read_capped`): a device
such as ``/dev/zero`` reports a size of 0 and never ends.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "out.txt")
...     with atomic_write(path) as handle:
...         _ = handle.write("hello")
...     open(path).read()
'hello'
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

from .errors import InputError

__all__ = [
    "atomic_write",
    "check_distinct",
    "check_suffix",
    "check_writable",
    "read_capped",
    "write_bytes",
    "write_files",
]


def read_capped(
    path: str | Path, limit: int, what: str, error: type[InputError] = InputError
) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them; ``error`` (naming the path)
    when it cannot be read or holds more (``what`` names such a file).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "a.bin")
    ...     write_bytes(path, b"12345")
    ...     read_capped(path, 5, "a board file")
    ...     read_capped(path, 4, "a board file")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minesolver.errors.InputError: .../a.bin is over 4 bytes: a board file is at most that
    """
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read it: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{path} is over {limit:,} bytes: {what} is at most that")
    return data


def _new_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


_NEW_MODE = _new_mode()


@contextlib.contextmanager
def atomic_write(path: str | Path) -> Iterator[IO[str]]:
    """A text handle whose content becomes ``path`` once the block ends without error."""
    with _replacing(Path(path)) as fd, open(fd, "w", encoding="utf-8") as handle:
        yield handle
        _sync(handle)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path``, whole or not at all."""
    with _replacing(Path(path)) as fd, open(fd, "wb") as handle:
        handle.write(data)
        _sync(handle)


def _sync(handle: IO[str] | IO[bytes]) -> None:
    """Flush ``handle`` to the disk (a device or a pipe has nothing to sync)."""
    handle.flush()
    if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        os.fsync(handle.fileno())


def write_files(contents: dict[str | Path, bytes]) -> None:
    """Write several files, each whole, and all or none: if one cannot be written
    (a full disk), those this call made before it are removed again.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_files({os.path.join(d, "a"): b"1", os.path.join(d, "b"): b"2"})
    ...     sorted(os.listdir(d))
    ['a', 'b']
    """
    made: list[Path] = []
    try:
        for name, data in contents.items():
            path = Path(name)
            new = not path.exists()
            write_bytes(path, data)
            if new:
                made.append(path)
    except BaseException:
        for path in made:
            with contextlib.suppress(OSError):
                path.unlink()
        raise


def check_writable(*paths: str | Path | None) -> None:
    """Refuse now, before any work is done or any other file made, a path that
    :func:`atomic_write` could not write later (``None`` is skipped).

    >>> check_writable("/no/such/folder/out.csv")
    Traceback (most recent call last):
    FileNotFoundError: [Errno 2] no such folder: '/no/such/folder/out.csv'
    """
    for given in paths:
        if given is None:
            continue
        if not str(given):
            raise FileNotFoundError(errno.ENOENT, "an empty path names no file", "''")
        path, straight = _target(given)
        if straight:
            continue  # a device or a pipe: written straight, folder or no
        folder = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(given))
        if not folder.exists():
            raise FileNotFoundError(errno.ENOENT, "no such folder", str(given))
        if not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "its folder is a file", str(given))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "its folder cannot be written", str(given))


def check_distinct(named: Mapping[str, str | Path | None]) -> None:
    """Refuse, before any work, two of ``named`` (an option: its path; ``None`` is
    skipped) that are the same file, through links too: one would overwrite the other
    (an output written over the results store, say).

    >>> try:
    ...     check_distinct({"--db": "runs.sqlite", "--csv": "./runs.sqlite"})
    ... except ValueError as exc:
    ...     print(exc)
    --csv ./runs.sqlite is the same file as --db: one would overwrite the other
    """
    seen: list[tuple[str, str]] = []
    for name, given in named.items():
        if given is None:
            continue
        target, straight = _target(given)
        if straight:
            continue  # a device or a pipe takes what it is given (/dev/null twice)
        path = str(target)
        for other, other_path in seen:
            same = path == other_path
            if not same and os.path.exists(path) and os.path.exists(other_path):
                same = os.path.samefile(path, other_path)  # hard links
            if same:
                raise InputError(
                    f"{name} {given} is the same file as {other}: one would overwrite the other"
                )
        seen.append((name, path))


def check_suffix(option: str, given: str | Path | None, suffix: str) -> None:
    """Refuse a name for ``option``'s file whose suffix says another format than the
    ``suffix`` written in it (``--gif out.png`` would hold GIF bytes under a PNG's
    name).  A name with no suffix, a device and a pipe are taken as they are.

    >>> check_suffix("--gif", "solve.GIF", ".gif")
    >>> try:
    ...     check_suffix("--gif", "solve.png", ".gif")
    ... except ValueError as exc:
    ...     print(exc)
    --gif solve.png: the file is written as .gif, not .png; name it solve.gif
    """
    if given is None or not str(given):
        return
    path = Path(given)
    found = path.suffix.lower()
    if not found or found == suffix or _target(given)[1]:
        return
    raise InputError(
        f"{option} {given}: the file is written as {suffix}, not {path.suffix}; "
        f"name it {path.with_suffix(suffix).name}"
    )


def _target(given: str | Path) -> tuple[Path, bool]:
    """The file writing ``given`` replaces (a link's target), and whether it is a
    device or a pipe to be written straight instead (then ``given`` itself: the
    kernel follows ``/dev/stdout`` to a pipe no path names)."""
    try:
        mode = os.stat(given).st_mode
    except OSError:
        mode = 0  # not there (yet), or not reachable: the write will say why
    if mode and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        return Path(given), True
    return Path(os.path.realpath(given)), False


@contextlib.contextmanager
def _replacing(given: Path) -> Iterator[int]:
    """A descriptor of a new temporary file beside ``given`` (beside its target, for
    a link), renamed to it when the block ends (after its file is closed), removed if
    it fails; for a device or a pipe, a descriptor of the thing itself."""
    path, straight = _target(given)
    if path.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(given))
    if straight:  # nothing to replace
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(given)) from None
        try:
            yield fd
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(given)) from None
        return
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:  # the file is written beside itself, then renamed
        reason = f"no file can be made in its folder ({exc.strerror})"
        raise OSError(exc.errno, reason, str(given)) from None
    try:
        # the mode a plain open() would give (mkstemp's is private to the owner)
        os.fchmod(fd, stat.S_IMODE(path.stat().st_mode) if path.exists() else _NEW_MODE)
        yield fd
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError) and exc.filename != str(given):
            raise OSError(exc.errno, exc.strerror, str(given)) from None
        raise
