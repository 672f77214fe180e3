"""``benchmarks/versus_jsms.py``'s own arithmetic, without JSMinesweeper: which boards
the first click opened, and the paired table over a part of the boards."""

from __future__ import annotations

import json

from support import load_script

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
