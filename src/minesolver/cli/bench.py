"""``minesolver bench`` and ``report``: many games, stored, summarised, compared."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .. import __version__
from ..bench import (
    GameRow,
    RunSpec,
    Store,
    compare,
    comparison_json,
    layout_of,
    load_layouts,
    pending_jobs,
    run_jobs,
    summarize,
    wilson,
)
from ..formats import layout_line
from ..play import parse_start, start_cell
from ..strategies import find_strategy
from . import cli, console, fail
from .play import FIRST_CLICK, NOISE_HELP, rules_option

DEFAULT_DB = "minesolver.sqlite"


def _validate(spec: RunSpec) -> None:
    for p in range(max(1, len(spec.points))):
        rules = spec.rules_for(p * spec.games)
        start_cell(rules, parse_start(spec.start))
    for name in spec.strategies:
        find_strategy(name)


class LiveTally:
    """Running wins per strategy, for the progress bar."""

    def __init__(self, strategies: tuple[str, ...], done: list[GameRow]) -> None:
        self.games = {s: 0 for s in strategies}
        self.wins = {s: 0 for s in strategies}
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
            rate = k / n if n else 0.0
            parts.append(f"{name} {rate:.1%} [{lo:.1%}, {hi:.1%}]")
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
    """Play what is missing from a run, with a live progress bar unless ``quiet``."""
    done_rows = [row for row in store.games(run_id)]
    jobs = pending_jobs(spec, {(r.strategy, r.game_index) for r in done_rows})
    total = spec.total_games * len(spec.strategies)
    tally = LiveTally(spec.strategies, done_rows)
    err = console(stderr=True)
    # off a terminal the bar shows nothing but still ends with a blank line on stderr,
    # which would break the one-line error promise of a run that fails midway
    if quiet or not jobs or not err.is_terminal:
        run_jobs(spec, run_id, store, jobs, workers=workers, scheduler=scheduler)
        return
    progress = Progress(
        TextColumn("[bold]{task.fields[run]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[live]}"),
        console=err,
        transient=True,
    )
    with progress:
        task = progress.add_task("bench", total=total, completed=len(done_rows), run=run_id,
                                 live=tally.text())

        def on_game(row: GameRow) -> None:
            tally.add(row)
            progress.update(task, advance=1, live=tally.text())

        run_jobs(spec, run_id, store, jobs, workers=workers, scheduler=scheduler,
                 on_game=on_game)


def results(store: Store, run_id: str, spec: RunSpec) -> dict[str, Any]:
    """Summaries per strategy and pairwise comparisons of a run, from the store."""
    rows = {name: list(store.games(run_id, name)) for name in spec.strategies}
    summaries = []
    for name in spec.strategies:
        s = summarize(rows[name])
        s.update(
            {
                "run_id": run_id,
                "strategy": name,
                "rules": spec.rules,
                "first_click": spec.first_click,
                "noise": spec.noise,
                "start": spec.start,
                "seed": spec.seed,
            }
        )
        summaries.append(s)
    comparisons = []
    names = list(spec.strategies)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            comparisons.append(comparison_json(a, b, compare(rows[a], rows[b])))
    return {"run_id": run_id, "results": summaries, "comparisons": comparisons}


def print_results(data: dict[str, Any]) -> None:
    out = console()
    table = Table(title=f"run {data['run_id']}", title_justify="left")
    for column in ("strategy", "games", "wins", "win rate", "95% CI", "guesses/game",
                   "open rate", "ms/game mean", "ms/game median"):
        table.add_column(column, justify="right" if column != "strategy" else "left")
    for s in data["results"]:
        lo, hi = s["ci95"]
        table.add_row(
            s["strategy"], str(s["games"]), str(s["wins"]), f"{s['win_rate']:.2%}",
            f"[{lo:.2%}, {hi:.2%}]", f"{s['guesses_per_game']:.2f}", f"{s['open_rate']:.1%}",
            f"{s['ms_per_game_mean']:.1f}", f"{s['ms_per_game_median']:.1f}",
        )
    out.print(table)
    for c in data["comparisons"]:
        lo, hi = c["ci95"]
        out.print(
            f"{c['a']} - {c['b']}: {c['diff']:+.2%} [{lo:+.2%}, {hi:+.2%}] over {c['games']} "
            f"paired games ({c['a_only']} won only by {c['a']}, {c['b_only']} only by "
            f"{c['b']}; McNemar p = {c['p_value']:.3g})"
        )


def bench_json(data: dict[str, Any]) -> dict[str, Any]:
    """One strategy: its flat summary (plus the run's wall time); several: results
    plus comparisons."""
    if len(data["results"]) == 1:
        flat = dict(data["results"][0])
        if "wall_seconds" in data:
            flat["wall_seconds"] = data["wall_seconds"]
        return flat
    return data


@cli.command("bench")
@click.option("--rules", default="expert", show_default=True)
@click.option("--first-click", type=FIRST_CLICK, default="safe", show_default=True)
@click.option("--start", default="corner", show_default=True, help="corner, center or ROW,COL.")
@click.option("--noise", default=None, help=NOISE_HELP)
@click.option("--strategy", "strategies", multiple=True,
              help="Strategy to run (repeat to compare on the same boards). Default: best.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Run seed.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local worker processes (default: all cores).")
@click.option("--scheduler", default=None, help="Dask scheduler address, tcp://HOST:PORT.")
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results store.")
@click.option("--resume", "resume", default=None, help="Continue a stored run by its id.")
@click.option("--layouts", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Play the boards of a layout file (JSON lines).")
@click.option("--dump-layouts", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the boards this run played as a layout file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def bench_cmd(
    rules: str,
    first_click: str,
    start: str,
    noise: str | None,
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
    store = Store(db)
    if resume is not None:
        kind, spec = store.run_spec(resume)
        if kind != "bench":
            fail(f"run {resume} is a {kind} run, not a bench run")
        run_id = resume
    else:
        board = rules_option(rules, first_click, noise)
        if layouts is not None:
            boards = load_layouts(layouts)
            if len(boards) < games:
                fail(f"{layouts} holds {len(boards)} boards but --games is {games}")
            shape = (board.width, board.height, board.mines)
            if any((b.width, b.height, len(b.mines)) != shape for b in boards[:games]):
                fail(f"{layouts} has boards that are not {board}")
        spec = RunSpec(
            rules=str(board),
            first_click=first_click,
            start=start,
            strategies=tuple(dict.fromkeys(strategies or ("best",))),
            games=games,
            seed=seed,
            layouts=str(Path(layouts).resolve()) if layouts else None,
            noise=board.noise,
        )
        _validate(spec)
        run_id = store.new_run("bench", spec, __version__)
    started = time.perf_counter()
    execute(store, run_id, spec, workers=workers, scheduler=scheduler, quiet=quiet or as_json)
    data = results(store, run_id, spec)
    data["wall_seconds"] = time.perf_counter() - started
    if dump_layouts:
        boards_played = load_layouts(spec.layouts) if spec.layouts else None
        with open(dump_layouts, "w", encoding="utf-8") as handle:
            for index in range(spec.total_games):
                handle.write(layout_line(layout_of(spec, index, boards_played)))
    if as_json:
        click.echo(json.dumps(bench_json(data)))
    else:
        print_results(data)
        console().print(f"stored in {db} as run {run_id}; wall time {data['wall_seconds']:.1f} s")


@cli.command("report")
@click.option("--db", default=DEFAULT_DB, show_default=True, help="SQLite results store.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run, one per line.")
@click.argument("runs", nargs=-1)
def report_cmd(db: str, as_json: bool, runs: tuple[str, ...]) -> None:
    """Print past runs from the store (all, or the RUNS given)."""
    if not Path(db).exists():
        fail(f"no results store at {db}")
    store = Store(db)
    listed = store.runs()
    if runs:
        wanted = set(runs)
        missing = wanted - {r[0] for r in listed}
        if missing:
            fail(f"no run {sorted(missing)[0]!r} in {db}")
        listed = [r for r in listed if r[0] in wanted]
    if not listed and not as_json:
        console().print(f"no runs in {db}")
    for run_id, kind, created, spec in listed:
        if kind == "flags":
            from .flags import print_flags_run

            print_flags_run(store, run_id, created, spec, as_json)
            continue
        data = results(store, run_id, spec)
        data.update({"kind": kind, "created": created, "planned_games": spec.total_games})
        if as_json:
            click.echo(json.dumps(data))
        else:
            console().print(
                f"[bold]{run_id}[/] {kind} {created}: {spec.rules} first click "
                f"{spec.first_click}, start {spec.start}, seed {spec.seed}, "
                f"{spec.total_games} games planned"
            )
            print_results(data)
