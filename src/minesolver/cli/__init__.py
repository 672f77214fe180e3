"""The ``minesolver`` command line: parse options, call the library, print.

Every error a user can cause ends as one line on stderr and exit status 2; the
table :data:`~.base.USER_ERRORS` says which, in one place.  Commands live in the modules
of this package, one concept each (:mod:`.analyze`, :mod:`.one_game`,
:mod:`.bench`, :mod:`.report`, :mod:`.sweep`, :mod:`.flags`, :mod:`.serve`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading

__all__ = ["main"]

HELP = frozenset({"-h", "--help", "--version"})


class _Interrupted(BaseException):
    """Ctrl-C, raised instead of ``KeyboardInterrupt`` so that no library on the way
    (click prints a blank line for it) writes anything before the one line."""


def _on_interrupt(signum: int, frame: object) -> None:
    if os.getpid() != _MAIN_PID:  # a forked worker: die quietly, the parent reports
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        return
    raise _Interrupted


_MAIN_PID = os.getpid()


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` stands for a Ctrl-C: a compiled kernel (numba) that the signal
    handler's exception reaches in the middle of a call reports it as a
    ``SystemError`` whose context is the interruption."""
    from ..errors import cause_of

    return cause_of(exc, (KeyboardInterrupt, _Interrupted)) is not None


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning every user error into one line."""
    global _MAIN_PID
    try:
        if threading.current_thread() is threading.main_thread():
            _MAIN_PID = os.getpid()
            signal.signal(signal.SIGINT, _on_interrupt)
        _run(argv)
    except (KeyboardInterrupt, _Interrupted) as exc:  # also while the commands are imported
        from ..errors import with_notes

        sys.stderr.write(with_notes("minesolver: interrupted", exc) + "\n")
        sys.exit(130)


def _run(argv: list[str] | None) -> None:
    try:
        import click

        # the commands register themselves on the group as they are imported
        from ..analysis.kernels import check_environment
        from ..errors import with_notes
        from . import analyze, bench, flags, one_game, report, review, serve, sweep  # noqa: F401
        from .base import USER_ERRORS, cli, message_of, one_line
    except ModuleNotFoundError as exc:  # the core was installed without the cli extra
        sys.stderr.write(
            f"minesolver: error: the command line needs {exc.name}: "
            "pip install 'minesolver[cli]' (or [all] for the web app too)\n"
        )
        sys.exit(2)

    sys.set_int_max_str_digits(0)  # layout counts can have thousands of digits
    args = sys.argv[1:] if argv is None else argv
    try:
        if not HELP.intersection(args):  # help and the version need no engine
            check_environment()  # MINESOLVER_KERNELS and _ENGINE_WORKERS, before any work
        cli.main(args=args, prog_name="minesolver", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        sys.exit(2)
    except click.Abort:
        click.echo("minesolver: aborted", err=True)
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except USER_ERRORS as exc:
        click.echo(f"minesolver: error: {one_line(with_notes(message_of(exc), exc))}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug, not the user's fault: still one line, unless debugging
        if _interrupted(exc):
            interrupted = _Interrupted()
            for note in getattr(exc, "__notes__", ()):
                interrupted.add_note(note)
            raise interrupted from None
        if os.environ.get("MINESOLVER_DEBUG"):
            raise
        click.echo(
            f"minesolver: internal error: {type(exc).__name__}: {one_line(str(exc))} "
            f"(set MINESOLVER_DEBUG=1 to see where){with_notes('', exc)}",
            err=True,
        )
        sys.exit(1)
