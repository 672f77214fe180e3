"""Boxes and fronts: the counting order can be put in later, with the same result.

The engine leaves a front's boxes unordered until it has to count it (a cached count
carries its ordered front); ordering later must give exactly what ordering at once
gives, or counts and per-box weights would be paired with the wrong boxes.
"""

from __future__ import annotations

import pytest
from support import fixture_ids, load_fixture

from minesolver.analysis.fronts import ordered, split_fronts
from minesolver.analysis.system import build_system


def boxes(fronts):
    return [[(b.cells, b.clues) for b in f.boxes] for f in fronts]


@pytest.mark.parametrize("fid", fixture_ids())
def test_ordering_later_equals_ordering_at_once(fid):
    at_once, off = split_fronts(build_system(load_fixture(fid)))
    later, off_later = split_fronts(build_system(load_fixture(fid)), in_order=False)
    assert off_later == off
    assert boxes([ordered(f) for f in later]) == boxes(at_once)
    assert [[c.at for c in f.clues] for f in later] == [[c.at for c in f.clues] for f in at_once]
