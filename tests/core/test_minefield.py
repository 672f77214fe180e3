"""Minefield: a Layout's numbers, openings and 3BV against brute force; opening cells."""

from __future__ import annotations

import random

import numpy as np
import pytest
from support import around, layout_from_rows, random_layout, ref_bbbv, ref_counts, ref_flood

from minesolver.errors import InputError, OffBoardError
from minesolver.minefield import FLAGGED, HIDDEN, OPEN, Layout, Minefield


def ref_openings(layout):
    """The 8-connected areas of safe zeros, each a set of ``(row, col)``."""
    counts = ref_counts(layout)
    mines = set(layout.mine_cells())
    zeros = {cell for cell, n in counts.items() if n == 0 and cell not in mines}
    areas = []
    seen = set()
    for cell in sorted(zeros):
        if cell in seen:
            continue
        area = {cell}
        stack = [cell]
        while stack:
            for nb in around(*stack.pop(), layout.width, layout.height):
                if nb in zeros and nb not in area:
                    area.add(nb)
                    stack.append(nb)
        seen |= area
        areas.append(area)
    return areas


# ---------------------------------------------------------------------- Layout


def test_layout_helpers():
    layout = Layout.from_cells(3, 2, [(1, 2), (0, 0)])
    assert layout.mines == (0, 5)
    assert layout.mine_cells() == [(0, 0), (1, 2)]
    assert layout.to_text() == "*..\n..*\n"
    assert Layout(3, 2, (5, 0)).mines == (0, 5)
    with pytest.raises(OffBoardError, match=r"mine \(2, 0\) is off the 3x2 board"):
        Layout.from_cells(3, 2, [(2, 0)])
    with pytest.raises(OffBoardError, match="mine index 6 is off the 3x2 board"):
        Layout(3, 2, (6,))
    with pytest.raises(OffBoardError, match="mine index -1 is off the 3x2 board"):
        Layout(3, 2, (-1,))
    with pytest.raises(InputError, match="twice"):
        Layout(3, 2, (1, 1))
    with pytest.raises(InputError, match="board size must be positive"):
        Layout(0, 2, ())


def test_layouts_are_values():
    assert Layout(3, 2, (5, 0)) == Layout(3, 2, (0, 5))
    assert hash(Layout(3, 2, (5, 0))) == hash(Layout(3, 2, (0, 5)))
    assert Layout(3, 2, (0,)) != Layout(2, 3, (0,))
    with pytest.raises(AttributeError):
        Layout(3, 2, ()).mines = (1,)  # type: ignore[misc]


def test_counts_and_mask_match_brute_force():
    rng = random.Random(31)
    for _ in range(200):
        layout = random_layout(rng, max_side=14)
        counts = ref_counts(layout)
        w = layout.width
        assert layout.mask.dtype == np.uint8 and layout.counts.dtype == np.uint8
        assert layout.mask.shape == layout.counts.shape == (layout.width * layout.height,)
        assert [int(v) for v in layout.mask] == [
            int(i in layout.mines) for i in range(w * layout.height)
        ]
        assert {divmod(i, w): int(n) for i, n in enumerate(layout.counts)} == counts


def test_openings_match_brute_force():
    rng = random.Random(32)
    for _ in range(200):
        layout = random_layout(rng, max_side=14)
        labels, count = layout.openings()
        areas = ref_openings(layout)
        assert count == len(areas)
        w = layout.width
        found = {}
        for i, label in enumerate(labels.tolist()):
            if label:
                found.setdefault(label, set()).add(divmod(i, w))
        assert sorted(map(sorted, found.values())) == sorted(map(sorted, areas))


@pytest.mark.parametrize(
    ("rows", "bbbv"),
    [
        (("..*",), 1),
        ((".",), 1),
        (("..*..",), 2),
        (("*..*",), 2),
        (("...", ".*.", "..."), 8),
        (("*..", "...", "..*"), 2),
        (("*.*.*",), 2),
        ((".*.", "...", ".*."), 7),
    ],
)
def test_bbbv_by_hand(rows, bbbv):
    assert layout_from_rows(*rows).bbbv() == bbbv


def test_bbbv_matches_brute_force():
    rng = random.Random(33)
    for _ in range(300):
        layout = random_layout(rng, max_side=16)
        assert layout.bbbv() == ref_bbbv(layout)


def test_every_cell_a_mine_but_one():
    layout = Layout(3, 3, tuple(i for i in range(9) if i != 4))
    assert layout.counts[4] == 8
    assert layout.openings()[1] == 0
    assert layout.bbbv() == 1


# ---------------------------------------------------------------------- Minefield


def test_open_floods_like_the_reference():
    rng = random.Random(34)
    checked = 0
    for _ in range(200):
        layout = random_layout(rng)
        mines = set(layout.mines)
        safe = [i for i in range(layout.width * layout.height) if i not in mines]
        start = rng.choice(safe)
        field = Minefield(layout)
        opened = field.open(start)
        expected = ref_flood(layout, divmod(start, layout.width))
        assert opened[0] == start
        assert len(opened) == len(set(opened))
        assert {divmod(i, layout.width) for i in opened} == expected
        assert all(field.state[i] == OPEN for i in opened)
        assert field.safe_left == len(safe) - len(expected)
        assert field.open(start) == []  # open already
        checked += 1
    assert checked == 200


def test_opening_a_mine_only_marks_it():
    field = Minefield(Layout(3, 1, (1,)))
    assert field.is_mine(1) and not field.is_mine(0)
    assert field.open(1) == [1]
    assert field.state[1] == OPEN
    assert field.safe_left == 2


def test_a_flag_stops_a_flood_only():
    field = Minefield(Layout(4, 1, (3,)))
    field.state[1] = FLAGGED
    assert field.open(0) == [0]  # the flagged neighbour stays as it is
    assert field.state[1] == FLAGGED
    assert field.safe_left == 2


def test_a_given_state_is_shared_and_counted():
    state = bytearray([OPEN, HIDDEN, HIDDEN, HIDDEN])
    field = Minefield(Layout(4, 1, (3,)), state)
    assert field.state is state
    assert field.safe_left == 2
    assert field.open(1) == [1, 2]  # a zero: floods to the hidden (0, 2), not the open (0, 0)
    assert state[1] == state[2] == OPEN
    assert field.safe_left == 0


def test_a_layout_is_a_value_whatever_sequence_made_it():
    made = [Layout(3, 1, [2]), Layout(3, 1, (2,)), Layout(3, 1, np.array([2])),
            Layout(np.int64(3), 1, [np.int64(2)])]
    assert all(layout == made[1] and hash(layout) == hash(made[1]) for layout in made)
    assert all(type(layout.mines) is tuple and type(layout.mines[0]) is int for layout in made)
    assert Layout(4, 1, [3, 0]).mines == (0, 3)


@pytest.mark.parametrize("args", [(3.0, 1, (2,)), (3, 1, (1.0,)), (3, 1, (True,)), (True, 3, ())])
def test_a_layout_of_other_numbers_is_refused(args):
    with pytest.raises(InputError, match="must be an integer"):
        Layout(*args)


def test_a_layouts_arrays_cannot_be_changed():
    layout = Layout(3, 1, (2,))
    for array in (layout.mask, layout.counts):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 5
