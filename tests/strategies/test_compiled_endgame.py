"""The compiled endgame search equals the plain-Python reference on positions of real
games, far larger than the brute-force game tree of ``test_endgame`` can check.

Both search the same tree in the same order, so on every position they must agree on
the win chance, the number of states searched, whether the budget ran out, and the
value of the move chosen (the move itself too, but for two moves of equal value).
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from support import best_game_positions

from minesolver.analysis import analyze
from minesolver.analysis.enumerate import enumerate_layouts
from minesolver.codes import COVERED
from minesolver.position import Position
from minesolver.strategies.endgame import _Search
from minesolver.strategies.worth import move_win_chance

pytest.importorskip("numba")

from minesolver.strategies._compiled_endgame import CompiledSearch

TOL = 1e-12


@cache
def game_positions() -> list[tuple[Position, list[int], list[int]]]:
    """Positions of intermediate and expert games with 30 to 2,500 layouts, the first
    met of each layout count (where the endgame search acts, and the moves before)."""
    out = []
    seen = set()
    for rules, seed, games in (("intermediate", 500, 12), ("expert", 900, 12)):
        for position, _ in best_game_positions(rules, seed, games):
            analysis = analyze(position)
            if not analysis.solutions_at_most(2500) or analysis.solutions < 30:
                continue
            if analysis.solutions in seen:
                continue
            seen.add(analysis.solutions)
            found = enumerate_layouts(position, 2500)
            assert found is not None and len(found[1]) == analysis.solutions
            out.append((position, *found))
    return out


def both(
    position: Position, cells: list[int], layouts: list[int], budget: int, prune=True,
    skip_dominated=False,
):
    compiled = CompiledSearch(position, cells, budget, prune=prune, skip_dominated=skip_dominated)
    plain = _Search(position, cells, budget, prune=prune, skip_dominated=skip_dominated)
    return (compiled, compiled.root(layouts)), (plain, plain.root(layouts))


def test_the_games_give_enough_positions():
    sizes = sorted(len(layouts) for _, _, layouts in game_positions())
    assert len(sizes) >= 10
    assert sizes[-1] >= 500


@pytest.mark.parametrize(("prune", "skip"), [(True, False), (False, False), (True, True)])
@pytest.mark.parametrize("budget", [3_000, 60_000])
def test_compiled_search_equals_the_reference(budget, prune, skip):
    finished = over = 0
    for position, cells, layouts in game_positions():
        (compiled, got), (plain, want) = both(position, cells, layouts, budget, prune, skip)
        if want is None:
            assert got is None, str(position)
            over += 1
            continue
        finished += 1
        assert got is not None, str(position)
        assert compiled.states == plain.limit - plain.budget
        assert got[1] == pytest.approx(want[1], abs=TOL)
        assert got[2] == pytest.approx(want[2], abs=TOL)
        if got[0] != want[0]:  # a tie: the compiled move is worth as much
            cell = position.coords(cells[got[0]])
            assert move_win_chance(position, [cell], max_layouts=2500, budget=10**7)[0] == (
                pytest.approx(want[1], abs=1e-9)
            )
        assert position.cells[cells[got[0]]] == COVERED
    assert finished >= 5
    if budget == 3_000:
        assert over >= 1  # the budget is met, and both give up alike


@pytest.mark.parametrize(("mines", "budget"), [(2, 10**6), (3, 5_000)])
def test_the_compiled_search_equals_the_reference_past_64_cells(mines, budget):
    """A 25x3 board, all covered but a 1 in the middle: the kernel keeps a layout's
    mines as several 64-bit words, and a cell past the first word must count as
    holding a mine as much as one in it (two mines: 528 layouts, solved; three:
    17,160, past the budget, where both must give up at the same state)."""
    rows = ["H" * 25, "H" * 12 + "1" + "H" * 12, "H" * 25]
    position = Position.from_text(f"25x3x{mines}\n" + "\n".join(rows) + "\n")
    found = enumerate_layouts(position, 20_000)
    assert found is not None
    cells, layouts = found
    (compiled, got), (plain, want) = both(position, cells, layouts, budget)
    assert len(compiled.keep) > 64
    assert compiled.states == plain.limit - plain.budget
    if want is None:
        assert got is None
        return
    assert got is not None
    assert got[1] == pytest.approx(want[1], abs=TOL)
    assert got[2] == pytest.approx(want[2], abs=TOL)


@pytest.mark.parametrize(("saving", "other"), [
    ({}, {"prune": False}),  # giving cells up part way
    ({"skip_dominated": True}, {}),  # not trying dominated cells
])
def test_a_cut_keeps_the_value_and_saves_states(saving, other):
    saving_states = other_states = 0
    for position, cells, layouts in game_positions():
        cut = CompiledSearch(position, cells, 10**7, **saving)
        plain = CompiledSearch(position, cells, 10**7, **other)
        got, want = cut.root(layouts), plain.root(layouts)
        assert got is not None and want is not None
        assert got[1] == pytest.approx(want[1], abs=TOL), str(position)
        saving_states += cut.states
        other_states += plain.states
    assert saving_states < other_states


def test_the_compiled_search_recalls_what_it_chose():
    for position, cells, layouts in game_positions()[:6]:
        (compiled, _), (plain, want) = both(position, cells, layouts, 60_000)
        if want is None:
            continue
        assert compiled.recall(layouts) == plain.recall(layouts)
        assert compiled.recall(layouts[:1]) is None  # one layout: nothing to choose
        assert compiled.recall([max(layouts) + 1, *layouts]) is None  # not a layout here
        chosen = [frozenset(s) for s in plain.chosen]
        for state in chosen[:50]:
            move = compiled.recall(sorted(state))
            assert move is not None
            assert move[1] == pytest.approx(plain.chosen[state][1], abs=TOL)


@pytest.mark.parametrize(("against", "line"), [
    ([], "python    ms per search"),
    (["--against", "unpruned"], "unpruned  ms per search"),
    (["--against", "dominated"], "dominated ms per search"),
])
def test_the_speed_benchmark_runs_both_paths_and_checks_them_equal(against, line):
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "endgame_speed.py"
    done = subprocess.run(
        [sys.executable, str(script), "--rules", "expert", "--games", "15", "--seed", "900",
         "--min", "30", "--max", "2500", "--budget", "5000", *against],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "compiled faster:" in done.stdout
    assert line in done.stdout
