"""A live progress bar for long runs, on stderr, only when stderr is a terminal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .base import console

__all__ = ["progress_bar"]

Advance = Callable[[str], None]


@contextmanager
def progress_bar(
    label: str, total: int, done: int, live: str, *, quiet: bool
) -> Iterator[Advance | None]:
    """Yield ``advance(live_text)`` to call once per finished item, or ``None`` when
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

        def advance(text: str) -> None:
            bar.update(task, advance=1, live=text)

        yield advance
