"""A live progress bar for long runs, on stderr, only when stderr is a terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .base import console

__all__ = ["Advance", "progress_bar"]



class Advance(Protocol):
    """Move a bar on by ``by`` items (one by default), showing ``live`` beside it."""

    def __call__(self, live: str, by: int = 1) -> None: ...


@contextmanager
def progress_bar(
    label: str, total: int, done: int, live: str, *, quiet: bool
) -> Iterator[Advance | None]:
    """Yield ``advance(live_text)`` to call per finished item (``advance(text, by=n)``
    for ``n`` at once), or ``None`` when
    no bar is shown (``quiet``, nothing to do, or stderr is not a terminal: off a
    terminal a bar would still end with a blank line on stderr, which would break
    the one-line error promise of a run that fails midway)."""
    err = console(stderr=True)
    if quiet or done >= total or not err.is_terminal:
        yield None
        return
    bar = Progress(
        TextColumn("[bold]{task.fields[label]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[live]}"),
        console=err,
        transient=True,
    )
    with bar:
        task = bar.add_task(label, total=total, completed=done, label=label, live=live)

        def advance(live: str, by: int = 1) -> None:
            bar.update(task, advance=by, live=live)

        yield advance
