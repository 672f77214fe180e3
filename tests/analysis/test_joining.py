"""The scaled join (off-front binomials less one common factor) equals the plain one."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from math import comb, log2

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import consistent_positions, fixture_ids, load_fixture

from minesolver import Position
from minesolver.analysis import Engine, engine
from minesolver.analysis.joining import (
    Binomials,
    Scale,
    front_weights,
    outside_weights,
    scaled_weights,
)
from minesolver.noise import parse_noise

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.integers(0, 400), st.integers(0, 400), st.integers(0, 60), st.integers(0, 80),
       st.sampled_from([None, True, False]))
def test_scaled_weights_times_the_scale_are_the_binomials(n_out, remaining, least, total, whole):
    w, scale = scaled_weights(n_out, remaining, least, total, whole=whole)
    factor = scale.value()
    assert len(w) == total + 1
    for t, x in enumerate(w):
        if t >= least:
            assert x * factor == _binom(n_out, remaining - t)
        else:  # below the fronts' least count: 0, or the whole binomial
            assert x in (0, _binom(n_out, remaining - t))


def _binom(n: int, r: int) -> int:
    return comb(n, r) if 0 <= r <= n else 0


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 40), min_size=1, max_size=5), max_size=7),
       st.integers(0, 300), st.integers(0, 80))
def test_front_weights_of_the_scaled_join_equal_the_plain_ones(polys, n_out, remaining):
    polys = [[0] * (k % 3) + p for k, p in enumerate(polys)]  # fronts with a least count
    total = sum(len(p) - 1 for p in polys)
    mins = [next((k for k, v in enumerate(p) if v), len(p) - 1) for p in polys]
    least = sum(mins)
    plain = front_weights(polys, outside_weights(n_out, remaining, total))
    w, scale = scaled_weights(n_out, remaining, least, total, whole=False)
    scaled = front_weights(polys, w)
    factor = scale.value()
    for g_plain, g_scaled, low in zip(plain[0], scaled[0], mins, strict=True):
        # below a front's least count the weights never meet a layout
        assert [Fraction(int(x)) * factor for x in g_scaled[low:]] == [
            Fraction(int(x)) for x in g_plain[low:]
        ]
    w_plain = outside_weights(n_out, remaining, total)
    z_plain = sum(int(a) * b for a, b in zip(plain[1], w_plain, strict=True))
    assert z_plain == sum(int(a) * b for a, b in zip(scaled[1], w, strict=True)) * factor


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 4), st.lists(st.integers(0, 40), min_size=1,
                                                     max_size=5)), max_size=7),
       st.integers(0, 300), st.integers(0, 80), st.booleans())
def test_the_shifted_join_equals_the_plain_one_where_layouts_are(fronts, n_out, remaining,
                                                                  scaled):
    polys = [[0] * low + p for low, p in fronts]  # fronts with a least count
    total = sum(len(p) - 1 for p in polys)
    mins = [next((k for k, v in enumerate(p) if v), len(p) - 1) for p in polys]
    if scaled:
        w, _ = scaled_weights(n_out, remaining, sum(mins), total, whole=False)
    else:
        w = outside_weights(n_out, remaining, total)
    plain = front_weights(polys, w, shift=False)
    shifted = front_weights(polys, w, shift=True)
    assert [g.tolist() for g in front_weights(polys, w)[0]] in (  # the default: either
        [g.tolist() for g in shifted[0]], [g.tolist() for g in plain[0]])
    assert shifted[1].tolist() == plain[1].tolist()
    for g_plain, g_shifted, low in zip(plain[0], shifted[0], mins, strict=True):
        assert len(g_shifted) == len(g_plain)
        assert g_shifted[low:].tolist() == g_plain[low:].tolist()
        assert not any(g_shifted[:low])  # a count the front cannot hold meets no layout
    before = 0
    for c, (t_plain, t_shifted) in enumerate(zip(plain[2], shifted[2], strict=True)):
        assert len(t_shifted) == len(t_plain)
        assert t_shifted[before:].tolist() == t_plain[before:].tolist()
        before += mins[c] if c < len(mins) else 0


@SETTINGS
@given(st.integers(0, 3000), st.integers(0, 3000), st.integers(0, 200),
       st.integers(-40, 40), st.integers(-40, 40), st.integers(0, 200))
def test_scale_ratio_is_exact(n, low, span, dn, dlow, span2):
    low = min(low, n)
    a = Scale(n, low, low + span)
    n2 = max(0, n + dn)
    b = Scale(n2, min(n2, max(0, low + dlow)), min(n2, max(0, low + dlow)) + span2)
    assert a.ratio(b) == a.value() / b.value()
    assert a.ratio(b, reach=0) == a.value() / b.value()
    exact = a.value()
    assert abs(a.log2() - (log2(exact.numerator) - log2(exact.denominator))) < 1e-6 * (
        1 + abs(a.log2())
    )


def test_binomials_walk_matches_comb():
    b = Binomials(reach=50)
    for n, r in [(100, 40), (110, 35), (90, 45), (100, 0), (100, 100), (5, 7), (130, 60)]:
        assert b.comb(n, r) == (comb(n, r) if 0 <= r <= n else 0)


def _analyses(position: Position, monkeypatch, **kw):
    out = {}
    for name, whole in (("auto", None), ("scaled", False), ("whole", True)):
        monkeypatch.setattr(engine, "scaled_weights", partial(scaled_weights, whole=whole))
        e = Engine(position, **kw)
        out[name] = (e, e.analysis)
    return out


def _assert_same(position: Position, monkeypatch, **kw) -> None:
    got = _analyses(position, monkeypatch, **kw)
    _, ref = got["whole"]
    covered = [position.coords(i) for i, c in enumerate(position.cells) if c >= 9]
    for name, (e, a) in got.items():
        assert a.solutions == ref.solutions, name
        assert [a.probability(*c) for c in covered] == [ref.probability(*c) for c in covered]
        if "density" not in kw and covered:
            cell = covered[len(covered) // 2]
            assert [(o.shown, o.probability) for o in e.outcomes(cell)] == [
                (o.shown, o.probability) for o in got["whole"][0].outcomes(cell)
            ], name
        assert a.solutions_at_most(ref.solutions) and not a.solutions_at_most(ref.solutions - 1)


@pytest.mark.parametrize("fid", fixture_ids())
def test_fixture_scaled_equals_whole(fid, monkeypatch):
    _assert_same(load_fixture(fid), monkeypatch)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(consistent_positions())
def test_generated_scaled_equals_whole(monkeypatch, position):
    _assert_same(position, monkeypatch)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(consistent_positions(), st.sampled_from([Fraction(1, 5), Fraction(3, 7)]))
def test_density_prior_unchanged(monkeypatch, position, density):
    _assert_same(position, monkeypatch, density=density)


def test_many_fronts(monkeypatch):
    """A wide board of many small separate fronts: the join's common case on big boards."""
    rows = []
    for r in range(12):
        row = ""
        for c in range(60):
            row += "1" if (r % 4 == 1 and c % 4 == 1) else "H"
        rows.append(row)
    text = "60x12x100\n" + "\n".join(rows) + "\n"
    _assert_same(Position.from_text(text), monkeypatch)


@pytest.mark.parametrize("noise", ["withheld:0.5", "optimistic", "cautious"])
@pytest.mark.parametrize("seed", range(6))
def test_noisy_rules_scaled_equals_whole(noise, seed, monkeypatch):
    from test_noisy_engine import noisy_position

    position, _ = noisy_position(noise, seed)
    _assert_same(position, monkeypatch, noise=parse_noise(noise))
