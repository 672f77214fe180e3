"""Wilson intervals and McNemar's paired test against published and hand-computed values;
the summaries and comparisons built from stored games."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesolver.bench import GameRow, compare, comparison_json, mcnemar, summarize, wilson

# ---------------------------------------------------------------------- Wilson


@pytest.mark.parametrize(
    ("wins", "games", "lo", "hi"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # the values the issue quotes, and the usual textbook ones
        (40, 100, 0.3094, 0.4980),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 10, 0.0179, 0.4042),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_known_values(wins, games, lo, hi):
    got = wilson(wins, games)
    assert round(got[0], 4) == lo
    assert round(got[1], 4) == hi


def test_wilson_ends_are_exact():
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)  # no games: no knowledge


def test_wilson_rejects_impossible_counts():
    with pytest.raises(ValueError, match="between 0 and 10"):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(-1, 10)


def test_a_wider_z_gives_a_wider_interval():
    lo95, hi95 = wilson(40, 100)
    lo99, hi99 = wilson(40, 100, z=2.5758293035489)
    assert lo99 < lo95 < 0.4 < hi95 < hi99


@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_is_a_proper_interval(case):
    wins, games = case
    lo, hi = wilson(wins, games)
    p = wins / games
    assert 0.0 <= lo <= p <= hi <= 1.0
    # the score interval: p lies between its ends, and the ends solve the score equation
    z = 1.959963984540054
    for end in (lo, hi):
        if 0 < end < 1:
            assert abs(p - end) == pytest.approx(z * math.sqrt(end * (1 - end) / games), abs=1e-9)


# ---------------------------------------------------------------------- McNemar


def exact_p(b, c):
    """Two-sided exact binomial p-value of b vs c discordant pairs, in fractions."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(Fraction(math.comb(n, i), 2**n) for i in range(k + 1))
    return float(min(Fraction(1), 2 * tail))


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (10, 30, 0.00222),
        (30, 10, 0.00222),
        (0, 6, 0.03125),  # 2 / 2**6
        (1, 9, 0.021484375),  # 2 * 11 / 2**10
        (0, 5, 0.0625),
        (5, 5, 1.0),
        (7, 8, 1.0),  # one apart: the two tails cover everything
        (0, 0, 1.0),
    ],
)
def test_mcnemar_exact_p_value(b, c, p):
    result = mcnemar(b, c, 1000)
    assert result.p_value == pytest.approx(p, abs=5e-6)
    assert result.p_value == pytest.approx(exact_p(b, c), rel=1e-12)


def test_mcnemar_chi_square_with_continuity_correction():
    assert mcnemar(10, 30, 100).statistic == pytest.approx(19**2 / 40)  # 9.025
    assert mcnemar(1, 9, 50).statistic == pytest.approx(49 / 10)
    assert mcnemar(0, 6, 10).statistic == pytest.approx(25 / 6)
    assert mcnemar(0, 0, 10).statistic == 0.0


def test_mcnemar_paired_difference_and_interval():
    result = mcnemar(30, 10, 1000)
    assert (result.a_only, result.b_only, result.games) == (30, 10, 1000)
    assert result.diff == pytest.approx(0.02)
    # Wald interval for paired proportions: var = (b + c - (b - c)^2 / n) / n^2
    half = 1.959963984540054 * math.sqrt((40 - 20**2 / 1000) / 1000**2)
    assert half == pytest.approx(0.012334, abs=1e-6)
    assert result.ci95 == pytest.approx((0.02 - half, 0.02 + half), abs=1e-12)
    flipped = mcnemar(10, 30, 1000)
    assert flipped.diff == pytest.approx(-0.02)
    assert flipped.ci95 == pytest.approx((-0.02 - half, -0.02 + half), abs=1e-12)
    assert flipped.p_value == result.p_value


def test_mcnemar_rejects_impossible_counts():
    with pytest.raises(ValueError):
        mcnemar(-1, 3, 10)
    with pytest.raises(ValueError):
        mcnemar(6, 6, 10)  # more discordant pairs than games


# ---------------------------------------------------------------------- summaries


def row(strategy, index, won, *, guesses=0, seconds=0.01, opened=60, bbbv=20):
    return GameRow(
        run_id="r1", strategy=strategy, game_index=index, seed=index, rules="9x9x10",
        first_click="safe", start="corner", won=won, clicks=10, guesses=guesses, bbbv=bbbv,
        seconds=seconds, opened=opened, safe_cells=71, version="0.1.0",
    )


def test_summary_figures():
    rows = [
        row("tank", i, i < 7, guesses=i % 3, seconds=(i + 1) / 1000, opened=71 if i < 7 else 35)
        for i in range(10)
    ]
    s = summarize(rows)
    assert s["strategy"] == "tank"
    assert (s["games"], s["wins"], s["win_rate"]) == (10, 7, 0.7)
    assert s["ci95"] == pytest.approx(list(wilson(7, 10)))
    assert s["guesses_per_game"] == pytest.approx(sum(i % 3 for i in range(10)) / 10)
    assert s["needs_guess"] == pytest.approx(sum(i % 3 > 0 for i in range(10)) / 10)
    assert s["open_rate"] == pytest.approx((7 * 71 + 3 * 35) / 71 / 10)
    assert s["ms_per_game_mean"] == pytest.approx(5.5)
    assert s["ms_per_game_median"] == pytest.approx(5.5)
    assert s["bbbv_mean"] == 20


def test_summary_of_nothing():
    s = summarize([])
    assert (s["games"], s["wins"], s["win_rate"]) == (0, 0, None)  # not a rate of 0
    assert s["ci95"] == [0.0, 1.0]
    assert all(s[key] is None for key in ("guesses_per_game", "needs_guess", "open_rate",
                                          "ms_per_game_mean", "ms_per_game_p95", "bbbv_mean"))


def test_comparison_pairs_games_by_index():
    a = [row("a", i, won) for i, won in enumerate([1, 1, 1, 0, 0, 1, 1, 0])]
    b = [row("b", i, won) for i, won in enumerate([1, 0, 0, 0, 1, 1, 0, 0])]
    b = b[:7]  # game 7 only A played: it is not a pair
    result = compare(a, b)
    assert (result.games, result.a_only, result.b_only) == (7, 3, 1)
    assert result.diff == pytest.approx(2 / 7)
    data = comparison_json("a", "b", result)
    assert data == {
        "a": "a", "b": "b", "games": 7, "a_only": 3, "b_only": 1,
        "diff": result.diff, "ci95": list(result.ci95), "statistic": result.statistic,
        "p_value": result.p_value,
    }
    assert data["statistic"] == pytest.approx((abs(3 - 1) - 1) ** 2 / (3 + 1))
    assert data["p_value"] == pytest.approx(exact_p(3, 1))
