"""Closed regions (``strategies.regions``): checked against every layout by brute force,
and their move against the exact win chance of the whole position."""

from __future__ import annotations

import collections
import random

import pytest
from support import layouts_of, random_position

from minesolver.analysis import analyze
from minesolver.analysis.enumerate import enumerate_layouts
from minesolver.codes import COVERED, FLAG, MINE
from minesolver.minefield import Layout
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import EXPERT
from minesolver.strategies import find_strategy
from minesolver.strategies.regions import Region, closed_regions, region_move
from minesolver.strategies.worth import win_chances


def assert_closed(position: Position, region: Region, every: list[frozenset[int]]) -> None:
    """From the definition, over ``every`` layout of the whole position: the region's
    own layouts are exactly the parts of them inside it, all with ``region.mines``
    mines; every one goes with the same layouts outside; and nothing seen outside (the
    numbers of the safe cells there) changes with the part inside."""
    inside = frozenset(region.cells)
    own = {frozenset(c for k, c in enumerate(region.cells) if lay >> k & 1)
           for lay in region.layouts}
    assert len(own) == len(region.layouts)
    assert {layout & inside for layout in every} == own, position
    assert {len(part) for part in own} == {region.mines}
    outside: dict[frozenset[int], set[frozenset[int]]] = collections.defaultdict(set)
    for layout in every:
        outside[layout & inside].add(layout - inside)
    assert len({frozenset(rest) for rest in outside.values()}) == 1, position
    around = [set(position.grid.neighbours(i)) for i in range(len(position.cells))]
    shown: dict[frozenset[int], set[tuple[int, ...]]] = collections.defaultdict(set)
    for layout in every:
        shown[layout - inside].add(tuple(
            len(around[y] & layout) for y in range(len(position.cells))
            if y not in inside and y not in layout))
    assert all(len(numbers) == 1 for numbers in shown.values()), position


def guessing_position(rng: random.Random) -> Position:
    """A position where a player must guess: a random layout of 6x4 to 7x5 cells, a few
    cells opened at random, then every certainly safe cell opened until none is left
    (so regions lie beside the rest of a game, as in play)."""
    width, height = rng.choice([(6, 4), (6, 5), (7, 4), (7, 5)])
    mines = set(rng.sample(range(width * height), rng.randint(4, 10)))
    safe = [i for i in range(width * height) if i not in mines]
    opened = set(rng.sample(safe, rng.randint(2, len(safe) // 2)))
    counts = Layout(width, height, tuple(sorted(mines))).counts.tolist()
    while True:
        cells = bytes(counts[i] if i in opened else COVERED for i in range(width * height))
        position = Position(width, height, len(mines), cells)
        safe_now = analyze(position).safe_indices.tolist()
        if not safe_now:
            return position
        opened.update(safe_now)


def engine_layouts(position: Position) -> list[frozenset[int]]:
    """Every layout, from the enumeration the endgame search uses (itself tested equal
    to the brute force of ``layouts_of``), for boards too big to brute-force."""
    found = enumerate_layouts(position, 5000)
    assert found is not None
    cells, layouts = found
    marked = frozenset(i for i, code in enumerate(position.cells) if code in (FLAG, MINE))
    return [marked | frozenset(c for j, c in enumerate(cells) if lay >> j & 1)
            for lay in layouts]


@pytest.mark.parametrize(
    ("kind", "tries", "least"), [("small", 6000, 200), ("guessing", 3000, 300)]
)
def test_every_closed_region_is_independent_and_its_move_is_a_best_move(
    kind: str, tries: int, least: int
) -> None:
    """Small positions are checked against the brute force of every layout; positions
    where a game must guess, with regions beside a larger rest, against the
    enumeration.  The region's move must be a best move of the whole position (perfect
    play wins as often after it as at best), and the position's chance the region's
    times the rest's."""
    rng = random.Random(20261126)
    regions = searched = beside = 0
    sizes: collections.Counter[int] = collections.Counter()
    for _ in range(tries):
        position = random_position(rng) if kind == "small" else guessing_position(rng)
        analysis = analyze(position)
        if not 1 < analysis.solutions <= 5000:
            continue  # (every layout is listed, and perfect play searched, below)
        every = layouts_of(position) if kind == "small" else engine_layouts(position)
        for region in closed_regions(position, analysis):
            regions += 1
            sizes[len(region.cells)] += 1
            assert_closed(position, region, every)
        found = region_move(position, analysis)
        if found is None:
            continue
        searched += 1
        assert found.region == closed_regions(position, analysis)[0]
        perfect, (after,) = win_chances(position, [found.result.cell], max_layouts=5000)
        assert after == pytest.approx(perfect, abs=1e-12), position
        rest = _resolved(position, found.region, every)
        beside += rest.cells.count(COVERED) > 0
        assert perfect == pytest.approx(found.result.win_chance * win_chances(
            rest, [], max_layouts=5000)[0], abs=1e-12), position
    assert regions > least and searched > least, (regions, searched)
    assert any(size >= 6 for size in sizes), sizes
    if kind == "guessing":
        assert beside >= 10, beside


def _resolved(position: Position, region: Region, every: list[frozenset[int]]) -> Position:
    """The position with the region settled by one of its layouts (its mines marked,
    its safe cells showing their numbers): what is left is the rest of the game."""
    mines = {c for k, c in enumerate(region.cells) if region.layouts[0] >> k & 1}
    one = next(layout for layout in every if layout & set(region.cells) == mines)
    cells = bytearray(position.cells)
    for c in region.cells:
        cells[c] = MINE if c in mines else len(set(position.grid.neighbours(c)) & one)
    return Position(position.width, position.height, position.mines, bytes(cells))


def test_a_component_whose_mine_count_varies_is_left_alone():
    # the six cells on the left hold one mine or two as their numbers allow; which is
    # what the right side leaves of the eight, and opening a cell there can tell
    position = Position.from_text("6x4x8\nHHH4HH\n13H4HH\nHH2333\nHH11HH\n")
    analysis = analyze(position)
    every = layouts_of(position)
    left = {position.index(r, c) for r in range(4) for c in range(2)}
    assert len({len(layout & left) for layout in every}) == 2
    assert closed_regions(position, analysis) == []
    assert region_move(position, analysis) is None


def test_best_with_regions_plays_the_region_first():
    # the four cells top left are a region of four layouts, two mines each; (0,2)
    # wins it half the time, (0,0) a quarter; elsewhere (2,4) is as safe as (0,2)
    position = Position.from_text("6x4x10\nH3HH20\nHHHH41\n14HHHH\n02HH31\n")
    found = region_move(position, analyze(position))
    assert found is not None and found.result.cell == (0, 2)
    # (the endgame search, first when so few layouts are left, would find it too)
    move = find_strategy("best:regions=on,endgame=off").moves(position)[0]
    assert move.reason == "region" and move.cell == (0, 2)
    assert move.probability == pytest.approx(0.5)


def test_best_with_regions_wins_games():
    strategy = find_strategy("best:regions=on")
    won = sum(play_game(EXPERT, strategy, seed=seed).won for seed in range(30))
    assert won > 0
