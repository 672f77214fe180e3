"""``benchmarks/versus_jsms.py``'s own arithmetic, without JSMinesweeper: which boards
the first click opened, and the paired table over a part of the boards; and the whole
script against a stand-in for node and the harness (the real one is not installed here):
each run's own boards, results checked against them, refusals before any game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from support import BENCH, load_script

from minesolver.rules import Rules


def test_a_first_click_opens_only_with_no_mine_around_it(tmp_path):
    versus = load_script("versus_jsms")
    rules = Rules.from_string("beginner", first_click="safe")  # 9x9
    boards = [[1], [80], [10], [2], [41, 80], [30]]  # (0,1) (8,8) (1,1) (0,2) (4,5) (3,3)
    path = tmp_path / "layouts.jsonl"
    path.write_text("".join(json.dumps({"width": 9, "mines": m}) + "\n" for m in boards))
    assert versus.opened_first(path, rules, (0, 0)) == [False, True, False, True, True, True]
    assert versus.opened_first(path, rules, (4, 4)) == [True, True, True, True, False, False]


def test_the_table_of_a_part_counts_only_its_boards():
    versus = load_script("versus_jsms")
    ours = {0: (True, 1.0), 1: (True, 2.0), 2: (False, 3.0), 3: (True, 4.0)}
    theirs = {0: (False, 10.0), 1: (True, 20.0), 2: (True, 30.0), 3: (False, 40.0)}
    whole = versus.table(ours, theirs, 4)
    assert (whole["games"], whole["only_minesolver"], whole["only_jsms"]) == (4, 2, 1)
    part = versus.table(ours, theirs, 4, [2, 3])
    assert (part["games"], part["minesolver_wins"], part["jsms_wins"]) == (2, 1, 1)
    assert (part["only_minesolver"], part["only_jsms"]) == (1, 1)
    assert part["minesolver_ms_median"] == 3.5


# A stand-in for `node jsms_harness.js bulk ...`: JSMinesweeper "wins" the odd games, and
# its summary counts the boards with a mine under the first click, as the harness does.
FAKE_NODE = textwrap.dedent("""\
    #!{python}
    import json, os, sys, time
    args = sys.argv[2:]
    value = lambda name: args[args.index(name) + 1]
    layouts, out = value("--layouts"), value("--games-out")
    x, y = (int(v) for v in value("--first").split(","))
    width = int(value("--width"))
    with open(os.environ["FAKE_PIDS"], "a") as pids:
        pids.write(f"{{os.getpid()}}\\n")
    if os.environ.get("FAKE_FAIL") and layouts.endswith("part0.jsonl"):
        sys.exit(3)
    if os.environ.get("FAKE_FAIL"):
        time.sleep(60)
    boards = [json.loads(line)["mines"] for line in open(layouts) if line.strip()]
    with open(out, "w") as handle:
        for i, mines in enumerate(boards):
            handle.write(json.dumps({{"i": i, "result": "won" if i % 2 else "lost", "ms": 2.0}})
                         + "\\n")
    on_mine = sum(1 for mines in boards if y * width + x in mines)
    print(json.dumps({{"jsms_commit": "fake", "stuck_games": 0, "first_click_on_mine": on_mine}}))
""")


@pytest.fixture
def fake_jsms(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    node = bin_dir / "node"
    node.write_text(FAKE_NODE.format(python=sys.executable))
    node.chmod(0o755)
    checkout = tmp_path / "JSMinesweeper" / "Minesweeper" / "client"
    checkout.mkdir(parents=True)
    (checkout / "solver_main.js").write_text("// stand-in\n")
    (tmp_path / "harness.js").write_text("// stand-in\n")
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "FAKE_PIDS": str(tmp_path / "pids.txt")}


def versus(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(BENCH / "versus_jsms.py"), "--rules", "9x9x10",
               "--games", "6", "--harness", str(tmp_path / "harness.js"),
               "--jsms", str(tmp_path / "JSMinesweeper"), "--out", str(tmp_path / "out"), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env}, check=False)


def test_runs_sharing_a_folder_each_play_their_own_boards(tmp_path, fake_jsms):
    # the folder's first layout file was handed to the next run: JSMinesweeper played a
    # safe-corner run's boards in an opening run (43 of 50 broke its first-click rule)
    safe = versus(tmp_path, fake_jsms, "--seed", "5")
    assert safe.returncode == 0, safe.stderr
    assert safe.stdout.startswith("best vs JSMinesweeper (fake), 9x9x10")  # its commit
    opening = versus(tmp_path, fake_jsms, "--seed", "5", "--first-click", "opening",
                     "--start", "4,4")
    assert opening.returncode == 0, opening.stderr
    assert "6 paired boards" in opening.stdout and "3 wins" in opening.stdout
    out = tmp_path / "out"
    boards = (out / "layouts_9x9x10_opening_4-4_s5_n6.jsonl").read_text()
    assert boards != (out / "layouts_9x9x10_safe_0-0_s5_n6.jsonl").read_text()
    meta = json.loads((out / "jsms_9x9x10_opening_4-4_s5_n6.meta.json").read_text())
    assert meta["games"] == 6 and meta["jsms_commit"] == "fake"
    again = versus(tmp_path, fake_jsms, "--seed", "5")  # the store's games, said so
    assert "6 of 6 games from the store" in again.stderr


def test_results_of_other_boards_or_too_few_games_are_refused(tmp_path, fake_jsms):
    assert versus(tmp_path, fake_jsms, "--seed", "5").returncode == 0
    other = tmp_path / "out" / "jsms_9x9x10_safe_0-0_s5_n6.jsonl"
    result = versus(tmp_path, fake_jsms, "--seed", "6", "--jsms-results", str(other))
    assert result.returncode == 2
    assert "was played on other boards than this run's" in result.stderr
    short = tmp_path / "short.jsonl"
    short.write_text("".join(other.read_text().splitlines(keepends=True)[:2]))
    result = versus(tmp_path, fake_jsms, "--seed", "5", "--jsms-results", str(short))
    assert result.returncode == 2 and "holds 2 of the run's 6 games" in result.stderr
    short.write_text('{"i": 0}\n')
    result = versus(tmp_path, fake_jsms, "--seed", "5", "--jsms-results", str(short))
    assert result.returncode == 2 and "line 1 is not a harness game record" in result.stderr


@pytest.mark.parametrize(("args", "needle"), [
    (["--harness", "/no/harness.js"], "no harness at /no/harness.js"),
    (["--jsms", "/no/checkout"], "no JSMinesweeper checkout at /no/checkout"),
    (["--start", "foo"], "argument --start: cannot read start 'foo'"),
    (["--start", "99,99"], "argument --start: start (99, 99) is off the 9x9 board"),
    (["--games", "0"], "argument --games: 0 is below 1"),
    (["--jsms-workers", "0"], "argument --jsms-workers: 0 is below 1"),
])
def test_what_cannot_run_is_said_before_any_game(tmp_path, fake_jsms, args, needle):
    result = versus(tmp_path, fake_jsms, *args)
    assert result.returncode == 2
    assert needle in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "minesolver.sqlite").exists()  # nothing was played


def test_a_failed_harness_part_stops_the_others(tmp_path, fake_jsms):
    result = versus(tmp_path, {**fake_jsms, "FAKE_FAIL": "1"}, "--jsms-workers", "2")
    assert result.returncode == 2 and "the harness failed (exit 3)" in result.stderr
    time.sleep(0.5)
    # the other part was killed (maybe before it wrote its pid), not left to run alone
    marker = str(tmp_path / "harness.js").encode()
    left = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker in cmdline.read_bytes():
                left.append(cmdline.parent.name)
        except OSError:  # a process that ended while we looked
            continue
    assert left == []
    for pid in [int(line) for line in Path(fake_jsms["FAKE_PIDS"]).read_text().split()]:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)

