"""The ``minesolver`` entry point: help, version, ``demo``, and the one table that turns
errors into exit statuses (2 for what the user can fix, 1 for a bug)."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from support import assert_one_error_line, run_cli

from minesolver import __version__
from minesolver.cli import main
from minesolver.cli.base import USER_ERRORS, cli
from minesolver.errors import (
    EngineLimitError,
    GameOverError,
    IllegalMoveError,
    InconsistentPositionError,
    InputError,
    LimitError,
    OffBoardError,
)

COMMANDS = ("analyze", "bench", "demo", "flags", "play", "report", "serve", "strategies",
            "sweep")


def test_help_lists_every_command(entry):
    result = run_cli("--help", entry=entry)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    for command in COMMANDS:
        assert command in result.stdout
    assert "(row, col)" in result.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    result = run_cli(command, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Usage: minesolver {command}")


def test_version(entry):
    result = run_cli("--version", entry=entry)
    assert result.returncode == 0
    assert result.stdout.strip() == f"minesolver, version {__version__}"


def test_no_command_prints_the_help():
    result = run_cli()
    assert result.returncode == 2
    assert "Usage: minesolver" in result.stdout


def test_demo_plays_an_expert_game_and_analyses_the_example():
    result = run_cli("demo", "--seed", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "step 0: first click at (0, 0)" in out
    assert "an expert game (seed 1):" in out
    assert "Example position" in out and "example: 30x16, 99 mines" in out
    assert "layouts:" in out
    assert result.stderr == ""


def test_demo_refuses_a_bad_seed():
    assert_one_error_line(run_cli("demo", "--seed", "-1"), "--seed")


# ---------------------------------------------------------------------- the error table


ERRORS = {
    "input": InputError("cannot read rules 'big'"),
    "offboard": OffBoardError("cell (9, 9) is off the 5x5 board"),
    "inconsistent": InconsistentPositionError("clue 3 at (0, 1) cannot be met", clue=(0, 1)),
    "illegal": IllegalMoveError("cell (1, 1) is already open"),
    "over": GameOverError("the game is over (won)"),
    "limit": LimitError("it took longer than the limit of 30 s"),
    "engine": EngineLimitError("front 1 is 80 clues wide"),
    "file": FileNotFoundError(2, "No such file or directory", "boards.jsonl"),
    "utf8": UnicodeDecodeError("utf-8", b"ab\xff", 2, 3, "invalid start byte"),
    "memory": MemoryError(),
    "recursion": RecursionError("maximum recursion depth exceeded"),
    "click": click.ClickException("a usage problem"),
    "value": ValueError("a plain ValueError is a bug"),
    "runtime": RuntimeError("tank returned no move"),
    "key": KeyError("points"),
}


@pytest.fixture
def boom():
    """A command ``boom KIND`` on the real group that raises ``ERRORS[KIND]``."""

    @cli.command("boom")
    @click.argument("kind")
    def boom_cmd(kind: str) -> None:
        raise ERRORS[kind]

    yield
    del cli.commands["boom"]


def exit_of(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


@pytest.mark.parametrize(
    ("kind", "needle"),
    [
        ("input", "cannot read rules 'big'"),
        ("offboard", "cell (9, 9) is off the 5x5 board"),
        ("inconsistent", "clue 3 at (0, 1) cannot be met"),
        ("illegal", "already open"),
        ("over", "the game is over (won)"),
        ("limit", "longer than the limit"),
        ("engine", "80 clues wide"),
        ("file", "boards.jsonl: No such file or directory"),
        ("utf8", "not UTF-8 text: byte 2 is 0xff"),
        ("memory", "out of memory"),
        ("recursion", "nested too deeply"),
        ("click", "a usage problem"),
    ],
)
def test_user_errors_exit_2_in_one_line(boom, capsys, kind, needle):
    code, out, err = exit_of(["boom", kind], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("minesolver: error: ")
    assert needle in err


@pytest.mark.parametrize("kind", ["value", "runtime", "key"])
def test_anything_else_is_an_internal_error(boom, capsys, kind, monkeypatch):
    monkeypatch.delenv("MINESOLVER_DEBUG", raising=False)
    code, _, err = exit_of(["boom", kind], capsys)
    assert code == 1
    assert err.count("\n") == 1
    assert err.startswith(f"minesolver: internal error: {type(ERRORS[kind]).__name__}: ")
    assert "MINESOLVER_DEBUG=1" in err


def test_debugging_shows_the_traceback(boom, monkeypatch):
    monkeypatch.setenv("MINESOLVER_DEBUG", "1")
    with pytest.raises(RuntimeError, match="returned no move"):
        main(["boom", "runtime"])


def test_the_table_holds_the_three_kinds_and_not_value_error():
    for kind in (InputError, IllegalMoveError, LimitError, OSError):
        assert issubclass(kind, USER_ERRORS)
    assert not issubclass(ValueError, USER_ERRORS)
    assert not issubclass(RuntimeError, USER_ERRORS)


def test_ctrl_c_inside_a_compiled_kernel_is_an_interruption(monkeypatch, capsys):
    """numba reports an exception raised by the signal handler during one of its calls
    as a ``SystemError`` whose context is the interruption: still one line, exit 130."""
    from minesolver.cli import _Interrupted

    def interrupted_inside_a_kernel(*args, **kwargs):
        try:
            raise _Interrupted
        except _Interrupted:
            raise SystemError(  # what numba's dispatcher raises then
                "CPUDispatcher(<function _board>) returned a result with an exception set"
            ) from None

    monkeypatch.setattr(cli, "main", interrupted_inside_a_kernel)
    with pytest.raises(SystemExit) as stopped:
        main(["bench"])
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "minesolver: interrupted\n"


def test_a_system_error_of_our_own_is_still_a_bug(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise SystemError("something else")

    monkeypatch.setattr(cli, "main", broken)
    with pytest.raises(SystemExit) as stopped:
        main(["bench"])
    assert stopped.value.code == 1
    assert "internal error: SystemError: something else" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "value", "needle"), [
    ("MINESOLVER_ENGINE_WORKERS", "0", "MINESOLVER_ENGINE_WORKERS='0': expected 1 to 64"),
    ("MINESOLVER_ENGINE_WORKERS", "abc", "MINESOLVER_ENGINE_WORKERS='abc': expected a whole"),
    ("MINESOLVER_KERNELS", "bogus", "MINESOLVER_KERNELS='bogus': expected one of"),
])
def test_a_bad_environment_variable_is_refused_before_any_work(name, value, needle):
    # read only when a position first needed it: ignored on a beginner game, fatal
    # minutes into a huge one
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "minesolver", "play", "--rules", "beginner",
                           "--seed", "3"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, name: value}, check=False)
    assert_one_error_line(done, needle)
    assert done.stdout == ""
    helped = subprocess.run([sys.executable, "-m", "minesolver", "play", "--help"],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, name: value}, check=False)
    assert helped.returncode == 0 and "Usage: minesolver play" in helped.stdout  # help asks nothing


@pytest.mark.parametrize("args", [("strategies",), ("play", "--rules", "beginner", "--seed", "1"),
                                  ("play", "--rules", "beginner", "--seed", "1", "--json"),
                                  ("--help",)])
def test_output_to_a_closed_pipe_ends_quietly(args):
    # `minesolver ... | head`: the reader is gone before the first line is written
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "minesolver", *args], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (1, "")
