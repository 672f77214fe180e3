"""The ``minesolver`` command line: parse options, call the library, print.

Every error a user can cause ends as one line on stderr and exit status 2.
Commands live in the modules of this package, one concept each.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click
from rich.console import Console

from .. import __version__

__all__ = ["USER_ERRORS", "cli", "console", "fail", "main", "one_line"]

# Errors users cause by what they type or feed us; all are ValueError subclasses.
USER_ERRORS: tuple[type[BaseException], ...] = (ValueError, OSError, UnicodeDecodeError)


def console(stderr: bool = False) -> Console:
    """A rich console; wide enough for tables when output is not a terminal."""
    out = Console(stderr=stderr, highlight=False, soft_wrap=True)
    if not out.is_terminal:
        out = Console(stderr=stderr, highlight=False, soft_wrap=True, width=160)
    return out


def fail(message: str) -> NoReturn:
    """Print one line on stderr and exit with status 2."""
    click.echo(f"minesolver: error: {one_line(message)}", err=True)
    sys.exit(2)


def one_line(message: str) -> str:
    return " ".join(str(message).split())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="minesolver")
def cli() -> None:
    """Exact Minesweeper probabilities, strong solvers, benchmarks and a web app.

    Coordinates are (row, col) from the top-left corner everywhere.
    """


# ---------------------------------------------------------------------- entry
def _register_commands() -> None:
    from . import analyze, bench, flags, play, serve, sweep  # noqa: F401


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning every user error into one line."""
    sys.set_int_max_str_digits(0)  # layout counts can have thousands of digits
    _register_commands()
    try:
        cli.main(args=argv, prog_name="minesolver", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        sys.exit(2)
    except click.UsageError as exc:
        fail(exc.format_message())
    except click.Abort:
        click.echo("minesolver: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        fail(exc.format_message())
    except USER_ERRORS as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        click.echo("minesolver: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug, not the user's fault: still one line, unless debugging
        if os.environ.get("MINESOLVER_DEBUG"):
            raise
        click.echo(
            f"minesolver: internal error: {type(exc).__name__}: {one_line(str(exc))} "
            "(set MINESOLVER_DEBUG=1 to see where)",
            err=True,
        )
        sys.exit(1)

