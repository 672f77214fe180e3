"""Replay stored games with today's code and say whether they come out the same.

A faster path must play as the plain one did: after a change meant to leave the moves
alone (a screen before an exact test, a cache), replay the games a ``minesolver bench``
store holds, each as ``bench`` plays it (the run's own spec: rules, seeds, start, board
file), and compare it with its row (clicks, guesses, cells opened, result):

    python benchmarks/replay_store.py chains.sqlite --strategy best:chains=on \\
        --differing-from best

``--differing-from`` keeps only the games where the two stored strategies' rows differ
(where an option changed the play: the games that test it); ``--play`` replays them
with another spec than the stored label (an option renamed or made the default);
``--run`` picks the run (by default the latest that played ``--strategy``). Prints one
line; exit status 1 when a game differs, 2 on bad input.
"""

from __future__ import annotations

import sys

from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver.bench.runner import Job, load_layouts, play_job
from minesolver.bench.store import GameRow, Store
from minesolver.errors import MinesolverError
from minesolver.strategies import find_strategy


def outcome(row: GameRow) -> tuple[int, int, int, bool]:
    """What a replay must reproduce of a game."""
    return row.clicks, row.guesses, row.opened, row.won


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("db", help="a store (SQLite file) written by minesolver bench")
    parser.add_argument("--strategy", required=True, help="the stored strategy label")
    parser.add_argument("--play", help="the spec to replay with (default: the label)")
    parser.add_argument("--differing-from", help="only games where this label played otherwise")
    parser.add_argument("--run", help="the run id (default: the latest with --strategy)")
    parser.add_argument("--max-games", type=int, default=0, help="0: every game")
    opts = parser.parse_args(argv)
    play = opts.play or opts.strategy
    try:
        find_strategy(play)  # a bad spec is refused before anything is played
        with Store(opts.db, create=False, readonly=True) as store:
            runs = [run_id for run_id, _, _, spec in store.runs()
                    if opts.strategy in spec.strategies]
            if opts.run is None and not runs:
                raise MinesolverError(f"no run of {opts.strategy!r} in {opts.db}")
            run_id = opts.run or runs[-1]
            _, spec = store.run_spec(run_id)
            rows = list(store.games(run_id, opts.strategy))
            if opts.differing_from is not None:
                other = {g.game_index: outcome(g)
                         for g in store.games(run_id, opts.differing_from)}
                rows = [g for g in rows if other.get(g.game_index, outcome(g)) != outcome(g)]
        layouts = load_layouts(spec)
    except MinesolverError as err:
        print(f"replay_store: {err}", file=sys.stderr)
        return 2
    if not rows:
        print(f"replay_store: no games of {opts.strategy!r} to replay in run {run_id}",
              file=sys.stderr)
        return 2
    rows = rows[: opts.max_games] if opts.max_games > 0 else rows
    differ = []
    for k, row in enumerate(rows, 1):
        layout = layouts[row.game_index] if layouts is not None else None
        again, _ = play_job(spec, run_id, Job(play, row.game_index, layout))
        if outcome(again) != outcome(row):
            differ.append(str(row.game_index))
        if k % 100 == 0:
            print(f"\r{k}/{len(rows)} replayed, {len(differ)} differ", end="", file=sys.stderr)
    print("", file=sys.stderr)
    print(f"{len(rows)} games replayed, {len(differ)} differ"
          + (f" (games {', '.join(differ[:5])}{' …' if len(differ) > 5 else ''})"
             if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
