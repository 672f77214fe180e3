"""``benchmarks/versus_engines.py``'s comparison, without the other engines: answers made
up here, right, a little off and wrong, must give the verdicts, the printout and the exit
status they deserve (test_benchmark_scripts.py runs the script itself)."""

from __future__ import annotations

from fractions import Fraction

from support import load_script

from minesolver.analysis import brute_force
from minesolver.codes import COVERED, FLAG
from minesolver.position import Position

# 3 mines; the flag at (0, 0) is not one the clues prove (without it: a mine there in 2/3)
TOY = "4x3x3\nFH1H\nH21H\nHHHH\n"


def exact_grid(position: Position, nudge: dict[tuple[int, int], float] | None = None):
    """The oracle's probabilities as floats, per (row, col), some cells moved by ``nudge``."""
    _, probs = brute_force(position)
    w = position.width
    grid = [[float(probs[r * w + c]) for c in range(w)] for r in range(position.height)]
    for (r, c), delta in (nudge or {}).items():
        grid[r][c] += delta
    return grid


def engine(versus, grid):
    return lambda position: versus.Answer(grid, 0.1)


def test_an_answer_within_the_tolerance_agrees_and_one_beyond_it_does_not():
    versus = load_script("versus_engines")
    position = Position.from_text("4x3x3\nHH1H\nH21H\nHHHH\n")
    case = versus.Case("best", "beginner", position, "made up")
    for name, tolerance in versus.TOLERANCE.items():
        close = exact_grid(position, {(1, 0): tolerance / 2})
        far = exact_grid(position, {(1, 0): tolerance * 3})
        assert versus.check(case, {name: engine(versus, close)}).verdicts[name].status == "agree"
        verdict = versus.check(case, {name: engine(versus, far)}).verdicts[name]
        assert verdict.status == "disagree"
        assert [(i // 4, i % 4) for i, _, _ in verdict.bad] == [(1, 0)]
        assert verdict.max_diff > tolerance


def test_only_ms_toollib_may_answer_with_an_unprovable_flag_covered_again():
    versus = load_script("versus_engines")
    position = Position.from_text(TOY)
    plain = position.with_cells([(0, COVERED)])
    case = versus.Case("flagsany", "beginner", position, "made up")
    answers = {name: engine(versus, exact_grid(plain)) for name in versus.TOLERANCE}
    result = versus.check(case, answers)
    assert result.unprovable
    assert result.verdicts[versus.TOOLLIB].status == "flags covered"
    assert result.verdicts[versus.JSMS].status == "disagree"
    # with the flag trusted the answer differs: 1/2 at (1, 0) and (2, 0), as the oracle says,
    # not the 2/3 of the position with the flag covered
    bad = result.verdicts[versus.JSMS].bad
    assert [(i, p, round(v, 12)) for i, p, v in bad] == [(4, Fraction(1, 2), 0.666666666667),
                                                         (8, Fraction(1, 2), 0.666666666667)]
    assert brute_force(position)[1][4] == brute_force(position)[1][8] == Fraction(1, 2)
    # a provable flag is no excuse: the same answer disagrees
    proved = Position.from_text("3x1x1\n1HH\n").with_cells([(1, FLAG)])
    other = versus.Case("flagsded", "beginner", proved, "made up")
    wrong = {versus.TOOLLIB: engine(versus, [[0.0, 0.5, 0.5]])}
    checked = versus.check(other, wrong)
    assert not checked.unprovable
    assert checked.verdicts[versus.TOOLLIB].status == "disagree"


def test_a_wrong_or_missing_answer_is_printed_judged_and_fails_the_run(capsys):
    versus = load_script("versus_engines")
    position = Position.from_text("4x3x3\nHH1H\nH21H\nHHHH\n")
    case = versus.Case("best", "beginner", position, "made up")
    right = versus.check(case, {versus.TOOLLIB: engine(versus, exact_grid(position))})
    assert versus.report([right], [versus.TOOLLIB], 10, 10**6) == 0
    assert "every position agreed (1 positions, 9 cells)" in capsys.readouterr().out

    wrong = versus.check(case, {versus.TOOLLIB: engine(versus, exact_grid(position,
                                                                         {(2, 3): 0.01}))})
    assert versus.report([right, wrong], [versus.TOOLLIB], 10, 10**6) == 1
    out = capsys.readouterr().out
    assert "DISAGREEMENT ms-toollib on best/beginner (made up): 1 cells beyond 1e-09" in out
    assert position.to_text() in out
    assert "  (2, 3)" in out
    assert "oracle (84 layouts tried): minesolver right at 1 of 1 cells, ms-toollib at 0" in out
    assert "ms-toollib: 1 of 2 positions agree (0 only with" in out
    assert "NOT ALL AGREED: exit status 1" in out

    silent = versus.check(case, {versus.TOOLLIB: lambda p: versus.Answer(None, error="panic")})
    assert silent.verdicts[versus.TOOLLIB].status == "no answer"
    assert versus.report([right, silent], [versus.TOOLLIB], 10, 10**6) == 1
    out = capsys.readouterr().out
    assert "NO ANSWER from ms-toollib on best/beginner (made up): panic" in out
    assert "0 disagree, 1 unanswered" in out
