"""Replay stored games with today's code and say whether they come out the same.

A faster path must play as the plain one did: after a change meant to leave the moves
alone (a screen before an exact test, a cache), replay the games a ``minesolver bench``
store holds and compare each with its row (clicks, guesses, cells opened, result):

    python benchmarks/replay_store.py chains.sqlite --strategy best:chains=on \\
        --differing-from best

``--differing-from`` keeps only the games where the two stored strategies' rows differ
(where an option changed the play: the games that test it); ``--play`` replays them
with another spec than the stored label (an option renamed or made the default).
Seeded boards of a plain run only (not board files, sweeps or paired runs). Prints one
line; exit status 1 when a game differs, 2 on bad input.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys

from minesolver.errors import MinesolverError
from minesolver.play import layer_for, parse_start, play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

Row = tuple[str, str, str, str, int, int, int, int]


def stored(path: str, strategy: str, other: str | None) -> list[Row]:
    """``(seed, rules, first_click, start, clicks, guesses, opened, won)`` per game."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        head = ("SELECT b.seed, b.rules, b.first_click, b.start, b.clicks, b.guesses, "
                "b.opened, b.won FROM games b")
        if other is None:
            return db.execute(head + " WHERE b.strategy = ? ORDER BY b.game_index",
                              (strategy,)).fetchall()
        return db.execute(
            head + " JOIN games a ON a.run_id = b.run_id AND a.game_index = b.game_index"
            " WHERE b.strategy = ? AND a.strategy = ? AND (a.clicks <> b.clicks OR"
            " a.guesses <> b.guesses OR a.opened <> b.opened OR a.won <> b.won)"
            " ORDER BY b.game_index", (strategy, other)).fetchall()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--strategy", required=True, help="the stored strategy label")
    parser.add_argument("--play", help="the spec to replay with (default: the label)")
    parser.add_argument("--differing-from", help="only games where this label played otherwise")
    parser.add_argument("--max-games", type=int, default=0, help="0: every game")
    opts = parser.parse_args(argv)
    try:
        rows = stored(opts.db, opts.strategy, opts.differing_from)
        strategy = find_strategy(opts.play or opts.strategy)
    except (sqlite3.Error, MinesolverError) as err:
        print(f"replay_store: {err}", file=sys.stderr)
        return 2
    if not rows:
        print(f"replay_store: no games of {opts.strategy!r} to replay in {opts.db}",
              file=sys.stderr)
        return 2
    rows = rows[: opts.max_games] if opts.max_games > 0 else rows
    differ = []
    for k, (seed, text, first, start, clicks, guesses, opened, won) in enumerate(rows, 1):
        rules = Rules.from_string(text, first_click=first)  # type: ignore[arg-type]
        game = play_game(rules, strategy, seed=int(seed), start=parse_start(start),
                         lay=layer_for(rules), measure=False)
        if (game.clicks, game.guesses, game.opened, int(game.won)) != (
                clicks, guesses, opened, won):
            differ.append(seed)
        if k % 100 == 0:
            print(f"\r{k}/{len(rows)} replayed, {len(differ)} differ", end="", file=sys.stderr)
    print("", file=sys.stderr)
    print(f"{len(rows)} games replayed, {len(differ)} differ"
          + (f" (seeds {', '.join(differ[:5])}{' …' if len(differ) > 5 else ''})"
             if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
