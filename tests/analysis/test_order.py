"""Box orders (``analysis.order``): the counting's integers never depend on the order.

Every candidate order (the greedy one and the sweeps) must give the same polynomial
and the same per-box totals, exactly; on small fronts both must equal a brute-force
enumeration of the front's layouts (hard and noisy clues alike: the noisy counting
takes each clue's common factor out and puts it back).  The search's cost model must
predict the states the counting really makes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import consistent_positions, fixture_ids, load_fixture, noisy_position

from minesolver.analysis import order
from minesolver.analysis.counting import FrontCount, count_front
from minesolver.analysis.fronts import Front, split_fronts
from minesolver.analysis.system import build_system
from minesolver.noise import parse_noise, soft_clue
from minesolver.position import Position

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOISE = ["cautious", "optimistic", "withheld:0.5"]


def reordered(front: Front, ranked: list[int]) -> Front:
    return Front([front.boxes[b] for b in ranked], front.clues, front.board_width)


def candidates(front: Front) -> list[list[int]]:
    cells = [box.cells for box in front.boxes]
    greedy = order.greedy_order(cells, [box.clues for box in front.boxes], len(front.clues))
    return [greedy, *order.sweep_orders(cells, front.board_width)]


def by_box(count: FrontCount) -> dict[tuple[int, ...], list[int]]:
    return {tuple(box.cells): p for box, p in zip(count.front.boxes, count.box_polys, strict=True)}


def brute_counts(front: Front) -> tuple[list[int], dict[tuple[int, ...], list[int]]]:
    """The front's polynomial and per-box totals, by enumerating its layouts."""
    cells = front.cells
    box_of = {c: tuple(box.cells) for box in front.boxes for c in box.cells}
    poly = [0] * (len(cells) + 1)
    totals = {tuple(box.cells): [0] * (len(cells) + 1) for box in front.boxes}
    for mask in range(1 << len(cells)):
        mines = {c for j, c in enumerate(cells) if mask >> j & 1}
        weight = 1
        for clue in front.clues:
            v = sum(c in mines for c in clue.cells)
            weight *= clue.factor[v] if clue.factor is not None else int(v == clue.need)
        poly[len(mines)] += weight
        for c in mines:
            totals[box_of[c]][len(mines)] += weight
    while not poly[-1]:
        poly.pop()
    return poly, {box: t[: len(poly)] for box, t in totals.items()}


def assert_orders_agree(front: Front, *, brute: bool) -> None:
    reference = count_front(front)
    for ranked in candidates(front):
        assert sorted(ranked) == list(range(len(front.boxes)))
        count = count_front(reordered(front, ranked))
        assert count.poly == reference.poly
        assert by_box(count) == by_box(reference)
    if brute:
        assert brute_counts(front) == (reference.poly, by_box(reference))


@pytest.mark.parametrize("fid", fixture_ids()[::6])
def test_every_candidate_order_counts_the_same_on_fixtures(fid):
    fronts, _ = split_fronts(build_system(load_fixture(fid)))
    for front in fronts:
        assert_orders_agree(front, brute=False)


@given(consistent_positions())
@SETTINGS
def test_every_order_equals_the_enumeration(position):
    fronts, _ = split_fronts(build_system(position))
    for front in fronts:
        assert_orders_agree(front, brute=front.size <= 12)


@pytest.mark.parametrize("noise", NOISE)
@given(seed=st.integers(0, 2**32))
@SETTINGS
def test_every_order_equals_the_enumeration_with_noisy_clues(noise, seed):
    position, _ = noisy_position(noise, seed)
    fronts, _ = split_fronts(build_system(position, soft=soft_clue(parse_noise(noise))))
    for front in fronts:
        assert_orders_agree(front, brute=True)


def test_soft_factors_are_counted_reduced_and_scaled_back():
    # cautious noise scales likelihoods by about 2**30 each: the counting divides each
    # clue's factor by its gcd and multiplies the results back
    position = Position.from_text("4x3x3\n2HHH\nH4HH\nHHHH\n")
    fronts, _ = split_fronts(build_system(position, soft=soft_clue(parse_noise("cautious"))))
    (front,) = fronts
    assert all(clue.factor is not None and max(clue.factor) > 2**20 for clue in front.clues)
    count = count_front(front)
    assert count._scale > 1
    assert (count.poly, by_box(count)) == brute_counts(front)


@given(consistent_positions())
@SETTINGS
def test_the_cost_model_predicts_the_tables_the_counting_makes(position):
    fronts, _ = split_fronts(build_system(position))
    for front in fronts:
        if len(front.boxes) == 1:
            continue
        count = count_front(front)
        assert count._tables is not None
        placed = 1
        expected = 0
        for i, box in enumerate(front.boxes):
            placed += box.size
            states = len(count._tables[i + 1]) if i + 1 < len(front.boxes) else 1
            expected += states * placed
        sizes = [box.size for box in front.boxes]
        clues = [box.clues for box in front.boxes]
        ranked = list(range(len(front.boxes)))
        assert order.table_cost(ranked, sizes, clues, front.clues, limit=10**9) == expected
        assert order.table_cost(ranked, sizes, clues, front.clues, limit=expected - 1) is None


def test_the_search_picks_the_cheapest_candidate(monkeypatch):
    monkeypatch.setattr(order, "SEARCH_MIN_WIDTH", 0)  # search on every front
    for fid in fixture_ids()[::12]:
        system = build_system(load_fixture(fid))
        for front in split_fronts(system)[0]:
            cells = [box.cells for box in front.boxes]
            clues = [box.clues for box in front.boxes]
            sizes = [len(c) for c in cells]
            chosen = order.best_order(cells, clues, front.clues, front.board_width)
            assert sorted(chosen) == list(range(len(front.boxes)))
            costs = [
                order.table_cost(ranked, sizes, clues, front.clues, limit=10**12)
                for ranked in candidates(front)
            ]
            best = order.table_cost(chosen, sizes, clues, front.clues, limit=10**12)
            assert best == min(c for c in costs if c is not None)
