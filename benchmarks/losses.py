"""Where a strategy loses: the kind and the risk of the move that lost each game.

Plays seeded games with an observer and tabulates, over the lost games, the reason of
the fatal move (guess, forced 50/50, endgame search, first click) and its mine risk by
decile, plus how many risky moves the lost games took.

    python benchmarks/losses.py --rules expert --first-click opening --start 3,3 \
        --games 600 --seed 11
    python benchmarks/losses.py --rules beginner --games 3000 --seed 2026
"""

from __future__ import annotations

import argparse
import collections
from multiprocessing import get_context

from minesolver.play import Step, parse_start, play_game
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="expert")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--start", default="corner")
    parser.add_argument("--strategy", default="best")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2)
    opts = parser.parse_args()
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
