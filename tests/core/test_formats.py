"""MBF boards and layout files: round trips, known bytes, and every error."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver import Layout
from minesolver.errors import InputError
from minesolver.formats import (
    FormatError,
    layout_line,
    read_boards,
    read_json,
    read_layouts,
    read_mbf,
    read_mbf_stream,
    write_layouts,
    write_mbf,
)


@st.composite
def layouts(draw, max_side=255):
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    cells = width * height
    mines = draw(st.sets(st.integers(0, cells - 1), max_size=min(cells, 400)))
    return Layout(width, height, tuple(mines))


@given(layouts())
@settings(max_examples=200)
def test_mbf_round_trip(layout):
    data = write_mbf(layout)
    assert len(data) == 4 + 2 * len(layout.mines)
    assert read_mbf(data) == layout


def test_mbf_round_trip_full_and_empty_boards():
    for layout in (
        Layout(255, 255, tuple(range(0, 255 * 255, 2))),
        Layout(255, 255, ()),
        Layout(1, 1, ()),
        Layout(1, 1, (0,)),
        Layout(255, 1, (254,)),
    ):
        assert read_mbf(write_mbf(layout)) == layout


def test_mbf_known_bytes():
    assert read_mbf(bytes([2, 1, 0, 1, 1, 0])) == Layout(2, 1, (1,))
    # x is the column, y the row
    assert write_mbf(Layout(3, 2, (0, 5))) == bytes([3, 2, 0, 2, 0, 0, 2, 1])
    assert read_mbf(bytes([3, 2, 0, 2, 2, 1, 0, 0])) == Layout(3, 2, (0, 5))
    # the mine count is big-endian
    layout = Layout(30, 16, tuple(range(300)))
    data = write_mbf(layout)
    assert data[:4] == bytes([30, 16, 0x01, 0x2C])
    assert read_mbf(data) == layout
    assert write_mbf(Layout(4, 4, ())) == bytes([4, 4, 0, 0])


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (b"", "MBF data too short: 0 bytes, need at least 4"),
        (bytes([9, 9, 0]), "MBF data too short: 3 bytes"),
        (
            bytes([9, 9, 0, 2, 1, 1]),
            r"MBF header says 2 mines \(8 bytes\) but the data has 6 bytes",
        ),
        (bytes([9, 9, 1, 0]), r"MBF header says 256 mines"),
        (bytes([3, 2, 0, 1, 3, 0]), "MBF mine 1 at x=3, y=0 is off the 3x2 board"),
        (bytes([3, 2, 0, 2, 0, 0, 0, 2]), "MBF mine 2 at x=0, y=2 is off the 3x2 board"),
        (bytes([3, 2, 0, 2, 1, 1, 1, 1]), "MBF data lists the same mine twice"),
        (bytes([0, 2, 0, 0]), "MBF board size must be positive, got 0x2"),
        (bytes([2, 0, 0, 0]), "MBF board size must be positive, got 2x0"),
        (bytes([2, 1, 0, 1, 1, 0, 7]), r"MBF data has 1 byte after its 2x1 board \(stray bytes\)"),
        (bytes([2, 1, 0, 1, 1, 0]) * 2, r"6 bytes after its 2x1 board \(another board\?\)"),
        (b'{"width": 9, "height": 9, "mines": [1]}\n', "not an MBF board: it reads as JSON text"),
        (b"[[0, 1]]", "not an MBF board: it reads as JSON text"),
        (b"9x9x10\nHHHHHHHHH\n", r"not an MBF board: it reads as \.mine position text"),
        ("\ufeff9×9×10\r\nHHHHHHHHH\r\n".encode(), r"reads as \.mine position text"),
    ],
)
def test_mbf_errors(data, pattern):
    with pytest.raises(FormatError, match=pattern):
        read_mbf(data)


def test_mbf_write_errors():
    with pytest.raises(FormatError, match="MBF holds boards up to 255x255, not 256x1"):
        write_mbf(Layout(256, 1, ()))
    with pytest.raises(FormatError, match="not 10x300"):
        write_mbf(Layout(10, 300, (5,)))
    assert issubclass(FormatError, InputError)
    assert issubclass(FormatError, ValueError)


@given(st.lists(layouts(max_side=40), max_size=8))
@settings(max_examples=100)
def test_layout_file_round_trip(boards):
    out = io.StringIO()
    assert write_layouts(boards, out) == len(boards)
    text = out.getvalue()
    assert text.count("\n") == len(boards)
    assert list(read_layouts(text)) == boards
    assert list(read_layouts(io.StringIO(text))) == boards


def test_layout_line_is_json():
    line = layout_line(Layout(3, 2, (5, 0)))
    assert line.endswith("\n")
    assert json.loads(line) == {"width": 3, "height": 2, "mines": [0, 5]}


def test_layout_file_skips_blank_lines_and_sorts():
    text = (
        '\n{"width": 2, "height": 2, "mines": [3, 1]}\n   \n'
        '{"width": 1, "height": 1, "mines": []}\n'
    )
    assert list(read_layouts(text)) == [Layout(2, 2, (1, 3)), Layout(1, 1, ())]


def test_layout_file_from_disk(tmp_path):
    boards = [Layout(4, 3, (0, 11)), Layout(9, 9, tuple(range(10)))]
    path = tmp_path / "boards.jsonl"
    with path.open("w") as out:
        write_layouts(boards, out)
    with path.open() as source:
        assert list(read_layouts(source)) == boards


GOOD = '{"width": 2, "height": 2, "mines": [0]}'


@pytest.mark.parametrize(
    ("bad", "pattern"),
    [
        ("{not json", r"layout line 3: not JSON"),
        ("[1, 2]", "layout line 3: expected an object, got '\\[1, 2\\]'"),
        ('{"width": 2, "height": 2}', "layout line 3: missing key 'mines'"),
        ('{"height": 2, "mines": []}', "layout line 3: missing key 'width'"),
        ('{"width": "2", "height": 2, "mines": []}', "layout line 3: width and height must be"),
        ('{"width": 2, "height": 2, "mines": [1.5]}', "layout line 3: .*list of integers"),
        ('{"width": 2, "height": 2, "mines": [true]}', "layout line 3: .*list of integers"),
        ('{"width": true, "height": 2, "mines": []}', "layout line 3: width and height must be"),
        ('{"width": 2, "height": 2, "mines": 3}', "layout line 3: .*list of integers"),
        ('{"width": 2, "height": 2, "mines": [4]}', "layout line 3: mine index 4 is off the 2x2"),
        ('{"width": 2, "height": 2, "mines": [1, 1]}', "layout line 3: a mine index appears twice"),
        ('{"width": 0, "height": 2, "mines": []}', "layout line 3: board size must be positive"),
        ('{"width": 2, "height": 2, "mines": [0, 1.0]}', "layout line 3: .*list of integers"),
        ('{"width": 2, "height": 2, "mines": [2, -1]}', "layout line 3: mine index -1 is off"),
        ('{"width": 2, "height": 2, "mines": [3, 0, 3, 9]}', "layout line 3: mine index 9 is off"),
        ('{"width": 2, "height": 2, "mines": [3, 0, 3]}', "layout line 3: .*appears twice"),
        ('{"width": 2, "height": 2, "mines": [' + "1" * 41 + "]}",
         "layout line 3: a number of 41 digits is too long"),
        ('{"width": 2, "height": 2, "mines": [0], "note": "' + "1" * 41 + '"', "not JSON"),
    ],
)
def test_layout_file_errors_name_the_line(bad, pattern):
    text = f"{GOOD}\n\n{bad}\n{GOOD}\n"
    reader = read_layouts(text)
    assert next(reader) == Layout(2, 2, (0,))  # good lines before the bad one still read
    with pytest.raises(FormatError, match=pattern):
        next(reader)


# ---------------------------------------------------------------------- board files


@given(st.lists(layouts(max_side=40), max_size=6))
@settings(max_examples=100)
def test_mbf_stream_round_trip(boards):
    assert read_mbf_stream(b"".join(write_mbf(b) for b in boards)) == boards


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (write_mbf(Layout(2, 1, (1,))) + bytes([2, 1]), "MBF board 2: 2 stray bytes"),
        (write_mbf(Layout(2, 1, (1,))) + bytes([2, 1, 0, 2, 0, 0]),
         "MBF board 2: MBF header says 2 mines"),
        (bytes([2, 1, 0, 1, 5, 0]), "MBF board 1: MBF mine 1 at x=5, y=0 is off the 2x1 board"),
    ],
)
def test_mbf_stream_errors_name_the_board(data, pattern):
    with pytest.raises(FormatError, match=pattern):
        read_mbf_stream(data)


def test_read_boards_reads_either_kind_of_file(tmp_path):
    boards = [Layout(4, 3, (0, 11)), Layout(9, 9, tuple(range(10)))]
    lines = tmp_path / "boards.jsonl"
    lines.write_text("".join(layout_line(b) for b in boards))
    assert read_boards(lines) == boards
    mbf = tmp_path / "boards.mbf"
    mbf.write_bytes(b"".join(write_mbf(b) for b in boards))
    assert read_boards(str(mbf)) == boards
    one = tmp_path / "one.mbf"
    one.write_bytes(write_mbf(boards[0]))
    assert read_boards(one) == boards[:1]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert read_boards(empty) == []


def test_read_boards_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(GOOD + "\n{oops\n")
    with pytest.raises(FormatError, match=r"bad\.jsonl: layout line 2: not JSON"):
        read_boards(bad)
    broken = tmp_path / "broken.mbf"
    broken.write_bytes(bytes([2, 1, 0, 3, 0, 0]))
    with pytest.raises(FormatError, match=r"broken\.mbf: MBF board 1: MBF header says 3 mines"):
        read_boards(broken)
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"width": 1, "height": 1, "mines": [], "name": "\xe9"}\n')
    with pytest.raises(FormatError,
                       match=r"latin\.jsonl: not a layout file \(byte \d+ is not UTF-8\)"):
        read_boards(latin)
    with pytest.raises(FormatError, match=r"missing\.jsonl: cannot read it: No such file"):
        read_boards(tmp_path / "missing.jsonl")
    # not a regular file: a run reads its boards again when resumed (and /dev/zero never ends)
    endless = tmp_path / "zero.mbf"
    endless.symlink_to("/dev/zero")
    with pytest.raises(FormatError, match=r"zero\.mbf: not a regular file"):
        read_boards(endless)


def test_read_boards_tells_mbf_from_json_by_more_than_the_first_byte(tmp_path):
    wide = Layout(123, 10, (0, 5, 1229))  # width 123 is the byte "{"
    for name in ("wide.mbf", "wide.bin", "wide"):
        (tmp_path / name).write_bytes(write_mbf(wide))
        assert read_boards(tmp_path / name) == [wide]
    bom = tmp_path / "bom.jsonl"  # a layout file saved as "UTF-8 with BOM"
    bom.write_bytes(b"\xef\xbb\xbf" + GOOD.encode() + b"\n")
    assert len(read_boards(bom)) == 1
    bad = tmp_path / "bad.txt"  # neither: the JSON error is the one named
    bad.write_text("{oops\n")
    with pytest.raises(FormatError, match=r"bad\.txt: layout line 1: not JSON"):
        read_boards(bad)


def test_long_digit_runs_outside_numbers_still_read():
    # the check for numbers too long looks for 41 digits in a row anywhere; in a string
    # they are no number, and the line reads as before
    line = '{"width": 2, "height": 2, "mines": [3, 0], "note": "' + "7" * 60 + '"}'
    assert list(read_layouts(line)) == [Layout(2, 2, (0, 3))]
    assert read_json(line.encode())["note"] == "7" * 60
    with pytest.raises(FormatError, match="41 digits"):
        read_json(b"[" + b"9" * 41 + b"]")
