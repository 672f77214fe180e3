"""The one-call float probabilities equal the exact engine and the oracle.

:func:`minesolver.analysis.floats.probabilities` runs a compiled pipeline of its own
(clues, trivial rules, boxes, fronts, counting, the join) when numba is installed;
the exact engine stays the reference.  Every position here is checked both ways,
with the compiled path's status looked at, so a case the kernel hands back to the
engine cannot pass unnoticed.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import arbitrary_positions, consistent_positions, numbers_of

from minesolver import Game, Position, Rules
from minesolver.analysis import Engine, InconsistentPositionError, analyze, brute_force
from minesolver.analysis._compiled_board import INCONSISTENT, OK, TOO_BIG, board_probabilities
from minesolver.analysis.floats import EXACT_ZERO_CELLS, board, certain_safe, probabilities
from minesolver.analysis.floats import outcomes as float_outcomes
from minesolver.codes import COVERED

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "positions"
SETTINGS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOLERANCE = 1e-12


# about the compiled path: chosen whatever an earlier test left (see conftest)
pytestmark = pytest.mark.usefixtures("compiled_kernels")


def compiled(position: Position) -> tuple[np.ndarray, int]:
    out, status, _ = board_probabilities(
        position.cells, position.height, position.width, position.mines
    )
    return out.reshape(position.shape), status


def fixture_positions() -> list[tuple[str, Position]]:
    manifest = [json.loads(line) for line in (FIXTURES / "manifest.jsonl").read_text().splitlines()]
    return [
        (entry["id"], Position.from_text((FIXTURES / f"{entry['id']}.mine").read_text()))
        for entry in manifest
    ]


@pytest.mark.parametrize("fid,position", fixture_positions(),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_fixtures_equal_the_engine_and_both_peers(fid, position):
    out, status = compiled(position)
    assert status == OK
    assert np.abs(out - analyze(position).prob).max() < TOLERANCE
    # the two independent engines' figures kept with the fixture
    reference = json.loads((FIXTURES / f"{fid}.probs.json").read_text())
    expected = np.array(reference["prob"], dtype=float).reshape(position.shape)
    covered = np.frombuffer(position.cells, dtype=np.uint8).reshape(position.shape) == COVERED
    assert np.abs(out[covered] - expected[covered]).max() < 1e-9


@given(consistent_positions())
@SETTINGS
def test_equals_the_oracle(position):
    total, probs = brute_force(position)
    out, status, log_layouts = board_probabilities(
        position.cells, position.height, position.width, position.mines
    )
    assert status == OK
    expected = np.array([float(p) for p in probs]).reshape(position.shape)
    assert np.abs(out.reshape(position.shape) - expected).max() < TOLERANCE, str(position)
    assert abs(out.sum() - position.mines) < 1e-9
    assert math.isclose(log_layouts, math.log(total), rel_tol=1e-12, abs_tol=1e-12)


@given(arbitrary_positions())
@SETTINGS
def test_certain_safe_is_exactly_the_oracles_safe_set(position):
    total, probs = brute_force(position)
    found = certain_safe(position)
    if total == 0:
        assert found is None  # the engine names what is wrong
        return
    covered = np.frombuffer(position.cells, dtype=np.uint8) == COVERED
    expected = [i for i, p in enumerate(probs) if covered[i] and p == 0]
    assert found is not None
    assert found.tolist() == expected


def test_certain_safe_answers_only_where_a_float_zero_is_exact():
    small = Position.covered(40, 25, 100)  # EXACT_ZERO_CELLS cells
    assert len(small.cells) == EXACT_ZERO_CELLS
    assert certain_safe(small) is not None
    assert certain_safe(Position.covered(41, 25, 100)) is None
    assert certain_safe(small, kernel="python") is None
    # one compiled answer serves several questions
    found = board(small)
    assert found is not None and certain_safe(small, found=found).tolist() == []


def assert_outcomes_equal(position: Position, cell: tuple[int, int]) -> None:
    exact = Engine(position).outcomes(cell)
    floats = float_outcomes(position, cell)
    assert floats is not None
    assert [o.shown for o in floats] == [o.shown for o in exact]
    for mine, theirs in zip(floats, exact, strict=True):
        assert math.isclose(mine.chance, theirs.chance, rel_tol=1e-10), (mine.shown, position)
        assert np.abs(mine.prob - theirs.analysis.prob.ravel()).max() < 1e-10


@given(consistent_positions(), st.integers(0, 10**6))
@SETTINGS
def test_outcomes_equal_the_engines(position, pick):
    analysis = analyze(position)
    covered = np.flatnonzero(analysis.uncertain_mask)
    if covered.size:
        assert_outcomes_equal(position, divmod(int(covered[pick % covered.size]), position.width))


@pytest.mark.parametrize("fid,position", fixture_positions()[::4],
                         ids=lambda x: x if isinstance(x, str) else "")
def test_outcomes_of_fixture_cells_equal_the_engines(fid, position):
    uncertain = np.flatnonzero(analyze(position).uncertain_mask)
    for i in uncertain[:: max(1, uncertain.size // 5)].tolist():
        assert_outcomes_equal(position, divmod(i, position.width))


@given(arbitrary_positions())
@SETTINGS
def test_inconsistent_positions_raise_what_the_engine_raises(position):
    total, probs = brute_force(position)
    out, status = compiled(position)
    if total == 0:
        assert status == INCONSISTENT
        with pytest.raises(InconsistentPositionError) as ours:
            probabilities(position)
        with pytest.raises(InconsistentPositionError) as engine:
            analyze(position)
        assert str(ours.value) == str(engine.value)
    else:
        assert status == OK
        expected = np.array([float(p) for p in probs]).reshape(position.shape)
        assert np.abs(out - expected).max() < TOLERANCE


@pytest.mark.parametrize("rules,seed,moves", [
    ("beginner", 1, 6), ("intermediate", 2, 25), ("expert", 3, 40), ("expert", 4, 80),
    ("50x50x450", 5, 60), ("100x100x2000", 6, 150), ("64x64x800", 7, 120),
    ("40x25x250", 8, 80), ("40x25x120", 9, 80),
])
def test_played_positions_equal_the_engine_after_every_move(rules, seed, moves):
    """Games played by safe-first clicks: every position on the way, both paths."""
    game = Game(Rules.from_string(rules), seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        position = game.position()
        out, status = compiled(position)
        assert status == OK
        analysis = analyze(position)
        reference = analysis.prob
        assert np.abs(out - reference).max() < 1e-10
        safe = certain_safe(position)
        if len(position.cells) <= EXACT_ZERO_CELLS:
            assert safe is not None and safe.tolist() == analysis.safe_indices.tolist()
        else:
            assert safe is None
        if game.is_over:
            break
        covered = np.flatnonzero(
            (np.frombuffer(position.cells, dtype=np.uint8) == COVERED) & (reference.ravel() < 1)
        )
        if not covered.size:
            break
        safest = covered[reference.ravel()[covered] == reference.ravel()[covered].min()]
        game.reveal(*divmod(int(rnd.choice(safest.tolist())), position.width))


def lines(width: int, height: int, rows: list[int], cols: list[int]) -> Position:
    """Revealed lines across the board (whole rows and columns), every clue on them a 1
    or a 2 among its covered neighbours: one mine beside every third cell of a line, on
    one side, so no trivial rule cuts the line's front."""
    below = {r: r + 1 if r + 1 < height else r - 1 for r in rows}
    beside = {c: c + 1 if c + 1 < width else c - 1 for c in cols}
    mines = {below[r] * width + c for r in rows for c in range(0, width, 3)}
    mines |= {r * width + beside[c] for c in cols for r in range(0, height, 3)}
    mines -= {r * width + c for r in rows for c in range(width)}
    mines -= {r * width + c for c in cols for r in range(height)}
    cells = bytearray([COVERED]) * (width * height)
    for i in range(width * height):
        r, c = divmod(i, width)
        if r in rows or c in cols:
            cells[i] = numbers_of(width, height, mines, i)
    return Position(width, height, len(mines), bytes(cells))


def test_a_front_too_long_for_floats_goes_to_the_engine():
    position = lines(901, 3, [0], [])  # 901: no 0 at either end, nothing trivial
    assert [len(f.cells) for f in analyze(position).fronts] == [901]
    _, status = compiled(position)
    assert status == TOO_BIG
    assert np.array_equal(probabilities(position), analyze(position).prob)


def test_a_long_front_within_the_limit_is_compiled():
    position = lines(601, 3, [0], [])
    assert [len(f.cells) for f in analyze(position).fronts] == [601]
    out, status = compiled(position)
    assert status == OK
    assert np.abs(out - analyze(position).prob).max() < 1e-10


@pytest.mark.parametrize("seed", [1, 3])
def test_a_front_wider_than_fifteen_clues_both_ways_goes_to_the_engine(seed):
    """The issue's spiral with one-cell gaps (benchmarks/wide_fronts.py): both sweeps
    open more than 15 clues at once; the engine's own order counts it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from wide_fronts import spiral_position
    finally:
        sys.path.pop(0)
    position = spiral_position(seed)
    _, status = compiled(position)
    assert status == TOO_BIG
    assert np.array_equal(probabilities(position), analyze(position).prob)


def test_the_python_path_is_the_engine(monkeypatch):
    position = Position.from_text("4x1x1\n1HHH\n")
    assert probabilities(position, kernel="python").tolist() == [[0.0, 1.0, 0.0, 0.0]]
    monkeypatch.setenv("MINESOLVER_KERNELS", "python")
    assert np.array_equal(probabilities(position), analyze(position).prob)


def test_too_many_flags_is_named_by_the_engine():
    position = Position.from_text("3x1x1\nFF1\n")
    with pytest.raises(InconsistentPositionError, match="flags"):
        probabilities(position)


def test_without_numba_everything_answers_through_the_engine():
    """The core installs with numpy alone: with numba missing, ``probabilities`` and
    ``best``'s lookahead take the engine's path and import nothing compiled."""
    script = (
        "import sys; sys.modules['numba'] = None\n"
        "from minesolver import Position\n"
        "from minesolver.analysis import analyze, probabilities\n"
        "from minesolver.analysis.floats import outcomes\n"
        "from minesolver.play import play_game\n"
        "from minesolver.rules import Rules\n"
        "from minesolver.strategies import find_strategy\n"
        "p = Position.from_text('3x3x2\\nHHH\\n2H2\\nHHH\\n')\n"
        "assert (probabilities(p) == analyze(p).prob).all()\n"
        "assert outcomes(p, (0, 1)) is None\n"
        "play_game(Rules.from_string('intermediate'), find_strategy('best'), seed=3)\n"
        "assert not any(m.startswith('minesolver.analysis._compiled') for m in sys.modules)\n"
        "print('ok')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "MINESOLVER_KERNELS"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
