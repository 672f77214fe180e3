"""The ``minesolver`` command group and what every command uses: consoles and ``fail``.

Commands parse, call the library and print; nothing else lives in them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import NoReturn

import click
from click.core import ParameterSource
from rich.console import Console

from .. import __version__
from ..bench import RunSpec, Store
from ..errors import IllegalMoveError, InputError, LimitError, shorten
from ..play import start_cell

__all__ = [
    "USER_ERRORS",
    "VIEWS",
    "check_resume",
    "cli",
    "console",
    "fail",
    "message_of",
    "one_line",
    "open_store",
    "refuse_workers_with",
    "resumable",
    "start_run",
]

# The errors a user can cause: each ends as one line on stderr and exit status 2.
USER_ERRORS: tuple[type[BaseException], ...] = (
    click.ClickException,  # click's own usage errors, and fail()
    InputError,  # rules, positions, files, names, options
    IllegalMoveError,
    LimitError,  # too big or too slow for the limits: the message says which
    OSError,  # a file or folder that cannot be read or written
    UnicodeDecodeError,  # a file that is not text
    MemoryError,
    RecursionError,  # input nested too deeply to read
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="minesolver")
def cli() -> None:
    """Exact Minesweeper probabilities, strong solvers, benchmarks and a web app.

    Coordinates are (row, col) from the top-left corner everywhere.
    """


def console(stderr: bool = False) -> Console:
    """A rich console; wide enough for tables when output is not a terminal."""
    out = Console(stderr=stderr, highlight=False, soft_wrap=True)
    if not out.is_terminal:
        out = Console(stderr=stderr, highlight=False, soft_wrap=True, width=160)
    return out


def fail(message: str) -> NoReturn:
    """Stop the command: ``minesolver: error: message`` on stderr, exit status 2."""
    raise click.ClickException(message)


def one_line(message: str) -> str:
    """``message`` on one line, long words cut (:func:`~minesolver.errors.shorten`).

    >>> one_line("bad seed:\\n  " + "9" * 3)
    'bad seed: 999'
    """
    return shorten(message)


def message_of(exc: BaseException) -> str:
    """The one line a user sees for an error of :data:`USER_ERRORS`."""
    if isinstance(exc, click.ClickException):
        return exc.format_message()
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text: byte {exc.start} is {exc.object[exc.start]:#04x}"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    if isinstance(exc, MemoryError):
        return "out of memory: ask for a smaller board, position or run, or raise --max-memory"
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read"
    return str(exc)


@contextlib.contextmanager
def resumable(store: Store, run_id: str) -> Iterator[None]:
    """While a stored run plays: an error or Ctrl-C that ends it says which run
    ``--resume`` goes on with (with ``--quiet`` or ``--json`` nothing else says)."""
    try:
        yield
    except BaseException as exc:
        exc.add_note(f"run {run_id} in {store.path}: --resume {run_id} goes on")
        raise


def open_store(path: str, *, create: bool = True, readonly: bool = False) -> Store:
    """The results store at ``path``, closed when the command ends."""
    store = Store(path, create=create, readonly=readonly)
    click.get_current_context().call_on_close(store.close)
    return store


def start_run(store: Store, kind: str, spec: RunSpec) -> str:
    """A new run in ``store``; when an unfinished run there was asked exactly the
    same, one line on stderr says how to continue it instead (a rerun command
    starts over, from game 0, in a run of its own)."""
    twin = store.unfinished_twin(kind, spec)
    if twin is not None:
        run_id, stored = twin
        click.echo(
            f"minesolver: note: run {run_id} in {store.path} asked the same and has "
            f"{stored} of {spec.all_games} games; this starts a new run "
            f"(--resume {run_id} continues that one)",
            err=True,
        )
    return store.new_run(kind, spec, __version__)


# what a run-defining option asks of a run, as the stored spec holds it: the option's
# name (for the message) and its part of the spec
RunView = tuple[str, Callable[[RunSpec], object]]
VIEWS: dict[str, RunView] = {
    "rules": ("--rules", lambda s: tuple(f"{r.width}x{r.height}x{r.mines}" for r in s.points)),
    "size": ("--size", lambda s: tuple(sorted({f"{r.width}x{r.height}" for r in s.points}))),
    "densities": ("--densities (mines)", lambda s: tuple(sorted({r.mines for r in s.points}))),
    "first_click": ("--first-click", lambda s: tuple(sorted({r.first_click for r in s.points}))),
    "noise": ("--noise", lambda s: tuple(sorted({
        "none" if r.noise is None else str(r.noise) for r in s.points}))),
    "no_guess": ("--no-guess", lambda s: tuple(sorted({r.no_guess for r in s.points}))),
    # the cell: --start 0,0 asks what a run from the corner did, 8,15 one from expert's center
    "start": ("--start", lambda s: _start_view(s)),
    "strategies": ("--strategy", lambda s: s.strategies),
    "games": ("--games", lambda s: s.games),
    "seed": ("--seed", lambda s: s.seed),
    "layouts": ("--layouts", lambda s: s.layouts),
}
VIEWS["first_clicks"] = VIEWS["first_click"]
VIEWS["noises"] = VIEWS["noise"]


def check_resume(run_id: str, stored: RunSpec, options: dict[str, RunView],
                 asked: Callable[[], RunSpec]) -> None:
    """``--resume`` continues a run as it was started: each of ``options`` (a
    parameter that defines a run: its view, :data:`VIEWS`) given on the command line
    too must ask what the stored run asked (``asked``: the run the command line asks
    for, built only then), else one line says what differs.  The same command line
    again plus ``--resume`` passes."""
    ctx = click.get_current_context()
    given = [name for name in options
             if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
    if not given:
        return
    fresh = asked()
    differ = []
    for name in given:
        label, view = options[name]
        if view(fresh) != view(stored):
            differ.append(f"{label} {_shown(view(fresh))} (the run's: {_shown(view(stored))})")
    if differ:
        fail(f"--resume {run_id} continues the run as it was started, but "
             f"{'; '.join(differ)}: leave {'it' if len(differ) == 1 else 'them'} out")


def refuse_given(options: dict[str, str], why: str) -> None:
    """Refuse the parameters of ``options`` (name: flag) given on the command line, which
    the command would otherwise ignore without a word (``why``: where they belong)."""
    ctx = click.get_current_context()
    given = [flag for name, flag in options.items()
             if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE]
    if given:
        fail(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} {why}: leave "
             f"{'it' if len(given) == 1 else 'them'} out")


def refuse_workers_with(scheduler: str | None) -> None:
    """``--workers`` counts local processes: with ``--scheduler`` it would be ignored."""
    if scheduler is not None:
        refuse_given({"workers": "--workers"},
                     "for local processes; a Dask cluster's workers are its own")


def _start_view(spec: RunSpec) -> str | None:
    """A run's first click as the cell it is on each of its boards (``ROW,COL``): ``0,0``
    is the corner on any board, and ``center`` on expert is ``8,15``."""
    if spec.start is None:
        return None
    cells = sorted({start_cell(rules, spec.start) for rules in spec.points})
    return " ".join(f"{row},{col}" for row, col in cells)


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(_shown(v) for v in value)
    return str(value)
