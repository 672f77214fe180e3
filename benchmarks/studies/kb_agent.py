"""Study 5, the knowledge-base agent: 64x64 boards against mine density, the open rate of
games that opened at least 5% of the board, chains of deductions, what the total mine count
is worth, noisy clues.

Published: on 64x64 boards the agent's success falls off around 20-23% mines; the open rate
is 97.1% counting only games that opened at least 5% of the board; chains of influence; the
worth of knowing the total mine count; noisy clues.

Ours: ``tank`` (exact probabilities) and ``tank:total=off`` (the same without the mine
counter) on the same 64x64 boards (safe first click in the centre), a paired sweep over
densities; then ``tank`` with noisy clues at one density (on 30x16 by default: see
--noise-size).  The threshold is where the win rate crosses 50% and 10% (linear between
the two points around it).

    python benchmarks/studies/kb_agent.py [--games 100 --noise-games 50 --seed 11]

Both sweeps are stored runs, resumed on the next run.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from common import (
    at_least,
    check_outputs,
    machine,
    pct,
    play,
    run_study,
    save_json,
    size_of,
    study_parser,
    sweep_rows,
    table,
)

from minesolver.bench import RunSpec, Store
from minesolver.bench.summary import compare
from minesolver.bench.sweep import density_points, plot_sweep
from minesolver.noise import parse_noise

DENSITIES = [0.14, 0.16, 0.18, 0.20, 0.22, 0.24, 0.26]
NOISES = ("withheld:0.5", "optimistic", "cautious")


def crossing(rows: list[dict[str, object]], level: float) -> float | None:
    """The density where the win rate first falls below ``level`` (linear interpolation)."""
    points = sorted((float(r["density"]), float(r["win_rate"]))  # type: ignore[arg-type]
                    for r in rows)
    for (d0, w0), (d1, w1) in pairwise(points):
        if w0 >= level > w1:
            return d0 + (w0 - level) * (d1 - d0) / (w0 - w1)
    return None


def among_opened(row: dict[str, Any]) -> str:
    """The open rate among the games that opened 5% of the board: "-" when none did
    (the summary's 0.0 then stands for no games, not for games that opened nothing)."""
    return pct(row["open_rate_5"]) if row["opened_5"] else "-"


def main() -> None:
    parser = study_parser(__doc__)
    parser.add_argument("--games", type=at_least(1), default=100, help="games per density")
    parser.add_argument("--noise-games", type=at_least(1), default=50,
                        help="games per noise model")
    parser.add_argument("--noise-density", type=at_least(0.0, float), default=0.14,
                        help="mine density of the noisy games")
    # noisy posteriors of 64x64 fronts can exceed the engine's memory limit (docs/studies.md)
    parser.add_argument("--noise-size", default="30x16", help="board of the noisy games, WxH")
    parser.add_argument("--seed", type=int, default=11, help="the same seed, the same boards")
    parser.add_argument("--workers", type=at_least(0), default=2, help="processes (0: all cores)")
    parser.add_argument("--out", default="docs/images", help="folder for the plot")
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args()
    check_outputs([args.json, args.db], [args.out])
    print(f"# Knowledge-base agent study ({machine()})")
    points = density_points(64, 64, DENSITIES, ["safe"])
    spec = RunSpec(points=points, strategies=("tank", "tank:total=off"), games=args.games,
                   seed=args.seed, start="center", extra={"paired": True})
    nw, nh = size_of(args.noise_size)
    noisy = density_points(nw, nh, [args.noise_density], ["safe"],
                           [None, *(parse_noise(n) for n in NOISES)])
    noise_spec = RunSpec(points=noisy, strategies=("tank",), games=args.noise_games,
                         seed=args.seed, start="center", extra={"paired": True})
    with Store(args.db) as store:
        run_id = play(store, "sweep", spec, workers=args.workers, label="64x64 sweep")
        noise_id = play(store, "sweep", noise_spec, workers=args.workers, label="noisy clues")
        rows = sweep_rows(store, run_id, spec)
        noise_rows = sweep_rows(store, noise_id, noise_spec)
        games = {name: list(store.games(run_id, name)) for name in spec.strategies}
    tank = [r for r in rows if r["strategy"] == "tank"]
    blind = {r["mines"]: r for r in rows if r["strategy"] == "tank:total=off"}
    out = []
    for p, r in enumerate(tank):
        b = blind[r["mines"]]
        paired = compare(
            [g for g in games["tank"] if g.game_index // args.games == p],
            [g for g in games["tank:total=off"] if g.game_index // args.games == p],
        )
        out.append([
            f"{pct(r['density'])}", f"{pct(r['win_rate'])} [{pct(r['ci_lo'])}, "
            f"{pct(r['ci_hi'])}]", pct(r["opened_5"]), among_opened(r),
            f"{r['chain_mean']:.1f} / {r['chain_max']}", pct(r["engine_share"]),
            f"{pct(b['win_rate'])} ({paired.a_only} / {paired.b_only}, p = "
            f"{paired.p_value:.2g})",
        ])
    print(f"\n64x64, tank, {args.games} games per density, paired boards (run {run_id})\n")
    print(table(["density", "win rate (95% CI)", "games opening >= 5%", "open rate among them",
                 "deduction chain mean / max (turns)", "turns needing the engine",
                 "without the mine count (won only with / only without, McNemar)"], out))
    first = min(tank, key=lambda r: float(r["density"]))
    for level in (0.5, 0.1):
        at = crossing(tank, level)
        if at is not None:
            where = pct(at)
        elif float(first["win_rate"]) < level:
            where = f"{pct(float(first['density']))} or before (the sweep's first)"
        else:
            where = "beyond the sweep"
        print(f"win rate falls below {pct(level, 0)} at density {where}")
    print(f"\nNoisy clues, {args.noise_size} at {pct(args.noise_density, 0)}, tank, "
          f"{args.noise_games} "
          f"games per model, the same boards (run {noise_id})\n")
    print(table(["clues", "win rate (95% CI)", "open rate among games opening >= 5%"],
                [[r["noise"], f"{pct(r['win_rate'])} [{pct(r['ci_lo'])}, {pct(r['ci_hi'])}]",
                  among_opened(r)] for r in noise_rows]))
    path = f"{args.out}/study_kb.png"
    plot_sweep(rows, path, title=f"64x64, {args.games} games per density")
    print(f"plot: {path}")
    if args.json:
        save_json(args.json, {"run_id": run_id, "rows": rows, "noise_run": noise_id,
                              "noise_rows": noise_rows})


if __name__ == "__main__":
    run_study(main)
