"""``benchmarks/versus_value.py``: its arithmetic, a run against a rival strategy, and the
one-process JSMinesweeper questioner (``benchmarks/jsms_ask.js``) driven through a
stand-in harness (the real one needs a JSMinesweeper checkout, which CI does not have)."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys

import pytest
from support import BENCH, load_script

from minesolver.position import Position


def row(game: int, difference: float, kind: str = "rival riskier", guess: int = 0) -> dict:
    return {"game": game, "guess": guess, "kind": kind, "difference": difference,
            "theirs_on_front": True}


def test_the_intervals_treat_the_game_as_the_unit():
    value = load_script("versus_value")
    # four games: two positions in game 0, one in game 1, none in games 2 and 3
    part = [row(0, 0.10), row(0, 0.10, guess=1), row(1, -0.05)]
    per_position, position_half, per_game, game_half = value.clustered(part, 4)
    assert per_position == pytest.approx(0.15 / 3)
    assert per_game == pytest.approx(0.15 / 4)
    sums = [0.2, -0.05, 0.0, 0.0]  # the games' sums, the spread of the per-game figure
    mean = sum(sums) / 4
    var = sum((s - mean) ** 2 for s in sums) / 3
    assert game_half == pytest.approx(1.96 * math.sqrt(var / 4))
    residual = (0.2 - 2 * 0.05) ** 2 + (-0.05 - 0.05) ** 2
    assert position_half == pytest.approx(1.96 * math.sqrt(4 / 3 * residual) / 3)
    # positions of one game only: no spread to speak of
    assert math.isnan(value.clustered([row(0, 0.1), row(0, 0.2)], 5)[1])


def test_the_table_splits_by_kind_and_counts_games_without_a_guess():
    value = load_script("versus_value")
    rows = [row(0, 0.02), row(1, -0.01, kind="equal risk", guess=2),
            {"game": 2, "guess": -1, "kind": "no guess"},
            {"game": 3, "guess": 0, "kind": "same"}]
    games, lines = value.table(rows)
    assert games == 4
    by_name = {line["name"]: line for line in lines}
    assert by_name["every valued disagreement"]["n"] == 2
    assert by_name["every valued disagreement"]["per_game"] == pytest.approx(100 * 0.01 / 4)
    assert (by_name["rival riskier"]["better"], by_name["rival riskier"]["worse"]) == (1, 0)
    assert by_name["equal risk"]["worse"] == 1
    assert "rival safer" not in by_name  # empty groups are left out
    assert by_name["the game's first guess"]["n"] == 1


def test_a_rival_strategy_is_valued_where_it_moves_otherwise(tmp_path):
    value = load_script("versus_value")
    out = tmp_path / "walled.jsonl"
    opts = argparse.Namespace(rules="expert", first_click="safe", start="corner",
                              strategy="best:walled=off,chains=off", rival="best", seed=20261800,
                              layouts=8, games=17)
    rows = value.one_game((opts, 16))  # game 16 meets a 50/50 walled in by mines
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    valued = [r for r in value.read(out) if "difference" in r]
    assert valued and all(r["kind"] == "rival riskier" for r in valued)
    for r in valued:
        assert r["safety"][1] == pytest.approx(0.5)
        (won_o, played_o), (won_t, played_t) = r["tally"]
        assert 0 <= won_o <= played_o <= 8 and 0 <= won_t <= played_t <= 8
        assert r["difference"] == pytest.approx(
            r["safety"][1] * won_t / max(played_t, 1) - r["safety"][0] * won_o / max(played_o, 1))
    # best itself as the rival never disagrees
    opts.rival = opts.strategy
    assert all(r["kind"] == "same" for r in value.one_game((opts, 16)))


def test_the_path_to_jsminesweepers_pick_is_read_from_its_console_words():
    value = load_script("versus_value")
    tie = "-------- Starting Best Guess Analysis --------\n"
    # the forced groups' tie-break runs without long-term risk, whatever else is said
    assert value.route(tie + "Long term risk not being considered\n", (1, 16)) == value.ROUTES[0]
    # tiles are written (x,y): the pick at row 8, column 3 is (3,8)
    lifted = tie + "Tile (3,8) added to the list of candidates to be analysed\n"
    assert value.route(lifted, (8, 3)) == value.ROUTES[1]
    assert value.route(lifted, (3, 8)) == value.ROUTES[2]  # another cell was lifted
    assert value.route("Solutions found by brute force for isolated edge 12", (0, 0)) == (
        value.ROUTES[3])
    assert value.route("", (0, 0)) == "other"


def test_why_refuses_a_file_its_games_do_not_replay(tmp_path):
    # a row whose cell is not the one best opens at that guess: another run's file
    out = tmp_path / "other.jsonl"
    out.write_text(json.dumps({"game": 0, "guess": 0, "kind": "rival riskier", "ours": -1,
                               "theirs": 0, "difference": 0.1, "theirs_on_front": True}) + "\n")
    done = subprocess.run([sys.executable, str(BENCH / "versus_value.py"), "--why", str(out),
                           "--harness", __file__, "--jsms", str(BENCH), "--workers", "1"],
                          capture_output=True, text=True, cwd=BENCH, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "versus_value: game 0 does not replay as the file says: give --why the options "
        "(and the code) of the run that wrote it"]


def test_bad_options_are_one_line_errors():
    for args, needle in ((["--rival", "best:nope=1"], "no option 'nope'"),
                         (["--harness", "/nowhere.js"], "give --harness and --jsms"),
                         (["--why", "/nowhere.jsonl", "--harness", __file__, "--jsms", str(BENCH)],
                          "no such file: /nowhere.jsonl")):
        done = subprocess.run([sys.executable, str(BENCH / "versus_value.py"), *args],
                              capture_output=True, text=True, cwd=BENCH, timeout=120)
        assert done.returncode == 2 and needle in done.stderr
        assert "Traceback" not in done.stderr


STAND_IN = """#!/usr/bin/env node
"use strict";
const fs = require("fs");
const TIE = process.argv.includes("--always-tiebreak");
let loads = 0;
async function loadJSMS(verbose) { loads += 1; return {}; }
async function probs(args) {
    const J = await loadJSMS(false);
    const text = fs.readFileSync(args._[1], "utf8");
    if (text.startsWith("slow")) await new Promise(r => setTimeout(r, 5000));
    const first = text.split("\\n")[1];
    const x = first.indexOf("?");
    const move = args.move ? { x, y: 0 } : null;
    process.stdout.write(JSON.stringify({ loads, tiebreak: TIE, move }) + "\\n");
}
async function main() { return probs({ _: ["probs", process.argv[3]], move: true }); }

main().catch(e => { process.stderr.write(String(e)); process.exit(1); });
"""


@pytest.fixture
def stand_in(tmp_path):
    """``benchmarks/losses.py`` and its questioner, over the stand-in harness."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    losses = load_script("losses")
    harness = tmp_path / "jsms_harness.js"
    harness.write_text(STAND_IN)
    return losses, losses.Analyser(str(harness), str(tmp_path)), harness


def test_the_questioner_loads_the_harness_once_and_answers_each_question(stand_in, tmp_path):
    losses, analyser, harness = stand_in
    answers = [analyser.ask(Position.from_text(text), timeout=60)
               for text in ("3x1x1\nHHH\n", "3x1x1\n1HH\n", "3x1x1\n01H\n")]
    # one node process: JSMinesweeper loaded once, the harness read as with the flag
    assert [a["loads"] for a in answers] == [1, 1, 1]
    assert all(a["tiebreak"] for a in answers)
    assert [a["move"]["x"] for a in answers] == [0, 1, 2]
    opts = argparse.Namespace(harness=str(harness), jsms=str(tmp_path))
    assert losses.jsms_move(Position.from_text("3x1x1\n1HH\n"), opts) == (0, 1)


def test_a_question_left_unanswered_is_skipped_and_the_process_restarted(stand_in):
    losses, analyser, _ = stand_in
    slow = Position.from_text("3x1x1\nHHH\n")
    original = losses.harness_text
    losses.harness_text = lambda position: "slow\n" + original(position)
    try:
        assert analyser.ask(slow, timeout=1) is None
    finally:
        losses.harness_text = original
    answer = analyser.ask(Position.from_text("3x1x1\n1HH\n"), timeout=60)
    assert answer is not None and answer["move"]["x"] == 1


def test_a_harness_that_does_not_end_as_expected_is_refused(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    harness = tmp_path / "jsms_harness.js"
    harness.write_text("console.log('not the harness')\n")
    done = subprocess.run(["node", str(BENCH / "jsms_ask.js"), str(harness)],
                          capture_output=True, text=True, timeout=60, input="")
    assert done.returncode == 2 and "does not end with main()" in done.stderr
