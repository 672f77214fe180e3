"""Study 3, the C++ engine write-up: naive baselines, the sample-cap convergence, density
sweeps for both first-click rules, the share of moves that needed the probability engine.

Published (the write-up, expert 30x16/99): max single-constraint estimate about 10%, mean
about 14%, random guessing (after deductions) 7%; a capped boundary search whose win rate
converges as the cap is lifted; win rate against density for both first-click rules.

    python benchmarks/studies/cpp_writeup.py                 # 10,000 baseline games
    python benchmarks/studies/cpp_writeup.py --games 2000 --parts baselines

Every part is a stored run in --db, found again by its spec: running the script again
resumes where it stopped and then only reads the store.  Plots go to --out.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import (
    at_least,
    check_outputs,
    machine,
    pct,
    play,
    results,
    run_study,
    save_json,
    study_parser,
    sweep_rows,
    table,
)

from minesolver.bench import RunSpec, Store
from minesolver.bench.stats import wilson
from minesolver.bench.sweep import density_points, plot_sweep
from minesolver.play import parse_start
from minesolver.rules import EXPERT

# trivial rule only first, then with the subset rule: the published figures match the
# second set (with the write-up's unprotected first click), see docs/studies.md
BASELINES = {
    "random:deduce=trivial,engine=off": ("random, trivial rule only", None),
    "max-constraint:engine=off,subset=off": ("max, trivial rule only", None),
    "mean-constraint:engine=off,subset=off": ("mean, trivial rule only", None),
    "random:deduce=subset,engine=off": ("random after deductions", 0.07),
    "max-constraint:engine=off": ("max single-constraint estimate", 0.10),
    "mean-constraint:engine=off": ("mean single-constraint estimate", 0.14),
}
CAPS = (1, 3, 10, 30, 100, 1000, 10000)


def baselines(store: Store, args: argparse.Namespace) -> dict[str, object]:
    rules = EXPERT.with_first_click(args.first_click)
    spec = RunSpec(points=(rules,), strategies=tuple(BASELINES), games=args.games,
                   seed=args.seed, start=parse_start(args.start))
    run_id = play(store, "bench", spec, workers=args.workers, label="baselines")
    summary = results(store, run_id, spec)
    rows = []
    for name, (what, published) in BASELINES.items():
        s = summary[name]
        lo, hi = s["ci95"]
        rows.append([what, f"`{name}`", pct(published, 0) if published else "",
                     f"{pct(s['win_rate'])} [{pct(lo)}, {pct(hi)}]", pct(s["engine_share"]),
                     f"{s['games']}"])
    print(f"\nNaive baselines, expert, first click {args.first_click} at {args.start}, "
          f"seed {args.seed}, run {run_id}\n")
    print(table(["baseline", "name", "published", "ours (95% CI)", "turns needing the engine",
                 "games"], rows))
    return {"run_id": run_id, "results": summary}


RULE_VARIANTS = (("safe", "corner"), ("none", "corner"), ("safe", "center"),
                 ("opening", "center"))


def rule_study(store: Store, args: argparse.Namespace) -> dict[str, object]:
    """The baselines under other first-click rules and starts: which rule difference
    could explain the gap to the published figures."""
    out: dict[str, object] = {}
    rows = []
    for first_click, start in RULE_VARIANTS:
        rules = EXPERT.with_first_click(first_click)  # type: ignore[arg-type]
        spec = RunSpec(points=(rules,), strategies=tuple(BASELINES), games=args.rule_games,
                       seed=args.seed, start=parse_start(start))
        run_id = play(store, "bench", spec, workers=args.workers,
                      label=f"baselines, first click {first_click} at {start}")
        summary = results(store, run_id, spec)
        out[f"{first_click}:{start}"] = {"run_id": run_id, "results": summary}
        rows.append([f"{first_click}, {start} ({run_id})"] + [
            pct(summary[name]["win_rate"]) for name in BASELINES])
    print(f"\nBaselines under other first-click rules, expert, {args.rule_games} games each\n")
    print(table(["first click, start"] + [f"`{n}`" for n in BASELINES], rows))
    return out


def cap_study(store: Store, args: argparse.Namespace) -> dict[str, object]:
    names = (*(f"dfs:cap={c}" for c in CAPS), "dfs:cap=100,rotate=off", "tank")
    spec = RunSpec(points=(EXPERT,), strategies=names, games=args.cap_games, seed=args.seed,
                   start="corner")
    run_id = play(store, "bench", spec, workers=args.workers, label="sample cap")
    summary = results(store, run_id, spec)
    rows = []
    for name in names:
        s = summary[name]
        lo, hi = s["ci95"]
        rows.append([f"`{name}`", f"{pct(s['win_rate'])} [{pct(lo)}, {pct(hi)}]",
                     f"{s['ms_per_game_mean']:.0f}"])
    print(f"\nSample cap, expert, {args.cap_games} games each on the same boards, run {run_id}\n")
    print(table(["strategy", "win rate (95% CI)", "ms/game"], rows))
    plot_caps(summary, Path(args.out) / "study_cap.png", args.cap_games)
    return {"run_id": run_id, "results": summary}


def plot_caps(summary: dict[str, dict[str, object]], path: Path, games: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs, ys, lo, hi = [], [], [], []
    for cap in CAPS:
        s = summary[f"dfs:cap={cap}"]
        wins, n = int(s["wins"]), int(s["games"])  # type: ignore[call-overload]
        low, high = wilson(wins, n)
        xs.append(cap)
        ys.append(100 * wins / n)
        lo.append(100 * (wins / n - low))
        hi.append(100 * (high - wins / n))
    ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label="dfs:cap=N (rotating start)")
    tank = summary["tank"]
    t_lo, t_hi = wilson(int(tank["wins"]), int(tank["games"]))  # type: ignore[call-overload]
    ax.axhspan(100 * t_lo, 100 * t_hi, color="grey", alpha=0.25, label="tank (exact), 95% CI")
    fixed = summary["dfs:cap=100,rotate=off"]
    ax.plot([100], [100 * float(fixed["win_rate"])], "x", color="red",  # type: ignore[arg-type]
            markersize=9, label="cap 100, start never rotated")
    ax.set_xscale("log")
    ax.set_xlabel("solutions kept by the depth-first search (cap)")
    ax.set_ylabel("win rate (%)")
    ax.set_title(f"expert 30x16/99, {games} games per point, 95% Wilson intervals")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(str(path), dpi=110)
    plt.close(fig)
    print(f"plot: {path}")


def density_study(store: Store, args: argparse.Namespace) -> dict[str, object]:
    densities = [round(0.10 + 0.03 * k, 2) for k in range(7)]
    points = density_points(30, 16, densities, ["safe", "opening"])
    spec = RunSpec(points=points, strategies=("tank",), games=args.sweep_games, seed=args.seed,
                   start="corner", extra={"paired": True})
    run_id = play(store, "sweep", spec, workers=args.workers, label="density sweep")
    rows = sweep_rows(store, run_id, spec)
    by = {(r["first_click"], r["mines"]): r for r in rows}
    out = []
    for point in points[: len(densities)]:
        safe, opening = by[("safe", point.mines)], by[("opening", point.mines)]
        out.append([f"{point.mines} ({pct(point.mines / point.cells)})",
                    f"{pct(safe['win_rate'])} [{pct(safe['ci_lo'])}, {pct(safe['ci_hi'])}]",
                    f"{pct(opening['win_rate'])} [{pct(opening['ci_lo'])}, "
                    f"{pct(opening['ci_hi'])}]",
                    f"{pct(safe['engine_share'])} / {pct(opening['engine_share'])}"])
    print(f"\nDensity sweep, 30x16, tank, {args.sweep_games} games per point, paired boards, "
          f"run {run_id}\n")
    print(table(["mines (density)", "safe first click", "opening first click",
                 "turns needing the engine (safe / opening)"], out))
    path = Path(args.out) / "study_density.png"
    plot_sweep(rows, path, title=f"30x16, tank, {args.sweep_games} games per point")
    print(f"plot: {path}")
    return {"run_id": run_id, "rows": rows}


def main() -> None:
    parser = study_parser(__doc__)
    parser.add_argument("--games", type=at_least(1), default=10_000, help="baseline games")
    # the write-up's rules as far as we can tell: the first click is not protected
    parser.add_argument("--first-click", default="none", choices=("none", "safe", "opening"),
                        help="the rule of the baselines and the capped searches")
    parser.add_argument("--start", default="center",
                        help="the first click: corner, center or ROW,COL")
    parser.add_argument("--cap-games", type=at_least(1), default=500, help="games per cap")
    parser.add_argument("--rule-games", type=at_least(1), default=1000,
                        help="baseline games per first-click variant")
    parser.add_argument("--sweep-games", type=at_least(1), default=200,
                        help="games per density point")
    parser.add_argument("--seed", type=int, default=2026, help="the same seed, the same boards")
    parser.add_argument("--workers", type=at_least(0), default=2, help="processes (0: all cores)")
    parser.add_argument("--out", default="docs/images", help="directory for the plots")
    parser.add_argument("--parts", default="baselines,rules,cap,density",
                        help="comma-separated, of baselines, rules, cap, density")
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args()
    parts = {"baselines": baselines, "rules": rule_study, "cap": cap_study,
             "density": density_study}
    unknown = [part for part in args.parts.split(",") if part not in parts]
    if unknown:
        parser.error(f"argument --parts: unknown part {unknown[0]!r} (of {', '.join(parts)})")
    parse_start(args.start)
    check_outputs([args.json, args.db], [args.out])
    print(f"# C++ write-up study ({machine()})")
    figures = {}
    with Store(args.db) as store:
        for part in args.parts.split(","):
            figures[part] = parts[part](store, args)
    if args.json:
        save_json(args.json, figures)


if __name__ == "__main__":
    run_study(main)
