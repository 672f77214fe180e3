"""``minesolver play``, ``strategies`` and ``demo``: one game, shown step by step."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import IO, Any

import click
from PIL import Image
from rich.console import Console

from ..analysis import analyze
from ..display import board_text
from ..play import GameRecord, Step, parse_start, play_game
from ..position import EXAMPLE_POSITION, Position
from ..render import board_image, save_gif
from ..rules import Rules
from ..strategies import STRATEGIES, find_strategy
from ..strategies import _load_builtins as load_strategies
from . import cli, console

FIRST_CLICK = click.Choice(["safe", "opening", "none"])



NOISE_HELP = "Noisy clues: withheld:P, optimistic or cautious (default: exact clues)."


def rules_option(text: str, first_click: str, noise: str | None = None) -> Rules:
    """Rules from ``--rules``, ``--first-click`` and ``--noise``."""
    return Rules.from_string(text, first_click=first_click, noise=noise)  # type: ignore[arg-type]


def new_seed() -> int:
    """A fresh random seed (printed, so the game can be replayed)."""
    return int.from_bytes(os.urandom(4), "little")


@cli.command("strategies")
def strategies_cmd() -> None:
    """List the strategies, one line each."""
    load_strategies()
    width = max(len(name) for name in STRATEGIES)
    for name in sorted(STRATEGIES):
        click.echo(f"{name:<{width}}  {STRATEGIES[name].summary}")


class StepPrinter:
    """Observer that prints each step: board, probabilities, move and reason."""

    def __init__(self, out: Console) -> None:
        self.out = out

    def __call__(self, step: Step) -> None:
        out = self.out
        if step.index == 0:
            out.print(f"[bold]step 0[/]: first click at {step.moves[0].cell}")
            return
        moves = step.moves
        deductions = [m for m in moves if m.reason == "deduction"]
        others = [m for m in moves if m.reason != "deduction"]
        highlight = {m.cell for m in moves}
        out.print(board_text(step.position, step.analysis, highlight=highlight), end="")
        if deductions:
            cells = " ".join(f"({r},{c})" for r, c in (m.cell for m in deductions[:12]))
            more = f" and {len(deductions) - 12} more" if len(deductions) > 12 else ""
            out.print(
                f"[bold]step {step.index}[/]: open {len(deductions)} safe cells by deduction: "
                f"{cells}{more}"
            )
        for move in others:
            out.print(f"[bold]step {step.index}[/]: {move.describe()}")
        out.print(f"  opened {len(step.opened)} cells\n")


class FrameRecorder:
    """Observer that draws a frame per step for a GIF."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []

    def __call__(self, step: Step) -> None:
        analysis = step.analysis  # the strategy's own (noise model included), if any
        caption = "; ".join(m.describe() for m in step.moves if m.reason != "deduction")[:90]
        if not caption and step.moves:
            caption = f"{len(step.moves)} safe cells by deduction"
        self.frames.append(
            board_image(step.position, analysis, highlight={m.cell for m in step.moves},
                        caption=caption)
        )


class StepLogger:
    """Observer that writes the play-by-play as JSON lines."""

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle

    def __call__(self, step: Step) -> None:
        record: dict[str, Any] = {
            "step": step.index,
            "position": step.position.to_text(),
            "moves": [
                {
                    "cell": list(m.cell),
                    "action": m.action,
                    "reason": m.reason,
                    "probability": m.probability,
                    "win_chance": m.win_chance,
                }
                for m in step.moves
            ],
            "opened": [list(cell) for cell in step.opened],
        }
        self.handle.write(json.dumps(record) + "\n")


def _fan_out(observers: list[Any]) -> Any:
    def observe(step: Step) -> None:
        for observer in observers:
            observer(step)

    return observe


def record_json(record: GameRecord) -> dict[str, Any]:
    """A finished game as JSON."""
    return {
        "rules": str(record.rules),
        "first_click": record.rules.first_click,
        "noise": record.rules.noise,
        "strategy": record.strategy,
        "seed": record.seed,
        "start": list(record.start),
        "won": record.won,
        "clicks": record.clicks,
        "guesses": record.guesses,
        "bbbv": record.bbbv,
        "seconds": record.seconds,
        "opened": record.opened,
        "safe_cells": record.safe_cells,
    }


@cli.command("play")
@click.option("--rules", default="expert", show_default=True,
              help="beginner, intermediate, expert or WxHxM.")
@click.option("--first-click", type=FIRST_CLICK, default="safe", show_default=True)
@click.option("--start", default="corner", show_default=True, help="corner, center or ROW,COL.")
@click.option("--noise", default=None, help=NOISE_HELP)
@click.option("--seed", type=int, default=None, help="Board seed (default: random, printed).")
@click.option("--strategy", default="best", show_default=True)
@click.option("--show", is_flag=True, help="Print every step: board, probabilities, move, reason.")
@click.option("--gif", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write an animation of the solve.")
@click.option("--log", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the play-by-play as JSON lines.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def play_cmd(
    rules: str,
    first_click: str,
    start: str,
    noise: str | None,
    seed: int | None,
    strategy: str,
    show: bool,
    gif: str | None,
    log: str | None,
    as_json: bool,
) -> None:
    """Play one game with a strategy."""
    game_rules = rules_option(rules, first_click, noise)
    chosen = find_strategy(strategy)
    begin = parse_start(start)
    seed = new_seed() if seed is None else seed
    out = console()
    observers: list[Any] = []
    if show:
        observers.append(StepPrinter(out))
    recorder = FrameRecorder() if gif else None
    if recorder is not None:
        observers.append(recorder)
    with contextlib.ExitStack() as stack:
        log_handle = stack.enter_context(open(log, "w", encoding="utf-8")) if log else None
        if log_handle is not None:
            observers.append(StepLogger(log_handle))
        record = play_game(
            game_rules,
            chosen,
            seed=seed,
            start=begin,
            observer=_fan_out(observers) if observers else None,
        )
        if log_handle is not None:
            log_handle.write(json.dumps({"result": record_json(record)}) + "\n")
    if recorder is not None and gif:
        mines = set(record.layout.mines)
        final = board_image(record.final, None, mines=mines,
                            caption="won" if record.won else "lost")
        save_gif([*recorder.frames, final], Path(gif))
    if as_json:
        click.echo(json.dumps(record_json(record)))
        return
    if show:
        out.print(board_text(record.final, mines=set(record.layout.mines)), end="")
    outcome = "[bold green]won[/]" if record.won else "[bold red]lost[/]"
    out.print(
        f"{record.strategy} {outcome} {record.rules} ({record.rules.first_click} first click, "
        f"start {record.start}, seed {record.seed}): {record.clicks} clicks, "
        f"{record.guesses} guesses, 3BV {record.bbbv}, {record.seconds * 1000:.1f} ms"
    )


@cli.command("demo")
@click.option("--seed", type=int, default=None, help="Board seed (default: random).")
def demo_cmd(seed: int | None) -> None:
    """Play one expert game step by step, then analyse an example position."""
    out = console()
    seed = new_seed() if seed is None else seed
    record = play_game(Rules.from_string("expert"), find_strategy("best"), seed=seed,
                       observer=StepPrinter(out))
    outcome = "won" if record.won else "lost"
    out.print(
        f"[bold]best {outcome}[/] an expert game (seed {seed}): {record.clicks} clicks, "
        f"{record.guesses} guesses, {record.seconds * 1000:.0f} ms\n"
    )
    out.print("[bold]Example position[/] (JSMinesweeper .mine text):")
    analysis = analyze(Position.from_text(EXAMPLE_POSITION))
    from .analyze import print_analysis

    print_analysis(out, "example", analysis)

