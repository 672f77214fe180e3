"""``minesolver report``: past runs from the store, as tables or JSON lines."""

from __future__ import annotations

import json

import click

from ..bench import run_results
from ..bench.spec import RunSpec
from ..bench.store import Store, StoreError
from ..bench.sweep import sweep_table
from ..errors import counted, quote
from ..play import format_start
from .base import cli, console, fail, open_store
from .options import db_option
from .printing import print_flags_run, print_results, print_sweep_rows

__all__ = ["report_cmd"]


@cli.command("report")
@db_option()
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run, one per line.")
@click.argument("runs", nargs=-1)
def report_cmd(db: str, as_json: bool, runs: tuple[str, ...]) -> None:
    """Print past runs from the store (all, or the RUNS given).  Only reads the store."""
    store = open_store(db, readonly=True)
    damaged: list[tuple[str, str]] = []  # runs that cannot be shown: the others are first
    listed = store.runs(damaged)
    if runs:
        damaged = [d for d in damaged if d[0] in runs]
        missing = set(runs) - {r[0] for r in listed} - {d[0] for d in damaged}
        if missing:
            fail(f"no run {quote(sorted(missing)[0])} in {db}")
        listed = [r for r in listed if r[0] in set(runs)]
    if not listed and not damaged and not as_json:
        console().print(f"no runs in {db}")
    shown = 0
    for run_id, kind, created, spec in listed:
        try:
            _report_run(store, run_id, kind, created, spec, as_json)
            shown += 1
        except StoreError as exc:
            damaged.append((run_id, str(exc)))
    if damaged:
        run_id, why = damaged[0]
        others = f" (and {counted(len(damaged) - 1, 'other damaged run')})" if damaged[1:] else ""
        rest = f"; {counted(shown, 'other run')} shown" if shown else ""
        fail(f"run {run_id}: {why}{others}{rest}")


def _report_run(store: Store, run_id: str, kind: str, created: str, spec: RunSpec,
                as_json: bool) -> None:
    """Print one run: a table, or a JSON line."""
    if kind == "flags":
        print_flags_run(store, run_id, created, spec, as_json)
        return
    if kind == "sweep":  # a row per point, as the sweep printed them: never pooled
        table = sweep_table(spec, store.games(run_id))
        if as_json:
            click.echo(json.dumps({"run_id": run_id, "kind": kind, "created": created,
                                   "planned_games": spec.total_games, "points": table}))
            return
        start = "-" if spec.start is None else format_start(spec.start)
        console().print(
            f"[bold]{run_id}[/] sweep {created}: {spec.rules.width}x{spec.rules.height} "
            f"boards, {len(spec.points)} points of {spec.games} games, start {start}, "
            f"seed {spec.seed}, {spec.total_games} games planned"
        )
        print_sweep_rows(console(), table, spec.games)
        return
    data = run_results(store, run_id, spec)
    data.update({"kind": kind, "created": created, "planned_games": spec.total_games})
    if as_json:
        click.echo(json.dumps(data))
        return
    rules = spec.rules
    start = "-" if spec.start is None else format_start(spec.start)
    points = f" ({len(spec.points)} points)" if len(spec.points) > 1 else ""
    if rules.no_guess:
        points += " (no-guess boards)"
    console().print(
        f"[bold]{run_id}[/] {kind} {created}: {rules}{points} first click "
        f"{rules.first_click}, start {start}, seed {spec.seed}, "
        f"{spec.total_games} games planned"
    )
    print_results(console(), data)
