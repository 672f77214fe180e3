"""Helpers shared by the tests: the fixture positions, the real CLI, generated positions.

Importable from every test module as ``support`` (pytest's ``pythonpath`` holds
``tests/``); pytest fixtures live in the ``conftest.py`` files.
"""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import strategies as st

from minesolver.codes import BLANK, COVERED, FLAG, MINE
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies.base import Move
from minesolver.strategies.best import Best

# The 120 reference positions live in the repository; MINESOLVER_FIXTURES may point
# at another folder of the same shape.
DATA = Path(__file__).parent / "data"
FIXTURES = Path(os.environ.get("MINESOLVER_FIXTURES") or DATA / "positions")


def fixture_ids() -> list[str]:
    """Ids (``0001`` ...) of every fixture position, sorted; empty if the folder is missing."""
    if not FIXTURES.is_dir():
        return []
    return sorted(p.stem for p in FIXTURES.glob("*.mine"))


def load_fixture(fid: str) -> Position:
    return Position.from_text((FIXTURES / f"{fid}.mine").read_text())


def true_mines(fid: str) -> set[tuple[int, int]]:
    """``(row, col)`` of every mine in the fixture's true layout."""
    rows = (FIXTURES / f"{fid}.mines.txt").read_text().split()
    return {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"}


# ---------------------------------------------------------------------- the CLI
ENTRY_POINTS = ("module", "script")


def console_script() -> str:
    """Path of the installed ``minesolver`` console script (next to this Python)."""
    beside = Path(sys.executable).parent / "minesolver"
    if beside.exists():
        return str(beside)
    found = shutil.which("minesolver")
    if found is None:
        pytest.fail("the minesolver console script is not installed")
    return found


def run_cli(
    *args: str,
    entry: str = "module",
    input: str | None = None,
    cwd: str | Path | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a fresh process: ``python -m minesolver`` or the console script."""
    if entry == "module":
        command = [sys.executable, "-m", "minesolver", *args]
    elif entry == "script":
        command = [console_script(), *args]
    else:
        raise ValueError(f"unknown entry point {entry!r}")
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    return subprocess.run(
        command,
        input=input,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
    )


def run_on_terminal(*args: str, timeout: float = 60) -> tuple[int, bytes]:
    """Run the real CLI with stderr on a pseudo-terminal (stdout thrown away), as a
    person at a terminal would see it: its exit status and what stderr showed."""
    import pty
    import select

    main, side = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "minesolver", *args], stdout=subprocess.DEVNULL,
            stderr=side, env={**os.environ, "TERM": "xterm", "COLUMNS": "120"},
        )
        os.close(side)
        seen = b""
        while True:
            ready, _, _ = select.select([main], [], [], timeout)
            assert ready, f"no output on the terminal for {timeout} s"
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            seen += chunk
        return process.wait(timeout=timeout), seen
    finally:
        os.close(main)


def best_game_positions(rules: str, seed: int, games: int) -> Iterator[tuple[Position, Move]]:
    """Every position of ``games`` seeded games ``best`` plays (seeds ``seed``,
    ``seed + 1``, ...), with the first move it makes there."""
    for g in range(games):
        game = Game(Rules.from_string(rules), seed=seed + g)
        strategy = Best()
        strategy.new_game(game.rules, seed + g)
        while not game.is_over:
            position = game.position()
            move = strategy.moves(position)[0]
            yield position, move
            game.reveal(*move.cell)


# ---------------------------------------------------------------------- generated positions
# Positions come from random layouts, so they are consistent unless a generator spoils
# them on purpose.  The oracle enumerates every layout of the unknown cells, so boards are
# at most 5x5 with at most MAX_UNKNOWN unknown cells.
MAX_UNKNOWN = 13  # keeps the oracle's enumeration to a few thousand layouts
SIDES = st.sampled_from([1, 2, 3, 4, 4, 5, 5, 5])


def numbers_of(width, height, mines, i):
    """The number cell ``i`` shows when ``mines`` (flat indices) are the mines."""
    r, c = divmod(i, width)
    return sum(
        1
        for rr in range(r - 1, r + 2)
        for cc in range(c - 1, c + 2)
        if 0 <= rr < height and 0 <= cc < width and rr * width + cc in mines
    )


def layouts_of(position):
    """Every set of mines (flat indices, flags included) the position allows, by brute
    force (no engine code)."""
    w, h, cells = position.width, position.height, position.cells
    unknown = [i for i, code in enumerate(cells) if code == COVERED]
    marked = frozenset(i for i, code in enumerate(cells) if code in (FLAG, MINE))
    numbers = [(i, code) for i, code in enumerate(cells) if code <= 8]
    left = position.mines - len(marked)
    if not 0 <= left <= len(unknown):
        return []
    out = []
    for chosen in combinations(unknown, left):
        mines = marked | frozenset(chosen)
        if all(numbers_of(w, h, mines, i) == n for i, n in numbers):
            out.append(mines)
    return out


def neighbours_of(width, height, i):
    r, c = divmod(i, width)
    return [
        rr * width + cc
        for rr in range(r - 1, r + 2)
        for cc in range(c - 1, c + 2)
        if 0 <= rr < height and 0 <= cc < width and (rr, cc) != (r, c)
    ]


def open_area(rnd, width, height, mines, target):
    """Cells a player opens: random safe cells next to what is open, zeros flooding."""
    opened = set()
    safe = [i for i in range(width * height) if i not in mines]
    while len(opened) < target:
        border = sorted(
            {j for i in opened for j in neighbours_of(width, height, i)} - opened - mines
        )
        cell = rnd.choice(border or [i for i in safe if i not in opened])
        stack = [cell]
        opened.add(cell)
        while stack:
            i = stack.pop()
            if numbers_of(width, height, mines, i) == 0:
                for j in neighbours_of(width, height, i):
                    if j not in opened:
                        opened.add(j)
                        stack.append(j)
    return opened


@st.composite
def consistent_positions(draw):
    """A random layout, some of its safe cells revealed, some mines flagged, the true total.

    Density, reveal rate and flag rate vary per board; cells are revealed either
    scattered or as a played area (zeros flood), so both odd and game-like fronts come
    up.  ``.`` (a revealed cell without a number) and ``M`` (a known mine) appear too.
    """
    width, height = draw(SIDES), draw(SIDES)
    n = width * height
    # a seeded generator gives evenly spread layouts; hypothesis still shrinks the size
    rnd = random.Random(draw(st.integers(0, 2**32)))
    density = draw(st.sampled_from([0.1, 0.25, 0.4, 0.55, 0.7]))
    flag = draw(st.sampled_from([0.0, 0.0, 0.3, 0.7]))
    mines = {i for i in range(n) if rnd.random() < density}
    safe = [i for i in range(n) if i not in mines]
    if draw(st.booleans()) and safe:
        revealed = open_area(rnd, width, height, mines, rnd.randint(1, len(safe)))
    else:
        reveal = draw(st.sampled_from([0.2, 0.4, 0.6, 0.8]))
        revealed = {i for i in safe if rnd.random() < reveal}
    flagged = {i for i in mines if rnd.random() < flag}
    # the oracle enumerates the unknown cells: reveal or flag some until few are left
    unknown = [i for i in range(n) if i not in revealed and i not in flagged]
    rnd.shuffle(unknown)
    for i in unknown[MAX_UNKNOWN:]:
        (flagged if i in mines else revealed).add(i)
    cells = bytearray([COVERED]) * n
    for i in revealed:
        cells[i] = numbers_of(width, height, mines, i)
    for i in flagged:
        cells[i] = FLAG
    # now and then a revealed cell without a number, or a flag written as a known mine
    if revealed and rnd.random() < 0.2:
        cells[rnd.choice(sorted(revealed))] = BLANK
    if flagged and rnd.random() < 0.3:
        cells[rnd.choice(sorted(flagged))] = MINE
    return Position(width, height, len(mines), bytes(cells))


@st.composite
def arbitrary_positions(draw):
    """Positions that are often inconsistent: random numbers, or a consistent one spoiled."""
    if draw(st.integers(0, 3)) == 0:
        width, height = draw(SIDES), draw(SIDES)
        n = width * height
        codes = draw(
            st.lists(
                st.one_of(st.integers(0, 8), st.sampled_from([COVERED, COVERED, FLAG])),
                min_size=n,
                max_size=n,
            )
        )
        covered = [i for i, code in enumerate(codes) if code == COVERED]
        for i in covered[MAX_UNKNOWN:]:
            codes[i] = FLAG
        return Position(width, height, draw(st.integers(0, n + 1)), bytes(codes))
    position = draw(consistent_positions())
    cells = bytearray(position.cells)
    numbers = [i for i, code in enumerate(cells) if code <= 8]
    covered = [i for i, code in enumerate(cells) if code == COVERED]
    mines = position.mines
    spoil = draw(st.sampled_from(["numbers", "numbers", "total", "flag"]))
    if spoil == "numbers" and numbers:
        for i in draw(st.sets(st.sampled_from(numbers), min_size=1, max_size=2)):
            cells[i] = max(0, min(8, cells[i] + draw(st.sampled_from([-2, -1, 1, 2]))))
    elif spoil == "flag" and covered:
        cells[draw(st.sampled_from(covered))] = FLAG
    else:
        mines = max(0, mines + draw(st.sampled_from([-2, -1, 1, 2])))
    return Position(position.width, position.height, mines, bytes(cells))


def assert_one_error_line(result, *needles):
    """A CLI run that failed the way users should see it: exit status 2, no traceback,
    exactly one line on stderr starting "minesolver: error:" and naming ``needles``."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("minesolver: error:")
    for needle in needles:
        assert needle in lines[0]


# ---------------------------------------------------------------------- references
# Slow, obvious versions of the board's geometry, to check the fast kernels against.


def around(r, c, width, height):
    return [
        (rr, cc)
        for rr in range(r - 1, r + 2)
        for cc in range(c - 1, c + 2)
        if 0 <= rr < height and 0 <= cc < width and (rr, cc) != (r, c)
    ]


def ref_counts(layout):
    w, h = layout.width, layout.height
    mines = set(layout.mine_cells())
    return {
        (r, c): sum(cell in mines for cell in around(r, c, w, h))
        for r in range(h)
        for c in range(w)
    }


def ref_flood(layout, start):
    """Cells a click on safe ``start`` opens: zeros spread to all their neighbours."""
    counts = ref_counts(layout)
    opened = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        if counts[cell] == 0:
            for nb in around(*cell, layout.width, layout.height):
                if nb not in opened:
                    opened.add(nb)
                    stack.append(nb)
    return opened


def ref_bbbv(layout):
    """3BV: one click per connected area of zeros, plus numbers no zero touches."""
    counts = ref_counts(layout)
    mines = set(layout.mine_cells())
    covered_by_openings = set()
    openings = 0
    for cell, n in counts.items():
        if cell in mines or n != 0 or cell in covered_by_openings:
            continue
        openings += 1
        covered_by_openings |= ref_flood(layout, cell)
    lonely = [c for c in counts if c not in mines and c not in covered_by_openings]
    return openings + len(lonely)


def random_layout(rng, max_side=12):
    w, h = rng.randint(1, max_side), rng.randint(1, max_side)
    n = rng.randint(0, w * h - 1)  # a game needs at least one safe cell
    return Layout(w, h, tuple(rng.sample(range(w * h), n)))


def layout_from_rows(*rows):
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"]
    return Layout.from_cells(len(rows[0]), len(rows), cells)


def flags_game_on(width, height, mines, first=0):
    """A Minesweeper Flags game on the layout with mines at ``(row, col)`` cells."""
    from minesolver.variants.flags import FlagsGame

    return FlagsGame.from_layout(Layout.from_cells(width, height, mines), first=first)


def position_from_json(data):
    """The Position a ``serialize.position_json`` object describes."""
    header = f"{data['width']}x{data['height']}x{data['mines']}\n"
    return Position.from_text(header + "".join(row + "\n" for row in data["rows"]))


# ---------------------------------------------------------------------- benchmark scripts
BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def load_script(name: str) -> types.ModuleType:
    """``benchmarks/NAME.py`` as a module, to test its functions; its sibling imports
    (``losses``, ``script_args``) found as when it runs."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # registered before it runs: its dataclasses look it up
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


# ---------------------------------------------------------------------- played games
REPLAYS = DATA / "replays"  # sample replays of every format (sources in SOURCES.tsv)
# A 50/50 at the wall, (0, 0)-(1, 0), beside an unexplored area behind flags with too many
# layouts for best's endgame search (over 1,000): best plays the pair as forced.
WALL_FIFTY_FIFTY = "20x2x10\nH102FF" + "H" * 14 + "\nH102FF" + "H" * 14 + "\n"
PIXELS = 16  # cell size of the .evf replays written below


def log_of(rules, strategy, seed, start="corner"):
    """A seeded game's play log, as ``minesolver play --log`` writes it, and its record."""
    import io
    import json

    from minesolver.cli.one_game import StepLogger
    from minesolver.play import play_game
    from minesolver.serialize import cells_json, record_json
    from minesolver.strategies import find_strategy

    out = io.StringIO()
    record = play_game(rules, find_strategy(strategy), seed=seed, start=start,
                       observer=StepLogger(out))
    out.write(json.dumps({"result": record_json(record),
                          "mines": cells_json(record.layout.mine_cells())}) + "\n")
    return out.getvalue(), record


def evf_of(layout, clicks):
    """An .evf replay of ``clicks`` (opens and flags) on ``layout``, written by ms-toollib's
    own recorder (a test-only dependency: the test is skipped without it)."""
    ms = pytest.importorskip("ms_toollib")
    w = layout.width
    mines = set(layout.mines)
    board = [[-1 if r * w + c in mines else 0 for c in range(w)] for r in range(layout.height)]
    video = ms.BaseVideo(ms.cal_board_numbers(board), PIXELS)
    buttons = {"open": "l", "flag": "r", "unflag": "r"}
    for click in clicks:
        r, c = click.cell
        pixel = (r * PIXELS + PIXELS // 2, c * PIXELS + PIXELS // 2)  # (row, col) in pixels
        video.step(buttons[click.kind] + "c", pixel)
        video.step(buttons[click.kind] + "r", pixel)
    assert video.game_board_state in (3, 4), "ms-toollib saves only a finished game"
    video.software = "minesolver-test"
    video.player_identifier = "seeded"
    video.generate_evf_v4_raw_data()
    video.checksum = [0] * 32
    return bytes(video.raw_data)


def noisy_position(noise: str, seed: int, max_unknown: int = 12) -> tuple[Position, Layout]:
    """A position from a real noisy game: random reveals (zeros flood) and some true flags,
    then more of both until at most ``max_unknown`` cells are unknown (12 keeps the
    oracle to a few thousand layouts)."""
    rnd = random.Random(seed)
    width, height = rnd.choice([(2, 3), (3, 3), (4, 3), (4, 4), (5, 4), (5, 5)])
    n = width * height
    density = rnd.choice([0.1, 0.2, 0.3, 0.45])
    mines = {i for i in range(n) if rnd.random() < density} or {rnd.randrange(n)}
    mines.discard(n - 1 if len(mines) == n else -1)
    layout = Layout(width, height, tuple(sorted(mines)))
    game = Game.from_layout(layout, noise=noise, seed=rnd.getrandbits(64))
    safe = [i for i in range(n) if i not in mines]
    for i in rnd.sample(safe, rnd.randint(1, len(safe))):
        if not game.is_over:
            game.reveal(*divmod(i, width))
    flags = {m for m in mines if rnd.random() < 0.3}
    while True:
        covered = [i for i in range(n) if not game.is_revealed(*divmod(i, width))]
        unknown = [i for i in covered if i not in flags]
        if len(unknown) <= max_unknown:
            break
        i = rnd.choice(unknown)
        if i in mines:
            flags.add(i)
        else:
            game.reveal(*divmod(i, width))
    cells = bytearray(game.position().cells)
    for m in flags:
        cells[m] = FLAG
    return Position(width, height, len(mines), bytes(cells)), layout


def random_position(rng: random.Random) -> Position:
    """A small position: a random layout with a random part of its safe cells open."""
    width, height = rng.choice([(4, 3), (4, 4), (5, 3), (5, 4)])
    mines = set(rng.sample(range(width * height), rng.randint(2, 7)))
    safe = [i for i in range(width * height) if i not in mines]
    opened = set(rng.sample(safe, rng.randint(3, len(safe) - 1)))
    layout = Layout(width, height, tuple(sorted(mines)))
    counts = layout.counts.tolist()
    cells = bytes(counts[i] if i in opened else COVERED for i in range(width * height))
    return Position(width, height, len(mines), cells)


def only_move(name: str, position: Position) -> Move:
    """The one move strategy ``name`` (a ``find_strategy`` spec) makes on ``position``,
    in a game of the position's size and mine count, seed 1."""
    from minesolver.strategies import find_strategy

    strategy = find_strategy(name)
    strategy.new_game(Rules(position.width, position.height, position.mines), 1)
    (move,) = strategy.moves(position)
    return move
