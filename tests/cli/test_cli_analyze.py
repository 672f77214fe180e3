"""`minesolver analyze` through the real entry points, in a fresh process each time."""

from __future__ import annotations

import json
import os
import sys
from math import comb
from pathlib import Path

import numpy as np
import pytest
from support import FIXTURES, WALL_FIFTY_FIFTY, assert_one_error_line, load_fixture, run_cli

from minesolver import Position
from minesolver.analysis import analyze

# the file and board, then serialize.analysis_json: the web app's analysis shape, then
# serialize.advice_json: the advice and the per-cell survey
KEYS = {"file", "width", "height", "mines", "prob", "safe", "mine", "solutions",
        "solutions_log10", "fronts",
        "seconds", "advice", "zero", "dead", "pairs", "skipped"}


def fixture_path(fid):
    return str(FIXTURES / f"{fid}.mine")


def reference(fid):
    return np.array(json.loads((FIXTURES / f"{fid}.probs.json").read_text())["prob"])


def json_lines(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]



# ---------------------------------------------------------------------- help


def test_analyze_help():
    result = run_cli("analyze", "--help")
    assert result.returncode == 0
    assert "--json" in result.stdout
    assert ".mine" in result.stdout


def test_usage_errors_are_one_line():
    assert_one_error_line(run_cli("analyze"))  # no files
    assert_one_error_line(run_cli("analyze", "--bogus", fixture_path("0001")), "--bogus")
    assert_one_error_line(run_cli("no-such-command"), "no-such-command")


# ---------------------------------------------------------------------- human output


def test_human_output(entry):
    result = run_cli("analyze", fixture_path("0001"), entry=entry)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    analysis = analyze(load_fixture("0001"))
    out = result.stdout
    assert f"layouts: {analysis.solutions}" in out
    assert "0001.mine" in out
    assert "9x9, 10 mines" in out
    assert f"safe ({len(analysis.safe)})" in out


def test_human_output_of_a_huge_count():
    result = run_cli("analyze", fixture_path("0111"))
    assert result.returncode == 0, result.stderr
    digits = len(str(analyze(load_fixture("0111")).solutions))
    assert f"({digits} digits)" in result.stdout
    assert f"about 10^{digits - 1}" in result.stdout


def test_stdin():
    text = (FIXTURES / "0031.mine").read_text()
    result = run_cli("analyze", "--json", "-", input=text)
    assert result.returncode == 0, result.stderr
    (record,) = json_lines(result.stdout)
    assert record["file"] == "-"
    assert np.abs(np.array(record["prob"]) - reference("0031")).max() <= 1e-9
    human = run_cli("analyze", "-", input=text)
    assert human.returncode == 0
    assert f"layouts: {analyze(load_fixture('0031')).solutions}" in human.stdout


# ---------------------------------------------------------------------- --json


def test_json_output(entry):
    fids = ["0001", "0061", "0111"]
    result = run_cli("analyze", "--json", *[fixture_path(f) for f in fids], entry=entry)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    records = json_lines(result.stdout)
    assert len(records) == len(fids)
    assert len(result.stdout.splitlines()) == len(fids)  # one object per line
    for fid, record in zip(fids, records, strict=True):
        assert set(record) == KEYS
        position = load_fixture(fid)
        assert record["file"] == fixture_path(fid)
        assert (record["width"], record["height"], record["mines"]) == (
            position.width,
            position.height,
            position.mines,
        )
        prob = np.array(record["prob"])
        assert prob.shape == (position.height, position.width)
        assert np.abs(prob - reference(fid)).max() <= 1e-9
        for r in range(position.height):
            for c in range(position.width):
                if not position.is_covered(r, c):
                    assert record["prob"][r][c] == 0
                elif position.is_flagged(r, c):
                    assert record["prob"][r][c] == 1
        analysis = analyze(position)
        assert isinstance(record["solutions"], str)
        assert record["solutions"] == str(analysis.solutions)
        assert [tuple(cell) for cell in record["safe"]] == analysis.safe
        assert [tuple(cell) for cell in record["mine"]] == analysis.mines  # flags included
        flags = [(r, c) for r in range(position.height) for c in range(position.width)
                 if position.is_flagged(r, c)]
        assert set(flags) <= {tuple(cell) for cell in record["mine"]}
        assert [(f["boxes"], f["min_mines"], f["max_mines"]) for f in record["fronts"]] == [
            (f.boxes, f.min_mines, f.max_mines) for f in analysis.fronts
        ]
        assert [[tuple(c) for c in f["cells"]] for f in record["fronts"]] == [
            list(f.cells) for f in analysis.fronts
        ]
        assert isinstance(record["seconds"], float) and record["seconds"] >= 0


def test_a_board_too_big_to_draw_is_named_and_its_count_given_as_a_power(tmp_path):
    # a 2000x2000 board took 55 s and ended at the 2G memory limit: drawing it, and
    # writing out a count of 870,000 digits; the figures below the board are kept
    path = tmp_path / "big.mine"
    path.write_text("1500x1500x1125000\n" + ("H" * 1500 + "\n") * 1500)
    result = run_cli("analyze", "--no-advice", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "(the 1500x1500 board is not drawn: over 40,000 cells)"
    assert "safest guess: (0, 0) with mine probability 50.0%" in lines
    assert ("layouts: about 10^677314 (over 250,000 digits: not written out); 0 fronts; "
            in result.stdout)
    small = tmp_path / "small.mine"  # 200x200: drawn, as the web app's largest board
    small.write_text("200x200x4000\n" + ("H" * 200 + "\n") * 200)
    drawn = run_cli("analyze", "--no-advice", str(small))
    assert drawn.returncode == 0 and len(drawn.stdout.splitlines()) > 200


def test_a_named_pipe_no_one_writes_to_is_said_to_be_one(tmp_path):
    # it waited the whole --max-seconds, then said only that it took longer
    pipe = tmp_path / "f.mine"
    os.mkfifo(pipe)
    result = run_cli("analyze", "--max-seconds", "1", str(pipe))
    assert_one_error_line(result, f"{pipe}: it took longer than --max-seconds 1 s (a named "
                          "pipe: nothing had finished writing to it)")


def test_json_counts_beyond_python_int_string_limit(tmp_path):
    # comb(40000, 20000) has over 12000 digits, past Python's default 4300-digit limit
    path = tmp_path / "open.mine"
    path.write_text(Position.covered(200, 200, 20000).to_text())
    result = run_cli("analyze", "--json", str(path))
    assert result.returncode == 0, result.stderr
    (record,) = json_lines(result.stdout)
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert int(record["solutions"]) == comb(40000, 20000)
    finally:
        sys.set_int_max_str_digits(old)
    assert np.allclose(record["prob"], 0.5)


def test_json_known_mines_and_blanks(tmp_path):
    path = tmp_path / "marks.mine"
    path.write_text("4x1x2\nM1.H\n")
    result = run_cli("analyze", "--json", str(path))
    assert result.returncode == 0, result.stderr
    (record,) = json_lines(result.stdout)
    assert record["prob"] == [[1, 0, 0, 1]]
    assert record["mine"] == [[0, 0], [0, 3]]
    assert record["safe"] == []
    assert record["solutions"] == "1"


# ---------------------------------------------------------------------- errors


def test_bad_file_among_good_ones(tmp_path, entry):
    bad = tmp_path / "bad.mine"
    bad.write_text("3x1x1\nHxH\n")
    good = [fixture_path("0002"), fixture_path("0045")]
    result = run_cli("analyze", "--json", good[0], str(bad), good[1], entry=entry)
    assert_one_error_line(result, str(bad), "line 2, column 2", "'x'")
    records = json_lines(result.stdout)
    assert [r["file"] for r in records] == good  # the good files are still analysed
    for fid, record in zip(["0002", "0045"], records, strict=True):
        assert np.abs(np.array(record["prob"]) - reference(fid)).max() <= 1e-9


# the memory caps: where a used-up cap hung the process or printed half an answer
@pytest.mark.parametrize("limit", [["--max-memory", "120M"], ["--max-memory", "140M"],
                                   ["--max-memory", "160M"], ["--max-seconds", "0.5"]])
def test_the_limits_hold_for_each_file(tmp_path, limit):
    big = tmp_path / "big.mine"  # too big for either limit: nine million covered cells
    big.write_text("3000x3000x1350000\n" + ("H" * 3000 + "\n") * 3000)  # 3 s here, 390 MB
    good = tmp_path / "good.mine"
    good.write_text("3x3x1\n1HH\nHHH\nHHH\n")
    result = run_cli("analyze", "--no-advice", *limit, str(big), good)
    said = f"more memory than --max-memory {limit[1]}" if "--max-memory" in limit else \
        "longer than --max-seconds 0.5 s"
    assert_one_error_line(result, f"{big}: it ", said)
    assert "big.mine" not in result.stdout  # nothing half printed for it
    assert result.stdout.startswith(f"{good}: ")  # and the next file still analysed


def test_bad_file_in_human_mode(tmp_path):
    bad = tmp_path / "bad.mine"
    bad.write_text("9x9x10\n")
    result = run_cli("analyze", str(bad), fixture_path("0003"))
    assert_one_error_line(result, "bad.mine", "line 2")
    assert "0003.mine" in result.stdout


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.mine"
    result = run_cli("analyze", str(missing))
    assert_one_error_line(result, "nope.mine")
    # the file is named once, then what is wrong with it
    assert result.stderr.strip() == f"minesolver: error: {missing}: No such file or directory"


def test_directory(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    result = run_cli("analyze", str(folder))
    assert_one_error_line(result)
    assert result.stderr.strip() == f"minesolver: error: {folder}: a folder, not a .mine file"


def test_an_empty_file_name():
    result = run_cli("analyze", "")
    assert result.stderr.strip() == "minesolver: error: '': an empty file name"
    assert result.returncode == 2


def test_inconsistent_position(tmp_path):
    path = tmp_path / "wrong.mine"
    path.write_text("3x1x1\n2HH\n")
    assert_one_error_line(run_cli("analyze", str(path)), "wrong.mine", "(0, 0)")
    path.write_text("3x1x5\n1HH\n")
    assert_one_error_line(run_cli("analyze", "--json", str(path)), "wrong.mine", "5 mines")


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)),  # not UTF-8
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"\x00\x01\x02\x03",  # valid UTF-8, not a position
        b"\xef\xbb\xbf9x9x10\n",  # byte-order mark
    ],
)
def test_binary_file(tmp_path, data):
    path = tmp_path / "board.bin"
    path.write_bytes(data)
    result = run_cli("analyze", str(path))
    assert_one_error_line(result, "board.bin")
    assert result.stderr.count("board.bin") == 1


def test_empty_stdin():
    assert_one_error_line(run_cli("analyze", "-", input=""), "empty text")


def test_several_errors_one_line_each(tmp_path):
    a, b = tmp_path / "a.mine", tmp_path / "b.mine"
    a.write_text("nonsense\n")
    b.write_text("2x1x1\nHH\nHH\n")
    result = run_cli("analyze", str(a), fixture_path("0004"), str(b))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("minesolver: error:") for line in lines)
    assert "a.mine" in lines[0] and "b.mine" in lines[1]


def test_a_file_name_with_a_newline_stays_on_one_line(tmp_path):
    odd = tmp_path / "bad\nname.mine"
    odd.write_text("2x1x2\n1H\n")
    result = run_cli("analyze", str(odd))
    assert_one_error_line(result, "bad name.mine: no layout has 2 mines")


# ---------------------------------------------------------------------- advice
def test_advice_in_json_and_text(tmp_path):
    from fractions import Fraction

    from minesolver.advice import advise
    from minesolver.survey import survey

    path = tmp_path / "wall.mine"
    path.write_text(WALL_FIFTY_FIFTY)
    result = run_cli("analyze", "--json", str(path))
    assert result.returncode == 0, result.stderr
    (record,) = json_lines(result.stdout)
    position = Position.from_text(path.read_text())
    advice, surveyed = advise(position), survey(position)
    assert record["advice"]["cell"] == list(advice.cell)
    assert record["advice"]["reason"] == "forced" and record["advice"]["pair"] == [1, 0]
    assert sorted(record["advice"]["group"]) == [[0, 0], [1, 0]]
    assert record["advice"]["probability"] == 0.5
    assert record["pairs"] == [[[0, 0], [1, 0]]]
    assert record["dead"] == [list(cell) for cell in surveyed.dead]
    assert record["skipped"] is None
    assert record["zero"] == [[float(x) for x in row] for row in surveyed.zero]
    assert Fraction(record["zero"][0][11]).limit_denominator(10**6) == surveyed.zero[0][11]
    text = run_cli("analyze", str(path))
    assert text.returncode == 0, text.stderr
    assert f"advice: {advice.text}" in text.stdout
    assert "50/50 pairs (1): (0, 0)-(1, 0)" in text.stdout
    assert "likeliest zeros" in text.stdout
    plain = run_cli("analyze", "--no-advice", "--json", str(path))
    assert "advice" not in json_lines(plain.stdout)[0]


def test_advice_of_a_position_with_nothing_left_to_open(tmp_path):
    path = tmp_path / "done.mine"
    path.write_text("3x1x1\n1F1\n")
    (record,) = json_lines(run_cli("analyze", "--json", str(path)).stdout)
    assert record["advice"] is None
    assert "nothing left to open" in run_cli("analyze", str(path)).stdout


def test_the_players_guide_shows_what_analyze_prints():
    # docs/players.md showed the advice of a file nobody had, from an older best
    root = Path(__file__).resolve().parents[2]
    guide = (root / "docs" / "players.md").read_text()
    block = guide.split("$ minesolver analyze docs/examples/walled_pair.mine\n...\n", 1)[1]
    shown = block.split("```", 1)[0].splitlines()
    result = run_cli("analyze", str(root / "docs" / "examples" / "walled_pair.mine"))
    assert result.returncode == 0, result.stderr
    printed = result.stdout.splitlines()
    assert len(shown) == 4 and all(line in printed for line in shown)


def test_a_board_file_or_an_endless_input_is_named_not_read_whole(tmp_path):
    from minesolver.formats import layout_line, write_mbf
    from minesolver.minefield import Layout

    board = Layout(30, 16, tuple(range(99)))
    (tmp_path / "b.mbf").write_bytes(write_mbf(board))
    (tmp_path / "b.jsonl").write_text(layout_line(board))
    assert_one_error_line(run_cli("analyze", str(tmp_path / "b.mbf")),
                          "b.mbf: an MBF board, not a .mine position")
    assert_one_error_line(run_cli("analyze", str(tmp_path / "b.jsonl")),
                          "b.jsonl: JSON text (layout lines?), not a .mine position")
    # 2 GB of nothing took 2 GB of memory before the limit stopped it
    huge = tmp_path / "huge.mine"
    with huge.open("wb") as handle:
        handle.truncate(2 << 30)
    assert_one_error_line(run_cli("analyze", str(huge)), "huge.mine: over 67,108,864 bytes")

