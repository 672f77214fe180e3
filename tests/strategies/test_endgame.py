"""Endgame search against a brute-force game tree on tiny boards (the endgame's perft).

The reference below shares no code with :mod:`minesolver.strategies.endgame`: it lists
layouts by trying every placement of the mines left, and values a set of layouts by
trying every cell, with no memo keyed on anything but the set, no pruning and no free
reveals (opening a certainly-safe cell is an ordinary move; it never hurts, so the value
is the same as the engine's, which opens such cells for free).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest
from support import neighbours_of, numbers_of, open_area

from minesolver.analysis import analyze
from minesolver.analysis.enumerate import enumerate_layouts
from minesolver.codes import COVERED, FLAG
from minesolver.game import Game
from minesolver.minefield import HIDDEN, OPEN, Layout, Minefield
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rules import Rules
from minesolver.strategies import find_strategy
from minesolver.strategies.base import Move, Strategy
from minesolver.strategies.endgame import (
    BudgetExceeded,
    Endgame,
    _Search,
    best_endgame_move,
    sampled_endgame_move,
)
from minesolver.strategies.worth import (
    move_win_chance,
    strategy_win_chance,
    win_chances,
    win_probability,
)

TOL = 1e-9


# ---------------------------------------------------------------------- the reference


def reference_layouts(position):
    """Every set of mine cells (flags included) the position's numbers and total allow."""
    w, h, cells = position.width, position.height, position.cells
    unknown = [i for i, code in enumerate(cells) if code == COVERED]
    flags = frozenset(i for i, code in enumerate(cells) if code == FLAG)
    numbers = [(i, code) for i, code in enumerate(cells) if code <= 8]
    left = position.mines - len(flags)
    out = []
    if not 0 <= left <= len(unknown):
        return out
    for chosen in combinations(unknown, left):
        mines = flags | frozenset(chosen)
        if all(numbers_of(w, h, mines, i) == n for i, n in numbers):
            out.append(mines)
    return out


class GameTree:
    """Win probability of perfect play over a set of equally likely layouts."""

    def __init__(self, position):
        self.w, self.h = position.width, position.height
        self.unknown = [i for i, code in enumerate(position.cells) if code == COVERED]
        self.value = cache(self._value)

    def outcomes(self, layouts, cell):
        """The layouts that survive opening ``cell``, grouped by the number it shows."""
        groups = {}
        for mines in layouts:
            if cell not in mines:
                groups.setdefault(numbers_of(self.w, self.h, mines, cell), []).append(mines)
        return [frozenset(g) for g in groups.values()]

    def move_value(self, layouts, cell):
        groups = self.outcomes(layouts, cell)
        if groups == [layouts]:  # safe everywhere and the same number everywhere: no news
            return self.value(layouts)
        return sum(len(g) * self.value(g) for g in groups) / len(layouts)

    def _value(self, layouts):
        if len(layouts) == 1:
            return 1.0  # the player knows the board
        best = 0.0
        for cell in self.unknown:
            groups = self.outcomes(layouts, cell)
            if not groups or groups == [layouts]:
                continue  # a certain mine, or a move that teaches nothing
            best = max(best, sum(len(g) * self.value(g) for g in groups) / len(layouts))
        return best


@cache
def reference(position):
    """``(layouts, tree, optimum)`` of a position (positions are hashable values)."""
    layouts = frozenset(reference_layouts(position))
    tree = GameTree(position)
    return layouts, tree, tree.value(layouts)


# ---------------------------------------------------------------------- positions


def tiny_position(rnd, width, height, mines, *, flags=False):
    """A random layout with some of its safe cells open (a played area or scattered)."""
    n = width * height
    layout = set(rnd.sample(range(n), mines))
    safe = [i for i in range(n) if i not in layout]
    if rnd.random() < 0.5:
        opened = open_area(rnd, width, height, layout, rnd.randint(1, max(1, len(safe) // 2)))
    else:
        opened = {i for i in safe if rnd.random() < 0.4}
    cells = bytearray([COVERED]) * n
    for i in opened:
        cells[i] = numbers_of(width, height, layout, i)
    if flags:
        for i in layout:
            if rnd.random() < 0.3:
                cells[i] = FLAG
    return Position(width, height, mines, bytes(cells)), layout


def tiny_positions(count, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        width, height = rnd.choice([(3, 3), (4, 3), (3, 4), (4, 4), (5, 3)])
        mines = rnd.randint(1, 4)
        position, _ = tiny_position(rnd, width, height, mines, flags=rnd.random() < 0.3)
        covered = sum(1 for code in position.cells if code == COVERED)
        if covered == 0 or covered == mines - sum(code == FLAG for code in position.cells):
            continue  # nothing left to open
        found = len(reference_layouts(position))
        if found > 150:
            continue  # keep the reference tree small
        if found == 1 and rnd.random() < 0.8:
            continue  # solved positions are easy: keep only a few
        out.append(position)
    return out


POSITIONS = tiny_positions(200, seed=2024)


# ---------------------------------------------------------------------- the comparisons


def test_the_reference_agrees_with_hand_values():
    # a blind 50/50
    p = Position.from_text("2x1x1\nHH\n")
    assert GameTree(p).value(frozenset(reference_layouts(p))) == 0.5
    # one mine in a row of three: an end survives 2/3 and its number then tells all;
    # the middle survives 2/3 but always shows 1, leaving a 50/50 (1/3)
    p = Position.from_text("3x1x1\nHHH\n")
    layouts = frozenset(reference_layouts(p))
    tree = GameTree(p)
    assert tree.value(layouts) == pytest.approx(2 / 3)
    assert tree.move_value(layouts, 1) == pytest.approx(1 / 3)
    assert win_probability(p) == pytest.approx(2 / 3, abs=TOL)
    assert best_endgame_move(p).cell in ((0, 0), (0, 2))


@pytest.mark.parametrize("kernel", ["python", "numba"])
@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_endgame_equals_the_game_tree(index, kernel):
    position = POSITIONS[index]
    layouts, tree, optimum = reference(position)
    assert win_probability(position) == pytest.approx(optimum, abs=TOL), str(position)
    result = best_endgame_move(position, kernel=kernel)
    assert result is not None, str(position)
    assert result.win_chance == pytest.approx(optimum, abs=TOL), str(position)
    assert result.layouts == len(layouts)
    # the chosen cell is covered, may be safe, and achieves the optimum
    r, c = result.cell
    cell = r * position.width + c
    assert position.cells[cell] == COVERED
    alive = sum(1 for mines in layouts if cell not in mines)
    assert alive > 0
    assert result.safety == pytest.approx(alive / len(layouts), abs=TOL)
    assert tree.move_value(layouts, cell) == pytest.approx(optimum, abs=TOL), str(position)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_giving_cells_up_part_way_changes_no_value(index):
    # the search that gives up a cell once it cannot beat the best, the one that
    # values every cell it tries to the end, and the one that skips dominated cells
    # all equal the game tree, and every value the first kept is exact
    position = POSITIONS[index]
    optimum = reference(position)[2]
    found = enumerate_layouts(position, 10**6)
    assert found is not None
    cells, layouts = found
    pruned = _Search(position, cells, 10**7)
    plain = _Search(position, cells, 10**7, prune=False)
    skipping = _Search(position, cells, 10**7, skip_dominated=True)
    got, want, skipped = pruned.root(layouts), plain.root(layouts), skipping.root(layouts)
    assert got is not None and want is not None and skipped is not None
    assert got[1] == pytest.approx(optimum, abs=TOL), str(position)
    assert want[1] == pytest.approx(optimum, abs=TOL), str(position)
    assert skipped[1] == pytest.approx(optimum, abs=TOL), str(position)
    for state, value in pruned.memo.items():
        assert plain.value(sorted(state)) == pytest.approx(value, abs=TOL), str(position)


def test_giving_cells_up_part_way_saves_states():
    # on the positions with the most layouts the cut must save something
    rich = sorted(POSITIONS, key=lambda p: -analyze(p).solutions)[:20]
    saved = 0
    for position in rich:
        found = enumerate_layouts(position, 10**6)
        assert found is not None
        pruned = _Search(position, found[0], 10**7)
        plain = _Search(position, found[0], 10**7, prune=False)
        pruned.root(found[1])
        plain.root(found[1])
        saved += (plain.limit - plain.budget) - (pruned.limit - pruned.budget)
    assert saved > 0


def test_a_cell_safe_only_where_another_is_never_wins_more_in_the_game_tree():
    # what skip_dominated rests on: open the other first, then this one, then play on
    # as after this one, and every layout this one wins is won
    pairs = strict = 0
    for position in POSITIONS:
        layouts, tree, _ = reference(position)
        for j in tree.unknown:
            safe_j = {mines for mines in layouts if j not in mines}
            if not safe_j:
                continue
            for k in tree.unknown:
                if k == j or any(k in mines for mines in safe_j):
                    continue
                pairs += 1
                vk, vj = tree.move_value(layouts, k), tree.move_value(layouts, j)
                assert vk >= vj - TOL, (str(position), position.coords(k), position.coords(j))
                strict += vk > vj + TOL
    assert pairs > 100 and strict > 10  # met often, and not only between equals


def test_skipping_dominated_cells_skips_some():
    skipped = 0
    for position in POSITIONS:
        found = enumerate_layouts(position, 10**6)
        assert found is not None
        search = _Search(position, found[0], 10**7, skip_dominated=True)
        search.root(found[1])
        skipped += search.skipped
    assert skipped > 0


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 4))
def test_every_move_s_win_chance_equals_the_game_tree(index):
    position = POSITIONS[index]
    layouts, tree, optimum = reference(position)
    covered = [i for i, code in enumerate(position.cells) if code == COVERED]
    chances = move_win_chance(position, [position.coords(i) for i in covered])
    for i, chance in zip(covered, chances, strict=True):
        assert chance == pytest.approx(tree.move_value(layouts, i), abs=TOL), (str(position), i)
    assert max(chances) == pytest.approx(optimum, abs=TOL)


@pytest.mark.parametrize("index", range(1, len(POSITIONS), 4))
def test_win_chances_share_one_search_and_equal_the_two_calls(index):
    position = POSITIONS[index]
    optimum = reference(position)[2]
    covered = [position.coords(i) for i, code in enumerate(position.cells) if code == COVERED]
    best, chances = win_chances(position, covered)
    assert best == pytest.approx(optimum, abs=TOL)
    assert best == win_probability(position)
    assert chances == move_win_chance(position, covered)
    assert win_chances(position, []) == (best, [])


@pytest.mark.parametrize("index", range(2, len(POSITIONS), 4))
def test_a_sample_holding_every_layout_is_the_exact_search(index):
    position = POSITIONS[index]
    layouts, tree, optimum = reference(position)
    safety = {
        i: sum(i not in mines for mines in layouts) / len(layouts)
        for i, code in enumerate(position.cells) if code == COVERED
    }
    candidates = {i: s for i, s in safety.items() if s > 0}
    # every layout, each drawn twice: repeats count once
    result = sampled_endgame_move(position, sorted(layouts, key=sorted) * 2, candidates)
    assert result is not None
    cell = position.index(*result.cell)
    assert result.win_chance == pytest.approx(optimum, abs=TOL), str(position)
    assert tree.move_value(layouts, cell) == pytest.approx(optimum, abs=TOL), str(position)
    assert result.safety == safety[cell]
    assert result.layouts == len(layouts)


def test_a_sampled_search_values_what_its_sample_holds():
    # one mine in a row of three, but the sample holds only the mine at the end:
    # alone in the sample, that layout is as good as won (the estimate's optimism)
    position = Position.from_text("3x1x1\nHHH\n")
    result = sampled_endgame_move(position, [frozenset({2})], {0: 2 / 3, 1: 2 / 3})
    assert (result.cell, result.win_chance, result.layouts) == ((0, 0), 2 / 3, 1)
    assert sampled_endgame_move(position, [frozenset({0})], {0: 2 / 3}) is None  # never safe
    every = [frozenset(c) for c in combinations(range(12), 3)]
    assert sampled_endgame_move(Position.covered(4, 3, 3), every, {5: 0.75}, budget=1) is None


def test_best_s_sampled_search_picks_the_best_of_its_candidates():
    # best:sample with a sample covering every layout picks, among the candidates
    # the lookahead scores, the one with the highest exact win chance
    better = 0
    for position in POSITIONS:
        layouts, tree, optimum = reference(position)
        if len(layouts) < 2:
            continue
        rules = Rules(position.width, position.height, position.mines, first_click="none")
        moves = {}
        for name in ("best:endgame_layouts=1", "best:endgame_layouts=1,sample=5000"):
            strategy = find_strategy(name)
            strategy.new_game(rules, 1)
            move = strategy.moves(position)[0]
            moves[name] = (move.reason, tree.move_value(layouts, position.index(*move.cell)))
        (reason, plain), (sampled_reason, sampled) = moves.values()
        assert sampled_reason == reason, str(position)
        assert plain - TOL <= sampled <= optimum + TOL, str(position)
        better += sampled > plain + TOL
    assert better >= 3


def test_move_win_chance_refuses_what_is_not_a_move():
    position = Position.from_text("3x1x1\n1HH\n")
    for cell in [(0, 0), (0, 3), (1, 0), (-1, 1)]:
        with pytest.raises(ValueError, match="not a covered unknown cell"):
            move_win_chance(position, [cell])
    with pytest.raises(ValueError, match="more than 400 layouts"):
        move_win_chance(Position.covered(5, 5, 5), [(0, 0)])
    with pytest.raises(BudgetExceeded, match="more than 1 states"):
        move_win_chance(Position.covered(4, 3, 3), [(1, 1)], budget=1)


def played_share(position, name, seed=5):
    """The share of the reference layouts on which strategy ``name`` wins from
    ``position``, each game played on the rules' own minefield (flood and all), the
    strategy asked afresh (``new_game``) at every position, as the walk asks it."""
    strategy = find_strategy(name)
    rules = Rules(position.width, position.height, position.mines, first_click="none")
    layouts = reference_layouts(position)
    won = 0
    for mines in layouts:
        field = Minefield(
            Layout(position.width, position.height, tuple(sorted(mines))),
            bytearray(OPEN if code <= 8 else HIDDEN for code in position.cells),
        )
        cells = bytearray(position.cells)
        while field.safe_left:
            strategy.new_game(rules, seed)
            now = Position(position.width, position.height, position.mines, bytes(cells))
            w = position.width
            todo = [m.cell for m in strategy.moves(now) if m.action == "reveal"]
            todo = [r * w + c for r, c in todo if cells[r * w + c] == COVERED]
            if not todo or any(field.is_mine(i) for i in todo):
                break
            for i in todo:
                for opened in field.open(i):
                    cells[opened] = field.count[opened]
        won += field.safe_left == 0
    return won / len(layouts)


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 5))
@pytest.mark.parametrize("name", ["best", "random:engine=off", "max-constraint"])
def test_a_strategy_s_exact_win_chance_equals_its_games_on_every_layout(index, name):
    position = POSITIONS[index]
    rules = Rules(position.width, position.height, position.mines, first_click="none")
    chance = strategy_win_chance(position, find_strategy(name), rules, seed=5)
    assert chance == pytest.approx(played_share(position, name), abs=TOL), str(position)
    assert chance <= reference(position)[2] + TOL  # nobody beats perfect play
    if name == "best":  # best searches these small endgames exactly
        assert chance == pytest.approx(reference(position)[2], abs=TOL), str(position)


def test_strategy_win_chance_tells_strategies_apart():
    # a guesser with no engine falls short of perfect play, and the walk sees it
    shortfall = 0.0
    for position in POSITIONS[:40]:
        rules = Rules(position.width, position.height, position.mines, first_click="none")
        optimum = reference(position)[2]
        chance = strategy_win_chance(position, find_strategy("random:engine=off"), rules)
        shortfall += optimum - chance
    assert shortfall > 0.5
    with pytest.raises(ValueError, match="more than 400 layouts"):
        strategy_win_chance(Position.covered(5, 5, 5), find_strategy("best"), Rules(5, 5, 5))


def test_a_game_of_over_a_thousand_moves_is_walked_without_recursion():
    # 1,200 safe cells under a row of flagged mines: each shows a number, nothing
    # floods, and a one-cell-per-move player needs 1,200 moves (and wins them all)
    width = 1200
    position = Position.from_text(f"{width}x2x{width}\n{'F' * width}\n{'H' * width}\n")
    rules = Rules(width, 2, width, first_click="none")
    assert strategy_win_chance(position, OneCellAtATime(), rules) == 1.0


class OneCellAtATime(Strategy):
    """Opens the first covered cell, one per move."""

    name = "one-cell"

    def moves(self, position):
        return [Move(position.coords(position.cells.index(COVERED)), reason="guess")]


def test_positions_cover_more_than_trivial_cases():
    sizes = [len(reference(p)[0]) for p in POSITIONS]
    values = [reference(p)[2] for p in POSITIONS]
    assert sum(v == 1.0 for v in values) >= 10
    assert sum(v < 1.0 for v in values) >= 60
    assert sum(n >= 10 for n in sizes) >= 30
    assert sum(0 < v < 0.5 for v in values) >= 3  # harder than a single coin flip


def test_a_solved_position_has_nothing_to_search():
    # the only covered cell is the mine: the game is won, no move is left
    position = Position.from_text("2x1x1\n1H\n")
    assert best_endgame_move(position) is None
    assert win_probability(position) == 1.0


def test_too_many_layouts_gives_up():
    position = Position.covered(5, 5, 5)  # C(25, 5) layouts
    assert best_endgame_move(position, max_layouts=400) is None
    with pytest.raises(ValueError, match="more than 400 layouts"):
        win_probability(position, max_layouts=400)


@pytest.mark.parametrize("kernel", ["python", "numba"])
def test_a_tiny_budget_gives_up_rather_than_guess(kernel):
    position = Position.covered(4, 3, 3)  # 220 layouts, a deep tree
    assert best_endgame_move(position, budget=1, kernel=kernel) is None
    assert best_endgame_move(position, budget=100_000, kernel=kernel) is not None


def test_endgames_met_in_play_equal_the_game_tree():
    """Positions best met in real games on small boards, with its move's win chance."""
    checked = 0
    for seed in range(30):
        steps = []
        play_game(Rules(5, 5, 5), find_strategy("best"), seed=seed, observer=steps.append)
        for step in steps[1:]:
            for move in step.moves:
                if move.reason != "endgame":
                    continue
                if not analyze(step.position).solutions_at_most(150):
                    continue  # too big for the reference tree (and to list its layouts)
                layouts = frozenset(reference_layouts(step.position))
                optimum = GameTree(step.position).value(layouts)
                assert move.win_chance == pytest.approx(optimum, abs=TOL)
                checked += 1
    assert checked >= 5


def test_neighbour_helper_matches_the_board():
    # the reference leans on support's helpers; make sure they mean what we think
    assert sorted(neighbours_of(3, 3, 4)) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert numbers_of(3, 1, {2}, 1) == 1 and numbers_of(3, 1, {2}, 0) == 0


@pytest.mark.parametrize("kernel", ["python", "numba"])
def test_a_later_endgame_position_is_answered_from_the_last_search(kernel):
    """``Endgame`` looks up the positions its last search already solved: the move and
    win chance it recalls are a fresh search's (up to ties between equal moves)."""
    recalled = 0
    for seed in range(40):
        rules = Rules(6, 6, 7)
        game = Game(rules, seed=seed)
        endgame = Endgame(max_layouts=300, kernel=kernel)
        game.reveal(0, 0)
        while not game.is_over:
            position = game.position()
            result = endgame.move(position)
            fresh = best_endgame_move(position, max_layouts=300, kernel="python")
            if result is None:  # too many layouts yet: open the safest cell
                assert fresh is None
                prob = analyze(position).prob.ravel()
                covered = [i for i in range(len(prob)) if position.cells[i] == COVERED]
                game.reveal(*position.coords(min(covered, key=lambda i: prob[i])))
                continue
            assert fresh is not None
            assert result.win_chance == pytest.approx(fresh.win_chance, abs=1e-12)
            assert result.layouts == fresh.layouts
            game.reveal(*result.cell)
            # the certainly safe cells, as best opens them before its next guess
            while not game.is_over:
                safe = analyze(game.position()).safe
                if not safe:
                    break
                for cell in safe:
                    if not game.is_over:
                        game.reveal(*cell)
        recalled += endgame.recalled
    assert recalled >= 10
