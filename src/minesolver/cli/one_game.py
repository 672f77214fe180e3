"""``minesolver play``, ``demo`` and ``strategies``: one game, shown step by step."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import IO

import click
from PIL import Image
from rich.console import Console

from ..analysis import analyze
from ..errors import counted
from ..files import atomic_write, check_distinct, check_suffix, check_writable, write_bytes
from ..game import Layer
from ..minefield import Layout
from ..noguess import MAX_TRIES, no_guess_layout
from ..play import GameRecord, Start, Step, play_game
from ..position import EXAMPLE_POSITION, Position
from ..rng import new_seed
from ..rules import EXPERT, Rules
from ..serialize import cells_json, record_json, step_json
from ..show.image import board_image, gif_bytes
from ..show.terminal import board_text
from ..strategies import STRATEGIES, find_strategy
from .base import cli, console
from .options import (
    board_options,
    engine_workers_option,
    json_option,
    limits_option,
    read_rules,
    seed_option,
)
from .printing import print_analysis
from .progress import Advance, progress_bar

__all__ = ["demo_cmd", "play_cmd", "strategies_cmd"]

Observer = Callable[[Step], None]


@cli.command("strategies")
def strategies_cmd() -> None:
    """List the strategies, one line each."""
    width = max(len(name) for name in STRATEGIES)
    for name, summary in STRATEGIES.summaries():
        click.echo(f"{name:<{width}}  {summary}")


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
        caption = "; ".join(m.describe() for m in step.moves if m.reason != "deduction")[:90]
        if not caption and step.moves:
            caption = f"{len(step.moves)} safe cells by deduction"
        self.frames.append(
            board_image(step.position, step.analysis, highlight={m.cell for m in step.moves},
                        caption=caption)
        )


class StepLogger:
    """Observer that writes the play-by-play as JSON lines, one
    :func:`~minesolver.serialize.step_json` per step."""

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle

    def __call__(self, step: Step) -> None:
        self.handle.write(json.dumps(step_json(step)) + "\n")


class CellsOpened:
    """Observer that moves a progress bar on by the cells each step opened."""

    def __init__(self, advance: Advance) -> None:
        self.advance = advance

    def __call__(self, step: Step) -> None:
        self.advance(f"step {step.index}", by=len(step.opened))


def _searching(advance: Advance) -> Layer:
    """The no-guess board maker, saying on the bar that it is at work."""

    def lay(rules: Rules, seed: int, first: int) -> Layout:
        advance(f"finding a no-guess board (up to {MAX_TRIES} tries)", by=0)
        return no_guess_layout(rules, seed, first)

    return lay


def _fan_out(observers: list[Observer]) -> Observer:
    def observe(step: Step) -> None:
        for observer in observers:
            observer(step)

    return observe


@cli.command("play")
@board_options()
@seed_option("Board seed (default: random, printed).", default=None)
@click.option("--strategy", default="best", show_default=True)
@click.option("--show", is_flag=True, help="Print every step: board, probabilities, move, reason.")
@click.option("--gif", type=click.Path(dir_okay=False), default=None,
              help="Write an animation of the solve (a GIF file).")
@click.option("--log", type=click.Path(dir_okay=False), default=None,
              help="Write the play-by-play as JSON lines (minesolver review reads it).")
@json_option()
@limits_option(seconds=600.0)
@engine_workers_option()
def play_cmd(
    rules: str,
    first_click: str,
    start: Start,
    noise: str | None,
    no_guess: bool,
    seed: int | None,
    strategy: str,
    show: bool,
    gif: str | None,
    log: str | None,
    as_json: bool,
) -> None:
    """Play one game with a strategy."""
    game_rules = read_rules(rules, first_click, noise, no_guess)
    chosen = find_strategy(strategy)
    check_distinct({"--gif": gif, "--log": log})
    check_suffix("--gif", gif, ".gif")
    check_writable(gif, log)
    seed = new_seed() if seed is None else seed
    out = console()
    observers: list[Observer] = []
    if show:  # with --json the steps go to stderr: stdout stays one JSON object
        observers.append(StepPrinter(console(stderr=True) if as_json else out))
    recorder = FrameRecorder() if gif else None
    if recorder is not None:
        observers.append(recorder)
    with contextlib.ExitStack() as stack:
        lay = None
        if not show:  # on a terminal, a bar of the safe cells opened (a big board takes long)
            safe = game_rules.cells - game_rules.mines
            advance = stack.enter_context(progress_bar("playing", safe, 0, "", quiet=False))
            if advance is not None:
                observers.append(CellsOpened(advance))
                if game_rules.no_guess:  # the search for the board may take a while
                    lay = _searching(advance)
        log_handle = stack.enter_context(atomic_write(log)) if log else None
        if log_handle is not None:
            observers.append(StepLogger(log_handle))
        # the studies' measure is kept by `bench` only: a game here does not pay for it
        record = play_game(game_rules, chosen, seed=seed, start=start,
                           observer=_fan_out(observers) if observers else None,
                           measure=False, lay=lay)
        if log_handle is not None:
            # the board too, so `minesolver review` can judge every click of the game
            mines = cells_json(record.layout.mine_cells())
            log_handle.write(json.dumps({"result": record_json(record), "mines": mines}) + "\n")
        if recorder is not None and gif:  # inside: a GIF that fails takes the log with it
            final = board_image(record.final, None, mines=set(record.layout.mines),
                                caption="won" if record.won else "lost")
            write_bytes(gif, gif_bytes([*recorder.frames, final]))
    if as_json:
        click.echo(json.dumps(record_json(record)))
        return
    if show:
        out.print(board_text(record.final, mines=set(record.layout.mines)), end="")
    outcome = "[bold green]won[/]" if record.won else "[bold red]lost[/]"
    played = record.rules
    board = "no-guess " if played.no_guess else ""
    noise = f" with {played.noise_text} clues" if played.noise is not None else ""
    out.print(
        f"{record.strategy} {outcome} {board}{played}{noise} "
        f"({FIRST_CLICK_WORDS[played.first_click]}, start {record.start}, seed {record.seed}): "
        f"{_clicks_and_guesses(record)}, 3BV {record.bbbv}, {record.seconds * 1000:.1f} ms"
    )
    if record.engine_limits:
        out.print(
            f"the exact engine could not count {record.engine_limits} position"
            f"{'' if record.engine_limits == 1 else 's'} (a front too wide): those moves "
            "came from the cheap rules and naive risk instead"
        )


@cli.command("demo")
@seed_option("Board seed (default: random).", default=None)
@limits_option(seconds=600.0)
def demo_cmd(seed: int | None) -> None:
    """Play one expert game step by step, then analyse an example position."""
    out = console()
    seed = new_seed() if seed is None else seed
    record = play_game(EXPERT, find_strategy("best"), seed=seed, observer=StepPrinter(out))
    outcome = "won" if record.won else "lost"
    out.print(
        f"[bold]best {outcome}[/] an expert game (seed {seed}): {_clicks_and_guesses(record)}, "
        f"{record.seconds * 1000:.0f} ms\n"
    )
    out.print("[bold]Example position[/] (JSMinesweeper .mine text):")
    out.print(EXAMPLE_POSITION, markup=False)
    print_analysis(out, "example", analyze(Position.from_text(EXAMPLE_POSITION)))


FIRST_CLICK_WORDS = {
    "safe": "safe first click",
    "opening": "opening first click",
    "none": "no first-click protection",
}


def _clicks_and_guesses(record: GameRecord) -> str:
    guesses = f"{record.guesses} guess{'' if record.guesses == 1 else 'es'}"
    return f"{counted(record.clicks, 'click')}, {guesses}"
