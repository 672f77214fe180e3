"""``minesolver sweep``: win rate against mine density, first-click rule and noise."""

from __future__ import annotations

import io
import json
import re

import click
from click.core import ParameterSource

from ..bench import RunSpec, check_scheduler, validate
from ..bench.sweep import density_points, parse_densities, plot_sweep, sweep_table, write_csv
from ..errors import quote
from ..files import check_distinct, check_suffix, check_writable, write_files
from ..noise import parse_noise
from ..play import Start
from ..rules import FIRST_CLICK_RULES, FirstClick, RulesError
from .base import (
    VIEWS,
    check_resume,
    cli,
    console,
    fail,
    open_store,
    refuse_workers_with,
    start_run,
)
from .bench import execute
from .options import (
    db_option,
    json_option,
    limits_option,
    no_guess_option,
    quiet_option,
    scheduler_option,
    seed_option,
    start_option,
    workers_option,
)
from .printing import print_sweep_rows

__all__ = ["sweep_cmd"]


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,9})\s*[x×]\s*(\d{1,9})\s*", text)
    if match is None:
        raise RulesError(f"cannot read board size {quote(text)}: expected WxH like 30x16")
    return int(match.group(1)), int(match.group(2))


@cli.command("sweep")
@click.option("--size", default="30x16", show_default=True, help="Board size WxH.")
@click.option("--densities", default="0.10:0.30:0.02", show_default=True,
              help="Mine densities: 0.1,0.2 or start:stop:step.")
@click.option("--first-click", "first_clicks", multiple=True,
              type=click.Choice(list(FIRST_CLICK_RULES)),
              help="First-click rule (repeat to compare). Default: safe.")
@click.option("--noise", "noises", multiple=True,
              help="Noise model to sweep (repeat; 'none' is the classic game). Default: none.")
@start_option()
@no_guess_option()
@click.option("--strategy", "strategies", multiple=True, help="Default: best.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=200, show_default=True,
              help="Games per point.")
@seed_option()
@workers_option()
@scheduler_option()
@db_option()
@click.option("--resume", default=None, help="Continue a stored sweep by its run id.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default="sweep.csv",
              show_default=True, help="The table, one row per point.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default="sweep.png",
              show_default=True, help="The plot (a PNG file).")
@json_option("Print the table as JSON.")
@quiet_option()
@limits_option(seconds=None, memory=None)
def sweep_cmd(
    size: str,
    densities: str,
    first_clicks: tuple[FirstClick, ...],
    noises: tuple[str, ...],
    start: Start,
    no_guess: bool,
    strategies: tuple[str, ...],
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    db: str,
    resume: str | None,
    csv_path: str,
    plot_path: str,
    as_json: bool,
    quiet: bool,
) -> None:
    """Win rate, open rate and share of games needing a guess against density.

    Writes a CSV and a PNG plot with 95% intervals; every game is stored in --db.
    Game j of every point has the same seed: noise models play the same layouts, and
    first-click rules the same layout whenever it satisfies both (docs/studies.md).
    """
    check_distinct({"--db": db, "--csv": csv_path, "--plot": plot_path})
    refuse_workers_with(scheduler)
    check_suffix("--plot", plot_path, ".png")
    check_writable(csv_path, plot_path)
    stored_size: tuple[int, int] | None = None  # when resuming: the run's, unless --size

    def asked() -> RunSpec:
        width, height = stored_size or _size(size)
        points = density_points(
            width, height, parse_densities(densities), first_clicks or ("safe",),
            [parse_noise(n) for n in noises] or [None], no_guess=no_guess,
        )
        return RunSpec(points=points, strategies=tuple(dict.fromkeys(strategies or ("best",))),
                       games=games, seed=seed, start=start, extra={"paired": True})

    if resume is not None:
        store = open_store(db, create=False)
        kind, spec = store.run_spec(resume)
        if kind != "sweep":
            fail(f"run {resume} is a {kind} run, not a sweep")
        source = click.get_current_context().get_parameter_source("size")
        if source is not ParameterSource.COMMANDLINE:
            stored_size = (spec.rules.width, spec.rules.height)
        check_resume(resume, spec, {name: VIEWS[name] for name in (
            "size", "densities", "first_clicks", "noises", "start", "no_guess", "strategies",
            "games", "seed")}, asked)
        run_id = resume
    else:
        spec = asked()
        spec = validate(spec)
        if scheduler is not None:
            check_scheduler(scheduler)  # an address that fails stores no empty run
        store = open_store(db)
        run_id = start_run(store, "sweep", spec)
    execute(store, run_id, spec, workers=workers, scheduler=scheduler, quiet=quiet or as_json)
    table = sweep_table(spec, store.games(run_id))
    text = io.StringIO()
    write_csv(table, text)
    picture = io.BytesIO()
    board = f"{spec.rules.width}x{spec.rules.height}"
    plot_sweep(table, picture, title=f"{board} boards, {spec.games} games per point")
    # both files or neither: a full disk must not leave a table without its plot
    write_files({csv_path: text.getvalue().encode("utf-8"), plot_path: picture.getvalue()})
    if as_json:
        click.echo(json.dumps({"run_id": run_id, "csv": csv_path, "plot": plot_path,
                               "points": table}))
        return
    out = console()
    print_sweep_rows(out, table, spec.games)
    out.print(f"run {run_id} in {db}; wrote {csv_path} and {plot_path}")
