"""What JSMinesweeper's picks would be worth to ``best``, valued by playouts of ``best``.

Game outcomes are a noisy way to compare two players that agree on most moves: the
paired runs of ``benchmarks/versus_jsms.py`` need 15,000 boards to see half a point.
This asks the question move by move instead.  It plays seeded games with ``best``; at
each of its guesses (an endgame move is exact, so those are only counted) it asks
JSMinesweeper's analyser for its move on the very same position (the harness's
``probs --move``, as ``benchmarks/losses.py --versus`` does).  Where the two differ,
both cells are played out by ``best`` itself on the same ``--layouts`` layouts drawn
exactly from the position (:func:`minesolver.strategies.rollouts.rollout_values`, the
playouts of ``best:rollouts=N,rollout_policy=best``): a cell's value is its exact safety
times the share of playouts won among the layouts where it is safe, the chance of
winning the game when ``best`` opens that cell and then plays on as it would. The
difference (JSMinesweeper's cell minus ``best``'s) is what switching to JSMinesweeper's
pick at that position would gain, up to the playouts' noise; summed over the games and
divided by their number, it is the points per game that JSMinesweeper's guessing would
add to ``best``.  The table splits the disagreements by their kind (equal exact risk or
not, JSMinesweeper's pick on the front or off it, the game's first guess or a later one)
with a 95% interval each (over positions: it holds the playouts' noise and the
positions' spread).

    python benchmarks/versus_value.py --games 300 --seed 20261800 --layouts 100 \\
        --harness ../shared/peers/jsms_harness.js --jsms /work/peers/JSMinesweeper \\
        --out /work/runs/value.jsonl

``--rival STRATEGY`` asks a strategy instead (a fresh instance on the same position), so
the same question is put to an option of ``best`` at the positions where it changes the
move (``--strategy best:walled=off --rival best``: what the walled rule's forced guesses
are worth).

Each position is one line of ``--out`` (appended as it is valued, so a stopped run
keeps what it did and ``--summary FILE`` prints the table of such a file again).

``--why FILE`` asks, for each valued disagreement of such a file (the run's options
given again, so that its games replay), which path of JSMinesweeper's solver chose
its pick: the harness is run with ``--verbose`` and its console words are read
(:func:`route`), and the table is split by path.  The words are those of the
JSMinesweeper commit the harness README names; another commit may word them
otherwise (then everything reads "other").
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from losses import harness_text, jsms_move  # benchmarks/losses.py: the harness, spoken to
from script_args import (  # benchmarks/script_args.py: shared options
    add_board,
    add_games,
    add_jsms,
    add_strategy,
    parse_board_args,
    script_parser,
    strategy_spec,
)

from minesolver.codes import COVERED, is_number
from minesolver.errors import MinesolverError
from minesolver.geometry import Grid
from minesolver.play import Step, parse_start, play_game
from minesolver.position import Position
from minesolver.rng import SplitMix64, derive_seed
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
from minesolver.strategies.rollouts import rollout_values

Guess = tuple[Position, int, str, object]  # position, best's cell, reason, analysis


def guesses(opts: argparse.Namespace, index: int) -> tuple[list[Guess], bool]:
    """``best``'s game ``index``: its guess positions (position, cell, reason, analysis)
    and whether it won."""
    found: list[Guess] = []

    def observe(step: Step) -> None:
        for move in step.moves:
            if move.reason in ("guess", "endgame", "forced") and step.analysis is not None:
                row, col = move.cell
                found.append((step.position, row * step.position.width + col, move.reason,
                              step.analysis))
                return

    rules = Rules.from_string(opts.rules, first_click=opts.first_click)
    record = play_game(rules, find_strategy(opts.strategy), seed=derive_seed(opts.seed, index),
                       start=parse_start(opts.start), observer=observe)
    return found, record.won


def on_front(position: Position, cell: int) -> bool:
    """Whether ``cell`` touches an open number."""
    around = Grid(position.width, position.height).neighbours(cell)
    return any(is_number(position.cells[j]) for j in around)


def rival_move(position: Position, opts: argparse.Namespace, rules: Rules,
               index: int) -> tuple[int, int] | None:
    """The rival's move on ``position``: JSMinesweeper's analyser's, or the first cell a
    fresh instance of the ``--rival`` strategy opens (``None`` when it opens none)."""
    if opts.rival == "jsms":
        return jsms_move(position, opts)
    rival = find_strategy(opts.rival)
    rival.new_game(rules, derive_seed(opts.seed, index))
    return next((m.cell for m in rival.moves(position) if m.action == "reveal"), None)


def one_game(args: tuple[argparse.Namespace, int]) -> list[dict[str, object]]:
    """Every guess of game ``index``: agreed, an endgame move, or valued."""
    opts, index = args
    rules = Rules.from_string(opts.rules, first_click=opts.first_click)
    found, won = guesses(opts, index)
    rows: list[dict[str, object]] = []
    if not found:  # won without a guess: a game all the same
        return [{"game": index, "guess": -1, "won": won, "kind": "no guess"}]
    for k, (position, ours, reason, analysis) in enumerate(found):
        row: dict[str, object] = {"game": index, "guess": k, "won": won, "reason": reason,
                                  "covered": position.cells.count(COVERED)}
        theirs_rc = rival_move(position, opts, rules, index)
        theirs = None if theirs_rc is None else theirs_rc[0] * position.width + theirs_rc[1]
        if theirs is None or theirs == ours or position.cells[theirs] != COVERED:
            row["kind"] = "same" if theirs == ours else "no answer"
            rows.append(row)
            continue
        if reason == "endgame":
            row["kind"] = "endgame"  # best's move is exactly the best there
            rows.append(row)
            continue
        prob = analysis.prob  # type: ignore[attr-defined]
        width = position.width
        safety = (1.0 - float(prob[divmod(ours, width)]), 1.0 - float(prob[divmod(theirs, width)]))
        started = time.perf_counter()
        player = find_strategy(opts.strategy)
        player.new_game(rules, 0)  # the playouts' rules
        rng = SplitMix64(derive_seed(opts.seed ^ 0x5EED, index * 64 + k))
        played = rollout_values(position, [ours, theirs], opts.layouts, rng, policy=player)
        tally = [(v.won, v.played) for v in played]
        values = [v.value for v in played]
        row.update(kind="equal risk" if abs(safety[0] - safety[1]) < 1e-9 else
                   "rival riskier" if safety[1] < safety[0] else "rival safer",
                   ours=ours, theirs=theirs, safety=safety, tally=tally,
                   theirs_on_front=on_front(position, theirs),
                   ours_on_front=on_front(position, ours),
                   difference=values[1] - values[0], seconds=time.perf_counter() - started)
        rows.append(row)
    return rows


ROUTES = (
    "an unavoidable or pseudo 50/50",
    "a cell its 50/50 influence lifted to the candidates",
    "its tie-break among the safest cells",
    "brute force of an isolated edge",
    "other",
)


def route(text: str, theirs: tuple[int, int]) -> str:
    """Which path of JSMinesweeper's solver chose ``theirs`` (``(row, col)``), from
    its ``--verbose`` console text (the words of the commit the harness README
    names: tiles are written ``(x,y)``, column first).

    >>> route("Long term risk not being considered", (1, 16))
    'an unavoidable or pseudo 50/50'
    >>> route("--- Starting Best Guess Analysis ---\\nTile (3,8) added to the list", (8, 3))
    'a cell its 50/50 influence lifted to the candidates'
    """
    row, col = theirs
    if "Long term risk not being considered" in text:  # the tie-break of forced groups
        return ROUTES[0]
    if f"Tile ({col},{row}) added to the list" in text:
        return ROUTES[1]
    if "Starting Best Guess Analysis" in text:
        return ROUTES[2]
    if "brute force for isolated edge" in text:
        return ROUTES[3]
    return ROUTES[4]


Rows = list[dict[str, object]]


def why_one(args: tuple[argparse.Namespace, int, Rows]) -> Rows:
    """The valued rows of game ``index``, each with the path JSMinesweeper took."""
    opts, index, rows = args
    found, _ = guesses(opts, index)
    env = {**os.environ, "JSMS_DIR": str(Path(opts.jsms).resolve())}
    for row in rows:
        k = int(row["guess"])  # type: ignore[call-overload]
        if k >= len(found) or found[k][1] != row["ours"]:
            raise ValueError(f"game {index} does not replay as the file says: give --why "
                             "the options (and the code) of the run that wrote it")
        position = found[k][0]
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(harness_text(position))
        try:
            done = subprocess.run(
                ["node", str(Path(opts.harness).resolve()), "probs", handle.name, "--move",
                 "--verbose", "--always-tiebreak"],
                capture_output=True, text=True, env=env, timeout=600)
            text = done.stdout + done.stderr
        except subprocess.TimeoutExpired:  # no answer in ten minutes: counted as other
            text = ""
        finally:
            os.unlink(handle.name)
        theirs = divmod(int(row["theirs"]), position.width)  # type: ignore[call-overload]
        row["route"] = route(text, theirs)
    return rows


def why(path: Path, opts: argparse.Namespace) -> None:
    """The table of ``--out`` file ``path`` split by JSMinesweeper's path to its pick."""
    rows = read(path)
    games = len({r["game"] for r in rows})
    by_game: dict[int, Rows] = collections.defaultdict(list)
    for r in rows:
        if "difference" in r:
            by_game[int(r["game"])].append(r)  # type: ignore[call-overload]
    todo = [(opts, g, part) for g, part in sorted(by_game.items())]
    valued: Rows = []
    with get_context("fork").Pool(opts.workers) as pool:
        try:
            for n, part in enumerate(pool.imap_unordered(why_one, todo), 1):
                valued.extend(part)
                if n % 20 == 0 or n == len(todo):
                    print(f"versus_value: {n}/{len(todo)} games asked why", file=sys.stderr,
                          flush=True)
        except ValueError as error:  # a replay that differs: one line, not a traceback
            print(f"versus_value: {error}", file=sys.stderr)
            sys.exit(2)
    print(f"{games} games; JSMinesweeper's pick minus best's, by the path that chose it")
    print(f"{'path':<52} {'n':>5} {'per position':>22} {'per game':>22} {'better/worse':>13}")
    for name in ROUTES:
        for kind in ("every kind", "rival riskier"):
            part = [r for r in valued if r["route"] == name
                    and (kind == "every kind" or r["kind"] == kind)]
            if not part:
                continue
            mean, half, per_game, per_game_half = clustered(part, games)
            diffs = [float(r["difference"]) for r in part]  # type: ignore[arg-type]
            label = name if kind == "every kind" else "  of which the rival's pick is riskier"
            print(f"{label:<52} {len(part):>5} {100 * mean:>+7.2f} "
                  f"[{100 * (mean - half):+.2f}, {100 * (mean + half):+.2f}] "
                  f"{100 * per_game:>+7.3f} [{100 * (per_game - per_game_half):+.3f}, "
                  f"{100 * (per_game + per_game_half):+.3f}] "
                  f"{sum(d > 0 for d in diffs):>6}/{sum(d < 0 for d in diffs):<6}")


def clustered(part: list[dict[str, object]], games: int) -> tuple[float, float, float, float]:
    """The mean difference per position and per game, each with the half-width of its
    95% interval.  The positions of one game are not independent (a 50/50 left open is
    met again at the next guess), so both intervals treat the game as the unit: the
    per-game one is over the games' sums (zero for a game without such a position), the
    per-position one is that of a ratio of two such sums."""
    sums: dict[object, float] = collections.defaultdict(float)
    sizes: dict[object, int] = collections.defaultdict(int)
    for r in part:
        sums[r["game"]] += float(r["difference"])  # type: ignore[arg-type]
        sizes[r["game"]] += 1
    n, total = len(part), sum(sums.values())
    per_game, per_position = total / games, total / n
    if games < 2:
        return per_position, math.nan, per_game, math.nan
    spread = sum(v * v for v in sums.values()) - games * per_game**2  # zeros included
    game_half = 1.96 * math.sqrt(max(spread, 0.0) / (games - 1) / games)
    residual = sum((sums[g] - per_position * sizes[g]) ** 2 for g in sums)
    position_half = (1.96 * math.sqrt(games / (games - 1) * residual) / n
                     if len(sums) > 1 else math.nan)  # one game says nothing of the spread
    return per_position, position_half, per_game, game_half


def groups(valued: list[dict[str, object]]) -> list[tuple[str, list[dict[str, object]]]]:
    """The valued disagreements, all and by kind."""
    out: list[tuple[str, list[dict[str, object]]]] = [("every valued disagreement", valued)]
    for kind in ("equal risk", "rival riskier", "rival safer"):
        out.append((kind, [r for r in valued if r["kind"] == kind]))
    out.append(("the rival's pick off the front",
                [r for r in valued if not r["theirs_on_front"]]))
    out.append(("the rival's pick on the front", [r for r in valued if r["theirs_on_front"]]))
    out.append(("the game's first guess", [r for r in valued if r["guess"] == 0]))
    out.append(("a later guess", [r for r in valued if r["guess"] != 0]))
    return [(name, part) for name, part in out if part]


def table(rows: list[dict[str, object]]) -> tuple[int, list[dict[str, Any]]]:
    """The number of games and, for each group of disagreements, its size, the mean
    difference per position and per game (points) with 95% half-widths, and how many
    went the rival's way and how many ``best``'s."""
    games = len({r["game"] for r in rows})
    lines = []
    for name, part in groups([r for r in rows if "difference" in r]):
        mean, half, per_game, per_game_half = clustered(part, games)
        diffs = [float(r["difference"]) for r in part]  # type: ignore[arg-type]
        lines.append({"name": name, "n": len(part), "mean": 100 * mean, "half": 100 * half,
                      "per_game": 100 * per_game, "per_game_half": 100 * per_game_half,
                      "better": sum(1 for d in diffs if d > 0),
                      "worse": sum(1 for d in diffs if d < 0)})
    return games, lines


def summary(rows: list[dict[str, object]], rival: str) -> None:
    games, lines = table(rows)
    kinds = collections.Counter(str(r["kind"]) for r in rows if r["kind"] != "no guess")
    print(f"{games} games, {sum(kinds.values())} guesses: "
          + ", ".join(f"{n} {k}" for k, n in kinds.most_common()))
    print(f"{rival}'s pick minus best's, each played out by best (points of win chance)")
    print(f"{'disagreements':<36} {'n':>5} {'per position':>22} {'per game':>22} "
          f"{'better/worse':>13}")
    for t in lines:
        print(f"{t['name']:<36} {t['n']:>5} {t['mean']:>+7.2f} [{t['mean'] - t['half']:+.2f}, "
              f"{t['mean'] + t['half']:+.2f}] {t['per_game']:>+7.3f} "
              f"[{t['per_game'] - t['per_game_half']:+.3f}, "
              f"{t['per_game'] + t['per_game_half']:+.3f}] {t['better']:>6}/{t['worse']:<6}")


def read(path: Path) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:  # the first run's files name the rival
        row["kind"] = str(row["kind"]).replace("JSMinesweeper ", "rival ")
    return rows


def rival_name(rival: str) -> str:
    return "JSMinesweeper" if rival == "jsms" else rival


def main() -> None:
    parser = script_parser(__doc__)
    add_board(parser, first_click=True)
    add_strategy(parser)
    parser.add_argument("--rival", default="jsms",
                        type=lambda text: text if text == "jsms" else strategy_spec(text),
                        help="jsms (JSMinesweeper's analyser) or a strategy such as best:fifty=0.9")
    add_games(parser, games=300, seed=20261800)
    parser.add_argument("--layouts", type=int, default=100, help="playouts per cell")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--out", default=None, help="one line per guess (appended)")
    parser.add_argument("--summary", default=None, help="print the table of an --out file")
    parser.add_argument("--why", default=None,
                        help="split an --out file's table by JSMinesweeper's path to its pick")
    add_jsms(parser)
    opts = parse_board_args(parser)
    if opts.summary:
        summary(read(Path(opts.summary)), rival_name(opts.rival))
        return
    if opts.rival == "jsms" and not (Path(opts.harness).is_file() and Path(opts.jsms).is_dir()):
        parser.error("give --harness and --jsms (see ../shared/peers/README.md)")
    if opts.why:
        if not Path(opts.why).is_file():
            parser.error(f"no such file: {opts.why}")
        why(Path(opts.why), opts)
        return
    for spec in (opts.strategy, *([] if opts.rival == "jsms" else [opts.rival])):
        try:
            find_strategy(spec)
        except MinesolverError as error:
            parser.error(str(error))
    out = Path(opts.out) if opts.out else None
    done = {int(r["game"]) for r in read(out)} if out and out.exists() else set()  # type: ignore[call-overload]
    todo = [(opts, i) for i in range(opts.games) if i not in done]
    rows = read(out) if out and out.exists() else []
    with get_context("fork").Pool(opts.workers) as pool:
        results: Iterator[list[dict[str, object]]] = pool.imap_unordered(one_game, todo)
        for n, game in enumerate(results, 1):
            rows.extend(game)
            if out is not None:
                with out.open("a") as handle:
                    handle.writelines(json.dumps(r) + "\n" for r in game)
            if n % 10 == 0 or n == len(todo):
                valued = sum(1 for r in rows if "difference" in r)
                print(f"versus_value: {n}/{len(todo)} games, {valued} disagreements valued",
                      file=sys.stderr, flush=True)
    summary(rows, rival_name(opts.rival))


if __name__ == "__main__":
    main()
