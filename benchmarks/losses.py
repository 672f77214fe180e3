"""Where a strategy loses: the kind and the risk of the move that lost each game.

Plays seeded games with an observer and tabulates, over the lost games, the reason of
the fatal move (guess, forced 50/50, endgame search, first click) and its mine risk by
decile, plus how many risky moves the lost games took.

    python benchmarks/losses.py --rules expert --first-click opening --start 3,3 \
        --games 600 --seed 11
    python benchmarks/losses.py --rules beginner --games 3000 --seed 2026

With ``--versus DIR`` (the output folder of ``benchmarks/versus_jsms.py``) it says instead
where ``best`` and JSMinesweeper part ways on the games only one of them won: each such
game is replayed with minesolver's strategy (the same seeded board and choices as in the
paired run), and at each of its guesses JSMinesweeper's analyser is asked for its move on
the very same position (the harness's ``probs --move``: the analyser's "Analyse" move,
whose exact search reaches 5,000 solutions where JSMinesweeper's play stops at 1,000, so
in such endgames it is stronger than the player whose games are compared).  The first
guess where the two pick cells of different exact risk is *the* disagreement of that
game; the table says on what kind of move it came, which side took the lower exact risk
there (by minesolver's exact engine), and who went on to win.  Picks of equal risk (two
corner cells, say) are counted as ties and the search goes on.  The questions go to one
node process per worker (``benchmarks/jsms_ask.js``, which runs the harness's ``probs
--move`` with JSMinesweeper loaded once).

    python benchmarks/losses.py --versus /work/runs/vs_safe --max-games 100 \
        --harness ../shared/peers/jsms_harness.js --jsms /work/peers/JSMinesweeper
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import select
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    add_jsms,
    add_strategy,
    jsms_missing,
    parse_board_args,
    script_parser,
)

from minesolver.bench import RunSpec, Store
from minesolver.codes import COVERED, FLAG, is_number
from minesolver.play import Step, parse_start, play_game, start_cell
from minesolver.position import Position
from minesolver.rng import derive_seed
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

Risky = list[tuple[str, float]]


def one_game(args: tuple[str, str, str, str, int, int]) -> tuple[bool, Risky]:
    rules_text, first_click, start, strategy, seed, index = args
    rules = Rules.from_string(rules_text, first_click=first_click)  # type: ignore[arg-type]
    risky: Risky = []

    def observe(step: Step) -> None:
        for move in step.moves:
            if move.reason != "deduction":
                risky.append((move.reason, move.probability or 0.0))

    record = play_game(rules, find_strategy(strategy), seed=derive_seed(seed, index),
                       start=parse_start(start), observer=observe)
    return record.won, risky


@dataclass
class Disagreement:
    """The first guess of a game where the two sides pick cells of different risk."""

    kind: str  # minesolver's reason: guess, endgame, forced
    ours: float  # exact mine risk of minesolver's pick
    theirs: float  # exact mine risk of JSMinesweeper's pick (minesolver's engine)
    ties: int  # earlier guesses where the picks differed at equal risk


def harness_text(position: Position) -> str:
    """A position as the harness reads it: ``W H M``, then ``?`` / ``F`` / digits."""
    rows = []
    for r in range(position.height):
        row = position.cells[r * position.width:(r + 1) * position.width]
        rows.append("".join(str(c) if is_number(c) else "F" if c == FLAG else "?"
                            for c in row))
    return f"{position.width} {position.height} {position.mines}\n" + "\n".join(rows) + "\n"


class Analyser:
    """JSMinesweeper's analyser in one node process (``benchmarks/jsms_ask.js``, the
    harness's ``probs --move`` without loading JSMinesweeper again for each question),
    restarted after a question it leaves unanswered."""

    def __init__(self, harness: str, jsms: str) -> None:
        self.command = ["node", str(Path(__file__).with_name("jsms_ask.js")), harness]
        self.env = {**os.environ, "JSMS_DIR": str(Path(jsms).resolve())}
        self.process: subprocess.Popen[str] | None = None

    def ask(self, position: Position, timeout: float) -> dict[str, object] | None:
        """The harness's answer on ``position``; ``None`` after ``timeout`` seconds."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, env=self.env)
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(harness_text(position))
        try:
            process.stdin.write(handle.name + "\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], timeout)
            if not ready:
                process.kill()
                process.wait()
                return None
            line = process.stdout.readline()
        finally:
            os.unlink(handle.name)
        if not line.strip():
            sys.exit("losses: the harness failed (its error is above)")
        answer: dict[str, object] = json.loads(line)
        return answer


_analysers: dict[tuple[int, str, str], Analyser] = {}


def jsms_move(
    position: Position, opts: argparse.Namespace, timeout: float = 600
) -> tuple[int, int] | None:
    """JSMinesweeper's analyser's move on ``position`` as ``(row, col)``; ``None``
    when it has none, or takes more than ``timeout`` seconds (said on stderr).  Each
    process keeps one analyser."""
    key = (os.getpid(), opts.harness, opts.jsms)
    analyser = _analysers.setdefault(key, Analyser(opts.harness, opts.jsms))
    answer = analyser.ask(position, timeout)
    if answer is None:
        print(f"losses: JSMinesweeper took over {timeout:.0f} s on a position; skipped",
              file=sys.stderr)
        return None
    move = answer.get("move")
    if not isinstance(move, dict):
        return None
    return int(move["y"]), int(move["x"])


def first_disagreement(spec: RunSpec, index: int, strategy: str,
                       opts: argparse.Namespace) -> Disagreement | None:
    """Replay game ``index`` of the paired run, asking JSMinesweeper at each guess."""
    guesses: list[tuple[Position, tuple[int, int], str, float, object]] = []

    def observe(step: Step) -> None:
        for move in step.moves:
            if move.reason in ("guess", "endgame", "forced") and step.analysis is not None:
                guesses.append((step.position, move.cell, move.reason,
                                move.probability or 0.0, step.analysis))
                return

    rules = spec.rules_for(index)
    play_game(rules, find_strategy(strategy), seed=derive_seed(spec.seed, index),
              start=spec.start or "corner", observer=observe)
    ties = 0
    for position, cell, kind, risk, analysis in guesses:
        theirs = jsms_move(position, opts)
        if theirs is None or theirs == cell:
            continue
        if position.cells[theirs[0] * position.width + theirs[1]] != COVERED:
            continue
        their_risk = float(analysis.prob[theirs])  # type: ignore[attr-defined]
        if abs(their_risk - risk) < 1e-9:
            ties += 1
            continue
        return Disagreement(kind, risk, their_risk, ties)
    return None


_RUN_NAME = re.compile(
    r"layouts_(?:(\d+)x(\d+)x(\d+)_(\w+?)_(\d+)-(\d+)_)?s(-?\d+)_n(\d+)\.jsonl"
)


@dataclass(frozen=True)
class VersusRun:
    """One run of a ``versus_jsms.py`` folder: its boards' file, JSMinesweeper's results
    and what the store's run must match (``rules`` and ``cell`` are ``None`` in the
    folders of older versions, which named runs by seed and game count only)."""

    layouts: Path
    results: Path
    seed: int
    games: int
    rules: Rules | None
    cell: tuple[int, int] | None


def versus_runs(folder: Path) -> list[VersusRun]:
    """The runs of a ``versus_jsms.py`` output folder."""
    runs = []
    for path in sorted(folder.glob("layouts_*.jsonl")):
        match = _RUN_NAME.fullmatch(path.name)
        if match is None:
            continue  # a part file
        width, height, mines, first, row, col, seed, games = match.groups()
        if width is None:  # the older naming: one run per folder, results in jsms.jsonl
            runs.append(VersusRun(path, folder / "jsms.jsonl", int(seed), int(games), None, None))
            continue
        rules = Rules(int(width), int(height), int(mines), first_click=first)  # type: ignore[arg-type]
        key = path.name.removeprefix("layouts_").removesuffix(".jsonl")
        runs.append(VersusRun(path, folder / f"jsms_{key}.jsonl", int(seed), int(games), rules,
                              (int(row), int(col))))
    return [run for run in runs if run.results.is_file()]  # runs JSMinesweeper played


def pick_run(runs: list[VersusRun], opts: argparse.Namespace) -> VersusRun:
    """The one run of the folder, or the one the board options name among several."""
    if len(runs) == 1:
        return runs[0]
    rules = Rules.from_string(opts.rules, first_click=opts.first_click)
    cell = start_cell(rules, parse_start(opts.start))
    named = [r for r in runs if (r.rules, r.cell, r.seed, r.games) == (rules, cell, opts.seed,
                                                                       opts.games)]
    if len(named) == 1:
        return named[0]
    keys = ", ".join(r.layouts.name.removeprefix("layouts_").removesuffix(".jsonl") for r in runs)
    raise SystemExit(f"losses: {opts.versus} holds {len(runs)} runs ({keys}): name one with "
                     "--rules, --first-click, --start, --seed and --games")


def versus(opts: argparse.Namespace) -> None:
    folder = Path(opts.versus)
    runs = versus_runs(folder)
    if not runs or not (folder / "minesolver.sqlite").exists():
        sys.exit(f"losses: {folder} is not an output folder of benchmarks/versus_jsms.py")
    missing = jsms_missing(opts)
    if missing:
        sys.exit(f"losses: {missing}")
    run = pick_run(runs, opts)
    store = Store(folder / "minesolver.sqlite", create=False, readonly=True)
    found = [(rid, spec) for rid, _, _, spec in store.runs()
             if spec.seed == run.seed and spec.games == run.games
             and opts.strategy in spec.strategies
             and (run.rules is None or spec.points == (run.rules,))
             and (run.cell is None or start_cell(spec.rules_for(0), spec.start or "corner")
                  == run.cell)]
    if not found:
        sys.exit(f"losses: no run of {opts.strategy} on the boards of {run.layouts.name} "
                 f"in {folder}")
    run_id, spec = found[0]
    ours = {row.game_index: row.won for row in store.games(run_id, opts.strategy)}
    theirs = {}
    for line in Path(opts.jsms_results or run.results).read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            theirs[int(record["i"])] = record["result"] == "won"
    sides = {
        "won only by minesolver": [i for i in sorted(ours) if ours[i] and not theirs.get(i, True)],
        "won only by JSMinesweeper": [i for i in sorted(ours)
                                      if not ours[i] and theirs.get(i, False)],
    }
    print(f"{opts.strategy} vs JSMinesweeper, {spec.rules_for(0)} seed {run.seed}: "
          + ", ".join(f"{len(v)} {k}" for k, v in sides.items()))
    for name, indices in sides.items():
        sample = indices[: opts.max_games]
        found_d: list[Disagreement] = []
        for n, index in enumerate(sample, 1):
            got = first_disagreement(spec, index, opts.strategy, opts)
            if got is not None:
                found_d.append(got)
            if n % 10 == 0:
                print(f"  {name}: {n}/{len(sample)} games replayed", file=sys.stderr)
        kinds = collections.Counter(d.kind for d in found_d)
        ours_safer = sum(1 for d in found_d if d.ours < d.theirs)
        mean_ours = sum(d.ours for d in found_d) / max(1, len(found_d))
        mean_theirs = sum(d.theirs for d in found_d) / max(1, len(found_d))
        print(f"\n{name}: {len(sample)} games replayed")
        print(f"  a disagreement of different risk: {len(found_d)} "
              f"(none in {len(sample) - len(found_d)}: same picks, or equal-risk ties only)")
        print(f"  on a move of kind: {dict(kinds.most_common())}")
        print(f"  minesolver took the lower risk there: {ours_safer}, "
              f"JSMinesweeper: {len(found_d) - ours_safer}")
        print(f"  mean exact risk at the disagreement: minesolver {mean_ours:.3f}, "
              f"JSMinesweeper {mean_theirs:.3f}; equal-risk ties before it: "
              f"{sum(d.ties for d in found_d)}")


def main() -> None:
    parser = script_parser(__doc__)
    add_board(parser, first_click=True)
    add_strategy(parser)
    add_games(parser, games=600, seed=11)
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--versus", default=None, help="a benchmarks/versus_jsms.py folder")
    parser.add_argument("--jsms-results", default=None, help="the harness's per-game file")
    parser.add_argument("--max-games", type=int, default=100, help="games per side (--versus)")
    add_jsms(parser)
    opts = parse_board_args(parser)
    if opts.versus:
        versus(opts)
        return
    jobs = [(opts.rules, opts.first_click, opts.start, opts.strategy, opts.seed, i)
            for i in range(opts.games)]
    with get_context("fork").Pool(opts.workers) as pool:
        results = pool.map(one_game, jobs, chunksize=5)
    lost = [risky for won, risky in results if not won]
    print(f"{opts.strategy} on {opts.rules}, first click {opts.first_click} at {opts.start}, "
          f"seed {opts.seed}: won {len(results) - len(lost)} of {len(results)}")
    kinds = collections.Counter(risky[-1][0] for risky in lost)
    print("lost on a move of kind:", dict(kinds.most_common()))
    deciles = collections.Counter(min(int(risky[-1][1] * 10), 9) for risky in lost)
    print("risk of the losing move:",
          ", ".join(f"{10 * d}-{10 * d + 10}%: {n}" for d, n in sorted(deciles.items())))
    taken = collections.Counter(min(len(risky), 6) for risky in lost)
    print("risky moves in lost games (first click included; 6 = 6 or more):",
          dict(sorted(taken.items())))


if __name__ == "__main__":
    main()
