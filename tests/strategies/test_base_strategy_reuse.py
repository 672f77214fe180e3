"""A strategy asked about positions of different games answers each as a fresh one."""

from __future__ import annotations

import pytest

from minesolver.position import Position
from minesolver.strategies import STRATEGIES, find_strategy

POSITIONS = ["5x1x1\n01HHH\n", "5x1x1\nHHHHH\n", "6x2x2\nHHHHHH\n1HHHHH\n", "5x1x1\nH1FHH\n"]


@pytest.mark.parametrize("name", sorted(set(STRATEGIES) - {"random", "dfs", "sampling"}))
def test_unrelated_positions_are_not_read_with_an_old_games_mines(name):
    # the first proves (0, 2) a mine; in the second every cell is 1 in 5: the stale
    # mine made 'tank' open four cells as 'deductions', and another size raised
    reused = find_strategy(name)
    for text in POSITIONS:
        position = Position.from_text(text)
        fresh = find_strategy(name)
        # the same moves, but for which of tied cells a seeded tie-break picked
        assert [seen(m) for m in reused.moves(position)] == [
            seen(m) for m in fresh.moves(position)
        ], text


def seen(move):
    cell = move.cell if move.reason == "deduction" else None
    return (cell, move.action, move.reason, move.probability)
