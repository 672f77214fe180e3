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
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["atomic_write", "write_bytes"]


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
        yield fd
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError) and exc.filename != str(path):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
