"""Where the time of ``best``'s ``chains`` rule goes: each call of
``longterm.fifty_bound_cells`` and of its shape mask, timed by wrapping them, over
seeded expert games played by ``best`` in this process.

    python benchmarks/chains_parts.py --games 300 --seed 1000
    MINESOLVER_KERNELS=python python benchmarks/chains_parts.py   # the numpy reference mask

Prints the games' median time, then per call of the bound-cell test and of the mask:
count, total, mean and median milliseconds. The first call of a compiled kernel in the
process (loading it from numba's cache) is counted like any other.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    add_strategy,
    script_parser,
)

import minesolver.strategies.best as best_module
from minesolver.analysis.kernels import kernel_in_use
from minesolver.play import play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy, longterm


def timed(fn: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
    """``fn``, appending the seconds of each call to ``into``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            into.append(time.perf_counter() - start)

    return wrapper


def line(name: str, seconds: list[float]) -> str:
    ms = np.array(seconds) * 1e3
    if not len(ms):
        return f"{name}: no calls"
    return (f"{name}: {len(ms)} calls, {ms.sum() / 1e3:.3f} s, "
            f"mean {ms.mean():.3f} ms, median {np.median(ms):.3f} ms")


def main() -> None:
    parser = script_parser(__doc__)
    add_board(parser)
    add_strategy(parser)
    add_games(parser, games=300, seed=1000)
    args = parser.parse_args()
    rules = Rules.from_string(args.rules)
    bound: list[float] = []
    masks: list[float] = []
    # best calls fifty_bound_cells by the name it imported; the test calls _shape_mask
    setattr(best_module, "fifty_bound_cells", timed(longterm.fifty_bound_cells, bound))  # noqa: B010
    setattr(longterm, "_shape_mask", timed(longterm._shape_mask, masks))  # noqa: B010
    games = []
    for i in range(args.games):
        start = time.perf_counter()
        play_game(rules, find_strategy(args.strategy), seed=args.seed + i)
        games.append(time.perf_counter() - start)
    print(f"{args.games} {rules} games of {args.strategy} (seeds {args.seed}..), "
          f"kernels {kernel_in_use()}: median {np.median(games) * 1e3:.2f} ms per game")
    print(line("fifty_bound_cells", bound))
    print(line("  its shape masks", masks))


if __name__ == "__main__":
    main()
