"""The engine without the total mine count (``density``) against the brute-force oracle.

Without the count, a layout of the unknown cells with ``m`` mines weighs
``d**m * (1 - d)**(n - m)``.  The reference sums the oracle's exact counts over every
``m`` with those weights; the engine must give the same Fraction for every cell.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import consistent_positions

from minesolver import Position
from minesolver.analysis import analyze, brute_force
from minesolver.codes import COVERED, FLAG, MINE


def reference(position: Position, d: Fraction) -> list[Fraction]:
    cells = position.cells
    n = cells.count(COVERED)
    known = cells.count(FLAG) + cells.count(MINE)
    total = Fraction(0)
    per_cell = [Fraction(0)] * len(cells)
    for m in range(n + 1):
        weight = d**m * (1 - d) ** (n - m)
        count, probs = brute_force(Position(position.width, position.height, known + m, cells))
        total += weight * count
        for i, p in enumerate(probs):
            per_cell[i] += weight * count * p
    return [p / total for p in per_cell]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(consistent_positions(), st.sampled_from([Fraction(1, 5), Fraction(1, 2), Fraction(3, 7)]))
def test_density_matches_the_oracle_summed_over_mine_counts(position, d):
    analysis = analyze(position, density=d)
    expected = reference(position, d)
    w = position.width
    for i, code in enumerate(position.cells):
        if code == COVERED:
            assert analysis.probability(*divmod(i, w)) == expected[i], (i, str(position))


def test_the_counter_is_what_tells_the_last_cell_apart():
    position = Position.from_text("3x1x1\n1HH\n")
    assert analyze(position).safe == [(0, 2)]
    assert analyze(position, density=Fraction(1, 5)).safe == []
