"""Command-line options the benchmark scripts share, each worded once.

Every script's ``--help`` shows its defaults, and the options several scripts take
(the board, the games, the strategy, JSMinesweeper's harness) read the same in all
of them:

>>> parser = script_parser("Time something.\\n\\nMore about it.")
>>> add_board(parser, first_click=True)
>>> parser.parse_args(["--rules", "beginner"]).first_click
'safe'
"""

from __future__ import annotations

import argparse
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minesolver.errors import InputError
from minesolver.rules import FIRST_CLICK_RULES, Rules
from minesolver.strategies import find_strategy

__all__ = [
    "add_board",
    "add_games",
    "add_jsms",
    "add_strategy",
    "at_least",
    "jsms_missing",
    "parse_board_args",
    "script_parser",
    "strategy_spec",
]

HARNESS = "../shared/peers/jsms_harness.js"
FIRST_CLICKS = {
    "safe": "the first cell is never a mine",
    "opening": "the first cell and its neighbours are mine-free",
    "none": "no protection",
}


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that ends each option with its default, when it has a telling one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            "%(default)" in text
            or not action.option_strings
            or action.default in (None, False, [], argparse.SUPPRESS)
        ):
            return text
        return f"{text} (default: %(default)s)" if text else "default: %(default)s"


def script_parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser described by the first paragraph of a script's docstring."""
    return argparse.ArgumentParser(
        description=(doc or "").strip().split("\n\n")[0], formatter_class=_Formatter
    )


def _rules(text: str) -> str:
    """``text`` if it names rules, for argparse to refuse in one line if not."""
    try:
        Rules.from_string(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def strategy_spec(text: str) -> str:
    """``text`` if it names a strategy and options it has (an argparse ``type``)."""
    try:
        find_strategy(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def add_board(
    parser: argparse.ArgumentParser,
    rules: str = "expert",
    first_click: bool = False,
    choices: list[str] | None = None,
) -> None:
    """``--rules`` (and with ``first_click``, ``--first-click`` among ``choices``, by
    default every rule of :mod:`minesolver.rules`, and ``--start``)."""
    parser.add_argument("--rules", default=rules, type=_rules,
                        help="beginner, intermediate, expert or WIDTHxHEIGHTxMINES")
    if first_click:
        names = choices or list(FIRST_CLICK_RULES)
        parser.add_argument("--first-click", default="safe", choices=names,
                            help="; ".join(f"{name}: {FIRST_CLICKS[name]}" for name in names))
        parser.add_argument("--start", default="corner",
                            help="the first click: corner, center or ROW,COL")


def parse_board_args(
    parser: argparse.ArgumentParser, argv: list[str] | None = None
) -> argparse.Namespace:
    """``parser.parse_args``, then ``--rules`` read with ``--first-click`` (a board
    that fits a safe first click may not fit an opening one): refused in one line."""
    args = parser.parse_args(argv)
    try:
        Rules.from_string(args.rules, first_click=args.first_click)
    except InputError as error:
        parser.error(f"argument --rules: {error}")
    return args


def at_least(low: float, kind: Callable[[str], Any] = int) -> Callable[[str], Any]:
    """An argparse ``type``: a number of ``kind`` (whole by default) no smaller than
    ``low``, refused in one line.

    >>> at_least(1)("3"), at_least(0.1, float)("0.5")
    (3, 0.5)
    """
    what = "a whole number" if kind is int else "a number"

    def read(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value != value:  # nan
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        if not value >= low:
            raise argparse.ArgumentTypeError(f"{text.strip()} is below {low}")
        return value

    return read


def add_games(
    parser: argparse.ArgumentParser, games: int, seed: int, seed_help: str | None = None
) -> None:
    """``--games`` and ``--seed``."""
    parser.add_argument("--games", type=at_least(1), default=games, help="games to play")
    parser.add_argument("--seed", type=at_least(0), default=seed,
                        help=seed_help or "the run's seed: the same seed, the same boards")


def add_strategy(parser: argparse.ArgumentParser, default: str = "best") -> None:
    """``--strategy``: a spec as ``minesolver play --strategy`` takes it."""
    parser.add_argument("--strategy", default=default, type=strategy_spec,
                        help="a strategy spec, such as best or best:cutoff=0.8")


def add_jsms(parser: argparse.ArgumentParser) -> None:
    """``--harness`` and ``--jsms``: JSMinesweeper's headless harness and its checkout."""
    parser.add_argument("--harness", default=HARNESS,
                        help="JSMinesweeper's headless harness, jsms_harness.js")
    parser.add_argument("--jsms", default=os.environ.get("JSMS_DIR", "JSMinesweeper"),
                        help="the JSMinesweeper checkout ($JSMS_DIR when set)")


def jsms_missing(opts: argparse.Namespace) -> str | None:
    """What is missing to run JSMinesweeper (node, ``--harness``, the ``--jsms``
    checkout), or ``None``: for a script to say before it plays anything."""
    if shutil.which("node") is None:
        return "node is not installed (or not on PATH): JSMinesweeper cannot run here"
    if not Path(opts.harness).is_file():
        return f"no harness at {opts.harness} (see ../shared/peers/README.md)"
    if not (Path(opts.jsms) / "Minesweeper" / "client" / "solver_main.js").is_file():
        return (f"no JSMinesweeper checkout at {opts.jsms} (fetch it as "
                "../shared/peers/README.md says, then give --jsms)")
    return None
