"""``minesolver sweep``: win rate against mine density and first-click rule."""

from __future__ import annotations

import json
import re

import click

from .. import __version__
from ..bench import RunSpec, Store
from ..bench.sweep import density_points, parse_densities, plot_sweep, sweep_table, write_csv
from ..rules import RulesError
from . import cli, console, fail
from .bench import DEFAULT_DB, _validate, execute


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", text)
    if match is None:
        raise RulesError(f"cannot read board size {text!r}: expected WxH like 30x16")
    return int(match.group(1)), int(match.group(2))


@cli.command("sweep")
@click.option("--size", default="30x16", show_default=True, help="Board size WxH.")
@click.option("--densities", default="0.10:0.30:0.02", show_default=True,
              help="Mine densities: 0.1,0.2 or start:stop:step.")
@click.option("--first-click", "first_clicks", multiple=True,
              type=click.Choice(["safe", "opening", "none"]),
              help="First-click rule (repeat to compare). Default: safe.")
@click.option("--noise", "noises", multiple=True,
              help="Noise model to sweep (repeat; 'none' is the classic game). Default: none.")
@click.option("--start", default="corner", show_default=True)
@click.option("--strategy", "strategies", multiple=True, help="Default: best.")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per point.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@click.option("--scheduler", default=None, help="Dask scheduler address, tcp://HOST:PORT.")
@click.option("--db", default=DEFAULT_DB, show_default=True)
@click.option("--resume", default=None, help="Continue a stored sweep by its run id.")
@click.option("--csv", "csv_path", default="sweep.csv", show_default=True)
@click.option("--plot", "plot_path", default="sweep.png", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--quiet", is_flag=True)
def sweep_cmd(
    size: str,
    densities: str,
    first_clicks: tuple[str, ...],
    noises: tuple[str, ...],
    start: str,
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
    """
    store = Store(db)
    if resume is not None:
        kind, spec = store.run_spec(resume)
        if kind != "sweep":
            fail(f"run {resume} is a {kind} run, not a sweep")
        run_id = resume
    else:
        width, height = _size(size)
        points = density_points(width, height, parse_densities(densities),
                                first_clicks or ("safe",), noises or (None,))
        spec = RunSpec(
            rules=points[0][0],
            first_click=points[0][1],
            start=start,
            strategies=tuple(dict.fromkeys(strategies or ("best",))),
            games=games,
            seed=seed,
            points=points,
        )
        _validate(spec)
        run_id = store.new_run("sweep", spec, __version__)
    execute(store, run_id, spec, workers=workers, scheduler=scheduler, quiet=quiet or as_json)
    table = sweep_table(spec, store.games(run_id))
    write_csv(table, csv_path)
    first = spec.points[0][0].rsplit("x", 1)[0]
    plot_sweep(table, plot_path, title=f"{first} boards, {spec.games} games per point")
    if as_json:
        click.echo(json.dumps({"run_id": run_id, "csv": csv_path, "plot": plot_path,
                               "points": table}))
        return
    out = console()
    for row in table:
        out.print(
            f"{row['strategy']:<10} {row['noise']:<13} {row['first_click']:<8} "
            f"{row['width']}x{row['height']}x"
            f"{row['mines']:<5} density {row['density']:.1%}: win {row['win_rate']:.1%} "
            f"[{row['ci_lo']:.1%}, {row['ci_hi']:.1%}], needs a guess {row['needs_guess']:.0%}, "
            f"open rate {row['open_rate']:.1%}"
        )
    out.print(f"run {run_id} in {db}; wrote {csv_path} and {plot_path}")
