"""Paths taken only on boards too big for the neighbour table equal the small-board ones."""

from __future__ import annotations

import random

import pytest

import minesolver.geometry as geometry
from minesolver.analysis.system import clue_cells, raw_clues
from minesolver.game import Game
from minesolver.rules import Rules


@pytest.mark.parametrize("seed", range(4))
def test_raw_clues_without_the_table_equal_the_table(seed, monkeypatch):
    rnd = random.Random(seed)
    rules = Rules(rnd.randint(40, 70), rnd.randint(40, 70), 0, first_click="opening")
    rules = Rules(rules.width, rules.height, rules.cells // 6, first_click="opening")
    game = Game(rules, seed=seed)
    game.reveal(rules.height // 2, rules.width // 2)
    layout = game.layout
    assert layout is not None
    mines = sorted(layout.mines)
    for i in rnd.sample(range(rules.cells), rules.cells // 5):
        if i not in layout.mines and not game.is_over:
            game.reveal(*divmod(i, rules.width))
    for m in mines[: len(mines) // 3]:
        game.flag(*divmod(m, rules.width))
    position = game.position()
    at = clue_cells(position, False)
    assert len(at) >= 256  # the vectorised path
    with_table = raw_clues(position, at, None)
    monkeypatch.setattr(geometry, "TABLE_CELLS", 0)
    geometry._TABLES.clear()
    assert position.grid.table() is None
    without = raw_clues(position, at, None)
    assert [(c.at, c.cells, c.need) for c in without] == [
        (c.at, c.cells, c.need) for c in with_table
    ]
    assert position.grid.neighbour_rows(range(rules.cells)) == [
        position.grid._around(i) for i in range(rules.cells)
    ]
