"""What the study scripts share: runs found again in the store, progress, the machine.

Every study plays its games as stored runs (``minesolver.bench``).  A run is looked
up by its exact spec, so running a study again resumes its runs where they stopped
(or only reads them when they are complete) instead of starting new ones.
Progress goes to stderr, one line every few seconds; figures go to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from minesolver import __version__
from minesolver.bench import RunSpec, Store, pending_jobs, run_jobs, run_results
from minesolver.bench.store import GameRow
from minesolver.bench.sweep import sweep_table
from minesolver.errors import MinesolverError
from minesolver.files import atomic_write, check_writable

# the options every benchmark script words alike: benchmarks/script_args.py, one folder up
sys.path.append(str(Path(__file__).resolve().parent.parent))  # after the libraries
from script_args import at_least, script_parser

__all__ = [
    "Progress", "at_least", "check_outputs", "find_run", "load_json", "machine", "pct", "play",
    "results", "run_study", "save_json", "size_of", "study_parser", "sweep_rows", "table",
]


def study_parser(doc: str | None) -> argparse.ArgumentParser:
    """A study's parser: described by its docstring's first paragraph, with ``--db``
    (every study keeps its games in a store) and defaults shown in ``--help``."""
    parser = script_parser(doc)
    parser.add_argument("--db", default="studies.sqlite",
                        help="the store the games are kept in (and found again in)")
    return parser


def run_study(main: Callable[[], None]) -> None:
    """Run a study's ``main``: what the user gave that cannot be used (a board, a path, a
    count) is one line on stderr and exit status 2, Ctrl-C one line and 130; a study
    resumes from its store, so both can simply be run again."""
    name = Path(sys.argv[0]).name
    try:
        main()
    except KeyboardInterrupt:
        print(f"{name}: interrupted (run it again to go on)", file=sys.stderr)
        sys.exit(130)
    except (MinesolverError, OSError, ValueError) as exc:
        said = str(exc)
        if isinstance(exc, OSError) and exc.strerror:  # not "[Errno 2] ..."
            said = f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
        print(f"{name}: error: {' '.join(said.split())}", file=sys.stderr)
        sys.exit(2)


def size_of(text: str) -> tuple[int, int]:
    """``WxH`` as ``(width, height)``; ValueError (one line) if it is not one."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(part.strip().isdecimal() for part in parts):
        raise ValueError(f"cannot read size {text!r}: expected WxH like 30x16")
    width, height = (int(part) for part in parts)
    return width, height


def check_outputs(files: Sequence[str | None] = (), folders: Sequence[str] = ()) -> None:
    """Refuse now, before any game, output files and folders that could not be written
    at the end (the games would be played, then their figures lost)."""
    check_writable(*files)
    for folder in folders:
        path = Path(folder)
        if not path.is_dir():
            raise NotADirectoryError(f"{folder}: no such folder for the plots (give --out)")
        if not os.access(path, os.W_OK | os.X_OK):
            raise PermissionError(f"{folder}: the folder for the plots cannot be written")


class Progress:
    """A line on stderr every ``every`` seconds: games done, rate, time left."""

    def __init__(self, label: str, total: int, done: int, every: float = 10.0) -> None:
        self.label, self.total, self.done, self.every = label, total, done, every
        self.start = self.last = time.monotonic()
        self.first = done

    def tick(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.last >= self.every or self.done == self.total:
            self.last = now
            rate = (self.done - self.first) / max(now - self.start, 1e-9)
            left = (self.total - self.done) / rate if rate else float("inf")
            print(f"[{self.label}] {self.done}/{self.total} games, {now - self.start:.0f} s, "
                  f"about {left:.0f} s left", file=sys.stderr, flush=True)


def find_run(store: Store, kind: str, spec: RunSpec) -> str:
    """The stored run of this kind with exactly this spec, or a new one."""
    wanted = spec.to_json()
    for run_id, stored_kind, _, stored in store.runs():
        if stored_kind == kind and stored.to_json() == wanted:
            return run_id
    return store.new_run(kind, spec, __version__)


def play(store: Store, kind: str, spec: RunSpec, *, workers: int, label: str) -> str:
    """Play what is missing of the run ``spec`` (resuming it) and return its id."""
    run_id = find_run(store, kind, spec)
    done = {(r.strategy, r.game_index) for r in store.games(run_id)}
    jobs = pending_jobs(spec, done)
    total = spec.total_games * len(spec.strategies)
    progress = Progress(label, total, total - len(jobs))
    if jobs:

        def on_game(_: GameRow) -> None:
            progress.tick()

        run_jobs(spec, run_id, store, jobs, workers=workers, on_game=on_game)
    return run_id


def results(store: Store, run_id: str, spec: RunSpec) -> dict[str, dict[str, Any]]:
    """Each strategy's summary of a bench run, by strategy name."""
    return {s["strategy"]: s for s in run_results(store, run_id, spec)["results"]}


def sweep_rows(store: Store, run_id: str, spec: RunSpec) -> list[dict[str, Any]]:
    """The sweep table of a run (one row per strategy and point)."""
    return sweep_table(spec, store.games(run_id))


def machine() -> str:
    """Date, CPUs, Python and the load average, for the record of every figure."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} CPUs; "
            f"Python {platform.python_version()}; load average {load}; minesolver {__version__}")


def save_json(path: str | Path, data: object) -> None:
    """Write ``data`` as JSON, whole or not at all."""
    with atomic_write(path) as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
        handle.write("\n")


def load_json(path: str | Path) -> Any:
    """What :func:`save_json` wrote, or ``None`` when there is no such file."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def pct(x: float | None, digits: int = 1) -> str:
    """``0.1234`` -> ``12.3%`` (``None`` -> ``-``)."""
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (what docs/studies.md shows)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)
