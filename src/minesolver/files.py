"""Writing files whole or not at all.

A file is written under a temporary name in its own folder and renamed into
place only once it is complete: an error, a full disk or Ctrl-C never leaves a
half-written or empty file behind, and an existing file is replaced only by a
complete new one.  Errors name the file.

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
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["atomic_write", "check_writable", "write_bytes", "write_files"]


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
        handle.flush()
        os.fsync(handle.fileno())


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path``, whole or not at all."""
    with _replacing(Path(path)) as fd, open(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
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
        path = Path(given)
        folder = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
        if not folder.exists():
            raise FileNotFoundError(errno.ENOENT, "no such folder", str(path))
        if not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "its folder is a file", str(path))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "its folder cannot be written", str(path))


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[int]:
    """A descriptor of a new temporary file beside ``path``, renamed to ``path`` when
    the block ends (after its file is closed), removed if it fails."""
    if path.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(path))
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        # the mode a plain open() would give (mkstemp's is private to the owner)
        os.fchmod(fd, stat.S_IMODE(path.stat().st_mode) if path.exists() else _NEW_MODE)
        yield fd
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError) and exc.filename != str(path):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
