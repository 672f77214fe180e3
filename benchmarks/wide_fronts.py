"""Wide two-dimensional fronts: spirals with one-cell gaps and dense revealed islands.

Generates seeded 50x50 boards at 18% (450 mines) whose revealed cells make a front
that is wide in both directions, and analyses each in a child process, reporting
whether the exact engine counted it, the time, the largest front and the child's
peak memory (max RSS).  Then plays seeded noisy 16x16x38 games (``cautious`` and
``optimistic`` numbers: every clue is soft, so the front covers most of the
revealed border), each in a child process, and reports the slowest turn, the
child's peak memory and the turns the engine could not count (fallback moves).
The first cautious game is the issue's (seed 6314391998351591880, which used to stop
on a 73-cell soft front).

* **spiral**: the revealed cells follow a square spiral from the border inwards with
  a one-cell covered gap between its arms, and one cell in seven along it is left
  covered (a gap in the path, linking the bands on its two sides); the mines are laid
  off the spiral.
* **island**: within a disk of radius 22 at the centre, each safe cell is revealed
  with probability 0.3; mines and the other covered cells are scattered inside it.

    python benchmarks/wide_fronts.py --seeds 4 --games 4
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from functools import partial

from script_args import add_strategy, script_parser  # benchmarks/script_args.py: shared options

from minesolver import Position
from minesolver.codes import COVERED
from minesolver.rng import SplitMix64

SIZE = 50
MINES = 450
HOLE = 7  # one cell in this many along the spiral stays covered
OPENED = 0.75  # the share of safe cells open in the noisy 16x16 positions


def spiral_cells(n: int) -> list[int]:
    """Cells of a square spiral with one-cell gaps between its arms, outside in."""
    on = [[False] * n for _ in range(n)]
    top, left, bottom, right = 0, 0, n - 1, n - 1
    while top <= bottom and left <= right:
        for c in range(left, right + 1):
            on[top][c] = True
        for r in range(top, bottom + 1):
            on[r][right] = True
        if top + 2 <= bottom:
            for c in range(left, right + 1):
                on[bottom][c] = True
        if left + 2 <= right:
            for r in range(top + 2, bottom + 1):
                on[r][left] = True
        top, left, bottom, right = top + 2, left + 2, bottom - 2, right - 2
    return [r * n + c for r in range(n) for c in range(n) if on[r][c]]


def numbers_of(mines: set[int], n: int, shown: list[int]) -> Position:
    cells = bytearray([COVERED]) * (n * n)
    for i in shown:
        r, c = divmod(i, n)
        cells[i] = sum(
            (rr * n + cc) in mines
            for rr in range(max(0, r - 1), min(n, r + 2))
            for cc in range(max(0, c - 1), min(n, c + 2))
        )
    return Position(n, n, len(mines), bytes(cells))


def spiral_position(seed: int, hole: int = HOLE) -> Position:
    """The spiral revealed except one cell in ``hole`` along it (a one-cell gap in the
    path, which links the covered bands on its two sides)."""
    path = spiral_cells(SIZE)
    spiral = set(path)
    free = [i for i in range(SIZE * SIZE) if i not in spiral]
    rng = SplitMix64(seed)
    mines = {free[j] for j in rng.sample(len(free), MINES)}
    shown = [i for k, i in enumerate(path) if k % hole]
    return numbers_of(mines, SIZE, shown)


def island_position(seed: int, radius: int = 22, reveal: float = 0.3) -> Position:
    rng = SplitMix64(seed)
    mines = set(rng.sample(SIZE * SIZE, MINES))
    mid = SIZE // 2
    shown = [
        i
        for i in range(SIZE * SIZE)
        if i not in mines
        and (i // SIZE - mid) ** 2 + (i % SIZE - mid) ** 2 <= radius * radius
        and rng.random() < reveal
    ]
    return numbers_of(mines, SIZE, shown)


def noisy_midgame(noise: str, seed: int, opened: float) -> Position:
    """A 16x16x38 game with noisy numbers after safe cells, drawn at random, are opened
    (zeros flood) until ``opened`` of the safe cells are open: late positions of a
    player who survives, whose covered cells are scattered over the board among soft
    clues, so that one front spans the board in both directions (the issue's game
    meets such fronts from its 26th turn on)."""
    from minesolver import Game, Rules
    from minesolver.noise import parse_noise

    game = Game(Rules(16, 16, 38, noise=parse_noise(noise)), seed=seed)
    game.reveal(0, 0)
    layout = game.layout
    assert layout is not None
    mines = set(layout.mines)
    rng = SplitMix64(seed)
    safe = [i for i in range(16 * 16) if i not in mines]
    order = [safe[j] for j in rng.sample(len(safe), len(safe))]
    for i in order:
        if (len(safe) - game.safe_left) >= opened * len(safe):
            break
        game.reveal(*divmod(i, 16))
    return game.position()


CASES: list[tuple[str, Callable[[int], Position], str]] = [
    ("spiral", spiral_position, ""),
    ("island", island_position, ""),
    *((f"16x16 {noise}", partial(noisy_midgame, noise, opened=OPENED), noise)
      for noise in ("cautious", "optimistic")),
]


CHILD = r"""
import json, resource, sys, time
from minesolver import Position
from minesolver.analysis import analyze
from minesolver.analysis.kernels import compiled_available
from minesolver.errors import EngineLimitError
from minesolver.noise import parse_noise
text, noise = sys.stdin.read().split("\x00")
position = Position.from_text(text)
analyze(Position.from_text("3x3x2\nHHH\n2H2\nHHH\n"))  # warm-up: imports,
compiled_available()  # and the compiled kernel (numba) loaded
start = time.perf_counter()
cpu = time.process_time()
try:
    a = analyze(position, noise=parse_noise(noise) if noise else None)
    result = {"exact": True, "largest": max((len(f.cells) for f in a.fronts), default=0),
              "width": max((f.width for f in a.fronts), default=0)}
except EngineLimitError as error:
    result = {"exact": False, "error": str(error)}
result["seconds"] = time.perf_counter() - start
result["cpu"] = time.process_time() - cpu
result["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


GAME_CHILD = r"""
import json, resource, sys, time
from minesolver import Position
from minesolver.analysis import analyze
from minesolver.analysis.kernels import compiled_available
from minesolver.play import play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
job = json.loads(sys.stdin.read())
analyze(Position.from_text("3x3x2\nHHH\n2H2\nHHH\n"))  # warm-up: imports,
compiled_available()  # and the compiled kernel (numba) loaded
turns, cpu = [], []
last = [time.perf_counter(), time.process_time()]
def observe(step):  # the time of the strategy's turn (and of the reveal)
    now = [time.perf_counter(), time.process_time()]
    turns.append(now[0] - last[0])
    cpu.append(now[1] - last[1])
    last[:] = now
rules = Rules(16, 16, 38, noise=job["noise"])
record = play_game(rules, find_strategy(job["strategy"]), seed=job["seed"], observer=observe)
print(json.dumps({"won": record.won, "turns": record.turns, "fallback": record.engine_limits,
                  "worst": max(turns[1:], default=0.0),
                  "worst_cpu": max(cpu[1:], default=0.0), "seconds": record.seconds,
                  "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
ISSUE_SEED = 6314391998351591880  # the issue's cautious game


def measure(position: Position, noise: str = "") -> dict[str, object]:
    return _child(CHILD, position.to_text() + "\x00" + noise)


def play(noise: str, strategy: str, seed: int) -> dict[str, object]:
    """One 16x16x38 game with noisy numbers, played in a child process."""
    return _child(GAME_CHILD, json.dumps({"noise": noise, "strategy": strategy, "seed": seed}))


def _child(script: str, stdin: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", script], input=stdin, capture_output=True, text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--seeds", type=int, default=3, help="generated positions of each kind")
    parser.add_argument("--games", type=int, default=3, help="noisy games of each model")
    add_strategy(parser, default="tank")
    parser.add_argument("--orders", action="store_true",
                        help="print what each candidate box order costs on the largest fronts")
    args = parser.parse_args(argv)
    if args.orders:
        orders(args.seeds)
        return 0
    if args.seeds:
        positions(args.seeds)
    if args.games:
        games(args.games, args.strategy)
    return 0


def games(count: int, strategy: str) -> None:
    print(f"\n16x16x38 games, {strategy}: the slowest turn (wall and CPU seconds), peak memory")
    print(f"{'game':<34}{'result':>7}{'turns':>7}{'fallback':>10}{'worst s':>9}{'cpu s':>7}"
          f"{'MB':>7}")
    for noise in ("cautious", "optimistic"):
        seeds = [ISSUE_SEED, *range(1, count)] if noise == "cautious" else range(1, count + 1)
        for seed in seeds:
            r = play(noise, strategy, seed)
            print(f"{noise + ' ' + str(seed):<34}{'won' if r['won'] else 'lost':>7}"
                  f"{r['turns']!s:>7}{r['fallback']!s:>10}{r['worst']:>9.2f}"
                  f"{r['worst_cpu']:>7.2f}{r['max_rss_mb']:>7.0f}", flush=True)


def orders(seeds: int) -> None:
    """The cost (``analysis.order.table_cost``: table states times polynomial length,
    summed over the steps) of the order the engine counts in and of every candidate
    order, on the largest front of each position (the candidates are made again from
    the boxes in board order, so the greedy one may break ties otherwise than the
    engine's did)."""
    from minesolver.analysis import order
    from minesolver.analysis.fronts import split_fronts
    from minesolver.analysis.system import build_system
    from minesolver.noise import parse_noise, soft_clue

    names = ["engine", "greedy", "rows", "rows back", "columns", "columns back"]
    print(f"{'position':<22}" + "".join(f"{n:>14}" for n in names))
    for name, make, noise in CASES:
        for seed in range(1, seeds + 1):
            soft = soft_clue(parse_noise(noise)) if noise else None
            fronts, _ = split_fronts(build_system(make(seed), soft=soft))
            front = max(fronts, key=lambda f: f.size)
            boxes = sorted(front.boxes, key=lambda box: box.cells)  # in board order
            engine = [boxes.index(box) for box in front.boxes]
            cells = [box.cells for box in boxes]
            clues = [box.clues for box in boxes]
            sizes = [len(c) for c in cells]
            candidates = [engine, order.greedy_order(cells, clues, len(front.clues)),
                          *order.sweep_orders(cells, front.board_width)]
            costs = [order.table_cost(ranked, sizes, clues, front.clues, limit=10**9)
                     for ranked in candidates]
            row = "".join(f"{'>1e9' if c is None else f'{c:,}':>14}" for c in costs)
            print(f"{name + ' #' + str(seed):<22}{row}", flush=True)


def positions(seeds: int) -> None:
    cases = CASES
    print(f"{'position':<22}{'exact':>6}{'front':>7}{'width':>7}{'s':>7}{'cpu s':>7}{'MB':>6}")
    for name, make, noise in cases:
        for seed in range(1, seeds + 1):
            r = measure(make(seed), noise)
            front = r.get("largest", "-")
            width = r.get("width", "-")
            print(f"{name + ' #' + str(seed):<22}{'yes' if r['exact'] else 'NO':>6}{front!s:>7}"
                  f"{width!s:>7}{r['seconds']:>7.2f}{r['cpu']:>7.2f}{r['max_rss_mb']:>6.0f}",
                  flush=True)
            if not r["exact"]:
                print(f"    {r['error']}")


if __name__ == "__main__":
    sys.exit(main())
