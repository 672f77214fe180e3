"""``minesolver review``: every click of a played game judged, and the game's figures."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape

from ..errors import counted, percent, printable
from ..replay import describe, read_replay
from ..review import Review, review_game
from ..serialize import review_json
from .base import cli, console
from .options import json_option, limits_option

__all__ = ["print_review", "review_cmd"]


@cli.command("review")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option("Print the review as one JSON object.")
@click.option("--all", "every", is_flag=True, help="List every click, not only the guesses.")
@limits_option(seconds=300.0)
def review_cmd(file: str, as_json: bool, every: bool) -> None:
    """Review a played game: was each click a needless guess, how risky was it, what
    would the best move have been, and the game's 3BV, 3BV/s, IOE, ZiNi and more.

    FILE is a replay (.avf, .rmv, .evf, .mvf: needs ms-toollib, `pip install
    'minesolver[replays]'`) or a log written by `minesolver play --log`.
    """
    review = review_game(read_replay(file))
    if as_json:
        click.echo(json.dumps(review_json(review)))
        return
    print_review(console(), review, every=every)


def _ratio(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_review(out: Console, review: Review, *, every: bool = False) -> None:
    """The game's figures, then its guesses (or every click) one line each."""
    replay = review.replay
    stats = review.stats
    counts = replay.counts
    # names come from the file: printed as they are, never read as markup
    software = f" ({escape(printable(replay.software))})" if replay.software else ""
    out.print(f"[bold]{escape(describe(replay))}[/]{software}")
    outcome = {"won": "[green]won[/]", "lost": "[red]lost[/]",
               "unfinished": "[yellow]unfinished[/]"}[review.outcome]
    out.print(
        f"{outcome} in {replay.seconds:.3f} s: 3BV {stats.bbbv} ({review.bbbv_solved} solved), "
        f"{_ratio(review.bbbv_per_second)} 3BV/s; openings {stats.openings}, islands "
        f"{stats.islands}, ZiNi {stats.zini}, HZiNi {stats.hzini}"
    )
    if review.time_note:
        out.print(f"[yellow]note[/]: {review.time_note}")
    efficiency = "-" if review.ioe is None else f"{100 * review.ioe:.1f}%"
    out.print(
        f"clicks {counts.total} (left {counts.left}, right {counts.right}, chords "
        f"{counts.chords}; {counts.effective} effective): IOE {_ratio(review.ioe)}, "
        f"efficiency {efficiency}, correctness {_ratio(review.correctness)}, throughput "
        f"{_ratio(review.throughput)}"
    )
    guesses = review.guesses
    needless = sum(1 for c in guesses if c.needless)
    taken = (f"{len(guesses)} guess{'' if len(guesses) == 1 else 'es'} ({needless} needless); "
             f"the chance of surviving them all was {percent(review.survival)}"
             if guesses else "no guess")
    out.print(f"{counted(len(review.clicks), 'click')} reviewed: {taken}")
    shown = review.clicks if every else guesses
    # a game lost on its first click: that click is not a judged guess, but say it
    shown = shown or [c for c in review.clicks if c.exploded]
    for judged in shown:
        style = "[red]" if judged.needless or judged.exploded else ""
        out.print(f"  {style}{escape(judged.text)}{'[/]' if style else ''}")
    out.print(
        "Chances are exact (ratios of exact layout counts, flags ignored); win chances "
        "come from the exhaustive endgame search where few layouts are left."
    )
