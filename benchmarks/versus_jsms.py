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
../shared/peers/README.md says and give its checkout with ``--jsms``.  Without node, the
harness or the checkout the benchmark says so and stops, before any game is played.

One ``--out`` folder may hold many runs: each run's files are named by its board, first
click, seed and game count (``layouts_KEY.jsonl``, JSMinesweeper's ``jsms_KEY.jsonl`` and
``jsms_KEY.meta.json``: the SHA-256 of the layouts it played, its commit, its stuck
games), and ``minesolver.sqlite`` keeps minesolver's games of every run (a killed run
resumes; the table says how many games came from the store).  ``--jsms-results FILE``
reuses an earlier harness output, refused when it does not hold every game of the run or
its meta file names other boards.  Both sides' times come from the same run on the same
machine; say what else was running.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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
    at_least,
    jsms_missing,
    parse_board_args,
    script_parser,
)

from minesolver import __version__
from minesolver.bench import RunSpec, Store, layout_of, pending_jobs, run_jobs
from minesolver.bench.stats import mcnemar, wilson
from minesolver.errors import InputError, cause_of
from minesolver.files import atomic_write
from minesolver.formats import layout_line
from minesolver.play import parse_start, start_cell
from minesolver.rules import Rules

HARNESS_START = {"safe": "safe", "opening": "zero"}


HARNESS_MAX_SIDE = 255  # the harness keeps a board's side in a byte


class Refused(Exception):
    """What the user gave cannot be used: one line, exit status 2."""


def parse_args() -> argparse.Namespace:
    parser = script_parser(__doc__)
    add_board(parser, first_click=True, choices=list(HARNESS_START))
    add_strategy(parser)
    add_games(parser, games=2000, seed=20261123)
    parser.add_argument("--workers", type=at_least(1), default=1, help="minesolver processes")
    parser.add_argument("--jsms-workers", type=at_least(1), default=1,
                        help="harness processes")
    add_jsms(parser)
    parser.add_argument("--jsms-results", default=None,
                        help="per-game output of an earlier harness run on the same layouts")
    parser.add_argument("--out", default="versus-jsms", help="folder for layouts and results")
    parser.add_argument("--json", action="store_true", help="print the table as JSON too")
    opts = parse_board_args(parser)
    try:
        rules = Rules.from_string(opts.rules, first_click=opts.first_click)
        opts.start_cell = start_cell(rules, parse_start(opts.start))
    except InputError as error:
        parser.error(f"argument --start: {error}")
    if max(rules.width, rules.height) > HARNESS_MAX_SIDE and not opts.jsms_results:
        parser.error(f"argument --rules: the harness plays boards of at most "
                     f"{HARNESS_MAX_SIDE} rows and columns")
    return opts


def run_key(rules: Rules, cell: tuple[int, int], seed: int, games: int) -> str:
    """The name of a run's files: its board, first click, seed and game count.

    >>> run_key(Rules(30, 16, 99), (0, 0), 7, 50)
    '30x16x99_safe_0-0_s7_n50'
    """
    row, col = cell
    return (f"{rules.width}x{rules.height}x{rules.mines}_{rules.first_click}_{row}-{col}"
            f"_s{seed}_n{games}")


def layouts_text(spec: RunSpec) -> tuple[str, str]:
    """The run's boards as a layout file, and its SHA-256 (written afresh by every run,
    so a folder reused by another run never hands over its boards)."""
    text = "".join(layout_line(layout_of(spec, index)) for index in range(spec.total_games))
    return text, hashlib.sha256(text.encode()).hexdigest()


def play_ours(spec: RunSpec, store_path: Path, workers: int) -> dict[int, tuple[bool, float]]:
    """Play (or resume) minesolver's side; ``{game index: (won, ms)}``."""
    store = Store(store_path)
    runs = [run_id for run_id, kind, _, stored in store.runs() if stored == spec]
    run_id = runs[0] if runs else store.new_run("bench", spec, __version__)
    done = {(row.strategy, row.game_index) for row in store.games(run_id)}
    jobs = pending_jobs(spec, done)
    if done:
        print(f"minesolver: {len(done)} of {spec.total_games} games from the store "
              f"({store_path}, run {run_id}): played before, by the code of then",
              file=sys.stderr)
    if jobs:
        print(f"minesolver: playing {len(jobs)} games", file=sys.stderr)
        counter = [len(done)]

        def progress(_: object) -> None:
            counter[0] += 1
            if counter[0] % 200 == 0:
                print(f"  minesolver {counter[0]}/{spec.total_games}", file=sys.stderr)

        run_jobs(spec, run_id, store, jobs, workers=workers, on_game=progress)
    return {row.game_index: (row.won, row.seconds * 1000) for row in store.games(run_id)}


def play_jsms(opts: argparse.Namespace, layouts: Path, digest: str, rules: Rules,
              cell: tuple[int, int], out: Path, key: str) -> Path:
    """Run the harness on the layout file (split over ``--jsms-workers`` processes) and
    write its per-game results and their meta file; every harness process is stopped
    if the run fails or is interrupted."""
    lines = layouts.read_text().splitlines(keepends=True)
    parts = min(opts.jsms_workers, len(lines))
    size = -(-len(lines) // parts)
    procs: list[subprocess.Popen[str]] = []
    outputs = []
    env = {**os.environ, "JSMS_DIR": str(Path(opts.jsms).resolve())}
    try:
        for k in range(parts):
            chunk = out / f"layouts_{key}.part{k}.jsonl"
            chunk.write_text("".join(lines[k * size:(k + 1) * size]))
            games_out = out / f"jsms_{key}.part{k}.jsonl"
            outputs.append((k * size, games_out))
            command = [
                "node", str(opts.harness), "bulk", "--width", str(rules.width),
                "--height", str(rules.height), "--mines", str(rules.mines),
                "--start", HARNESS_START[rules.first_click], "--first", f"{cell[1]},{cell[0]}",
                "--layouts", str(chunk), "--always-tiebreak", "--games-out", str(games_out),
                "--progress", "200",
            ]
            procs.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True))
        summaries = []
        for proc in procs:
            said, _ = proc.communicate()
            if proc.returncode != 0:
                raise Refused(f"the harness failed (exit {proc.returncode}): its error is above")
            summaries.append(_summary(said))
    finally:
        for proc in procs:  # a failed part, or Ctrl-C: leave no harness running
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    broken = sum(int(s.get("first_click_on_mine", 0)) for s in summaries)
    if broken:
        raise Refused(f"the harness found a mine under the first click on {broken} boards: "
                      f"{layouts} does not keep the {rules.first_click} first-click rule")
    merged = out / f"jsms_{key}.jsonl"
    with atomic_write(merged) as handle:
        for offset, path in outputs:
            for line in path.read_text().splitlines():
                record = json.loads(line)
                record["i"] += offset
                handle.write(json.dumps(record) + "\n")
    stuck = sum(int(s.get("stuck_games", 0)) for s in summaries)
    meta = {"layouts": layouts.name, "layouts_sha256": digest, "games": len(lines),
            "jsms_commit": summaries[0].get("jsms_commit") if summaries else None,
            "stuck_games": stuck}
    with atomic_write(_meta_path(merged)) as handle:
        json.dump(meta, handle, indent=1)
    if stuck:
        print(f"versus_jsms: JSMinesweeper got stuck in {stuck} games (counted as lost)",
              file=sys.stderr)
    return merged


def _summary(said: str) -> dict[str, Any]:
    """The harness's closing JSON summary (its stdout), or ``{}``."""
    try:
        data = json.loads(said)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _meta_path(results: Path) -> Path:
    return results.with_name(results.name.removesuffix(".jsonl") + ".meta.json")


def read_jsms(path: Path, games: int, digest: str | None = None) -> dict[int, tuple[bool, float]]:
    """JSMinesweeper's per-game results: one record per game of the run, ``{i, result,
    ms}``; refused when a game is missing or the meta file beside them (when there is
    one) names other boards than the run's (SHA-256 ``digest``)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise Refused(f"cannot read {path}: {reason}") from None
    out: dict[int, tuple[bool, float]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            index, won, ms = int(record["i"]), record["result"] == "won", float(record["ms"])
        except (ValueError, KeyError, TypeError):
            raise Refused(f"{path}: line {number} is not a harness game record "
                          "({\"i\", \"result\", \"ms\"})") from None
        if not 0 <= index < games or index in out:
            raise Refused(f"{path}: line {number}: game {index} is not one of the run's "
                          f"{games}, or comes twice")
        out[index] = (won, ms)
    if len(out) != games:
        raise Refused(f"{path} holds {len(out)} of the run's {games} games: were they played "
                      "on its boards?")
    meta = _meta_path(path)
    if digest is not None and meta.is_file():
        played = json.loads(meta.read_text()).get("layouts_sha256")
        if played != digest:
            raise Refused(f"{path} was played on other boards than this run's "
                          f"({meta} names them)")
    elif digest is not None:
        print(f"versus_jsms: no {meta.name} beside {path}: cannot check its games were "
              "played on this run's boards", file=sys.stderr)
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
    cell = opts.start_cell
    spec = RunSpec(points=(rules,), strategies=(opts.strategy,), games=opts.games,
                   seed=opts.seed, start=start)
    missing = None if opts.jsms_results else jsms_missing(opts)
    if missing:  # said before any game is played
        raise Refused(missing)
    out = Path(opts.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise Refused(f"--out {out}: cannot make the folder: {error.strerror}") from None
    key = run_key(rules, cell, opts.seed, opts.games)
    layouts = out / f"layouts_{key}.jsonl"
    text, digest = layouts_text(spec)
    if opts.jsms_results:  # checked before minesolver plays: a wrong file wastes nothing
        theirs = read_jsms(Path(opts.jsms_results), opts.games, digest)
    with atomic_write(layouts) as handle:
        handle.write(text)
    started = time.perf_counter()
    ours = play_ours(spec, out / "minesolver.sqlite", opts.workers)
    ours_wall = time.perf_counter() - started
    if opts.jsms_results:
        jsms_wall = None
        results = Path(opts.jsms_results)
    else:
        started = time.perf_counter()
        results = play_jsms(opts, layouts, digest, rules, cell, out, key)
        theirs = read_jsms(results, opts.games, digest)
        jsms_wall = time.perf_counter() - started
    meta = _meta_path(results)
    commit = json.loads(meta.read_text()).get("jsms_commit") if meta.is_file() else None
    result = table(ours, theirs, opts.games)
    result.update({"strategy": opts.strategy, "rules": str(rules),
                   "first_click": rules.first_click, "start": list(cell), "seed": opts.seed,
                   "minesolver_wall_s": ours_wall, "jsms_wall_s": jsms_wall,
                   "jsms_commit": commit})
    r = result
    print(f"{r['strategy']} vs JSMinesweeper ({(commit or 'commit not recorded')[:10]}), "
          f"{r['rules']} first click {r['first_click']} at {tuple(cell)}, seed {r['seed']}, "
          f"{r['games']} paired boards")
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
              f"{r['minesolver_ms_median'] / r['jsms_ms_median']:.3f} (minesolver "
              f"{opts.workers} worker{'s' * (opts.workers > 1)}, JSMinesweeper "
              f"{opts.jsms_workers} process{'es' * (opts.jsms_workers > 1)}, on "
              f"{os.cpu_count()} CPUs)")
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
    try:
        main()
    except Refused as error:
        print(f"versus_jsms: {error}", file=sys.stderr)
        sys.exit(2)
    except BaseException as error:
        if cause_of(error, KeyboardInterrupt) is None:
            raise
        print("versus_jsms: interrupted: minesolver's games so far are stored, and the same "
              "command goes on from them", file=sys.stderr)
        sys.exit(130)
