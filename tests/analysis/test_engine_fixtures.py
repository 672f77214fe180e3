"""The engine on the shared fixtures: 120 positions with exact reference probabilities."""

from __future__ import annotations

import json

import numpy as np
import pytest
from support import FIXTURES, fixture_ids, load_fixture, true_mines

from minesolver.analysis import analyze
from minesolver.codes import COVERED, FLAG

IDS = fixture_ids()


def test_the_fixture_set_is_complete():
    assert FIXTURES.is_dir(), f"fixtures not found at {FIXTURES} (set MINESOLVER_FIXTURES)"
    assert len(IDS) == 120
    manifest = [
        json.loads(line)
        for line in (FIXTURES / "manifest.jsonl").read_text().split("\n")
        if line.strip()
    ]
    assert [m["id"] for m in manifest] == IDS
    for fid in IDS:
        assert (FIXTURES / f"{fid}.probs.json").exists()
        assert (FIXTURES / f"{fid}.mines.txt").exists()


@pytest.mark.parametrize("fid", IDS)
def test_fixture(fid):
    position = load_fixture(fid)
    reference = np.array(json.loads((FIXTURES / f"{fid}.probs.json").read_text())["prob"])
    assert reference.shape == (position.height, position.width)

    analysis = analyze(position)
    prob = analysis.prob
    assert prob.shape == reference.shape
    diff = np.abs(prob - reference)
    worst = np.unravel_index(int(diff.argmax()), diff.shape)
    assert diff.max() <= 1e-9, (
        f"cell {tuple(int(v) for v in worst)}: engine {prob[worst]!r}, "
        f"reference {reference[worst]!r}"
    )
    assert analysis.solutions > 0

    mines = true_mines(fid)
    assert len(mines) == position.mines
    w = position.width
    for i, code in enumerate(position.cells):
        cell = divmod(i, w)
        num, den = analysis.exact(i)
        assert 0 <= num <= den
        if cell in mines:
            assert num > 0, f"true mine {cell} has probability 0"
        else:
            assert num < den, f"safe cell {cell} has probability 1"
            assert code != FLAG, f"flag {cell} on a safe cell"
        if code == FLAG:
            assert (num, den) == (1, 1)
        elif code != COVERED:
            assert num == 0
    # the certain cells agree with the truth
    assert all(cell not in mines for cell in analysis.safe)
    assert all(cell in mines for cell in analysis.mines)
    assert abs(prob.sum() - position.mines) < 1e-6


@pytest.mark.parametrize("fid", IDS[::10])
def test_fixture_text_round_trips(fid):
    text = (FIXTURES / f"{fid}.mine").read_text()
    assert load_fixture(fid).to_text() == text
