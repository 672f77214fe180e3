"""The benchmark scripts (``benchmarks/*.py``) that no other test runs, each run for real
as a user runs it (a fresh interpreter, from the repository) at the smallest size that
still does its whole job: it must end with status 0 and print what it promises, in the
shape it promises, with counts that show the measured code was reached.  mypy checks the
scripts' types, not that a patched method is still the one the code calls.

The figures themselves are timings and are not checked (tests never assert on wall-clock
time); the counts and the tables' shapes are.  The other scripts are run elsewhere:
``versus_value.py``, ``losses.py`` and ``jsms_ask.js`` in test_versus_value.py,
``paired_best.py`` in test_paired_best.py, ``replay_store.py`` in test_replay_store.py,
``studies/`` in test_studies.py and ``endgame_speed.py`` in
tests/strategies/test_compiled_endgame.py; ``versus_jsms.py`` needs JSMinesweeper to play
at all (test_versus_jsms.py checks its arithmetic).  ``versus_engines.py`` runs here, with a
stand-in for JSMinesweeper's harness; test_versus_engines.py checks its comparison.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"
NUM = r"[-+]?\d+(?:\.\d+)?"  # a printed figure: 12, 0.387, +0.025
HAVE_TOOLLIB = importlib.util.find_spec("ms_toollib") is not None


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    # the kernels a user gets by default, whatever this test process was told to use
    env = {k: v for k, v in os.environ.items() if k != "MINESOLVER_KERNELS"}
    return subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def ok(script: str, *args: str) -> str:
    """The script's stdout, after checking it ended well."""
    done = run(script, *args)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def one(pattern: str, text: str) -> re.Match[str]:
    """The one line of ``text`` that matches ``pattern`` whole."""
    found = [m for line in text.splitlines() if (m := re.fullmatch(pattern, line))]
    assert len(found) == 1, f"want one line like {pattern!r} in:\n{text}"
    return found[0]


def test_best_speed_times_two_checkouts_of_the_same_code_alike():
    out = ok("best_speed.py", "--old-src", str(ROOT / "src"), "--rules", "beginner",
             "--games", "4", "--chunk", "2", "--seed", "2026")
    one(r"best on beginner, 4 seeded games \(seed 2026\), CPU ms per game", out)
    wins = {}
    for name in ("old", "new"):
        for what in ("game", "strategy"):
            line = one(rf"{name} {what:<8}: (\d) won; median ({NUM}), mean ({NUM}), p95 ({NUM})",
                       out)
            wins[name] = int(line[1])
            assert all(float(line[k]) >= 0 for k in (2, 3, 4))
    # the same code on the same seeds: the same games won
    assert wins["old"] == wins["new"] <= 4
    one(r"won by old only: 0, by new only: 0 \(McNemar p = 1\)", out)


def test_analyze_big_times_each_case_of_two_checkouts():
    out = ok("analyze_big.py", "--old-src", str(ROOT / "src"), "--sizes", "30",
             "--cases", "text", "advice", "--max-seconds", "100")
    rows = [line for line in out.splitlines() if re.match(r"\| \d", line)]
    assert len(rows) == 2 * 2  # cases x versions
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[3] == "ok" and all(float(x) > 0 for x in cells[4:])
    assert rows[0].startswith("| 30x30x180 | text | new | ok |")


def test_analyze_big_shows_cells_at_random_and_refuses_a_fraction_past_one():
    out = ok("analyze_big.py", "--sizes", "30", "--shown", "0.3", "--seed", "3",
             "--cases", "advice")
    one(r"\| 30x30x180 \| advice \| new \| ok \|.*", out)
    done = run("analyze_big.py", "--shown", "2")
    assert done.returncode == 2 and "--shown must be between 0 and 1" in done.stderr


def test_chains_parts_counts_the_calls_of_the_chains_rule():
    out = ok("chains_parts.py", "--games", "5", "--seed", "1000")
    one(rf"5 30x16x99 games of best \(seeds 1000\.\.\), kernels \w+: median {NUM} ms per game",
        out)
    # the wrappers sit where best and the bound-cell test call them
    for name in ("fifty_bound_cells", "  its shape masks"):
        line = one(rf"{name}: (\d+) calls, {NUM} s, mean {NUM} ms, median {NUM} ms", out)
        assert int(line[1]) > 0


def test_endgame_calls_counts_searches_and_give_ups():
    out = ok("endgame_calls.py", "--games", "10", "--strategy", "best",
             "--strategy", "best:endgame_budget=1000")
    counts = {}
    for name in ("best", "best:endgame_budget=1000"):
        line = one(rf"{re.escape(name)}: (\d+) of 10 won; endgame search ran (\d+) times, "
                   rf"gave up (\d+); {NUM} CPU s", out)
        counts[name] = int(line[2]), int(line[3])
    ran, gave_up = counts["best"]
    assert ran > 0 and gave_up == 0
    ran, gave_up = counts["best:endgame_budget=1000"]
    assert 0 < gave_up <= ran  # a tiny budget: some searches give up


WORTH = ["--games", "10", "--floor", "20", "--layouts", "1000"]  # meets 3 such guesses


def worth_lines(out: str) -> int:
    """Check the per-game lines and the summary of ``endgame_worth.py``; the positions met."""
    met = int(one(r"expert, seeds 0\.\.9: 10 games; a guess with 21-1000 layouts met in (\d+) "
                  r"\(search over budget in \d+\)", out)[1])
    assert met > 0
    games = re.findall(rf"^game \d+: \d+ layouts; W\* {NUM}, .*best wins {NUM}; gain {NUM}",
                       out, re.M)
    assert len(games) == met
    one(rf"gain per game of a search to 1000 layouts: {NUM} points \[{NUM}, {NUM}\]; \d+ s", out)
    return met


def test_endgame_worth_judges_moves_at_the_positions_a_bigger_search_would_take():
    out = ok("endgame_worth.py", *WORTH, "--strategy", "tank", "--where")
    met = worth_lines(out)
    one(rf"mean over them: W\* {NUM}, W\*\(best's move\) {NUM}, V {NUM}", out)
    one(rf"an optimal cell within best's cutoff \(0\.9 of the safest\) at \d+ of {met}; .*", out)
    line = one(rf"best: first move optimal in (\d+) of (\d+), mean regret {NUM} points .*", out)
    assert int(line[2]) == met
    one(rf"tank: first move optimal in \d+ of {met}, .*; minus best's {NUM} \[.*\]", out)


def test_endgame_worth_compiled_counts_searches_over_budget():
    out = ok("endgame_worth.py", *WORTH, "--compiled", "--budget", "50")
    worth_lines(out)
    over = re.search(r"search over budget in (\d+)", out)
    assert over and int(over[1]) > 0
    assert re.search(r"^game \d+: \d+ layouts, search over budget$", out, re.M)
    one(rf"mean over them: W\* {NUM}, V {NUM}", out)  # no move judged


def stand_in(answer: str, argv: int) -> str:
    """JSMinesweeper's harness reduced to what benchmarks/jsms_ask.js needs of it (the
    real one needs a JSMinesweeper checkout, which CI does not have): ``probs`` reads the
    position's ``rows`` and runs ``answer``; its ``main`` takes the file from ``argv``."""
    return f"""#!/usr/bin/env node
"use strict";
const fs = require("fs");
async function loadJSMS(verbose) {{ return {{}}; }}
async function probs(args) {{
    await loadJSMS(false);
    const rows = fs.readFileSync(args._[1], "utf8").trim().split("\\n").slice(1);
{answer}
}}
async function main() {{ return probs({{ _: ["probs", process.argv[{argv}]], move: true }}); }}

main().catch(e => {{ process.stderr.write(String(e)); process.exit(1); }});
"""


# it opens the first covered cell
STAND_IN = stand_in("""\
    const y = rows.findIndex(r => r.includes("?"));
    process.stdout.write(JSON.stringify({ move: { x: rows[y].indexOf("?"), y } }) + "\\n");""",
                    2)


def test_endgame_worth_asks_a_harness_for_its_move(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    harness = tmp_path / "jsms_harness.js"
    harness.write_text(STAND_IN)
    out = ok("endgame_worth.py", *WORTH, "--harness", str(harness), "--jsms", str(tmp_path))
    met = worth_lines(out)
    one(rf"JSMinesweeper analyser: first move optimal in \d+ of {met}, .*; minus best's .*", out)


def test_engine_bench_prints_every_table(tmp_path):
    # one fixture of each class: the whole table, at a fraction of the 120 positions' time
    fixtures = ROOT / "tests/data/positions"
    first: dict[str, str] = {}
    for line in (fixtures / "manifest.jsonl").read_text().splitlines():
        first.setdefault(json.loads(line)["class"], line)
    (tmp_path / "manifest.jsonl").write_text("".join(f"{line}\n" for line in first.values()))
    for line in first.values():
        name = f"{json.loads(line)['id']}.mine"
        shutil.copy(fixtures / name, tmp_path / name)
    out = ok("engine_bench.py", "--repeat", "1", "--played", "1", "--fixtures", str(tmp_path))
    figure = rf"{NUM}\s+{NUM}"  # median and p95
    toollib = figure if HAVE_TOOLLIB else r"-\s+-"
    fixtures_part, played_part = out.split("Every position of 1 played games per class, seed 1")
    assert f"Fixtures ({tmp_path})" in fixtures_part
    for name in ("beginner", "intermediate", "expert", "large64", "large100"):
        one(rf"{name}\s+1\s+{figure}\s+{figure}\s+{toollib}", fixtures_part)
    for name in ("beginner", "intermediate", "expert"):
        assert int(one(rf"{name}\s+(\d+)\s+{figure}\s+{figure}\s+{toollib}", played_part)[1]) > 0
    one(r"the compiled path handed \d+ of 5 positions over to the engine", out)
    rows = re.findall(
        rf"^(?:band|ribbon|stripe|mid-game|scattered) .*#1(?:\s+\d+){{5}}\s+{NUM}$", out, re.M)
    assert len(rows) == 6 + 4 + 3  # long fronts, 100x100, then many small fronts
    one(rf"  (?:met    |NOT met)  expert median <= 1 ms: {NUM} ms", out)
    one(rf"  (?:met    |NOT met)  100x100 median <= 300 ms \(generated, 20%\): {NUM} ms", out)
    if HAVE_TOOLLIB:
        assert "expert median floats no slower than ms-toollib (fixtures)" in out
    # the join alone (the generated positions' joins, timed too without --fixtures-only,
    # cost the scattered boards' joins three times over: 6 s more here)
    joins = ok("engine_bench.py", "--repeat", "1", "--fixtures", str(tmp_path), "--joins",
               "--fixtures-only", "--no-toollib")
    one(r"positions\s+joins\s+shifted\s+default us\s+always us\s+plain us", joins)
    for name in ("beginner", "intermediate", "expert", "large64", "large100"):  # every join
        assert int(one(rf"{name}\s+(\d+)\s+\d+(?:\s+{NUM}){{3}}", joins)[1]) > 0


def test_float_cells_plays_the_same_games_at_each_limit():
    out = ok("float_cells.py", "--board", "16x16x40", "--games", "3",
             "--limit", "100", "--limit", "2500")
    assert out.splitlines()[0].split() == ["board", "limit", "won", "median", "ms", "mean", "ms",
                                           "only", "ref", "/", "only", "this"]
    won = int(one(rf"16x16x40\s+100\s+(\d)\s+{NUM}\s+{NUM}\s*", out)[1])  # no pair yet
    line = one(rf"16x16x40\s+2500\s+(\d)\s+{NUM}\s+{NUM}\s+(\d) / (\d) \(p = {NUM}\)", out)
    # the games won by one limit only account for the difference in wins
    assert int(line[1]) - won == int(line[3]) - int(line[2])


def test_float_ply_times_both_plies_on_the_candidates():
    out = ok("float_ply.py", "--games", "1")
    lines = out.splitlines()
    assert lines[0].split() == ["board", "cells", "plies", "floats", "/", "exact,", "median",
                                "p90"]
    rows = [re.fullmatch(rf"(\d+x\d+x\d+)\s+(\d+)\s+(\d+)\s+({NUM})\s+({NUM})", line)
            for line in lines[1:]]
    assert rows and all(rows), out
    by_board = {m[1]: m for m in rows if m}
    assert "30x16x99" in by_board  # an expert game meets candidates to score
    assert all(int(m[3]) > 0 for m in by_board.values())  # plies timed, both ways


def test_huge_board_plays_one_process_per_game_and_worker_count():
    out = ok("huge_board.py", "--rules", "16x16x40", "--seeds", "1", "--workers", "1", "2",
             "--max-seconds", "60")
    opened = {
        w: int(one(rf"seed 1 workers {w}: wall {NUM} s, CPU {NUM} s, game {NUM} s, "
                   rf"opened (\d+), peak RSS \d+ MB", out)[1])
        for w in (1, 2)
    }
    assert opened[1] > 0 and opened[1] == opened[2]  # the threads change the time only
    for w in (1, 2):
        one(rf"{w} \| {NUM}, {NUM} \| {NUM}, {NUM} \| \d+", out)


def test_huge_board_threshold_counts_batches_with_one_and_two_threads():
    out = ok("huge_board.py", "--threshold", "--turns", "40", "--repeat", "1")
    assert int(one(r"# (\d+) multi-box fronts after \d+ turns of seed 2; load .*", out)[1]) > 0
    sizes = re.findall(rf"^(\d+) \| \d+ \| {NUM} \| {NUM} \| {NUM}$", out, re.M)
    assert [int(s) for s in sizes] == [4 * 2**k for k in range(11)]
    # too few turns to have a front worth splitting: said in one line
    done = run("huge_board.py", "--threshold", "--turns", "1", "--repeat", "1")
    assert done.returncode == 1 and "give more --turns" in done.stderr
    assert "Traceback" not in done.stderr


def test_noguess_bench_prints_its_tables():
    out = ok("noguess_bench.py", "--games", "1", "--sample", "2", "--seed", "1")
    one(r"Time per no-guess board, 1 seeds from 1, one process", out)
    for name in ("beginner 9x9/10, safe corner", "intermediate 16x16/40, safe corner",
                 "expert 30x16/99, safe corner", r"expert 30x16/99, opening at \(3,3\)"):
        tries = one(rf"{name}\s+(\d+)\s+{NUM}\s+\d+(\s+{NUM}){{4}}", out)
        assert int(tries[1]) >= 1
        if HAVE_TOOLLIB:
            one(rf"{name}\s+[01] / 1", out)
    if not HAVE_TOOLLIB:
        assert "(ms-toollib not installed: no is_solvable column)" in out
    shares = re.findall(rf"^\s+(\d+)\s+{NUM}%\s+({NUM})\s+({NUM})$", out, re.M)
    assert [int(m[0]) for m in shares] == [60, 70, 80, 90, 99, 105, 110, 115, 120, 130]
    assert all(float(s) in (0.0, 0.5, 1.0) for m in shares for s in m[1:])  # of 2 boards


@pytest.mark.skipif(not HAVE_TOOLLIB, reason="ms-toollib reads the replays and writes the .evf")
def test_review_bench_reviews_sample_and_generated_replays():
    out = ok("review_bench.py", "--repeat", "1", "--generated", "1", "--seed", "1")
    assert out.splitlines()[0].split() == ["replay", "clicks", "reviewed", "read", "s",
                                           "review", "s", "command", "s", "(median)"]
    for name in ("exp_49.25_3bv127.avf", "exp_98763_FL.rmv", "best_expert_seed1.evf"):
        line = one(rf"{re.escape(name)}\s+(\d+)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}", out)
        assert 0 < int(line[2]) <= int(line[1])


def test_server_memory_plays_through_a_local_server():
    # the script starts `minesolver serve --host 127.0.0.1` and stops it when done
    out = ok("server_memory.py", "--games", "5", "--sizes", "5")  # the fifth is a Flags game
    line = one(rf"games 5, sizes 5 \(largest 200x200\): server RSS start ({NUM}) MB, "
               rf"peak ({NUM}) MB, end ({NUM}) MB; target peak <= 300 MB: (?:met|NOT met)", out)
    start, peak, end = (float(line[k]) for k in (1, 2, 3))
    assert 0 < start <= peak and end > 0


def test_wide_fronts_counts_wide_fronts_and_plays_noisy_games():
    out = ok("wide_fronts.py", "--seeds", "1", "--games", "1")
    for name in ("spiral", "island", "16x16 cautious", "16x16 optimistic"):
        one(rf"{name} #1\s+(?:yes\s+\d+\s+\d+|NO\s+-\s+-)(\s+{NUM}){{3}}", out)
    one(r"16x16x38 games, tank: the slowest turn \(wall and CPU seconds\), peak memory", out)
    for game in ("cautious 6314391998351591880", "optimistic 1"):  # the game first
        one(rf"{game}\s+(?:won|lost)\s+\d+\s+\d+(\s+{NUM}){{3}}", out)
    out = ok("wide_fronts.py", "--orders", "--seeds", "1")
    costs = r"(?:\s+(?:>1e9|\d{1,3}(?:,\d{3})*)){6}"
    for name in ("spiral", "island", "16x16 cautious", "16x16 optimistic"):
        one(rf"{name} #1{costs}", out)


# versus_engines.py: the full run's kinds and boards, one game of each board and strategy
ENGINES = ["--scale", "0.001", "--seed", "20260611"]
ENGINE_KINDS = {"best", "random", "rtriv", "flagsded", "flagsany", "lategame", "endgame-f",
                "endgame-c", "opened"}
ENGINE_BOARDS = {"beginner", "intermediate", "expert", "20x20@10%", "20x20@25%", "20x20@30%",
                 "9x9@31%", "16x16@39%"}


def engine_tables(out: str) -> dict[str, dict[str, list[str]]]:
    """``versus_engines.py``'s two tables: per title, per row name, the row's columns."""
    tables = {}
    for title, column in (("By kind", "kind"), ("By board", "board")):
        lines = out.split(f"\n{title}\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert lines[0].split() == ["JSMinesweeper", "ms-toollib"]
        assert lines[1].split() == [column, "positions", "cells", "unprovable", "agree",
                                    "differ", "none", "agree", "flags", "covered", "differ",
                                    "none"]
        rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
        assert all(len(row) == 10 for row in rows.values()), lines
        whole = rows.pop("all")
        for k in range(3):  # positions, cells, unprovable add up
            assert int(whole[k]) == sum(int(row[k]) for row in rows.values())
        assert set(rows) <= (ENGINE_KINDS if column == "kind" else ENGINE_BOARDS)
        rows["all"] = whole
        tables[title] = rows
    assert set(tables["By board"]) == ENGINE_BOARDS | {"all"}
    assert {"best", "random", "rtriv", "endgame-f", "endgame-c"} <= set(tables["By kind"])
    return tables


@pytest.mark.skipif(not HAVE_TOOLLIB, reason="ms-toollib is the engine compared here")
def test_versus_engines_agrees_with_ms_toollib_on_every_position():
    out = ok("versus_engines.py", *ENGINES)
    one(r"JSMinesweeper: skipped \(give --harness and --jsms to compare it\)", out)
    total = int(one(r"seed 20260611, scale 0\.001: (\d+) positions", out)[1])
    tables = engine_tables(out)
    for rows in tables.values():
        for n, _, unprovable, *js, agree, covered, differ, none in rows.values():
            assert js == ["-", "-", "-"]
            assert (int(agree) + int(covered), differ, none) == (int(n), "0", "0")
            # only a flag the clues cannot prove lets ms-toollib answer another question
            assert int(covered) <= int(unprovable)
    n, _, unprovable, *_, covered, _, _ = tables["By kind"]["all"]
    assert int(n) == total and int(covered) > 0  # the flagged positions were reached
    gap = one(rf"  ms-toollib: ({NUM}(?:e-\d+)?) \(tolerance 1e-09\) over (\d+) positions .*",
              out)
    assert float(gap[1]) <= 1e-9 and int(gap[2]) == total - int(unprovable)
    one(rf"ms-toollib: {total} of {total} positions agree \({covered} only with the flags "
        r"the clues cannot prove covered again\), 0 disagree, 0 unanswered", out)
    one(rf"every position agreed \({total} positions, \d+ cells\)", out)
    assert "DISAGREEMENT" not in out and "NO ANSWER" not in out


# JSMinesweeper's harness as jsms_ask.js --no-move sees it, made to be wrong: -1 for every
# covered cell, and a position with a flag rejected as the real harness rejects one (an
# error line, then the process ends); asked for a move, it refuses
WRONG_HARNESS = stand_in("""\
    const fail = (error) => {
        process.stdout.write(JSON.stringify({ error }) + "\\n");
        process.exit(1);
    };
    if (args.move) fail("asked for a move");
    if (rows.some(r => r.includes("F"))) fail("a flag");
    const prob = rows.map(r => [...r].map(c => c === "?" ? -1 : 0));
    process.stdout.write(JSON.stringify({ prob, ms: 0.5 }) + "\\n");""", 3)


def test_versus_engines_fails_when_an_engine_disagrees_or_does_not_answer(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    harness = tmp_path / "jsms_harness.js"
    harness.write_text(WRONG_HARNESS)
    (tmp_path / "Minesweeper" / "client").mkdir(parents=True)
    (tmp_path / "Minesweeper" / "client" / "solver_main.js").write_text("")
    done = run("versus_engines.py", *ENGINES, "--show", "2", "--harness", str(harness),
               "--jsms", str(tmp_path))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert "JSMinesweeper: skipped" not in out
    tables = engine_tables(out)
    flagged = {"flagsded", "flagsany", "endgame-f"}
    for kind, (n, _, _, agree, differ, none, *_) in tables["By kind"].items():
        if kind == "all":
            continue
        # refused (the node process started again for the next one) or wrong: never agreed
        want = ("0", "0", n) if kind in flagged else ("0", n, "0")
        assert (agree, differ, none) == want, kind
    total, *_ = tables["By kind"]["all"]
    refused = sum(int(row[0]) for kind, row in tables["By kind"].items() if kind in flagged)
    assert 0 < refused < int(total)
    one(rf"JSMinesweeper: 0 of {total} positions agree, {int(total) - refused} disagree, "
        rf"{refused} unanswered", out)
    shown = re.findall(r"^(?:DISAGREEMENT|NO ANSWER from) JSMinesweeper on ", out, re.M)
    assert len(shown) == 2  # --show 2; the rest counted
    one(rf"\.\.\. and {int(total) - 2} more \(--show {total} prints them all\)", out)
    # disagreements first, the smallest first: small enough for the oracle to judge
    assert re.search(r"^  oracle \(\d+ layouts? tried\): minesolver right at (\d+) of \1 "
                     r"cells, JSMinesweeper at 0$", out, re.M)
    one(rf"NOT ALL AGREED: exit status 1 \(0 positions minesolver did not answer, {total} "
        r"disagreements or unanswered questions\)", out)


SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if p.name != "script_args.py")


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_tells_each_option_and_its_default(script):
    out = ok(script, "--help")
    # argparse prints an option's help on its line or the next; an option without one
    # is a bare "--name NAME" line followed directly by the next option
    entries = re.split(r"\n(?=  -)", out.split("options:", 1)[1].strip("\n"))
    for entry in entries:
        words = entry.split()
        assert len(words) > 2 or words[0] == "-h,", f"{script}: {entry!r} says nothing"
    # the shared options read alike wherever they are
    if "--rules RULES" in out:
        assert "beginner, intermediate, expert or WIDTHxHEIGHTxMINES" in " ".join(out.split())


@pytest.mark.parametrize(("script", "bad"), [
    ("versus_jsms.py", ["--first-click", "none"]),  # JSMinesweeper's harness has no such rule
    ("losses.py", ["--first-click", "corner"]),
    ("versus_value.py", ["--games", "many"]),
    ("chains_parts.py", ["--rules", "30x16"]),  # read inside the games, once
    ("endgame_worth.py", ["--rules", "9x9x81"]),
    ("versus_jsms.py", ["--strategy", "best:cutoff=2"]),
    ("losses.py", ["--rules", "4x4x9", "--first-click", "opening"]),  # fits a safe one only
    ("endgame_calls.py", ["--strategy", "bset"]),
    ("versus_value.py", ["--rival", "best:cutof=1"]),
])
def test_a_bad_option_is_one_line_and_status_2(script, bad):
    done = run(script, *bad)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"{script}: error: ")
