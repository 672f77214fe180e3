"""minesolver's exact probabilities against two independent engines, on the same positions.

Plays seeded games with minesolver's own strategies and keeps positions of these kinds:

- ``best``, ``random``, ``rtriv``: the positions where ``best``, ``random`` and
  ``random:deduce=trivial`` guessed (opened, not as a deduction, a cell that might hold a
  mine);
- ``flagsded``: a ``best`` guess point (half of them, drawn) with one to half of its
  provable mines flagged;
- ``flagsany``: a ``best`` guess point (half of them, drawn) with one to half of its true
  mines flagged, provable or not;
- ``lategame``: a ``best`` guess point with at most 24 covered cells not yet settled;
- ``endgame-f``, ``endgame-c``: a ``best`` game's real layout with everything open but one
  to three windows of 3x3 to 5x4 cells and the mines; the mines outside the windows
  flagged (``-f``) or left covered (``-c``): the total mine count couples the windows;
- ``opened``: a ``best`` game's real layout after 1 to 40 random safe clicks (each
  flooding as in play), with nothing else done: scattered islands of clues and the widest
  fronts here (over 100 cells),

on beginner, intermediate, expert and 20x20 boards at 10, 25 and 30 % mines, and the
dense 9x9/25 and 16x16/99.  On every
position it takes minesolver's exact probabilities (``analyze``) and compares them cell by
cell, over the covered cells without a flag, with

- ms-toollib's ``cal_probability_onboard`` (if installed), within 1e-9.  ms-toollib does
  not trust a flag the clues cannot prove: it takes the cell as covered.  So where it
  differs on a position with such a flag, it is compared again with minesolver on the same
  position with its flags covered again; the tables count the two apart ("agree" and
  "flags covered");
- JSMinesweeper's analyser (with ``--harness`` and ``--jsms``), through the shared headless
  harness (``benchmarks/jsms_ask.js --no-move``, one node process).  The harness prints
  ``floor(1e8 p) / 1e8``, so the tolerance is 1e-8.  It takes flags as mines, as minesolver
  does.

Each disagreement is printed: the position, the cells, and for a small position who is
right by minesolver's brute-force oracle (``analysis/oracle.py``).  Any disagreement, or a
position an engine does not answer, makes the exit status 1.  The tables count positions
and cells by kind and by board; the median milliseconds per position of each engine come
as a by-product (one warm call each, the engines one after the other on each position).

    python benchmarks/versus_engines.py --seed 20260611 --scale 0.05

The full run: 1,240 games, 6,822 positions, about a minute on a 2-CPU machine; ``--scale 5``
(the recorded one, a superset: the games of a smaller scale are played again) 33,932
positions in 3 minutes:

    python benchmarks/versus_engines.py --seed 20260611 --scale 1 \\
        --harness ../shared/peers/jsms_harness.js --jsms /work/peers/JSMinesweeper
"""

from __future__ import annotations

import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import IO, Literal

from losses import harness_text  # benchmarks/losses.py: the harness's position format
from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver.analysis import analyze, brute_force
from minesolver.codes import COVERED, FLAG
from minesolver.errors import MinesolverError
from minesolver.game import Game
from minesolver.play import Step, play_game
from minesolver.position import Position
from minesolver.rng import SplitMix64, derive_seed
from minesolver.rules import BEGINNER, EXPERT, INTERMEDIATE, Rules
from minesolver.strategies import find_strategy

TOOLLIB, JSMS = "ms-toollib", "JSMinesweeper"
# JSMinesweeper truncates to 8 decimals; the 1e-12 absorbs the float arithmetic around it
TOLERANCE = {TOOLLIB: 1e-9, JSMS: 1e-8 + 1e-12}
KINDS = ("best", "random", "rtriv", "flagsded", "flagsany", "lategame", "endgame-f",
         "endgame-c", "opened")
# board, its rules, games of best, random and random:deduce=trivial at --scale 1
BOARDS: tuple[tuple[str, Rules, tuple[int, int, int]], ...] = (
    ("beginner", BEGINNER, (300, 60, 40)),
    ("intermediate", INTERMEDIATE, (150, 40, 30)),
    ("expert", EXPERT, (100, 40, 30)),
    ("20x20@10%", Rules(20, 20, 40), (100, 20, 15)),
    ("20x20@25%", Rules(20, 20, 100), (40, 25, 20)),
    ("20x20@30%", Rules(20, 20, 120), (40, 25, 20)),
    ("9x9@31%", Rules(9, 9, 25), (60, 15, 10)),
    ("16x16@39%", Rules(16, 16, 99), (40, 10, 10)),
)
STRATEGIES = (("best", "best"), ("random", "random"), ("rtriv", "random:deduce=trivial"))

Grid = Sequence[Sequence[float | None]]  # per (row, col); None: no value
Status = Literal["agree", "flags covered", "disagree", "no answer"]


@dataclass(frozen=True)
class Case:
    kind: str
    board: str
    position: Position
    origin: str  # where it came from, for the printout


@dataclass(frozen=True)
class Answer:
    """An engine's probabilities for one position, its milliseconds, or why none."""

    grid: Grid | None
    ms: float | None = None
    error: str = ""


@dataclass
class Verdict:
    """One engine on one position.  ``bad``: (index, minesolver, the engine's value)."""

    status: Status
    max_diff: float = 0.0  # from minesolver on the position as given
    max_covered: float | None = None  # from minesolver with the flags covered again
    bad: list[tuple[int, Fraction, float | None]] = field(default_factory=list)
    covered_again: dict[int, Fraction] | None = None
    ms: float | None = None
    error: str = ""


@dataclass
class Checked:
    case: Case
    cells: int  # covered cells compared
    unprovable: bool  # a flag the clues cannot prove
    ms: float | None  # minesolver's analyze
    verdicts: dict[str, Verdict]
    error: str = ""  # minesolver did not answer


Ask = Callable[[Position], Answer]


class Progress:
    """A line on stderr at most every two seconds: long work shows it is alive."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self, text: str, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= 2:
            self.last = now
            print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------- positions


def endgame(rules: Rules, mines: set[int], counts: Sequence[int], rng: SplitMix64,
            flagged: bool) -> Position:
    """The layout all open but for the windows and the mines (flagged or covered)."""
    w, h = rules.width, rules.height
    inside: set[int] = set()
    for _ in range(1 + rng.below(3)):
        ww, hh = 3 + rng.below(3), 3 + rng.below(2)
        r0, c0 = rng.below(h - hh + 1), rng.below(w - ww + 1)
        inside |= {r * w + c for r in range(r0, r0 + hh) for c in range(c0, c0 + ww)}
    cells = bytearray(w * h)
    for i in range(w * h):
        if i in inside:
            cells[i] = COVERED
        elif i in mines:
            cells[i] = FLAG if flagged else COVERED
        else:
            cells[i] = counts[i]
    return Position(w, h, rules.mines, bytes(cells))


def game_cases(board: str, rules: Rules, kind: str, strategy: str, seed: int,
               extras: bool) -> Iterator[Case]:
    """The guess points of one seeded game; with ``extras`` (``best``) also its flagged,
    late-game and endgame positions."""
    seen: list[tuple[int, Position]] = []

    def observe(step: Step) -> None:
        if step.index and any(m.action == "reveal" and m.reason != "deduction"
                              and (m.probability or 0.0) > 0.0 for m in step.moves):
            seen.append((step.index, step.position))

    record = play_game(rules, find_strategy(strategy), seed=seed, observer=observe)
    origin = f"{strategy} on {rules}, game seed {seed}"
    for turn, position in seen:
        yield Case(kind, board, position, f"{origin}, turn {turn}")
    if not extras:
        return
    rng = SplitMix64(derive_seed(seed, 1))
    mines = set(record.layout.mines)
    for turn, position in seen:
        where = f"{origin}, turn {turn}"
        analysis = analyze(position)
        covered = [i for i, c in enumerate(position.cells) if c == COVERED]
        if sum(analysis.is_uncertain(i) for i in covered) <= 24:
            yield Case("lategame", board, position, where)
        for name, pool in (("flagsded", [i for i in covered if analysis.is_mine(i)]),
                           ("flagsany", [i for i in covered if i in mines])):
            if pool and rng.random() < 0.5:
                picked = rng.sample(len(pool), 1 + rng.below(max(1, len(pool) // 2)))
                marked = position.with_cells((pool[k], FLAG) for k in picked)
                yield Case(name, board, marked, f"{where}, {len(picked)} flags")
    counts = [int(n) for n in record.layout.counts]
    for flagged, name in ((True, "endgame-f"), (False, "endgame-c")):
        window_rng = SplitMix64(derive_seed(seed, 2))  # the same windows both ways
        yield Case(name, board, endgame(rules, mines, counts, window_rng, flagged),
                   f"layout of {origin}")
    clicks = SplitMix64(derive_seed(seed, 3))
    game = Game.from_layout(record.layout)
    safe = [i for i in range(rules.width * rules.height) if i not in mines]
    opened = 1 + clicks.below(min(40, len(safe)))
    for k in clicks.sample(len(safe), opened):
        if game.is_over:  # every safe cell open
            break
        game.reveal(*divmod(safe[k], rules.width))
    if not game.is_over:
        yield Case("opened", board, game.position(),
                   f"layout of {origin}, {opened} random safe clicks")


def generate(seed: int, scale: float, progress: Progress) -> list[Case]:
    cases: list[Case] = []
    for b, (board, rules, games) in enumerate(BOARDS):
        for s, ((kind, strategy), n) in enumerate(zip(STRATEGIES, games, strict=True)):
            count = max(1, round(n * scale))
            for g in range(count):
                cases.extend(game_cases(board, rules, kind, strategy,
                                        derive_seed(seed, b, s, g), extras=kind == "best"))
                progress(f"positions: {len(cases)} ({board}, {strategy}: game {g + 1} of "
                         f"{count})")
    progress(f"positions: {len(cases)} from {len(BOARDS)} boards", force=True)
    return cases


# ---------------------------------------------------------------------- engines


def toollib_engine() -> Ask | None:
    """ms-toollib's ``cal_probability_onboard``, or ``None`` when it is not installed."""
    try:
        import ms_toollib
    except ImportError:
        return None

    def ask(position: Position) -> Answer:
        w = position.width
        # its codes: numbers as they are, 10 covered, 11 flagged
        board = [[c if c <= 8 else 10 if c == COVERED else 11
                  for c in position.cells[r * w:(r + 1) * w]] for r in range(position.height)]
        start = time.perf_counter()
        try:
            grid, _ = ms_toollib.cal_probability_onboard(board, float(position.mines))
        except BaseException as error:  # a Rust panic surfaces as a BaseException
            if isinstance(error, KeyboardInterrupt | SystemExit):
                raise
            return Answer(None, error=f"{type(error).__name__}: {error}")
        return Answer(grid, (time.perf_counter() - start) * 1000)

    return ask


class Jsms:
    """JSMinesweeper's analyser in one node process (``benchmarks/jsms_ask.js
    --no-move``: the harness's ``probs``, JSMinesweeper loaded once), started again
    after a question it leaves unanswered or a position it rejects."""

    def __init__(self, harness: Path, checkout: Path, timeout: float) -> None:
        self.command = ["node", str(Path(__file__).with_name("jsms_ask.js")), str(harness),
                        "--no-move"]
        self.env = {**os.environ, "JSMS_DIR": str(checkout.resolve())}
        self.timeout = timeout
        self.folder = tempfile.TemporaryDirectory(prefix="versus_engines_")
        self.file = Path(self.folder.name) / "position.txt"
        self.process: subprocess.Popen[str] | None = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()  # the node process this object started, and only it
            self.process.wait()
            self.process = None

    def __call__(self, position: Position) -> Answer:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, env=self.env)
        stdin: IO[str] | None = self.process.stdin
        stdout: IO[str] | None = self.process.stdout
        assert stdin is not None and stdout is not None
        self.file.write_text(harness_text(position))
        try:
            stdin.write(f"{self.file}\n")
            stdin.flush()
        except BrokenPipeError:
            self.stop()
            return Answer(None, error="the node process had ended")
        if not select.select([stdout], [], [], self.timeout)[0]:
            self.stop()
            return Answer(None, error=f"no answer within {self.timeout:g} s")
        line = stdout.readline()
        if not line.strip():
            self.stop()
            return Answer(None, error="the node process died (its error is above)")
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            self.stop()
            return Answer(None, error=f"an answer that is not JSON: {line.strip()[:200]}")
        if "error" in reply or "prob" not in reply:
            try:
                self.process.wait(timeout=30)  # the harness ends after an error
                self.process = None
            except subprocess.TimeoutExpired:
                self.stop()
            return Answer(None, error=str(reply.get("error", line.strip()))[:300])
        return Answer(reply["prob"], reply.get("ms"))

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.stop()
        self.folder.cleanup()


# ---------------------------------------------------------------------- comparing


def differences(ours: dict[int, Fraction], width: int, grid: Grid, tolerance: float
                ) -> tuple[float, list[tuple[int, Fraction, float | None]]]:
    """The largest gap and the cells beyond ``tolerance`` (no value, NaN: beyond)."""
    largest = 0.0
    bad: list[tuple[int, Fraction, float | None]] = []
    for index, p in ours.items():
        value = grid[index // width][index % width]
        gap = float("inf") if value is None else abs(value - float(p))
        if not gap <= tolerance:
            bad.append((index, p, value))
        largest = max(largest, gap) if gap == gap else float("inf")
    return largest, bad


def compare(ours: dict[int, Fraction], width: int, answer: Answer, tolerance: float,
            covered_again: dict[int, Fraction] | None = None) -> Verdict:
    """One engine's answer against minesolver's exact ``ours`` (flat index -> p).

    ``covered_again`` is minesolver's answer on the position with its flags covered
    again, given when a flag is not provable and the engine does not trust such flags:
    an answer that differs from ``ours`` but equals it is "flags covered"."""
    if answer.grid is None:
        return Verdict("no answer", error=answer.error)
    largest, bad = differences(ours, width, answer.grid, tolerance)
    verdict = Verdict("agree" if not bad else "disagree", largest, bad=bad, ms=answer.ms)
    if bad and covered_again is not None:
        verdict.covered_again = covered_again
        verdict.max_covered, still = differences(covered_again, width, answer.grid, tolerance)
        if not still:
            verdict.status = "flags covered"
    return verdict


def check(case: Case, engines: dict[str, Ask]) -> Checked:
    position = case.position
    covered = [i for i, c in enumerate(position.cells) if c == COVERED]
    flags = [i for i, c in enumerate(position.cells) if c == FLAG]
    try:
        start = time.perf_counter()
        analysis = analyze(position)
        ms = (time.perf_counter() - start) * 1000
        again = analyze(position.with_cells((i, COVERED) for i in flags)) if flags else None
    except MinesolverError as error:
        return Checked(case, len(covered), False, None, {}, f"{type(error).__name__}: {error}")
    ours = {i: Fraction(*analysis.exact(i)) for i in covered}
    unprovable = again is not None and not all(again.is_mine(i) for i in flags)
    covered_again = ({i: Fraction(*again.exact(i)) for i in covered}
                     if again is not None and unprovable else None)
    verdicts = {
        name: compare(ours, position.width, ask(position), TOLERANCE[name],
                      covered_again if name == TOOLLIB else None)
        for name, ask in engines.items()
    }
    return Checked(case, len(covered), unprovable, ms, verdicts)


# ---------------------------------------------------------------------- report


def layouts(position: Position) -> int:
    """How many layouts the brute-force oracle would try."""
    unknown = sum(c == COVERED for c in position.cells)
    return comb(unknown, position.mines - sum(c == FLAG for c in position.cells))


def referee(position: Position, cells: list[tuple[int, Fraction, float | None]],
            engine: str, limit: int) -> str:
    """Who is right at ``cells`` by the brute-force oracle, if the position is small."""
    count = layouts(position)
    if count > limit:
        return f"too big for the oracle ({count:.3g} layouts > --oracle-limit {limit})"
    _, exact = brute_force(position, limit=limit)
    ours = sum(exact[i] == p for i, p, _ in cells)
    theirs = sum(v is not None and abs(v - float(exact[i])) <= TOLERANCE[engine]
                 for i, _, v in cells)
    tried = f"{count} layout{'s' * (count != 1)} tried"
    return (f"oracle ({tried}): minesolver right at {ours} of {len(cells)} cells, "
            f"{engine} at {theirs}")


def show(result: Checked, engine: str, oracle_limit: int) -> None:
    verdict = result.verdicts[engine]
    position = result.case.position
    w = position.width
    where = f"{result.case.kind}/{result.case.board} ({result.case.origin})"
    if verdict.status == "no answer":
        print(f"NO ANSWER from {engine} on {where}: {verdict.error}")
        print(position.to_text(), end="")
        return
    print(f"DISAGREEMENT {engine} on {where}: {len(verdict.bad)} cells beyond "
          f"{TOLERANCE[engine]:.0e}")
    print(position.to_text(), end="")
    again = verdict.covered_again
    print(f"  {'(row, col)':<12}{'minesolver':>24}{engine:>16}"
          + (f"{'flags covered again':>26}" if again else ""))
    for i, p, v in verdict.bad[:20]:
        text = "None" if v is None else f"{v:.10g}"
        extra = f"{f'{again[i]} = {float(again[i]):.6g}':>26}" if again else ""
        print(f"  {f'({i // w}, {i % w})':<12}{f'{p} = {float(p):.6g}':>24}{text:>16}{extra}")
    if len(verdict.bad) > 20:
        print(f"  ... and {len(verdict.bad) - 20} more cells")
    print(f"  {referee(position, verdict.bad, engine, oracle_limit)}")
    if again:
        plain = position.with_cells((i, COVERED) for i, c in enumerate(position.cells)
                                    if c == FLAG)
        cells = [(i, again[i], v) for i, _, v in verdict.bad]
        print(f"  flags covered again: {referee(plain, cells, engine, oracle_limit)}")


def table(title: str, column: str, key: Callable[[Checked], str], order: Sequence[str],
          results: list[Checked], engines: list[str]) -> None:
    print(title)
    print(f"{'':<45}{JSMS:>25}{TOOLLIB:>40}")
    print(f"{column:<14}{'positions':>10}{'cells':>10}{'unprovable':>11}"
          f"{'agree':>10}{'differ':>9}{'none':>6}{'agree':>10}{'flags covered':>15}"
          f"{'differ':>9}{'none':>6}")
    groups = {name: [r for r in results if key(r) == name] for name in order}
    groups["all"] = results
    for name, part in groups.items():
        if not part:
            continue
        line = (f"{name:<14}{len(part):>10}{sum(r.cells for r in part):>10}"
                f"{sum(r.unprovable for r in part):>11}")
        for engine, statuses in ((JSMS, ("agree", "disagree", "no answer")),
                                 (TOOLLIB, ("agree", "flags covered", "disagree",
                                            "no answer"))):
            for status, width in zip(statuses, (10, 15, 9, 6) if engine == TOOLLIB
                                     else (10, 9, 6), strict=True):
                if engine not in engines:
                    line += f"{'-':>{width}}"
                    continue
                n = sum(r.verdicts[engine].status == status for r in part if not r.error)
                line += f"{n:>{width}}"
        print(line)
    print()


def report(results: list[Checked], engines: list[str], shown: int, oracle_limit: int) -> int:
    """Print the tables, the largest gaps and every disagreement (the first ``shown`` in
    full); the exit status: 1 when anything disagreed or went unanswered."""
    print("Positions by kind and by board.  cells: covered cells compared; unprovable:\n"
          "positions with a flag the clues cannot prove.  Per engine: positions that agree,\n"
          "that agree only with those flags covered again (ms-toollib), that differ, that\n"
          "have no answer.\n")
    table("By kind", "kind", lambda r: r.case.kind, KINDS, results, engines)
    table("By board", "board", lambda r: r.case.board, [b[0] for b in BOARDS], results,
          engines)
    ok = [r for r in results if not r.error]
    print("Largest gap from minesolver's exact probabilities")
    for engine in engines:
        got = [r for r in ok if r.verdicts[engine].status != "no answer"]
        plain = [r.verdicts[engine].max_diff for r in got
                 if engine != TOOLLIB or not r.unprovable]
        print(f"  {engine}: {max(plain, default=0.0):.3g} (tolerance "
              f"{TOLERANCE[engine]:.0e}) over {len(plain)} positions"
              + (" whose flags, if any, the clues prove" if engine == TOOLLIB else ""))
        if engine == TOOLLIB:
            covered = [r.verdicts[engine].max_covered for r in got if r.unprovable]
            given = [r.verdicts[engine].max_diff for r in got if r.unprovable]
            if given:
                print(f"  {engine} on the {len(given)} positions with a flag the clues "
                      f"cannot prove: {max(given):.3g} from minesolver as given, "
                      f"{max((c or 0.0 for c in covered), default=0.0):.3g} from minesolver "
                      "with the flags covered again")
    print()
    medians = [("minesolver analyze", [r.ms for r in ok if r.ms is not None])]
    medians += [(engine + (" (its own timer)" if engine == JSMS else ""),
                 [v for r in ok if (v := r.verdicts[engine].ms) is not None])
                for engine in engines]
    print("Median ms per position (a by-product: one warm call each, one engine after the "
          "other): " + ", ".join(f"{name} {statistics.median(ms):.3f}"
                                 for name, ms in medians if ms))
    print()
    failed = [r for r in results if r.error]
    wrong = [(r, e) for r in ok for e in engines
             if r.verdicts[e].status in ("disagree", "no answer")]
    # disagreements before unanswered questions, the oracle's (the smallest) first
    wrong.sort(key=lambda pair: (pair[0].verdicts[pair[1]].status == "no answer",
                                 layouts(pair[0].case.position)))
    for r in failed:
        print(f"NO ANSWER from minesolver on {r.case.kind}/{r.case.board} "
              f"({r.case.origin}): {r.error}")
        print(r.case.position.to_text(), end="")
    for r, engine in wrong[:shown]:
        show(r, engine, oracle_limit)
        print()
    if len(wrong) > shown:
        print(f"... and {len(wrong) - shown} more (--show {len(wrong)} prints them all)")
    for engine in engines:
        counts = {s: sum(r.verdicts[engine].status == s for r in ok)
                  for s in ("agree", "flags covered", "disagree", "no answer")}
        only = (f" ({counts['flags covered']} only with the flags the clues cannot prove "
                "covered again)" if engine == TOOLLIB else "")
        print(f"{engine}: {counts['agree'] + counts['flags covered']} of {len(results)} "
              f"positions agree{only}, {counts['disagree']} disagree, "
              f"{counts['no answer']} unanswered")
    if failed or wrong:
        print(f"NOT ALL AGREED: exit status 1 ({len(failed)} positions minesolver did not "
              f"answer, {len(wrong)} disagreements or unanswered questions)")
        return 1
    print(f"every position agreed ({len(results)} positions, "
          f"{sum(r.cells for r in results)} cells)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--seed", type=int, default=20260611,
                        help="the seed of the games the positions come from")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="games per board and strategy, as a share of the full run's "
                             "(at least one each)")
    parser.add_argument("--harness", type=Path, help="jsms_harness.js (with --jsms)")
    parser.add_argument("--jsms", type=Path, help="a JSMinesweeper checkout (with --harness)")
    parser.add_argument("--jsms-timeout", type=float, default=120.0,
                        help="seconds JSMinesweeper may take on one position")
    parser.add_argument("--show", type=int, default=10,
                        help="disagreements printed in full (all are counted)")
    parser.add_argument("--oracle-limit", type=int, default=1_000_000,
                        help="largest layout count the brute-force oracle judges")
    args = parser.parse_args(argv)
    if args.scale <= 0:
        parser.error("--scale must be positive")
    engines: dict[str, Ask] = {}
    toollib = toollib_engine()
    if toollib is None:
        print(f"{TOOLLIB}: not installed (pip install ms-toollib): not compared")
    else:
        engines[TOOLLIB] = toollib
    jsms: Jsms | None = None
    if args.harness is None or args.jsms is None:
        print(f"{JSMS}: skipped (give --harness and --jsms to compare it)")
    else:
        if shutil.which("node") is None:
            parser.error("node is not installed: JSMinesweeper cannot run here")
        if not args.harness.is_file():
            parser.error(f"no harness at {args.harness} (see ../shared/peers/README.md)")
        if not (args.jsms / "Minesweeper" / "client" / "solver_main.js").is_file():
            parser.error(f"no JSMinesweeper checkout at {args.jsms}")
        jsms = engines[JSMS] = Jsms(args.harness, args.jsms, args.jsms_timeout)
    progress = Progress()
    try:
        warm = Position.from_text("4x3x3\nHH1H\nH21H\nHHHH\n")  # loading out of the timings
        analyze(warm)
        for name, ask in engines.items():
            answer = ask(warm)
            if answer.grid is None:  # broken as set up: stop before the long work
                print(f"versus_engines: {name} does not answer a 4x3 position: "
                      f"{answer.error}", file=sys.stderr)
                return 2
        cases = generate(args.seed, args.scale, progress)
        results: list[Checked] = []
        bad = 0
        for n, case in enumerate(cases, 1):
            results.append(check(case, engines))
            bad += bool(results[-1].error) + sum(
                v.status in ("disagree", "no answer") for v in results[-1].verdicts.values())
            progress(f"checked {n} of {len(cases)} positions; {bad} not agreed",
                     n == len(cases))
    finally:
        if jsms is not None:
            jsms.close()
    print(f"seed {args.seed}, scale {args.scale:g}: {len(cases)} positions\n")
    return report(results, list(engines), args.show, args.oracle_limit)


if __name__ == "__main__":
    sys.exit(main())
