"""Geometry: Grid's neighbours, floods, counts and components against obvious references,
and the neighbour-table cache that must stay bounded."""

from __future__ import annotations

import pickle
import random
from collections import deque

import numpy as np
import pytest
from support import around, neighbours_of

from minesolver import geometry
from minesolver.errors import InputError, OffBoardError
from minesolver.geometry import TABLE_CELLS, Grid, neighbour_sum

SIZES = [(1, 1), (1, 7), (7, 1), (2, 2), (3, 3), (5, 4), (30, 16)]


def random_sizes(seed, count=60, max_side=25):
    rng = random.Random(seed)
    return [(rng.randint(1, max_side), rng.randint(1, max_side)) for _ in range(count)]


# ---------------------------------------------------------------------- cells


def test_index_and_coords_round_trip():
    for width, height in [*SIZES, *random_sizes(1, 20)]:
        grid = Grid(width, height)
        assert grid.cells == width * height
        for i in range(grid.cells):
            r, c = grid.coords(i)
            assert (r, c) == divmod(i, width)
            assert grid.contains(r, c)
            assert grid.index(r, c) == i
        assert grid.coords_of(range(grid.cells)) == [divmod(i, width) for i in range(grid.cells)]


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (3, 0), (0, 4), (10, 10), (1.5, 0), ("0", 0)])
def test_index_off_the_board(cell):
    grid = Grid(4, 3)
    with pytest.raises(OffBoardError, match=r"cell \(.*\) is off the 4x3 board"):
        grid.index(*cell)
    if all(isinstance(v, int) for v in cell):
        assert not grid.contains(*cell)


def test_numpy_integers_are_cells():
    assert Grid(4, 3).index(np.int64(2), np.int32(3)) == 11


@pytest.mark.parametrize(("width", "height"), [(0, 3), (3, 0), (-1, 2)])
def test_board_size_must_be_positive(width, height):
    with pytest.raises(InputError, match="board size must be positive"):
        Grid(width, height)


def test_grids_are_values():
    assert Grid(3, 2) == Grid(3, 2) != Grid(2, 3)
    assert len({Grid(3, 2), Grid(3, 2), Grid(2, 3)}) == 2
    assert repr(Grid(3, 2)) == "Grid(3, 2)"
    assert pickle.loads(pickle.dumps(Grid(3, 2))) == Grid(3, 2)


# ---------------------------------------------------------------------- neighbours


def test_neighbours_by_hand():
    assert Grid(3, 3).neighbours(0) == (1, 3, 4)
    assert Grid(3, 3).neighbours(4) == (0, 1, 2, 3, 5, 6, 7, 8)
    assert Grid(1, 1).neighbours(0) == ()
    assert Grid(5, 1).neighbours(2) == (1, 3)


def test_neighbours_match_brute_force_on_random_sizes():
    for width, height in [*SIZES, *random_sizes(2)]:
        grid = Grid(width, height)
        table = grid.table()
        assert table is not None and len(table) == grid.cells
        for i in range(grid.cells):
            expected = neighbours_of(width, height, i)  # row-major
            assert list(grid.neighbours(i)) == expected
            assert list(table[i]) == expected
            assert list(grid._around(i)) == expected  # the path of boards too big to cache
            assert grid.degree(i) == len(expected)


def test_huge_boards_compute_neighbours_on_the_fly():
    grid = Grid(2000, 2000)
    assert grid.table() is None
    i = grid.index(1000, 1000)
    assert list(grid.neighbours(i)) == neighbours_of(2000, 2000, i)
    assert list(grid.neighbours(0)) == [1, 2000, 2001]
    assert grid.degree(0) == 3 and grid.degree(1) == 5 and grid.degree(i) == 8


def test_square_is_clipped_at_the_edges():
    for width, height in random_sizes(3, 30, 12):
        grid = Grid(width, height)
        for i in range(grid.cells):
            r, c = grid.coords(i)
            for radius in (0, 1, 2):
                expected = [
                    rr * width + cc
                    for rr in range(height)
                    for cc in range(width)
                    if abs(rr - r) <= radius and abs(cc - c) <= radius
                ]
                assert grid.square(i, radius) == expected
            assert sorted(grid.square(i, 1)) == sorted([i, *grid.neighbours(i)])


# ---------------------------------------------------------------------- kernels


def test_neighbour_counts_match_brute_force():
    rng = np.random.default_rng(4)
    for width, height in [*SIZES, *random_sizes(4, 40)]:
        grid = Grid(width, height)
        mask = (rng.random(grid.cells) < 0.3).astype(np.uint8)
        expected = [sum(int(mask[j]) for j in neighbours_of(width, height, i))
                    for i in range(grid.cells)]
        counts = grid.neighbour_counts(mask)
        assert counts.dtype == np.uint8 and counts.shape == (grid.cells,)
        assert counts.tolist() == expected
        assert grid.neighbour_counts(mask.tobytes()).tolist() == expected
        assert grid.neighbour_counts(bytearray(mask.tobytes())).tolist() == expected
        assert neighbour_sum(mask.reshape(height, width)).ravel().tolist() == expected


def ref_flood(grid, start, zero, state, closed, value):
    """Breadth first from ``start``, neighbours in row-major order, the slow way."""
    state = bytearray(state)
    opened = []
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for j in neighbours_of(grid.width, grid.height, i):
            if state[j] == closed:
                state[j] = value
                opened.append(j)
                if zero[j]:
                    queue.append(j)
    return opened, state


def test_flood_matches_a_simple_breadth_first_search():
    rng = random.Random(5)
    for width, height in [*SIZES, *random_sizes(5, 80, 20)]:
        grid = Grid(width, height)
        for _ in range(3):
            zero = bytes(int(rng.random() < 0.6) for _ in range(grid.cells))
            # 0 closed, 1 open, 2 a flag the flood must leave alone
            state = bytearray(rng.choice((0, 0, 0, 1, 2)) for _ in range(grid.cells))
            start = rng.randrange(grid.cells)
            state[start] = 1
            expected, final = ref_flood(grid, start, zero, state, closed=0, value=1)
            opened: list[int] = []
            grid.flood(start, zero, state, opened)
            assert opened == expected
            assert state == final
            assert all(state[j] == 1 for j in opened)


def test_flood_with_other_state_codes():
    grid = Grid(5, 1)
    state = bytearray([7, 3, 3, 9, 3])
    opened: list[int] = []
    grid.flood(0, [1, 1, 0, 1, 1], state, opened, closed=3, value=7)
    assert opened == [1, 2]  # (0, 2) is no zero: the flood stops there
    assert list(state) == [7, 7, 7, 9, 3]


def test_flood_on_a_board_too_large_for_the_table():
    grid = Grid(1000, 200)
    assert grid.table() is None
    zero = bytes([1]) * grid.cells
    state = bytearray(grid.cells)
    state[0] = 1
    opened: list[int] = []
    grid.flood(0, zero, state, opened)
    assert len(opened) == grid.cells - 1
    assert opened[:3] == [1, 1000, 1001]


def test_components_match_brute_force():
    rng = np.random.default_rng(6)
    for width, height in [*SIZES, *random_sizes(6, 40)]:
        grid = Grid(width, height)
        members = rng.random(grid.cells) < 0.45
        labels, count = grid.components(members)
        assert labels.shape == (grid.cells,)
        assert (labels > 0).tolist() == members.tolist()
        assert set(labels[members].tolist()) == set(range(1, count + 1))
        # neighbouring members share a label; the labels count the 8-connected areas
        cells = {(r, c) for r in range(height) for c in range(width) if members[r * width + c]}
        areas = 0
        seen: set[tuple[int, int]] = set()
        for cell in sorted(cells):
            if cell in seen:
                continue
            areas += 1
            stack = [cell]
            seen.add(cell)
            label = labels[cell[0] * width + cell[1]]
            while stack:
                for nb in around(*stack.pop(), width, height):
                    if nb in cells and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
                        assert labels[nb[0] * width + nb[1]] == label
        assert count == areas


# ---------------------------------------------------------------------- the table cache


def test_the_table_cache_stays_bounded(monkeypatch):
    monkeypatch.setattr(geometry, "_TABLES", type(geometry._TABLES)())
    sizes = [(w, h) for w in range(40, 200, 7) for h in (50, 90, 130)]
    assert sum(w * h for w, h in sizes) > 3 * TABLE_CELLS
    for width, height in sizes:
        grid = Grid(width, height)
        table = grid.table()
        assert table is not None
        assert geometry.cached_cells() <= TABLE_CELLS
        assert list(table[width + 1]) == neighbours_of(width, height, width + 1)
    # the newest tables stay; the oldest went first
    assert (sizes[-1][0], sizes[-1][1]) in geometry._TABLES
    assert (sizes[0][0], sizes[0][1]) not in geometry._TABLES
    # an evicted table is built again, the same
    again = Grid(*sizes[0]).table()
    assert again is not None
    assert list(again[5]) == neighbours_of(*sizes[0], 5)
    assert geometry.cached_cells() <= TABLE_CELLS


def test_a_board_larger_than_the_cache_is_never_cached(monkeypatch):
    monkeypatch.setattr(geometry, "_TABLES", type(geometry._TABLES)())
    side = int(TABLE_CELLS**0.5) + 1
    assert Grid(side, side).table() is None
    assert geometry.cached_cells() == 0
    assert Grid(TABLE_CELLS, 1).table() is not None  # exactly the limit fits
    assert geometry.cached_cells() == TABLE_CELLS
