"""Wide two-dimensional fronts: spirals with one-cell gaps and dense revealed islands.

Generates seeded 50x50 boards at 18% (450 mines) whose revealed cells make a front
that is wide in both directions, and analyses each in a child process, reporting
whether the exact engine counted it, the time, the largest front and the child's
peak memory (max RSS).  Also plays the issue's noisy game (a 73-cell soft front).

* **spiral**: the revealed cells follow a square spiral from the border inwards with
  a one-cell covered gap between its arms, and one cell in seven along it is left
  covered (a gap in the path, linking the bands on its two sides); the mines are laid
  off the spiral.
* **island**: within a disk of radius 22 at the centre, each safe cell is revealed
  with probability 0.3; mines and the other covered cells are scattered inside it.

    python benchmarks/wide_fronts.py --seeds 3
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from minesolver import Position
from minesolver.codes import COVERED
from minesolver.rng import SplitMix64

SIZE = 50
MINES = 450
HOLE = 7  # one cell in this many along the spiral stays covered


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


CHILD = r"""
import json, resource, sys, time
from minesolver import Position
from minesolver.analysis import analyze
from minesolver.errors import EngineLimitError
position = Position.from_text(sys.stdin.read())
from minesolver.analysis.kernels import compiled_available
analyze(Position.from_text("3x3x2\nHHH\n2H2\nHHH\n"))  # warm-up: imports,
compiled_available()  # and the compiled kernel (numba) loaded
start = time.perf_counter()
try:
    a = analyze(position)
    result = {"exact": True, "largest": max((len(f.cells) for f in a.fronts), default=0),
              "width": max((f.width for f in a.fronts), default=0)}
except EngineLimitError as error:
    result = {"exact": False, "error": str(error)}
result["seconds"] = time.perf_counter() - start
result["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


def measure(position: Position) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], input=position.to_text(), capture_output=True,
        text=True, check=True,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'position':<14}{'exact':>7}{'front':>7}{'width':>7}{'s':>8}{'MB':>8}")
    for seed in range(1, args.seeds + 1):
        for name, make in (("spiral", spiral_position), ("island", island_position)):
            r = measure(make(seed))
            front = r.get("largest", "-")
            width = r.get("width", "-")
            print(f"{name} #{seed:<7}{'yes' if r['exact'] else 'NO':>7}{front!s:>7}"
                  f"{width!s:>7}{r['seconds']:>8.2f}{r['max_rss_mb']:>8.0f}", flush=True)
            if not r["exact"]:
                print(f"    {r['error']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
