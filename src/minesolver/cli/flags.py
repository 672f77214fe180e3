"""``minesolver flags``: Minesweeper Flags, AI against AI (stored) or you against an AI."""

from __future__ import annotations

import json
import sys
import time
from typing import IO

import click
from rich.text import Text

from .. import __version__
from ..bench import RunSpec, Store
from ..bench.flags import flags_spec, flags_summary, pending_flags, run_flags
from ..bench.stats import wilson
from ..bench.store import FlagsRow
from ..errors import OffBoardError
from ..rng import derive_seed, new_seed
from ..rules import Rules
from ..show.terminal import board_text
from ..variants.flags import (
    PLAYER_SALT,
    FlagsError,
    FlagsGame,
    FlagsMove,
    FlagsPlayer,
    FlagsTurn,
    find_flags_player,
)
from .base import (
    VIEWS,
    check_resume,
    cli,
    console,
    fail,
    one_line,
    open_store,
    refuse_given,
    resumable,
)
from .options import (
    db_option,
    json_option,
    limits_option,
    quiet_option,
    seed_option,
    workers_option,
)
from .printing import print_flags_summary
from .progress import progress_bar

__all__ = ["flags_cmd", "human_game"]

JSON_KEYS = ("games", "p1_wins", "p2_wins", "p1_win_rate", "ci95", "p1_boards_per_second",
             "p2_boards_per_second")


def _rules(text: str) -> Rules:
    return Rules.from_string(text, first_click="none")


@cli.command("flags")
@click.option("--p1", default="hard", show_default=True,
              help="Player 1: an AI (mc, exact, hard; options like hard:bomb=off) or human.")
@click.option("--p2", default="mc", show_default=True, help="Player 2: an AI.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Games of an AI match (players take turns to move first).")
@seed_option("Match seed (default 1), or board seed of a human game (default: random).",
             default=None)
@click.option("--rules", default="16x16x51", show_default=True, help="Board WxHxM.")
@click.option("--first", type=click.Choice(["p1", "p2"]), default="p1", show_default=True,
              help="Who moves first in a human game.")
@workers_option()
@db_option()
@click.option("--resume", default=None, help="Continue a stored match by its run id.")
@json_option("Print games, p1_wins, p2_wins, p1_win_rate, ci95 and each player's "
             "boards per second as JSON.")
@quiet_option()
@limits_option(seconds=None, memory=None)
def flags_cmd(
    p1: str,
    p2: str,
    games: int,
    seed: int | None,
    rules: str,
    first: str,
    workers: int | None,
    db: str,
    resume: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Minesweeper Flags: claim more than half of the mines.

    Opening a mine claims it and you move again; a safe cell passes the turn.
    Once per game, while behind, a player may bomb a 5x5 square.  AI against AI
    plays --games games into the SQLite store --db (resume a killed match with
    --resume RUN); --p1 human plays against --p2 in the terminal.
    """
    if p2.strip().lower() == "human":
        fail("the human plays as --p1; --p2 must be an AI (mc, exact or hard)")
    if p1.strip().lower() == "human":
        if resume is not None:
            fail("--resume continues AI matches; a human game cannot be resumed")
        refuse_given({"games": "--games", "workers": "--workers", "db": "--db",
                      "as_json": "--json", "quiet": "--quiet"},
                     "for AI matches, not a human game")
        board = _rules(rules)
        opponent = find_flags_player(p2)
        human_game(board, opponent, seed=new_seed() if seed is None else seed,
                   first=0 if first == "p1" else 1)
        return

    refuse_given({"first": "--first"}, "for a human game (in a match the players take "
                 "turns to move first)")

    def asked() -> RunSpec:
        return flags_spec(p1, p2, games=games, seed=1 if seed is None else seed,
                          rules=_rules(rules))

    if resume is not None:
        store = open_store(db, create=False)
        kind, spec = store.run_spec(resume)
        if kind != "flags":
            fail(f"run {resume} is a {kind} run, not a flags run")
        check_resume(resume, spec, {
            "p1": ("--p1", lambda s: s.strategies[0]), "p2": ("--p2", lambda s: s.strategies[1]),
            "games": VIEWS["games"], "seed": VIEWS["seed"], "rules": VIEWS["rules"]}, asked)
        run_id = resume
    else:
        spec = asked()
        store = open_store(db)
        run_id = store.new_run("flags", spec, __version__)
    started = time.perf_counter()
    _execute(store, run_id, spec, workers=workers, quiet=quiet or as_json)
    summary = flags_summary(list(store.flags_games(run_id)))
    if as_json:
        click.echo(json.dumps({key: summary[key] for key in JSON_KEYS}))
        return
    print_flags_summary(console(), run_id, spec, summary)
    console().print(
        f"stored in {db} as run {run_id}; wall time {time.perf_counter() - started:.1f} s"
    )


def _execute(store: Store, run_id: str, spec: RunSpec, *, workers: int | None,
             quiet: bool) -> None:
    done = list(store.flags_games(run_id))
    todo = pending_flags(spec, {row.game_index for row in done})
    wins = [sum(1 for r in done if r.winner == 0), len(done)]

    def live() -> str:
        lo, hi = wilson(wins[0], wins[1])
        rate = wins[0] / wins[1] if wins[1] else 0.0
        return f"{spec.strategies[0]} wins {rate:.1%} [{lo:.1%}, {hi:.1%}]"

    with (
        resumable(store, run_id),
        progress_bar(run_id, spec.games, len(done), live(), quiet=quiet) as advance,
    ):

        def on_game(row: FlagsRow) -> None:
            wins[0] += row.winner == 0
            wins[1] += 1
            if advance is not None:
                advance(live())

        run_flags(spec, run_id, store, todo, workers=workers, on_game=on_game)


# ---------------------------------------------------------------------- a human game
def _board(game: FlagsGame, highlight: set[tuple[int, int]], *, reveal: bool = False) -> Text:
    """The board with row and column numbers around ``board_text``."""
    position = game.position()
    mines: set[int] = set(game.layout.mines) if reveal else set()
    body = board_text(position, highlight=highlight, mines=mines)
    head = Text("   " + "".join(f"{c:>3}" for c in range(position.width)) + "\n", style="dim")
    out = Text()
    out.append_text(head)
    for r, line in enumerate(body.split("\n")[: position.height]):
        out.append(f"{r:>3}", style="dim")
        out.append_text(line)
        out.append("\n")
    return out


def _turn_text(name: str, turn: FlagsTurn) -> str:
    move = turn.move
    s = "" if name == "you" else "s"  # "you open", "P2 (hard) opens"
    verb = f"bomb{s} around" if move.kind == "bomb" else f"open{s}"
    text = f"{name} {verb} {move.cell}"
    if turn.claimed:
        many = "s" if len(turn.claimed) > 1 else ""
        text += f" and claim{s} {len(turn.claimed)} mine{many}"
    if turn.opened:
        text += f"; {len(turn.opened)} safe cell" + ("s" if len(turn.opened) > 1 else "")
        text += " opened"
    if move.reason:
        text += f" ({move.reason})"
    return text


def human_game(rules: Rules, opponent: FlagsPlayer, *, seed: int, first: int,
               stdin: IO[str] | None = None) -> None:
    """Play P1 (you, from ``stdin``) against ``opponent`` until the end, EOF or ``quit``."""
    source = stdin or sys.stdin
    out = console()
    game = FlagsGame(rules, seed=seed, first=first)
    opponent.new_game(derive_seed(seed, PLAYER_SALT, 1))
    names = ("you", f"P2 ({opponent.label})")
    out.print(f"Minesweeper Flags {rules}, seed {seed}: claim {rules.mines // 2 + 1} of "
              f"{rules.mines} mines to win. Moves: ROW,COL or bomb ROW,COL (once, while "
              f"behind); quit to stop.")
    highlight: set[tuple[int, int]] = set()
    redraw = True
    while game.turn is not None:
        if game.turn == 1:
            turn = game.play(opponent.choose(game.view()))
            highlight = {turn.move.cell, *turn.claimed, *turn.opened}
            out.print(_turn_text(names[1], turn))
            redraw = True
            continue
        if redraw:
            out.print(_board(game, highlight), end="")
            you, ai = game.scores
            bomb = ", bomb available" if game.can_bomb(0) else ""
            out.print(f"you {you} - {ai} {opponent.label}, {game.mines_left} mines left{bomb}")
        out.print("your move: ", end="")
        out.file.flush()
        line = source.readline()
        if not line:
            out.print("\nend of input: game abandoned")
            return
        # bytes that are not UTF-8 arrive as surrogates: shown as '?', not as escapes
        text = line.strip().encode("utf-8", "replace").decode("utf-8")
        if text.lower() in ("q", "quit", "exit"):
            out.print("game abandoned")
            return
        try:
            turn = game.play(FlagsMove.from_text(text))
        except (FlagsError, OffBoardError) as exc:  # off the board: an input error, as everywhere
            out.print(f"invalid move: {one_line(str(exc))}")
            redraw = False
            continue
        highlight = {turn.move.cell, *turn.claimed, *turn.opened}
        out.print(_turn_text("you", turn))
        redraw = True
    out.print(_board(game, highlight, reveal=True), end="")
    you, ai = game.scores
    if game.winner is None:
        result = "a draw"
    else:
        result = "you win" if game.winner == 0 else f"{opponent.label} wins"
    out.print(f"game over: {result}, {you} - {ai}")
