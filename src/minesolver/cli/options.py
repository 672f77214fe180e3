"""Options several commands share, each declared once, converting as it parses.

``--rules`` with ``--first-click``, ``--noise`` and ``--no-guess`` become one
:class:`~minesolver.rules.Rules`;
``--start`` a start; ``--seed`` a seed that fits 64 bits; ``--workers`` a process count
this machine can run; ``--engine-workers`` the threads counting one position.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..analysis.kernels import MAX_ENGINE_WORKERS, WORKERS_ENV
from ..limits import DEFAULT_MEMORY, limited, parse_size, size_text
from ..noise import NoiseModel, parse_noise
from ..play import Start, parse_start
from ..rules import FIRST_CLICK_RULES, FirstClick, Rules

__all__ = [
    "DEFAULT_DB",
    "MAX_WORKERS",
    "db_option",
    "engine_workers_option",
    "first_click_option",
    "json_option",
    "limits_option",
    "no_guess_option",
    "noise_option",
    "quiet_option",
    "read_rules",
    "rules_option",
    "scheduler_option",
    "seed_option",
    "start_option",
    "workers_option",
]

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_DB = "minesolver.sqlite"
# local worker processes: never more than the machine has cores, and a hard cap
MAX_WORKERS = max(1, min(64, os.cpu_count() or 1))

FIRST_CLICK = click.Choice(list(FIRST_CLICK_RULES))
NOISE_HELP = "Noisy clues: withheld:P, optimistic or cautious (default: exact clues)."


def read_rules(
    text: str, first_click: str, noise: str | None = None, no_guess: bool = False
) -> Rules:
    """Rules from ``--rules``, ``--first-click``, ``--noise`` and ``--no-guess``."""
    chosen: FirstClick = next(rule for rule in FIRST_CLICK_RULES if rule == first_click)
    model: NoiseModel | None = parse_noise(noise)
    return Rules.from_string(text, first_click=chosen, noise=model, no_guess=no_guess)


def _compose(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


def rules_option(default: str = "expert") -> Callable[[F], F]:
    """``--rules`` (a preset or WxHxM)."""
    return click.option("--rules", default=default, show_default=True,
                        help="beginner, intermediate, expert or WxHxM.")


def first_click_option() -> Callable[[F], F]:
    """``--first-click`` (safe, opening or none)."""
    return click.option("--first-click", type=FIRST_CLICK, default="safe", show_default=True,
                        help="What the first click is guaranteed.")


def noise_option() -> Callable[[F], F]:
    """``--noise`` (a noise model, or none)."""
    return click.option("--noise", default=None, help=NOISE_HELP)


def no_guess_option() -> Callable[[F], F]:
    """``--no-guess``: boards solvable from the first click by deduction alone."""
    return click.option(
        "--no-guess", is_flag=True,
        help="No-guess boards: solvable from the first click by deduction alone.",
    )


def _start(ctx: click.Context, param: click.Parameter, value: str) -> Start:
    return parse_start(value)


def start_option() -> Callable[[F], F]:
    """``--start`` (corner, center or ROW,COL), parsed."""
    return click.option("--start", default="corner", show_default=True, callback=_start,
                        help="First click: corner, center or ROW,COL.")


def seed_option(help: str = "Run seed.", default: int | None = 1) -> Callable[[F], F]:
    """``--seed``, 0 to 2**64 - 1."""
    return click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=default,
                        show_default=default is not None, help=help)


def workers_option() -> Callable[[F], F]:
    """``--workers``: local processes, at most the cores this machine has."""
    return click.option(
        "--workers", type=click.IntRange(1, MAX_WORKERS), default=None,
        help=f"Local worker processes (default: all {MAX_WORKERS} cores).",
    )


def scheduler_option() -> Callable[[F], F]:
    """``--scheduler``: a Dask scheduler instead of local processes."""
    return click.option("--scheduler", default=None,
                        help="Dask scheduler address, tcp://HOST:PORT.")


def db_option() -> Callable[[F], F]:
    """``--db``: the SQLite results store."""
    return click.option("--db", default=DEFAULT_DB, show_default=True,
                        help="SQLite results store.")


def json_option(help: str = "Print the result as one JSON object.") -> Callable[[F], F]:
    """``--json``."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def quiet_option() -> Callable[[F], F]:
    """``--quiet``: no progress bar."""
    return click.option("--quiet", is_flag=True, help="No progress bar.")


def board_options(default: str = "expert") -> Callable[[F], F]:
    """``--rules``, ``--first-click``, ``--start``, ``--noise`` and ``--no-guess`` together."""
    return _compose(
        rules_option(default), first_click_option(), start_option(), noise_option(),
        no_guess_option(),
    )


def _max_seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not 0.01 <= value <= 1e7:  # also refuses nan and inf
        raise click.BadParameter(f"{value:.12g} is not in the range 0.01 to 10000000", ctx, param)
    return value


def _max_memory(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    return None if value is None or value.lower() == "none" else parse_size(value)


def limits_option(
    seconds: float | None, memory: int | None = DEFAULT_MEMORY, *, each: bool = False
) -> Callable[[F], F]:
    """``--max-seconds`` and ``--max-memory``: the command runs within them (as the web
    app's sandbox does), and past either stops with one line naming the option.  With
    ``each``, they hold for each item of the command instead (each file ``analyze``
    reads): the command gets ``limits``, which makes the context an item runs in.

    Put it directly above the command's function.
    """
    memory_text = "none" if memory is None else size_text(memory)

    def apply(func: F) -> F:
        @functools.wraps(func)
        def run(*args: Any, max_seconds: float | None, max_memory: int | None,
                **kwargs: Any) -> Any:
            def limits() -> contextlib.AbstractContextManager[None]:
                return limited(seconds=max_seconds, memory=max_memory,
                               names=("--max-seconds", "--max-memory"))

            if each:
                return func(*args, limits=limits, **kwargs)
            with limits():
                return func(*args, **kwargs)

        run = click.option(
            "--max-memory", default=memory_text, show_default=True, callback=_max_memory,
            help="Memory the command may take beyond its start, as 512M or 2G (none: no limit).",
        )(run)
        run = click.option(
            "--max-seconds", type=float, default=seconds, callback=_max_seconds,
            show_default=seconds is not None,
            help="Stop with an error past this many seconds"
            + ("." if seconds is not None else " (default: no limit)."),
        )(run)
        return run  # type: ignore[return-value]

    return apply


def engine_workers_option() -> Callable[[F], F]:
    """``--engine-workers``: threads that count one position's fronts (the command
    runs with ``MINESOLVER_ENGINE_WORKERS`` set to it; see
    :mod:`minesolver.analysis.kernels`).

    Put it directly above the command's function.
    """

    def apply(func: F) -> F:
        @functools.wraps(func)
        def run(*args: Any, engine_workers: int | None, **kwargs: Any) -> Any:
            if engine_workers is None:
                return func(*args, **kwargs)
            saved = os.environ.get(WORKERS_ENV)
            os.environ[WORKERS_ENV] = str(engine_workers)
            try:
                return func(*args, **kwargs)
            finally:
                if saved is None:
                    os.environ.pop(WORKERS_ENV, None)
                else:
                    os.environ[WORKERS_ENV] = saved

        run = click.option(
            "--engine-workers", type=click.IntRange(1, MAX_ENGINE_WORKERS), default=None,
            help=f"Threads counting one position's fronts (default: ${WORKERS_ENV} or 1; "
            "pays on huge boards only).",
        )(run)
        return run  # type: ignore[return-value]

    return apply
