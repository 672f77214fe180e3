"""SplitMix64: the published reference values, ranges, uniformity, seed derivation."""

from __future__ import annotations

from collections import Counter

import pytest

from minesolver.rng import SplitMix64, derive_seed, new_seed

MASK = (1 << 64) - 1


def reference_splitmix64(seed, count):
    """The reference algorithm (Steele, Lea & Flood; Vigna's splitmix64.c), written out again."""
    x = seed & MASK
    out = []
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


def chi_square(counts, expected):
    return sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def test_published_first_outputs_for_seed_zero():
    rng = SplitMix64(0)
    assert rng.next64() == 16294208416658607535  # 0xe220a8397b1dcdaf
    assert rng.next64() == 0x6E789E6AA1B965F4
    assert rng.next64() == 0x06C45D188009454F


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63, MASK, 0x123456789ABCDEF])
def test_matches_reference(seed):
    rng = SplitMix64(seed)
    assert [rng.next64() for _ in range(200)] == reference_splitmix64(seed, 200)


def test_seed_folds_modulo_2_64():
    a, b, c = SplitMix64(5), SplitMix64(5 + 2**64), SplitMix64(5 + 7 * 2**64)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    assert SplitMix64(-1).next64() == SplitMix64(MASK).next64()
    assert c.state == 5


def test_documented_draws_are_stable():
    # the module docstring promises these; boards depend on them staying put
    rng = SplitMix64(42)
    assert [rng.below(10) for _ in range(5)] == [3, 1, 8, 4, 0]
    assert sorted(SplitMix64(1).sample(10, 3)) == [1, 5, 8]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 1000, 2**32 + 1, 2**63 + 1, 2**64])
def test_below_in_range(n):
    rng = SplitMix64(n)
    values = [rng.below(n) for _ in range(2000)]
    assert all(0 <= v < n for v in values)
    if n > 1:
        assert len(set(values)) > 1


@pytest.mark.parametrize("n", [0, -1, -(2**64)])
def test_below_needs_a_positive_bound(n):
    with pytest.raises(ValueError, match="positive bound"):
        SplitMix64(0).below(n)


@pytest.mark.parametrize("n", [6, 10, 37])
def test_below_is_roughly_uniform(n):
    rng = SplitMix64(20240601 + n)
    draws = 60_000
    counts = Counter(rng.below(n) for _ in range(draws))
    stat = chi_square(counts, {k: draws / n for k in range(n)})
    # n - 1 degrees of freedom: the mean is n - 1; this bound is far in the tail
    assert stat < 3 * (n - 1) + 30


def test_below_has_no_modulo_bias():
    # with n = 3 * 2**62, plain x % n would put half the draws below 2**62, not a third
    n = 3 * 2**62
    rng = SplitMix64(7)
    draws = 30_000
    low = sum(rng.below(n) < 2**62 for _ in range(draws))
    assert abs(low / draws - 1 / 3) < 0.02


def test_random_float():
    rng = SplitMix64(3)
    values = [rng.random() for _ in range(20_000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert abs(sum(values) / len(values) - 0.5) < 0.01


@pytest.mark.parametrize(
    ("population", "k"), [(10, 3), (10, 10), (1, 1), (5, 0), (1000, 999), (10**12, 20)]
)
def test_sample_gives_distinct_values(population, k):
    for seed in range(20):
        got = SplitMix64(seed).sample(population, k)
        assert len(got) == k
        assert len(set(got)) == k
        assert all(0 <= v < population for v in got)
    if k == population:
        assert sorted(SplitMix64(0).sample(population, k)) == list(range(population))


@pytest.mark.parametrize(("population", "k"), [(3, 4), (3, -1), (0, 1)])
def test_sample_rejects_impossible_requests(population, k):
    with pytest.raises(ValueError, match=f"cannot choose {k} of {population}"):
        SplitMix64(0).sample(population, k)


def test_sample_is_roughly_uniform():
    rng = SplitMix64(99)
    draws = 20_000
    counts = Counter(frozenset(rng.sample(5, 2)) for _ in range(draws))
    pairs = {frozenset((a, b)): draws / 10 for a in range(5) for b in range(a + 1, 5)}
    assert set(counts) == set(pairs)
    assert chi_square(counts, pairs) < 40  # 9 degrees of freedom


def test_derive_seed():
    assert derive_seed(7, 0) == derive_seed(7, 0)
    assert derive_seed(7, 1, 2) == derive_seed(7, 1, 2)
    seeds = {derive_seed(7, k) for k in range(1000)}
    assert len(seeds) == 1000
    assert derive_seed(7, 0) != derive_seed(8, 0)
    assert derive_seed(1, 2, 3) != derive_seed(1, 3, 2)
    assert derive_seed(1, 2) != derive_seed(1, 2, 0)
    assert all(0 <= s <= MASK for s in seeds)
    assert derive_seed(7) != 7
    # seeds fold modulo 2**64 like the generator's
    assert derive_seed(7 + 2**64, 3) == derive_seed(7, 3)


def test_new_seed_is_random_and_short_enough_to_type_back():
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) > 190
    assert all(0 <= s < 2**32 for s in seeds)
    assert all(0 <= new_seed(8) < 256 for _ in range(50))
    assert any(new_seed(64) >= 2**32 for _ in range(20))
