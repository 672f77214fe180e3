"""A minesolver strategy against JSMinesweeper, on the very same boards.

Draws N seeded boards with minesolver's generator, writes them as a layout file, has
minesolver play them (stored in a SQLite file, so a killed run resumes) and has
JSMinesweeper's own solver play them through the headless harness in ../shared/peers
(``--always-tiebreak``: it plays as on an idle machine), then prints the paired table:
wins of each side, games won by one side only, the difference with its 95% interval,
McNemar's exact p, and the median and mean milliseconds per game of each side; with a
safe first click, the one-side wins and McNemar's p again on the boards where that click
opened an area and on those where it showed a number.

    python benchmarks/versus_jsms.py --games 2000 --seed 20261123 \\
        --harness ../shared/peers/jsms_harness.js --jsms /work/peers/JSMinesweeper
    python benchmarks/versus_jsms.py --first-click opening --start 3,3 --games 3000 ...

JSMinesweeper is not part of minesolver (nor is its code copied here): fetch it as
../shared/peers/README.md says and give its checkout with ``--jsms``.  Without the
harness or the checkout the benchmark says so and stops.  ``--jsms-results FILE`` reuses
the per-game output (``--games-out``) of an earlier harness run on the same layout file.
Both sides' times come from the same run on the same machine; say what else was running.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    add_jsms,
    add_strategy,
    parse_board_args,
    script_parser,
)

from minesolver import __version__
from minesolver.bench import RunSpec, Store, layout_of, pending_jobs, run_jobs
from minesolver.bench.stats import mcnemar, wilson
from minesolver.formats import layout_line
from minesolver.play import parse_start, start_cell
from minesolver.rules import Rules

HARNESS_START = {"safe": "safe", "opening": "zero"}


def parse_args() -> argparse.Namespace:
    parser = script_parser(__doc__)
    add_board(parser, first_click=True, choices=list(HARNESS_START))
    add_strategy(parser)
    add_games(parser, games=2000, seed=20261123)
    parser.add_argument("--workers", type=int, default=1, help="minesolver processes")
    parser.add_argument("--jsms-workers", type=int, default=1, help="harness processes")
    add_jsms(parser)
    parser.add_argument("--jsms-results", default=None,
                        help="per-game output of an earlier harness run on the same layouts")
    parser.add_argument("--out", default="versus-jsms", help="folder for layouts and results")
    parser.add_argument("--json", action="store_true", help="print the table as JSON too")
    return parse_board_args(parser)


def write_layouts(spec: RunSpec, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(spec.total_games):
            handle.write(layout_line(layout_of(spec, index)))


def play_ours(spec: RunSpec, store_path: Path, workers: int) -> dict[int, tuple[bool, float]]:
    """Play (or resume) minesolver's side; ``{game index: (won, ms)}``."""
    store = Store(store_path)
    runs = [run_id for run_id, kind, _, stored in store.runs() if stored == spec]
    run_id = runs[0] if runs else store.new_run("bench", spec, __version__)
    done = {(row.strategy, row.game_index) for row in store.games(run_id)}
    jobs = pending_jobs(spec, done)
    if jobs:
        print(f"minesolver: playing {len(jobs)} games ({len(done)} stored)", file=sys.stderr)
        counter = [len(done)]

        def progress(_: object) -> None:
            counter[0] += 1
            if counter[0] % 200 == 0:
                print(f"  minesolver {counter[0]}/{spec.total_games}", file=sys.stderr)

        run_jobs(spec, run_id, store, jobs, workers=workers, on_game=progress)
    return {row.game_index: (row.won, row.seconds * 1000) for row in store.games(run_id)}


def play_jsms(opts: argparse.Namespace, layouts: Path, rules: Rules,
              cell: tuple[int, int], out: Path) -> Path:
    """Run the harness on the layout file (split over ``--jsms-workers`` processes)."""
    harness = Path(opts.harness)
    checkout = Path(opts.jsms)
    if shutil.which("node") is None:
        sys.exit("versus_jsms: node is not installed: JSMinesweeper cannot run here")
    if not harness.is_file():
        sys.exit(f"versus_jsms: no harness at {harness} (see ../shared/peers/README.md)")
    if not (checkout / "Minesweeper" / "client" / "solver_main.js").is_file():
        sys.exit(f"versus_jsms: no JSMinesweeper checkout at {checkout} "
                 "(fetch it as ../shared/peers/README.md says, then give --jsms)")
    lines = layouts.read_text().splitlines(keepends=True)
    parts = max(1, opts.jsms_workers)
    size = -(-len(lines) // parts)
    procs = []
    outputs = []
    for k in range(parts):
        chunk = out / f"layouts.part{k}.jsonl"
        chunk.write_text("".join(lines[k * size:(k + 1) * size]))
        games_out = out / f"jsms.part{k}.jsonl"
        outputs.append((k * size, games_out))
        command = [
            "node", str(harness), "bulk", "--width", str(rules.width),
            "--height", str(rules.height), "--mines", str(rules.mines),
            "--start", HARNESS_START[rules.first_click], "--first", f"{cell[1]},{cell[0]}",
            "--layouts", str(chunk), "--always-tiebreak", "--games-out", str(games_out),
            "--progress", "200",
        ]
        env = {**os.environ, "JSMS_DIR": str(checkout.resolve())}
        procs.append(subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL))
    for proc in procs:
        if proc.wait() != 0:
            sys.exit(f"versus_jsms: the harness failed (exit {proc.returncode})")
    merged = out / "jsms.jsonl"
    with open(merged, "w", encoding="utf-8") as handle:
        for offset, path in outputs:
            for line in path.read_text().splitlines():
                record = json.loads(line)
                record["i"] += offset
                handle.write(json.dumps(record) + "\n")
    return merged


def read_jsms(path: Path) -> dict[int, tuple[bool, float]]:
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            out[int(record["i"])] = (record["result"] == "won", float(record["ms"]))
    return out


def opened_first(layouts: Path, rules: Rules, cell: tuple[int, int]) -> list[bool]:
    """For each board of the layout file: did the first click at ``cell`` open an area
    (no mine on it or around it)?"""
    row, col = cell
    around = {r * rules.width + c
              for r in range(max(row - 1, 0), min(row + 2, rules.height))
              for c in range(max(col - 1, 0), min(col + 2, rules.width))}
    out = []
    for line in layouts.read_text().splitlines():
        if line.strip():
            out.append(around.isdisjoint(json.loads(line)["mines"]))
    return out


def table(ours: dict[int, tuple[bool, float]], theirs: dict[int, tuple[bool, float]],
          games: int, boards: list[int] | None = None) -> dict[str, Any]:
    """The paired figures over the boards played by both sides (of ``boards`` only,
    when given)."""
    both = [i for i in (range(games) if boards is None else boards) if i in ours and i in theirs]
    a = [ours[i][0] for i in both]
    b = [theirs[i][0] for i in both]
    a_only = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    b_only = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    test = mcnemar(a_only, b_only, len(both))
    ms_a = [ours[i][1] for i in both]
    ms_b = [theirs[i][1] for i in both]
    return {
        "games": len(both),
        "minesolver_wins": sum(a),
        "jsms_wins": sum(b),
        "minesolver_ci95": wilson(sum(a), len(both)),
        "jsms_ci95": wilson(sum(b), len(both)),
        "only_minesolver": a_only,
        "only_jsms": b_only,
        "diff": test.diff,
        "diff_ci95": test.ci95,
        "mcnemar_p": test.p_value,
        "minesolver_ms_median": statistics.median(ms_a) if ms_a else 0.0,
        "minesolver_ms_mean": statistics.fmean(ms_a) if ms_a else 0.0,
        "jsms_ms_median": statistics.median(ms_b) if ms_b else 0.0,
        "jsms_ms_mean": statistics.fmean(ms_b) if ms_b else 0.0,
    }


def main() -> None:
    opts = parse_args()
    rules = Rules.from_string(opts.rules, first_click=opts.first_click)
    start = parse_start(opts.start)
    cell = start_cell(rules, start)
    spec = RunSpec(points=(rules,), strategies=(opts.strategy,), games=opts.games,
                   seed=opts.seed, start=start)
    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    layouts = out / f"layouts_s{opts.seed}_n{opts.games}.jsonl"
    if not layouts.exists():
        write_layouts(spec, layouts)
    started = time.perf_counter()
    ours = play_ours(spec, out / "minesolver.sqlite", opts.workers)
    ours_wall = time.perf_counter() - started
    if opts.jsms_results:
        theirs = read_jsms(Path(opts.jsms_results))
        jsms_wall = None
    else:
        started = time.perf_counter()
        theirs = read_jsms(play_jsms(opts, layouts, rules, cell, out))
        jsms_wall = time.perf_counter() - started
    result = table(ours, theirs, opts.games)
    result.update({"strategy": opts.strategy, "rules": str(rules),
                   "first_click": rules.first_click, "start": list(cell), "seed": opts.seed,
                   "minesolver_wall_s": ours_wall, "jsms_wall_s": jsms_wall})
    r = result
    print(f"{r['strategy']} vs JSMinesweeper, {r['rules']} first click {r['first_click']} at "
          f"{tuple(cell)}, seed {r['seed']}, {r['games']} paired boards")
    for side, name in (("minesolver", r["strategy"]), ("jsms", "JSMinesweeper")):
        lo, hi = r[f"{side}_ci95"]
        print(f"  {name:<14} {r[f'{side}_wins']:>6} wins  {r[f'{side}_wins'] / r['games']:.2%} "
              f"[{lo:.2%}, {hi:.2%}]   ms/game median {r[f'{side}_ms_median']:.1f} "
              f"mean {r[f'{side}_ms_mean']:.1f}")
    lo, hi = r["diff_ci95"]
    print(f"  won by one side only: {r['only_minesolver']} minesolver, {r['only_jsms']} "
          f"JSMinesweeper; difference {r['diff']:+.2%} [{lo:+.2%}, {hi:+.2%}], "
          f"McNemar p = {r['mcnemar_p']:.3g}")
    if r["jsms_ms_median"]:
        print(f"  median time per game: minesolver / JSMinesweeper = "
              f"{r['minesolver_ms_median'] / r['jsms_ms_median']:.3f}")
    if rules.first_click == "safe":  # where the first click opened an area, and where not
        opened = opened_first(layouts, rules, cell)
        result["by_first_click"] = {}
        for label, want in (("opened an area", True), ("showed a number", False)):
            part = table(ours, theirs, opts.games,
                         [i for i in range(opts.games) if opened[i] is want])
            result["by_first_click"][label] = part
            if part["games"]:
                lo, hi = part["diff_ci95"]
                print(f"  first click {label}: {part['games']} boards, won by one side only "
                      f"{part['only_minesolver']} / {part['only_jsms']}, difference "
                      f"{part['diff']:+.2%} [{lo:+.2%}, {hi:+.2%}], "
                      f"McNemar p = {part['mcnemar_p']:.3g}")
    if opts.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
