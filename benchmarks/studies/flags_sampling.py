"""Study 4, the Minesweeper Flags AI that samples whole boards: boards generated per 5
seconds, one thread against two.

Published: a Flags AI that samples whole consistent boards, its boards per 5 s measured
single-threaded and dual-threaded.

Ours, two measures:

1. throughput: on a seeded mid-game Flags position (``exact`` plays both seats for
   ``--moves`` moves), the ``mc`` player's sampler (uniform boards proposed and checked
   against every number) runs for ``--seconds`` seconds in one process, then in two
   processes at once; boards proposed (and kept) are summed;
2. in play: a stored match ``mc`` against ``exact`` (``--games`` games), whose games record
   the boards ``mc`` sampled and the seconds it took (``minesolver flags`` reports the same).

    python benchmarks/studies/flags_sampling.py [--seconds 5 --games 20 --seed 5]

The match is a stored run, resumed on the next run; the throughput is measured afresh.
"""

from __future__ import annotations

import sys
import time
from multiprocessing import get_context

from common import (
    Progress,
    at_least,
    check_outputs,
    find_run,
    machine,
    run_study,
    save_json,
    study_parser,
    table,
)

from minesolver.analysis.sampling import rejection_layouts
from minesolver.bench import Store
from minesolver.bench.flags import flags_spec, flags_summary, pending_flags, run_flags
from minesolver.position import Position
from minesolver.rng import SplitMix64, derive_seed
from minesolver.variants.flags import FLAGS, FlagsGame, find_flags_player

BATCH = 200  # proposals between clock checks


def mid_game(seed: int, moves: int) -> Position:
    """The board after ``moves`` moves of ``exact`` against itself (a seeded position)."""
    game = FlagsGame(FLAGS, seed=seed)
    players = [find_flags_player("exact"), find_flags_player("exact")]
    for seat, player in enumerate(players):
        player.new_game(derive_seed(seed, seat))
    for _ in range(moves):
        if game.turn is None:
            break
        game.play(players[game.turn].choose(game.view()))
    return game.view().position


def sample_for(args: tuple[Position, float, int]) -> tuple[int, int]:
    """Propose boards for ``seconds``; returns (proposed, kept)."""
    position, seconds, seed = args
    rng = SplitMix64(seed)
    proposed = kept = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        accepted, used = rejection_layouts(position, BATCH, rng)
        proposed += used
        kept += len(accepted)
    return proposed, kept


def throughput(position: Position, seconds: float, processes: int, seed: int) -> tuple[int, int]:
    jobs = [(position, seconds, derive_seed(seed, k)) for k in range(processes)]
    if processes == 1:
        return sample_for(jobs[0])
    with get_context("fork").Pool(processes) as pool:
        parts = pool.map(sample_for, jobs)
    return sum(p for p, _ in parts), sum(k for _, k in parts)


def main() -> None:
    parser = study_parser(__doc__)
    parser.add_argument("--seconds", type=at_least(0.1, float), default=5.0,
                        help="sampling time of each throughput measure")
    parser.add_argument("--moves", type=at_least(0), default=12,
                        help="moves played before the measured position")
    parser.add_argument("--games", type=at_least(1), default=20, help="games of the match")
    parser.add_argument("--seed", type=int, default=5,
                        help="the position's game and the match's boards")
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args()
    check_outputs([args.json, args.db])
    print(f"# Flags sampling study ({machine()})")
    position = mid_game(args.seed, args.moves)
    shown = sum(1 for code in position.cells if code <= 8)
    print(f"\nposition: Flags {FLAGS}, seed {args.seed}, after {args.moves} moves "
          f"({shown} numbers shown, {position.mines_left} mines not found)\n")
    figures: dict[str, object] = {}
    rows = []
    for processes in (1, 2):
        proposed, kept = throughput(position, args.seconds, processes, args.seed)
        figures[f"{processes}"] = {"proposed": proposed, "kept": kept}
        rows.append([processes, f"{proposed:,}", f"{kept:,}",
                     f"{proposed / args.seconds:,.0f}"])
        print(f"[throughput] {processes} process(es) done", file=sys.stderr, flush=True)
    one, two = figures["1"]["proposed"], figures["2"]["proposed"]  # type: ignore[index]
    print(table(["processes", f"boards proposed in {args.seconds:g} s", "kept (consistent)",
                 "per second"], rows))
    print(f"\ntwo processes / one: {two / one:.2f}x")
    spec = flags_spec("mc", "exact", games=args.games, seed=args.seed)
    with Store(args.db) as store:
        run_id = find_run(store, "flags", spec)
        done = {r.game_index for r in store.flags_games(run_id)}
        progress = Progress("flags match", args.games, len(done))
        run_flags(spec, run_id, store, pending_flags(spec, done), workers=1,
                  on_game=lambda _: progress.tick())
        summary = flags_summary(list(store.flags_games(run_id)))
    rate = summary["p1_boards_per_second"]
    print(f"\nin play: mc against exact, {summary['games']} games (run {run_id}): mc sampled "
          f"{rate:,.0f} boards per second of sampling, {rate * 5:,.0f} per 5 s; "
          f"mc won {100 * summary['p1_win_rate']:.1f}%")
    figures["match"] = {"run_id": run_id, "boards_per_second": rate,
                        "p1_win_rate": summary["p1_win_rate"]}
    if args.json:
        save_json(args.json, figures)


if __name__ == "__main__":
    run_study(main)
