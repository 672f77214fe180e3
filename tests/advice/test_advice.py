"""Advice and the per-cell survey against brute force on small boards (their perft).

The reference lists every layout of a position by trying every placement of the mines
left, then reads each figure off the list: a zero where a cell and its neighbours are
mine-free, the numbers a cell can show, pairs that no cell can tell apart.  It shares
no code with :mod:`minesolver.survey` or :mod:`minesolver.advice` beyond the position.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from support import (
    WALL_FIFTY_FIFTY,
    consistent_positions,
    layouts_of,
    neighbours_of,
    numbers_of,
)

from minesolver.advice import advise, outlook
from minesolver.analysis import Engine, analyze
from minesolver.codes import BLANK, COVERED, MINE, is_open
from minesolver.position import Position
from minesolver.strategies import find_strategy
from minesolver.strategies.best import PYTHON_ENDGAME
from minesolver.survey import (
    _interior,
    count_with,
    dead_cells,
    fifty_fifty_pairs,
    min_probability,
    share_with,
    survey,
    zero_chances,
)

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


def shown(position, layouts, cell):
    """{number: layouts in which ``cell`` is safe and shows it}."""
    out = {}
    for mines in layouts:
        if cell not in mines:
            v = numbers_of(position.width, position.height, mines, cell)
            out[v] = out.get(v, 0) + 1
    return out


def covered(position):
    return [i for i, code in enumerate(position.cells) if code == COVERED]


def uncertain(layouts, cell):
    hits = sum(cell in mines for mines in layouts)
    return 0 < hits < len(layouts)


# ---------------------------------------------------------------------- survey
@SETTINGS
@given(position=consistent_positions())
def test_zero_chances_and_dead_cells_equal_brute_force(position):
    layouts = layouts_of(position)
    w = position.width
    zero = zero_chances(position)
    assert zero == zero_chances(position, reference=True)  # the shortcut equals the plain path
    for i in range(len(position.cells)):
        expected = Fraction(0)
        if position.cells[i] == COVERED:
            expected = Fraction(shown(position, layouts, i).get(0, 0), len(layouts))
        assert zero[i // w][i % w] == expected, (position.to_text(), i)
    dead = [
        position.coords(i) for i in covered(position)
        if uncertain(layouts, i) and len(shown(position, layouts, i)) == 1
    ]
    assert dead_cells(position) == dead


def brute_pairs(position, layouts):
    """Pairs with exactly one mine in every layout, closed under swapping them, where
    no cell that may be safe is next to just one of them."""
    w, h = position.width, position.height
    candidates = [i for i in covered(position) if uncertain(layouts, i)]
    as_set = set(layouts)
    may_be_safe = {i for i in covered(position) if any(i not in m for m in layouts)}
    pairs = []
    for a, b in combinations(candidates, 2):
        if any((a in m) == (b in m) for m in layouts):
            continue
        if any((m - {a, b}) | ({a, b} - m) not in as_set for m in layouts):
            continue
        near_a, near_b = set(neighbours_of(w, h, a)), set(neighbours_of(w, h, b))
        if any(x in may_be_safe for x in (near_a ^ near_b) - {a, b}):
            continue
        pairs.append((position.coords(a), position.coords(b)))
    return pairs


@SETTINGS
@given(position=consistent_positions())
def test_fifty_fifty_pairs_equal_brute_force(position):
    assert fifty_fifty_pairs(position) == brute_pairs(position, layouts_of(position))


def test_pairs_hold_the_forced_50_50_that_best_plays():
    # a 50/50 at the wall, and an unexplored area behind flags with too many layouts for
    # the endgame search: best plays the pair as forced, and it is one of the pairs
    position = Position.from_text(WALL_FIFTY_FIFTY)
    move = find_strategy("best").moves(position)[0]
    assert move.reason == "forced"
    assert fifty_fifty_pairs(position) == [((0, 0), (1, 0))]
    advice = advise(position)
    assert advice is not None and advice.reason == "forced"
    assert {advice.cell, advice.pair} == {(0, 0), (1, 0)}
    assert "50/50" in advice.text
    assert sorted(advice.group) == [(0, 0), (1, 0)]


def test_advice_names_every_cell_of_an_unavoidable_group():
    # three cells holding two mines, walled in by mines; behind the flags an area of
    # 45 cells too big for the endgame search, where a cell is a mine at 2/9 only:
    # the group must be opened sooner or later at the same risk, so best takes it first
    text = "20x3x19\nHH33F" + "H" * 15 + "\n4HH5F" + "H" * 15 + "\nHHH4F" + "H" * 15 + "\n"
    advice = advise(Position.from_text(text))
    assert advice is not None and advice.reason == "forced"
    assert sorted(advice.group) == [(0, 0), (2, 0), (2, 1)] and advice.pair is None
    assert advice.cell in advice.group and advice.probability == Fraction(2, 3)
    assert "unavoidable guess, 33.3% safe" in advice.text
    assert all(str(cell) in advice.text for cell in advice.group if cell != advice.cell)


def test_a_cell_bound_to_a_fifty_fifty_is_not_called_unavoidable():
    # best's chains move (a heuristic, reason "fifty") is explained as what it is
    advice = advise(Position.from_text(WALL_FIFTY_FIFTY))
    assert advice is not None
    bound = dataclasses.replace(advice, reason="fifty", pair=None, group=())
    assert "a mine only as one of a 50/50 that no number will ever settle" in bound.text
    assert "unavoidable" not in bound.text and "safe, " in bound.text


def test_survey_skips_what_would_take_too_long():
    position = Position.from_text("5x1x1\n1HHHH\n")
    small = survey(position, max_work=0)
    assert small.skipped and "not computed" in small.skipped
    full = survey(position)
    assert full.skipped is None and full.zero[0] == [0, 0, 0, 1, 1]  # the 1 holds the mine


# ---------------------------------------------------------------------- outlook and advice
def brute_outlook(position, layouts, index):
    """(shows, progress, survive_two) read off the layouts."""
    groups = {}
    for mines in layouts:
        if index not in mines:
            v = numbers_of(position.width, position.height, mines, index)
            groups.setdefault(v, []).append(mines)
    rest = [i for i in covered(position) if i != index]
    total = len(layouts)
    shows, progress, survive = {}, Fraction(0), Fraction(0)
    for v, group in groups.items():
        chance = Fraction(len(group), total)
        shows[v] = chance
        safe_counts = [sum(i not in m for m in group) for i in rest]
        if any(n == len(group) for n in safe_counts):
            progress += chance
            survive += chance
        else:
            alive = [n for n in safe_counts if n]
            survive += chance * (Fraction(max(alive), len(group)) if alive else 1)
    return shows, progress, survive


@SETTINGS
@given(position=consistent_positions())
def test_outlook_equals_brute_force(position):
    layouts = layouts_of(position)
    engine = Engine(position)  # one engine asked about every cell, as advise asks it
    for n, index in enumerate(covered(position)):
        if all(index in m for m in layouts):
            continue
        look = outlook(position, position.coords(index), engine=engine if n % 2 else None)
        shows, progress, survive = brute_outlook(position, layouts, index)
        assert look.shows == shows
        assert (look.progress, look.survive_two) == (progress, survive)
        assert look.probability == Fraction(sum(index in m for m in layouts), len(layouts))
        assert look.zero == shows.get(0, 0)


@SETTINGS
@given(position=consistent_positions())
def test_advice_is_bests_move_with_its_exact_figures(position):
    layouts = layouts_of(position)
    advice = advise(position)
    openable = [i for i in covered(position) if any(i not in m for m in layouts)]
    if not openable:
        assert advice is None
        return
    assert advice is not None
    move = find_strategy("best").moves(position)[0]
    assert (advice.cell, advice.reason, advice.win_chance) == (
        move.cell, move.reason, move.win_chance
    )
    index = position.index(*advice.cell)
    assert advice.probability == Fraction(sum(index in m for m in layouts), len(layouts))
    if advice.reason == "deduction":
        assert advice.probability == 0
    safe = [i for i in covered(position) if all(i not in m for m in layouts)]
    assert advice.safe_cells == len(safe)
    assert advice.text.startswith(f"open {advice.cell}: ")


def test_advice_figures_on_a_known_position():
    # a '1' in a corner of a 3x3 board with one mine: its three neighbours share the mine,
    # so every other cell is safe (the mine count says so)
    position = Position.from_text("3x3x1\n1HH\nHHH\nHHH\n")
    advice = advise(position)
    assert advice is not None and advice.reason == "deduction" and advice.safe_cells == 5
    assert "certainly safe" in advice.text
    look = outlook(position, (2, 2))
    assert look.probability == 0 and look.zero == Fraction(2, 3) and look.progress == 1
    corner = outlook(position, (0, 1))
    assert corner.probability == Fraction(1, 3)
    assert corner.shows == {1: Fraction(2, 3)}  # safe, it always sees the mine
    assert corner.dead


@pytest.mark.parametrize("text", ["2x1x2\nFF\n", "2x1x1\n1M\n"])
def test_no_advice_when_nothing_is_left_to_open(text):
    assert advise(Position.from_text(text)) is None


def test_without_the_compiled_search_advice_searches_only_the_python_range(monkeypatch):
    """1,001 layouts: inside best's range (5,000), past its Python range (1,000).  A
    process that cannot search compiled (the web app's capped sandbox) gets best's move
    with the Python range, at once, instead of a search that could take a minute."""
    pytest.importorskip("numba")
    position = Position.covered(7, 2, 4)  # C(14, 4) = 1,001 layouts
    compiled = advise(position)
    assert compiled is not None and compiled.reason == "endgame"
    monkeypatch.setenv("MINESOLVER_KERNELS", "python")
    plain = advise(position)
    assert plain is not None and plain.reason == "guess" and plain.win_chance is None
    layouts, budget = PYTHON_ENDGAME
    strategy = find_strategy(f"best:endgame_layouts={layouts},endgame_budget={budget}")
    assert plain.cell == strategy.moves(position)[0].cell


def test_a_certainly_safe_cell_is_never_dead():
    # one number only, as a dead cell, but no risk: the survey's dead list agrees
    position = Position.from_text("1x1x0\nH\n")
    advice = advise(position)
    assert advice is not None and advice.probability == 0
    assert not advice.outlook.dead and dead_cells(position) == []
    risky = advise(Position.from_text("3x1x1\nH1H\n"))  # safe, either side can show only 0
    assert risky is not None and risky.outlook.dead


def interior_by_definition(position):
    """The cells no clue, flag or mine touches, cell by cell (the survey's shortcut)."""
    cells, grid, n = position.cells, position.grid, len(position.cells)
    away = [cells[i] == COVERED and not any(is_open(cells[j]) for j in grid.neighbours(i))
            for i in range(n)]
    return [away[i] and all(away[j] for j in grid.neighbours(i)) for i in range(n)]


def test_interior_cells_by_whole_board_equal_their_definition():
    # the survey walked a million cells in Python to find these: 50 s with advice on a
    # 1000x1000 board; now one pass of numpy, which must mark the very same cells
    rng = random.Random(7)
    found = 0
    for _ in range(200):
        w, h = rng.randint(1, 30), rng.randint(1, 30)
        covered_share = rng.random() ** 0.3  # mostly covered boards: interiors
        rows = ["".join("H" if rng.random() < covered_share else rng.choice("F?.0123")
                        for _ in range(w)) for _ in range(h)]
        position = Position.from_text(f"{w}x{h}x{w * h}\n" + "\n".join(rows) + "\n")
        interior = _interior(position)
        assert interior == interior_by_definition(position), position.to_text()
        found += sum(interior)
    assert found > 1000  # the boards did have interiors to find


@SETTINGS
@given(position=consistent_positions())
def test_lowest_risk_and_shares_equal_their_definitions(position):
    # both now skip the walk over every cell and the multiplying out of huge counts
    # (seconds each on a board of millions of cells): the same figures as cell by cell
    analysis = analyze(position)
    risks = [analysis.probability(*position.coords(i)) for i in covered(position)]
    assert min_probability(analysis) == min((p for p in risks if p < 1), default=None)
    assert analysis.risks() == {p for p in risks if p < 1}
    for i in covered(position)[:3]:
        for code in (0, 1, BLANK, MINE):
            share, after = share_with(analysis, i, code)
            count, also = count_with(position, i, code)
            assert share == Fraction(count, analysis.solutions)
            assert (after is None) == (also is None) == (count == 0)


def test_outlook_refuses_an_engine_of_another_position():
    engine = Engine(Position.from_text("3x1x1\nHHH\n"))
    with pytest.raises(ValueError, match="the engine given analyses another position"):
        outlook(Position.from_text("3x1x1\n1HH\n"), (0, 2), engine=engine)


@pytest.mark.parametrize("how", [{"noise": "withheld"}, {"density": Fraction(1, 5)}])
def test_outlook_refuses_an_engine_of_noisy_clues_or_a_density(how):
    # a withheld model's engine gave a blank among the numbers, chances not adding up
    position = Position.from_text("3x1x1\nHHH\n")
    with pytest.raises(ValueError, match="needs an engine of exact clues and the mine count"):
        outlook(position, (0, 0), engine=Engine(position, **how))
