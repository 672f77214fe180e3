"""``minesolver bench``: many games, stored, summarised, compared."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from ..bench import (
    GameRow,
    RunSpec,
    Store,
    check_boards_unchanged,
    check_scheduler,
    layout_of,
    load_layouts,
    pending_jobs,
    run_jobs,
    run_results,
    validate,
    wilson,
)
from ..files import atomic_write, check_distinct, check_writable, write_bytes
from ..formats import layout_line, write_mbf
from ..play import Start
from .base import (
    VIEWS,
    check_resume,
    cli,
    console,
    fail,
    open_store,
    refuse_workers_with,
    resumable,
    start_run,
)
from .options import (
    board_options,
    db_option,
    json_option,
    limits_option,
    quiet_option,
    read_rules,
    scheduler_option,
    seed_option,
    workers_option,
)
from .printing import print_results
from .progress import progress_bar

__all__ = ["bench_cmd", "execute"]


class LiveTally:
    """Running wins per strategy, for the progress bar."""

    def __init__(self, strategies: tuple[str, ...], done: list[GameRow]) -> None:
        self.games = dict.fromkeys(strategies, 0)
        self.wins = dict.fromkeys(strategies, 0)
        for row in done:
            self.add(row)

    def add(self, row: GameRow) -> None:
        self.games[row.strategy] += 1
        self.wins[row.strategy] += int(row.won)

    def text(self) -> str:
        parts = []
        for name, n in self.games.items():
            k = self.wins[name]
            lo, hi = wilson(k, n)
            parts.append(f"{name} {k / n if n else 0.0:.1%} [{lo:.1%}, {hi:.1%}]")
        return "  ".join(parts)


def execute(
    store: Store,
    run_id: str,
    spec: RunSpec,
    *,
    workers: int | None,
    scheduler: str | None,
    quiet: bool,
) -> None:
    """Play what is missing from a run (bench or sweep), with a live progress bar."""
    done_rows = list(store.games(run_id))
    jobs = pending_jobs(spec, {(r.strategy, r.game_index) for r in done_rows})
    tally = LiveTally(spec.strategies, done_rows)
    with (
        resumable(store, run_id),
        progress_bar(run_id, spec.all_games, len(done_rows), tally.text(), quiet=quiet) as advance,
    ):

        def on_game(row: GameRow) -> None:
            tally.add(row)
            if advance is not None:
                advance(tally.text())

        with quiet_dask(scheduler):
            run_jobs(spec, run_id, store, jobs, workers=workers, scheduler=scheduler,
                     on_game=on_game, on_note=_note)


def _note(text: str) -> None:
    click.echo(f"minesolver: note: {text}", err=True)


@contextlib.contextmanager
def quiet_dask(scheduler: str | None) -> Iterator[None]:
    """Dask's client logs a lost scheduler as pages of tracebacks before the run ends
    with its own line: keep them back (``MINESOLVER_DEBUG=1`` shows them)."""
    if scheduler is None or os.environ.get("MINESOLVER_DEBUG"):
        yield
        return
    # dask gives some of its loggers ("distributed.client", ...) levels of their own
    names = [name for name in logging.root.manager.loggerDict
             if name == "distributed" or name.startswith("distributed.")]
    loggers = [logging.getLogger(name) for name in ["distributed", *names]]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def bench_json(data: dict[str, Any]) -> dict[str, Any]:
    """One strategy: its flat summary (plus the run's wall time); several: results
    plus comparisons."""
    if len(data["results"]) == 1:
        flat = dict(data["results"][0])
        if "wall_seconds" in data:
            flat["wall_seconds"] = data["wall_seconds"]
        return flat
    return data


# the parameters that define a bench run (the rest say how to play or print it)
RUN_OPTIONS = ("rules", "first_click", "start", "noise", "no_guess", "strategies", "games",
               "seed", "layouts")


@cli.command("bench")
@board_options()
@click.option("--strategy", "strategies", multiple=True,
              help="Strategy to run (repeat to compare on the same boards). Default: best.")
@click.option("--games", type=click.IntRange(1, 100_000_000), default=1000, show_default=True)
@seed_option()
@workers_option()
@scheduler_option()
@db_option()
@click.option("--resume", "resume", default=None, help="Continue a stored run by its id.")
@click.option("--layouts", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Play the boards of a board file (layout JSON lines or MBF).")
@click.option("--dump-layouts", type=click.Path(dir_okay=False), default=None,
              help="Write the boards this run played: layout JSON lines, or MBF records "
                   "for a .mbf name.")
@json_option()
@quiet_option()
@limits_option(seconds=None, memory=None)
def bench_cmd(
    rules: str,
    first_click: str,
    start: Start,
    noise: str | None,
    no_guess: bool,
    strategies: tuple[str, ...],
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    db: str,
    resume: str | None,
    layouts: str | None,
    dump_layouts: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play many games and report win rates with 95% intervals.

    Every game is stored in the SQLite file --db; a killed run continues with
    --resume RUN and ends with the same figures as an uninterrupted one.
    """
    check_distinct({"--db": db, "--layouts": layouts, "--dump-layouts": dump_layouts})
    refuse_workers_with(scheduler)

    def asked() -> RunSpec:
        return RunSpec(
            points=(read_rules(rules, first_click, noise, no_guess),),
            strategies=tuple(dict.fromkeys(strategies or ("best",))),
            games=games,
            seed=seed,
            start=start,
            # a pipe or device stays as given (resolved, /dev/fd/63 names what cannot be
            # opened), for read_boards to refuse by the name the user gave
            layouts=str(Path(layouts).resolve()) if layouts and Path(layouts).is_file()
            else layouts,
        )

    if resume is not None:
        check_writable(dump_layouts)
        store = open_store(db, create=False)
        kind, spec = store.run_spec(resume)
        if kind != "bench":
            fail(f"run {resume} is a {kind} run, not a bench run")
        check_resume(resume, spec, {name: VIEWS[name] for name in RUN_OPTIONS}, asked)
        check_distinct({"the run's --layouts": spec.layouts, "--dump-layouts": dump_layouts})
        check_boards_unchanged(spec)
        run_id = resume
    else:
        spec = asked()
        spec = validate(spec)  # checked before the store is touched; with its boards' digest
        check_writable(dump_layouts)
        if scheduler is not None:
            check_scheduler(scheduler)  # an address that fails stores no empty run
        store = open_store(db)
        run_id = start_run(store, "bench", spec)
    started = time.perf_counter()
    execute(store, run_id, spec, workers=workers, scheduler=scheduler, quiet=quiet or as_json)
    data = run_results(store, run_id, spec)
    data["wall_seconds"] = time.perf_counter() - started
    if dump_layouts:
        boards = load_layouts(spec)
        played = (layout_of(spec, index, boards) for index in range(spec.total_games))
        if Path(dump_layouts).suffix.lower() == ".mbf":  # MBF records, one after another
            write_bytes(dump_layouts, b"".join(write_mbf(layout) for layout in played))
        else:
            with atomic_write(dump_layouts) as handle:
                for layout in played:
                    handle.write(layout_line(layout))
    if as_json:
        click.echo(json.dumps(bench_json(data)))
    else:
        print_results(console(), data)
        console().print(f"stored in {db} as run {run_id}; wall time {data['wall_seconds']:.1f} s")
