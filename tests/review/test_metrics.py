"""The board and game figures against ms-toollib's, the community's reference reader.

ms-toollib (MIT, PyPI ``ms-toollib``) is a test-only dependency here: minesolver computes
every figure itself, and these tests check the two agree on random boards.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from minesolver.metrics import bbbv_solved, board_stats, hzini, islands, zini
from minesolver.minefield import Layout

ms = pytest.importorskip("ms_toollib")


def toolkit_board(layout):
    w = layout.width
    mines = set(layout.mines)
    board = [[-1 if r * w + c in mines else 0 for c in range(w)] for r in range(layout.height)]
    return ms.cal_board_numbers(board)


def random_layouts(count, seed):
    rnd = random.Random(seed)
    for _ in range(count):
        w, h = rnd.randint(1, 30), rnd.randint(1, 24)
        if rnd.random() < 0.25:
            m = rnd.randint(0, w * h - 1)
        else:
            m = int(w * h * rnd.uniform(0.05, 0.3))
        yield Layout(w, h, tuple(rnd.sample(range(w * h), m)))


def test_board_figures_agree_with_ms_toollib():
    for layout in random_layouts(300, seed=2026):
        board = toolkit_board(layout)
        stats = board_stats(layout)
        expected = (ms.cal_bbbv(board), ms.cal_op(board), ms.Board(board).isl,
                    ms.cal_zini(board), ms.cal_hzini(board))
        assert (stats.bbbv, stats.openings, stats.islands, stats.zini, stats.hzini) == expected, (
            layout
        )
        cells = ms.Board(board)
        assert stats.numbers == tuple(getattr(cells, f"cell{n}") for n in range(9))


def test_known_figures():
    empty = Layout(3, 3, ())
    assert (empty.bbbv(), islands(empty), zini(empty), hzini(empty)) == (1, 0, 1, 1)
    ring = Layout.from_cells(3, 3, [(0, 0), (0, 2), (2, 0), (2, 2)])
    assert board_stats(ring).islands == 1 and ring.bbbv() == 5


def test_bbbv_solved_counts_openings_once_and_lone_numbers():
    layout = Layout.from_cells(5, 1, [(0, 2)])  # 0 1 * 1 0: two openings, no lone number
    opened = np.array([True, True, False, False, False])
    assert bbbv_solved(layout, opened) == 1
    assert bbbv_solved(layout, np.array([True, True, False, True, True])) == 2
    lone = Layout.from_cells(3, 3, [(0, 0), (0, 2), (2, 0), (2, 2)])
    assert bbbv_solved(lone, np.array([False] * 4 + [True] + [False] * 4)) == 1
