"""Long-term 50/50 influence against a brute force over every layout.

The brute force derives the shapes from their definition (the cells that would see
a different number of mines if the two mines swapped places must all be mines), not
from the module's offset tables, and counts layouts one by one.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from support import consistent_positions, neighbours_of, only_move

from minesolver.analysis import Engine
from minesolver.codes import COVERED, FLAG, MINE, is_number
from minesolver.position import Position
from minesolver.strategies.longterm import (
    _possible_shapes,
    _shape_mask,
    fifty_bound_cells,
    fifty_influence,
    fifty_shape_mask,
)
from minesolver.strategies.worth import win_chances


def layouts(position: Position) -> list[set[int]]:
    w, h, cells = position.width, position.height, position.cells
    known = {i for i, code in enumerate(cells) if code in (FLAG, MINE)}
    unknown = [i for i, code in enumerate(cells) if code == COVERED]
    out = []
    for chosen in combinations(unknown, position.mines - len(known)):
        mines = known | set(chosen)
        if all(
            sum(1 for j in neighbours_of(w, h, i) if j in mines) == code
            for i, code in enumerate(cells)
            if is_number(code)
        ):
            out.append(mines)
    return out


def brute_influence(position: Position, all_layouts: list[set[int]], t: int) -> int:
    w, h = position.width, position.height
    covered = {i for i, code in enumerate(position.cells) if code == COVERED}
    uncertain = {
        i for i in covered if 0 < sum(1 for lay in all_layouts if i in lay) < len(all_layouts)
    }

    def count(mines: set[int], safe: set[int]) -> int:
        swapped = safe  # the other way round: what no number may tell apart
        walls = set()
        for i in range(w * h):
            if i in mines or i in safe:
                continue
            around = set(neighbours_of(w, h, i))
            if len(around & mines) != len(around & swapped):
                walls.add(i)
        need = mines | walls
        return sum(1 for lay in all_layouts if need <= lay and not safe & lay)

    r, c = divmod(t, w)

    def cell(rr: int, cc: int) -> int | None:
        return rr * w + cc if 0 <= rr < h and 0 <= cc < w else None

    pairs = 0
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        p = cell(r + dr, c + dc)
        if p in uncertain:
            pairs += count({t}, {p})
    block = 0
    for br, bc in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        four = [cell(r + br + i, c + bc + j) for i in (0, 1) for j in (0, 1)]
        if not all(x in uncertain for x in four):
            continue
        diag = cell(2 * r + 2 * br + 1 - r, 2 * c + 2 * bc + 1 - c)
        mines = {t, diag}
        block = max(block, count(mines, {x for x in four if x not in mines}))
    mine_layouts = sum(1 for lay in all_layouts if t in lay)
    return min(pairs + block, mine_layouts, len(all_layouts) - mine_layouts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(consistent_positions())
def test_influence_equals_brute_force(position: Position) -> None:
    all_layouts = layouts(position)
    engine = Engine(position)
    analysis = engine.analysis
    assert analysis.solutions == len(all_layouts)
    shaped = fifty_shape_mask(engine, max_unknown_walls=8)
    for t, code in enumerate(position.cells):
        if code == COVERED and analysis.is_uncertain(t):
            got = fifty_influence(engine, t, max_unknown_walls=8)
            assert got == brute_influence(position, all_layouts, t), (t, str(position))
            # the whole-board screen that spares ``fifty_reach`` the counting misses none
            if got:
                assert shaped[t], (t, str(position))
    # and the screen is the shapes the counting tries, for any wall limit
    for limit in (0, 1, 3):
        tried = [t for t in range(len(position.cells))
                 if position.cells[t] == COVERED and analysis.is_uncertain(t)
                 and any(True for _ in _possible_shapes(engine, t, limit))]
        assert np.flatnonzero(fifty_shape_mask(engine, max_unknown_walls=limit)).tolist() == tried


def test_a_walled_pair_is_all_influence() -> None:
    # the two cells on the right can never be told apart: every mine layout of (0, 1)
    # is a 50/50
    engine = Engine(Position.from_text("2x2x1\n1H\n1H\n"))
    assert fifty_influence(engine, 1) == 1
    assert engine.analysis.solutions == 2


def test_unknown_walls_beyond_the_limit_are_skipped() -> None:
    # a pair in the middle of a covered board: six unknown walls
    engine = Engine(Position.covered(4, 3, 8))
    assert fifty_influence(engine, 5, max_unknown_walls=3) < fifty_influence(
        engine, 5, max_unknown_walls=8
    )


def test_fifty_reach_adds_the_cells_the_boost_lifts_to_the_cutoff() -> None:
    # (0,0), (1,0) and (2,0) are mines with chance 2/3, below the cutoff of the safest
    # (1/2 at (0,1) and (0,3)); (0,0) is the mine of a pair no number can settle in
    # as many layouts as it is safe in (the cap), so its boost is 1 + 0.9 and lifts
    # it to 1/3 x 1.9 = 0.63, above 0.9 x 1/2
    position = Position.from_text("4x3x7\nHH3H\nHH5H\nHH4H\n")
    plain = only_move("best:endgame=off,fifty=0.9", position)
    reached = only_move("best:endgame=off,fifty=0.9,fifty_reach=on", position)
    assert plain.probability == 0.5
    assert reached.cell == (0, 0) and abs(reached.probability - 2 / 3) < 1e-12
    engine = Engine(position)
    assert fifty_influence(engine, 0) == 2 and engine.analysis.solutions == 6
    # the riskier cell is a best move all the same: perfect play wins 1/3 after each
    perfect, chances = win_chances(position, [plain.cell, reached.cell])
    assert chances == [perfect, perfect]


def brute_bound(
    position: Position, all_layouts: list[set[int]], undecided: tuple[int, int] = (1, 2)
) -> list[int]:
    """The cells that are a mine only as the mine of one pair (failing any, one 2x2
    block), from the definition: every layout with the cell a mine has the shape's
    other cells safe and its walls (the cells that would see a different number if
    the mines swapped sides) mines; at most ``undecided`` walls not known to be
    mines, for a pair and for a block."""
    w, h = position.width, position.height
    covered = {i for i, code in enumerate(position.cells) if code == COVERED}
    in_all = set.intersection(*all_layouts)
    uncertain = {i for i in covered if i not in in_all and any(i in lay for lay in all_layouts)}

    def cell(rr: int, cc: int) -> int | None:
        return rr * w + cc if 0 <= rr < h and 0 <= cc < w else None

    def bound(t: int, mines: set[int], safe: set[int], limit: int) -> bool:
        walls = set()
        for i in range(w * h):
            around = set(neighbours_of(w, h, i))
            if i not in mines | safe and len(around & mines) != len(around & safe):
                walls.add(i)
        if len(walls - in_all) > limit:
            return False
        need = mines | walls
        return all(need <= lay and not safe & lay for lay in all_layouts if t in lay)

    pairs, blocks = [], []
    for t in sorted(uncertain):
        r, c = divmod(t, w)
        if any(bound(t, {t}, {p}, undecided[0]) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
               if (p := cell(r + dr, c + dc)) in uncertain):
            pairs.append(t)
            continue
        for br, bc in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
            four = [cell(r + br + i, c + bc + j) for i in (0, 1) for j in (0, 1)]
            if not all(x in uncertain for x in four):
                continue
            diag = cell(r + 2 * br + 1, c + 2 * bc + 1)
            assert diag is not None
            if bound(t, {t, diag}, {x for x in four if x not in (t, diag)},  # type: ignore[misc]
                     undecided[1]):
                blocks.append(t)
                break
    return pairs or blocks


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(consistent_positions())
def test_bound_cells_equal_brute_force(position: Position) -> None:
    """The cells JSMinesweeper opens first as 50/50s, against the definition over
    every layout; cells away from the clues share one hypothesis, which this checks
    too (the brute force knows nothing of fronts)."""
    all_layouts = layouts(position)
    if not all_layouts:
        return
    engine = Engine(position)
    got = fifty_bound_cells(engine)
    assert got == brute_bound(position, all_layouts), str(position)
    # best:chains_strict: every wall a known mine; and one limit past the default
    for undecided in ((0, 0), (2, 3)):
        got = fifty_bound_cells(engine, undecided=undecided)
        assert got == brute_bound(position, all_layouts, undecided), (str(position), undecided)


def test_bound_cells_away_from_the_clues() -> None:
    # no number anywhere, one mine: the two cells of a column touch the same other
    # cells, so a vertical pair has no walls, and a mine in one means none in the other
    position = Position.from_text("3x2x1\nHHH\nHHH\n")
    got = [position.coords(i) for i in fifty_bound_cells(Engine(position))]
    assert got == [(r, c) for r in range(2) for c in range(3)]
    assert got == [position.coords(i) for i in brute_bound(position, layouts(position))]


def test_a_bound_cell_is_not_always_a_best_move() -> None:
    """JSMinesweeper's test is a heuristic: here (0,3) is a mine only with (0,2) safe
    and the undecided wall (1,2) a mine, and yet opening it wins half as often as
    perfect play (1/3 against 2/3); the lookahead, choosing among the bound cells,
    takes (0,2), perfect play's move."""
    position = Position.from_text("4x4x5\n2HHH\nHHH2\n2H3H\n1121\n")
    bound = [position.coords(i) for i in fifty_bound_cells(Engine(position))]
    assert bound == [(0, 2), (0, 3)]
    perfect, chances = win_chances(position, bound)
    assert perfect == 2 / 3 and chances == [2 / 3, 1 / 3]
    assert only_move("best:endgame=off,chains_strict=off", position).cell == (0, 2)


def test_chains_takes_a_bound_cell_before_any_other_guess() -> None:
    # (3,2) and (3,3) are mines only as a pair's mine; without chains the lookahead
    # takes (3,3), which wins 4/15 with perfect play after; with it (3,2): 1/3, the best
    position = Position.from_text("4x4x7\n2HHH\n3H5H\nHHHH\n2HHH\n")
    plain = only_move("best:endgame=off,chains=off", position)
    taken = only_move("best:endgame=off,chains_strict=off", position)
    assert (plain.reason, taken.reason) == ("guess", "fifty")
    assert [position.coords(i) for i in fifty_bound_cells(Engine(position))] == [(3, 2), (3, 3)]
    perfect, chances = win_chances(position, [plain.cell, taken.cell])
    assert (plain.cell, taken.cell) == ((3, 3), (3, 2))
    assert chances[1] == pytest.approx(perfect) and chances[0] < perfect - 0.05


def test_chains_without_the_lookahead_takes_the_safest_bound_cell() -> None:
    # (1,2) and (1,3) are both bound; the lookahead likes the riskier (1,2), and
    # with the lookahead off chains takes the safest, as every other guess does
    position = Position.from_text("5x4x11\nHHHH1\n4HHHH\nHH5HH\n3HH4H\n")
    assert [position.coords(i) for i in fifty_bound_cells(Engine(position))] == [(1, 2), (1, 3)]
    ahead = only_move("best:endgame=off", position)
    plain = only_move("best:endgame=off,lookahead=off", position)
    assert (ahead.cell, ahead.reason) == ((1, 2), "fifty")
    assert (plain.cell, plain.reason) == ((1, 3), "fifty")
    assert plain.probability == pytest.approx(1 / 7)


def _masks_agree(engine: Engine) -> None:
    """The compiled shape mask equals the numpy reference under every argument
    fifty_bound_cells and fifty_shape_mask give it, and a few more."""
    analysis = engine.analysis
    codes = np.frombuffer(engine.position.cells, np.uint8)
    hidden = (codes == COVERED) & analysis.uncertain_mask
    prob = analysis.prob.ravel()
    for limits in ((1, 2), (3, 3), (0, 0), (8, 8)):
        for others in (None, hidden & analysis.front_mask, hidden & ~analysis.front_mask):
            for given_prob in (None, prob):
                args = (engine, limits, others)
                reference = _shape_mask(*args, prob=given_prob, kernel="python")
                compiled = _shape_mask(*args, prob=given_prob, kernel="numba")
                assert compiled.dtype == reference.dtype == np.bool_
                assert compiled.tolist() == reference.tolist(), (limits, given_prob is None)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(consistent_positions())
def test_compiled_shape_mask_equals_the_reference(position: Position) -> None:
    pytest.importorskip("numba")
    _masks_agree(Engine(position))  # consistent by construction


def test_compiled_shape_mask_equals_the_reference_in_expert_games() -> None:
    """At every turn of a few seeded expert games (the board the option runs on)."""
    pytest.importorskip("numba")
    from minesolver.game import Game
    from minesolver.rules import EXPERT

    for seed in range(3):
        game = Game(EXPERT, seed=seed)
        game.reveal(0, 0)
        turns = 0
        while not game.is_over and turns < 40:
            position = game.position()
            engine = Engine(position)
            _masks_agree(engine)
            prob = engine.analysis.prob.ravel()
            covered = np.flatnonzero(np.frombuffer(position.cells, np.uint8) == COVERED)
            game.reveal(*position.coords(int(covered[np.argmin(prob[covered])])))
            turns += 1


def test_strict_bound_cells_need_every_wall_a_known_mine() -> None:
    # best:chains_strict. A walled pair stays bound; the two positions of the tests
    # above, each bound only through a wall that may still be safe, are not
    walled = Position.from_text("4x3x6\nHHH2\n3HHH\n1HH2\n")
    assert [walled.coords(i) for i in fifty_bound_cells(Engine(walled), undecided=(0, 0))] == [
        (1, 1), (2, 1)]
    for text in ("4x4x5\n2HHH\nHHH2\n2H3H\n1121\n", "4x4x7\n2HHH\n3H5H\nHHHH\n2HHH\n"):
        engine = Engine(Position.from_text(text))
        assert fifty_bound_cells(engine) and not fifty_bound_cells(engine, undecided=(0, 0))
    position = Position.from_text("4x4x7\n2HHH\n3H5H\nHHHH\n2HHH\n")
    assert only_move("best:endgame=off,chains_strict=on", position).reason == "guess"
    assert only_move("best:endgame=off", position).reason == "guess"  # strict by default
