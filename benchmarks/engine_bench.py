"""Engine benchmark: how long the exact engine takes, on the fixtures and on big positions.

Prints these tables:

1. the shared fixtures by board class: per-position time of ``analyze`` (the exact
   :class:`Analysis`), of ``floats.probabilities`` (the float probabilities, in one
   compiled call) and, when ms-toollib is installed, of its
   ``cal_probability_onboard`` (the float probabilities too), median and p95 in ms;
2. with ``--played N``: the same three on every position of N seeded games per
   class (beginner, intermediate, expert), positions the fixtures do not hold;
3. long fronts: generated positions whose fronts run for hundreds of cells;
4. 100x100 boards at 20% density;
5. 100x100 boards with cells shown at random: hundreds of small fronts;
6. with ``--joins``: the fronts' join alone (``joining.front_weights``), as the engine
   calls it, always shifted (``shift=True``) and plain (``shift=False``), per join of
   each class's positions (the fixtures', and the played games' with ``--played``), and
   of each generated position (tables 3 to 5), in one process.

Every generated position comes from ``--seed``.  Times are wall-clock
(``time.perf_counter``) around each call, best of the repeats, in this one process;
the three are timed one after the other on each position, so they share the load.
Record figures in docs/benchmarks.md with the command, the date and the machine.

    python benchmarks/engine_bench.py --seed 1 --repeat 5 --played 20
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

import numpy as np
from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver import Game, Position, Rules
from minesolver.analysis import Analysis, analyze, engine, joining
from minesolver.analysis.floats import probabilities
from minesolver.analysis.kernels import kernel_in_use
from minesolver.bench.stats import percentile
from minesolver.codes import COVERED
from minesolver.rng import SplitMix64, derive_seed

CLASSES = ("beginner", "intermediate", "expert", "large64", "large100")
# the 120 reference positions the tests use, kept in the repository
DEFAULT_FIXTURES = os.environ.get(
    "MINESOLVER_FIXTURES", str(Path(__file__).resolve().parent.parent / "tests/data/positions")
)


# ---------------------------------------------------------------------- timing


def best_time(position: Position, repeat: int) -> tuple[float, Analysis]:
    """Fastest of ``repeat`` runs of ``analyze`` (seconds) and the last analysis.

    Every run is cold: ``analyze`` builds a new engine, with an empty cache."""
    best = float("inf")
    analysis = None
    for _ in range(repeat):
        start = time.perf_counter()
        analysis = analyze(position)
        best = min(best, time.perf_counter() - start)
    assert analysis is not None
    return best, analysis


# ---------------------------------------------------------------------- positions


def numbers(mines: set[int], width: int, height: int, index: int) -> int:
    row, col = divmod(index, width)
    return sum(
        (r * width + c) in mines
        for r in range(max(0, row - 1), min(height, row + 2))
        for c in range(max(0, col - 1), min(width, col + 2))
    )


def band_position(seed: int, width: int, height: int, density: float, rows: int) -> Position:
    """A random layout whose middle ``rows`` rows show every safe cell (mines stay covered).

    The covered cells just above and below the band form the frontier; the mines inside
    the band are covered cells between clues.
    """
    cells_total = width * height
    count = round(cells_total * density)
    mines = set(SplitMix64(seed).sample(cells_total, count))
    top = (height - rows) // 2
    cells = bytearray([COVERED]) * cells_total
    for r in range(top, top + rows):
        for c in range(width):
            i = r * width + c
            if i not in mines:
                cells[i] = numbers(mines, width, height, i)
    return Position(width, height, count, bytes(cells))


def ribbon_position(seed: int, width: int, height: int = 21, density: float = 0.2) -> Position:
    """One revealed row between two covered rows that form a single front of 2 x width cells.

    The two covered rows are drawn column by column at random, keeping every clue's
    window at 1 to 5 mines, so no trivial rule settles a cell and breaks the front.  The
    rest of the board is random at ``density`` and off the front.
    """
    rng = SplitMix64(seed)
    mid = height // 2
    above: list[int] = []
    below: list[int] = []
    for c in range(width):
        while True:
            a, b = rng.below(2), rng.below(2)
            window = sum(above[c - 2 :]) + sum(below[c - 2 :]) + a + b
            if c < 2 or 1 <= window <= 5:
                break
        above.append(a)
        below.append(b)
    mines = {(mid - 1) * width + c for c in range(width) if above[c]}
    mines |= {(mid + 1) * width + c for c in range(width) if below[c]}
    for r in range(height):
        if abs(r - mid) > 1:
            mines |= {r * width + c for c in range(width) if rng.random() < density}
    cells = bytearray([COVERED]) * (width * height)
    for c in range(width):
        cells[mid * width + c] = numbers(mines, width, height, mid * width + c)
    return Position(width, height, len(mines), bytes(cells))


def midgame_position(seed: int, rules: Rules, fraction: float) -> Position:
    """A game in progress: an opening click, then random safe cells next to the open area.

    Stops once ``fraction`` of the safe cells are open (the player never guesses wrong).
    """
    game = Game(rules, seed=seed)
    game.reveal(rules.height // 2, rules.width // 2)
    layout = game.layout
    assert layout is not None
    mines = set(layout.mines)
    rng = SplitMix64(derive_seed(seed, 1))
    w, h = rules.width, rules.height
    target = fraction * (rules.cells - rules.mines)
    while rules.cells - rules.mines - game.safe_left < target and not game.is_over:
        border = sorted(
            i
            for i in range(rules.cells)
            if i not in mines
            and not game.is_revealed(*divmod(i, w))
            and any(
                game.is_revealed(r, c)
                for r in range(max(0, i // w - 1), min(h, i // w + 2))
                for c in range(max(0, i % w - 1), min(w, i % w + 2))
            )
        )
        for _ in range(max(1, len(border) // 4)):  # a few clicks per scan keeps this quick
            i = border[rng.below(len(border))]
            if not game.is_revealed(*divmod(i, w)):
                game.reveal(*divmod(i, w))
    return game.position()


def stripe_position(seed: int) -> Position:
    """100x100, 2000 mines, rows 45-54 show every safe cell."""
    game = Game(Rules(100, 100, 2000, first_click="none"), seed=seed)
    game.reveal(0, 0)
    layout = game.layout
    assert layout is not None
    mines = set(layout.mines)
    cells = bytearray([COVERED]) * 10_000
    for i in range(4500, 5500):
        if i not in mines:
            cells[i] = numbers(mines, 100, 100, i)
    return Position(100, 100, 2000, bytes(cells))


def scattered_position(seed: int, fraction: float, size: int = 100, mines: int = 1800
                       ) -> Position:
    """``size`` x ``size`` with ``mines`` mines: ``fraction`` of the safe cells shown at
    random, no flood.

    Hundreds of small fronts, as no game makes but a hand-made position may hold:
    the fronts' join through the mine count is most of the analysis here.
    """
    cells_n = size * size
    game = Game(Rules(size, size, mines, first_click="none"), seed=seed)
    game.reveal(0, 0)
    layout = game.layout
    assert layout is not None
    mined = set(layout.mines)
    rng = SplitMix64(derive_seed(seed, 2))
    cells = bytearray([COVERED]) * cells_n
    safe = [i for i in range(cells_n) if i not in mined]
    for _ in range(int(fraction * len(safe))):
        i = safe.pop(rng.below(len(safe)))
        cells[i] = numbers(mined, size, size, i)
    return Position(size, size, mines, bytes(cells))


def frontier(position: Position) -> int:
    """Covered, unflagged cells next to a revealed number."""
    w, h = position.width, position.height
    cells = position.cells
    count = 0
    for i, code in enumerate(cells):
        if code != COVERED:
            continue
        row, col = divmod(i, w)
        if any(
            cells[r * w + c] <= 8
            for r in range(max(0, row - 1), min(h, row + 2))
            for c in range(max(0, col - 1), min(w, col + 2))
        ):
            count += 1
    return count


# ---------------------------------------------------------------------- report


def toollib_board(position: Position) -> list[list[int]]:
    """The position in ms-toollib's codes: numbers as they are, 10 covered, 11 flagged."""
    w = position.width
    out = []
    for r in range(position.height):
        row = []
        for code in position.cells[r * w : (r + 1) * w]:
            row.append(code if code <= 8 else 10 if code == COVERED else 11)
        out.append(row)
    return out


def toollib_time(position: Position, repeat: int) -> float | None:
    """Fastest of ``repeat`` runs of ms-toollib's ``cal_probability_onboard`` (seconds),
    ``None`` when it fails on the position (it gives up on some)."""
    import ms_toollib

    board = toollib_board(position)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            ms_toollib.cal_probability_onboard(board, float(position.mines))
        except BaseException:  # a Rust panic surfaces as a BaseException
            return None
        best = min(best, time.perf_counter() - start)
    return best


def have_toollib() -> bool:
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        return False
    return True


def probabilities_time(position: Position, repeat: int) -> float:
    """Fastest of ``repeat`` runs of :func:`minesolver.analysis.floats.probabilities`
    (the float answer, ms-toollib's kind), in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        probabilities(position)
        best = min(best, time.perf_counter() - start)
    return best


def time_positions(
    named: list[tuple[str, Position]], repeat: int, versus: bool
) -> dict[str, dict[str, list[float]]]:
    """Per class: seconds of ``analyze``, of ``probabilities`` and (``versus``) of
    ms-toollib, timed one after the other position by position, so all three see the
    same machine load."""
    times: dict[str, dict[str, list[float]]] = {}
    handed = 0
    for name, position in named:
        handed += not compiled_answers(position)
        row = times.setdefault(name, {"analyze": [], "floats": [], "toollib": []})
        row["analyze"].append(best_time(position, repeat)[0])
        row["floats"].append(probabilities_time(position, repeat))
        if versus:
            other = toollib_time(position, repeat)
            if other is not None:
                row["toollib"].append(other)
    print(f"the compiled path handed {handed} of {len(named)} positions over to the engine")
    return times


def compiled_answers(position: Position) -> bool:
    """Whether ``probabilities`` answers ``position`` in its compiled call (numba
    installed, no front too wide or too long) rather than through the engine."""
    if kernel_in_use() != "numba":
        return False
    from minesolver.analysis._compiled_board import OK, board_probabilities

    return board_probabilities(position.cells, position.height, position.width,
                               position.mines)[1] == OK


def print_times(title: str, times: dict[str, dict[str, list[float]]]) -> None:
    print(title)
    head = f"{'class':<14}{'n':>5}"
    for what in ("analyze", "floats", "toollib"):
        head += f"{what + ' med':>14}{'p95':>10}"
    print(head)
    for name in sorted(times, key=lambda c: CLASSES.index(c) if c in CLASSES else 99):
        line = f"{name:<14}{len(times[name]['analyze']):>5}"
        for what in ("analyze", "floats", "toollib"):
            ms = [t * 1000 for t in times[name][what]]
            if ms:
                line += f"{statistics.median(ms):>14.3f}{percentile(ms, 95):>10.3f}"
            else:
                line += f"{'-':>14}{'-':>10}"
        print(line)
    print("ms per position, best of the repeats; floats: minesolver.analysis.floats")
    print()


def fixture_positions(folder: Path) -> list[tuple[str, Position]]:
    manifest = [
        json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines() if line
    ]
    return [
        (entry["class"], Position.from_text((folder / f"{entry['id']}.mine").read_text()))
        for entry in manifest
    ]


def played_positions(seed: int, games: int) -> list[tuple[str, Position]]:
    """Every position of ``games`` seeded games per class of the boards people play,
    each played by opening a cell of lowest mine probability (ties by the seed)."""
    out: list[tuple[str, Position]] = []
    for name in ("beginner", "intermediate", "expert"):
        rules = Rules.from_string(name)
        for g in range(games):
            game_seed = derive_seed(seed, 7, CLASSES.index(name), g)
            rng = SplitMix64(game_seed)
            game = Game(rules, seed=game_seed)
            while not game.is_over:
                position = game.position()
                out.append((name, position))
                p = probabilities(position).ravel()
                covered = np.frombuffer(position.cells, dtype=np.uint8) == COVERED
                candidates = np.flatnonzero(covered & (p == p[covered].min()))
                cell = int(candidates[rng.below(len(candidates))])
                game.reveal(*divmod(cell, position.width))
    return out


def join_table(positions: list[tuple[str, Position]], repeat: int) -> None:
    """Time every join the engine makes on ``positions``, by name (a class of positions,
    or one generated position): the default (:data:`joining.SHIFT_MIN` decides), always
    shifted and plain, best of ``repeat``."""
    joins: dict[str, list[tuple[list[list[int]], list[int]]]] = {}
    calls: list[tuple[list[list[int]], list[int]]] = []
    join = joining.front_weights

    def record(polys: list[list[int]], w_out: list[int], **how: bool | None) -> Any:
        calls.append((polys, w_out))
        return join(polys, w_out, **how)

    with patch.object(engine, "front_weights", record):
        for name, position in positions:
            before = len(calls)
            analyze(position)
            joins.setdefault(name, []).extend(calls[before:])
    print("The fronts' join alone: every join of the analyses, best of repeats")
    width = max([14, *(len(name) + 2 for name in joins)])
    print(f"{'positions':<{width}}{'joins':>7}{'shifted':>9}{'default us':>12}{'always us':>11}"
          f"{'plain us':>10}")
    for name, items in joins.items():
        shifted = sum(
            sum(joining.least_mines(p) for p in polys)
            >= joining.SHIFT_MIN for polys, _ in items)
        best = {}
        for shift in (None, True, False):
            runs = []
            for _ in range(repeat):
                start = time.perf_counter()
                for polys, w_out in items:
                    joining.front_weights(polys, w_out, shift=shift)
                runs.append((time.perf_counter() - start) / len(items) * 1e6)
            best[shift] = min(runs)
        print(f"{name:<{width}}{len(items):>7}{shifted:>9}{best[None]:>12.1f}{best[True]:>11.1f}"
              f"{best[False]:>10.1f}")
    print()


def verdicts(times: dict[str, dict[str, list[float]]], where: str) -> None:
    for name in CLASSES:
        if name not in times or not times[name]["toollib"]:
            continue
        other = [t * 1000 for t in times[name]["toollib"]]
        for what in ("floats", "analyze"):
            ours = [t * 1000 for t in times[name][what]]
            for label, f in (("median", statistics.median), ("p95", lambda v: percentile(v, 95))):
                a, b = f(ours), f(other)
                verdict(f"{name} {label} {what} no slower than ms-toollib ({where})", a <= b,
                        f"{a:.3f} vs {b:.3f} ms ({b / a:.2f}x)")


def generated_table(
    title: str, cases: list[tuple[str, Callable[[], Position]]], repeat: int
) -> list[tuple[str, Position, Analysis, float]]:
    print(title)
    print(
        f"{'position':<30}{'frontier':>9}{'fronts':>8}{'largest':>9}{'width':>7}"
        f"{'digits':>8}{'ms':>10}"
    )
    rows = []
    for name, make in cases:
        position = make()
        seconds, analysis = best_time(position, repeat)
        largest = max((len(f.cells) for f in analysis.fronts), default=0)
        width = max((f.width for f in analysis.fronts), default=0)
        print(
            f"{name:<30}{frontier(position):>9}{len(analysis.fronts):>8}{largest:>9}"
            f"{width:>7}{len(str(analysis.solutions)):>8}{seconds * 1000:>10.1f}"
        )
        rows.append((name, position, analysis, seconds))
    print()
    return rows


def verdict(label: str, ok: bool, figure: str) -> None:
    print(f"  {'met    ' if ok else 'NOT met'}  {label}: {figure}")


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated positions")
    parser.add_argument("--repeat", type=int, default=5, help="runs per position; best is kept")
    parser.add_argument(
        "--fixtures", type=Path, default=Path(DEFAULT_FIXTURES), help="fixture positions folder"
    )
    parser.add_argument(
        "--no-toollib", action="store_true", help="do not time ms-toollib even if installed"
    )
    parser.add_argument(
        "--fixtures-only", action="store_true",
        help="no generated positions (tables 3 to 5): the fixtures, with --played and "
             "--joins their tables too"
    )
    parser.add_argument(
        "--joins", action="store_true", help="also time the fronts' join alone (table 6)"
    )
    parser.add_argument(
        "--played", type=int, default=0, metavar="N",
        help="also time every position of N seeded games per class (beginner to expert)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    sys.set_int_max_str_digits(0)
    seed = args.seed

    versus = have_toollib() and not args.no_toollib
    times = time_positions(fixture_positions(args.fixtures), args.repeat, versus)
    print_times(f"Fixtures ({args.fixtures})", times)
    played = {}
    if args.played:
        played = time_positions(played_positions(seed, args.played), args.repeat, versus)
        print_times(f"Every position of {args.played} played games per class, seed {seed}",
                    played)
    if args.joins:
        join_table(fixture_positions(args.fixtures)
                   + (played_positions(seed, args.played) if args.played else []), args.repeat)
    print("Targets")
    verdicts(times, "fixtures")
    verdicts(played, "played")
    if args.fixtures_only:
        return 0
    fronts = generated_table(
        "Long fronts (generated), best of repeats",
        [
            (f"band 150x20 20% 2 rows #{seed}", lambda: band_position(seed, 150, 20, 0.2, 2)),
            (f"band 300x20 30% 2 rows #{seed}", lambda: band_position(seed, 300, 20, 0.3, 2)),
            (f"band 600x20 20% 1 row #{seed}", lambda: band_position(seed, 600, 20, 0.2, 1)),
            (f"ribbon 150 (front 300) #{seed}", lambda: ribbon_position(seed, 150)),
            (f"ribbon 300 (front 600) #{seed}", lambda: ribbon_position(seed, 300)),
            (f"ribbon 500 (front 1000) #{seed}", lambda: ribbon_position(seed, 500)),
        ],
        args.repeat,
    )
    big_rules = Rules(100, 100, 2000, first_click="opening")
    big = generated_table(
        "100x100, 2000 mines (20%), best of repeats",
        [
            (f"stripe rows 45-54 #{seed}", lambda: stripe_position(seed)),
            (f"mid-game 25% open #{seed}", lambda: midgame_position(seed, big_rules, 0.25)),
            (f"mid-game 50% open #{seed}", lambda: midgame_position(seed, big_rules, 0.5)),
            (f"mid-game 80% open #{seed}", lambda: midgame_position(seed, big_rules, 0.8)),
        ],
        args.repeat,
    )
    scattered = generated_table(
        "100x100, 1800 mines: cells shown at random (many small fronts), best of repeats",
        [
            (f"scattered 10% shown #{seed}", lambda: scattered_position(seed, 0.10)),
            (f"scattered 15% shown #{seed}", lambda: scattered_position(seed, 0.15)),
            (f"scattered 20% shown #{seed}", lambda: scattered_position(seed, 0.20)),
        ],
        args.repeat,
    )
    if args.joins:
        join_table([(name, position) for name, position, _, _ in fronts + big + scattered],
                   args.repeat)

    print("Targets")
    if "expert" in times:
        ms = [t * 1000 for t in times["expert"]["analyze"]]
        median, p95 = statistics.median(ms), percentile(ms, 95)
        verdict("expert median <= 1 ms", median <= 1, f"{median:.2f} ms")
        verdict("expert p95 <= 10 ms", p95 <= 10, f"{p95:.2f} ms")
    if "large100" in times:
        median = statistics.median(times["large100"]["analyze"]) * 1000
        verdict("100x100 median <= 300 ms (large100 fixtures)", median <= 300, f"{median:.1f} ms")
    median = statistics.median(row[3] for row in big) * 1000
    verdict("100x100 median <= 300 ms (generated, 20%)", median <= 300, f"{median:.1f} ms")
    for name, _, analysis, seconds in fronts:
        largest = max((len(f.cells) for f in analysis.fronts), default=0)
        if 300 <= largest <= 400:
            label = f"{largest}-cell front < 500 ms ({name})"
            verdict(label, seconds < 0.5, f"{seconds * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
