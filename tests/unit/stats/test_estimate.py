"""The statistics core, proven by seeded simulation: intervals hold at their confidence,
corrections control their error rates. Monte-Carlo error at 4,000 draws is about 0.0035."""

import math

import numpy as np
import pytest

from textfair.errors import TextfairError
from textfair.stats import (
    adjust,
    benjamini_hochberg,
    difference,
    holm,
    proportion,
    should_stop,
    two_proportion_p_value,
    z_value,
)

REPS = 4000


def coverage_of_proportion(p, n, method, seed):
    draws = np.random.default_rng(seed).binomial(n, p, size=REPS)
    covered = {}
    for k in np.unique(draws):
        interval = proportion(int(k), n, 0.95, method)
        covered[k] = interval.low <= p <= interval.high
    return float(np.mean([covered[k] for k in draws]))


def coverage_of_difference(p1, p2, n, seed):
    rng = np.random.default_rng(seed)
    pairs = zip(rng.binomial(n, p1, REPS), rng.binomial(n, p2, REPS), strict=True)
    hits = []
    memo = {}
    for x, y in pairs:
        if (x, y) not in memo:
            d = difference(int(x), n, int(y), n, 0.95)
            memo[(x, y)] = d.low <= p1 - p2 <= d.high
        hits.append(memo[(x, y)])
    return float(np.mean(hits))


def test_z_values_are_two_sided():
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.99) == pytest.approx(2.575829, abs=1e-6)
    with pytest.raises(TextfairError, match="between 0 and 1"):
        z_value(95)


def test_student_t_quantiles_and_p_values():
    from textfair.stats import t_p_value, t_value

    for df, exact in [(1, 12.7062), (5, 2.5706), (10, 2.2281), (30, 2.0423), (100, 1.9840)]:
        assert t_value(0.95, df) == pytest.approx(exact, abs=1e-4)
    assert t_p_value(2.2281, 10) == pytest.approx(0.05, abs=1e-3)
    assert t_p_value(0.0, 10) == pytest.approx(1.0)


def test_testsgd_worked_example():
    """Paper, Alg. 2: 283/1000 vs 91/1000 -> margin 0.046, score 19.2%."""
    d = difference(283, 1000, 91, 1000)
    assert d.estimate == pytest.approx(0.192)
    assert d.margin == pytest.approx(0.0457, abs=5e-4)
    assert d.low < 0.192 < d.high


@pytest.mark.parametrize("n", [300, 1000])
@pytest.mark.parametrize("p", [0.01, 0.05, 0.2, 0.5])
def test_wilson_holds_its_95_percent(p, n):
    assert coverage_of_proportion(p, n, "wilson", seed=n + int(p * 1000)) >= 0.935


@pytest.mark.parametrize("n", [50, 100])
@pytest.mark.parametrize("p", [0.05, 0.2, 0.5])
def test_wilson_holds_for_small_samples(p, n):
    assert coverage_of_proportion(p, n, "wilson", seed=n + int(p * 1000)) >= 0.925


def test_wald_misses_rare_events_where_wilson_does_not():
    """The reference-code pitfall: at p = 0.01 and n = 100 Wald's margin is often 0."""
    wald = coverage_of_proportion(0.01, 100, "wald", seed=1)
    wilson = coverage_of_proportion(0.01, 100, "wilson", seed=1)
    assert wald < 0.7 < 0.9 < wilson
    assert proportion(0, 50, method="wald").high == 0.0 < proportion(0, 50).high


@pytest.mark.parametrize(
    ("p1", "p2", "n"),
    [(0.13, 0.065, 200), (0.13, 0.065, 1000), (0.3, 0.3, 200), (0.05, 0.2, 500), (0.02, 0.0, 500)],
)
def test_newcombe_difference_holds_its_95_percent(p1, p2, n):
    assert coverage_of_difference(p1, p2, n, seed=int(1000 * p1) + n) >= 0.935


def test_stopping_rule():
    assert not should_stop(10, 50, 5, 50, min_samples=100).stop
    assert should_stop(283, 1000, 91, 1000, error=0.05).stop
    # Wald's margin is 0 at 0/200 vs 0/200, which would stop at any error bound; Newcombe's is not.
    assert difference(0, 200, 0, 200).margin == 0.0
    decision = should_stop(0, 200, 0, 200, error=0.01, max_samples=10_000)
    assert not decision.stop and decision.half_width > 0.01
    assert should_stop(0, 200, 0, 200, error=0.01, max_samples=200).reason == "max_samples reached"


def test_two_proportion_p_value():
    assert two_proportion_p_value(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportion_p_value(283, 1000, 91, 1000) < 1e-20
    assert two_proportion_p_value(0, 100, 0, 100) == 1.0
    assert two_proportion_p_value(3, 0, 1, 10) == 1.0


def test_p_values_are_uniform_under_the_null():
    rng = np.random.default_rng(7)
    p = [
        two_proportion_p_value(int(rng.binomial(400, 0.2)), 400, int(rng.binomial(400, 0.2)), 400)
        for _ in range(REPS)
    ]
    assert np.mean(np.array(p) <= 0.05) == pytest.approx(0.05, abs=0.012)


def test_holm_and_bh_against_hand_computed_values():
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(holm(p), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(benjamini_hochberg(p), [0.02, 0.04, 0.04, 0.02])
    result = adjust(p, "holm", alpha=0.05)
    assert result.significant.tolist() == [True, False, False, True]
    with pytest.raises(TextfairError, match="unknown correction 'bonferonni'"):
        adjust(p, "bonferonni")


def test_holm_controls_the_family_wise_error_of_a_fair_model():
    """50 rule sets of a fair model: uncorrected, almost every run reports a finding."""
    rng = np.random.default_rng(11)
    any_holm = any_none = 0
    for _ in range(1000):
        p = rng.uniform(size=50)
        any_holm += adjust(p, "holm").significant.any()
        any_none += adjust(p, "none").significant.any()
    assert any_holm / 1000 <= 0.05 + 0.015
    assert any_none / 1000 == pytest.approx(1 - 0.95**50, abs=0.03)


def test_bh_controls_the_false_discovery_rate():
    rng = np.random.default_rng(12)
    rates = []
    for _ in range(1000):
        null = rng.uniform(size=40)
        real = rng.uniform(0, 0.001, size=10)
        flags = adjust(np.concatenate([null, real]), "bh").significant
        discoveries = flags.sum()
        rates.append(flags[:40].sum() / discoveries if discoveries else 0.0)
    assert np.mean(rates) <= 0.05 * 40 / 50 + 0.01


def test_bad_counts():
    with pytest.raises(TextfairError, match="expected 0 <= successes <= n"):
        proportion(5, 3)
    assert math.isnan(proportion(0, 0).estimate)


def exact_coverage_of_bounded_mean(n, p, low_bound):
    """Coverage of `bounded_mean` for n values at {0, 1} with rate p (the most skewed case of
    a seed difference), summed over every possible count: no Monte-Carlo error."""
    from scipy import stats

    from textfair.stats import bounded_mean

    counts = np.arange(n + 1)
    chance = stats.binom.pmf(counts, n, p)
    covered = 0.0
    for k in counts[chance > 1e-12]:
        interval = bounded_mean(np.r_[np.ones(k), np.zeros(n - k)], low_bound, 1.0)
        covered += chance[k] * (interval.low <= p <= interval.high)
    return covered


@pytest.mark.parametrize("n", [20, 100, 300])
@pytest.mark.parametrize("low_bound", [-1.0, 0.0])
def test_bounded_mean_covers_rare_effects_exactly(n, low_bound):
    rates = [0.001, 0.003, 0.01, 0.02, 0.03, 0.05, 0.1, 0.3]
    worst = min(exact_coverage_of_bounded_mean(n, p, low_bound) for p in rates)
    assert worst >= 0.944


def test_bounded_mean_is_a_t_interval_when_many_values_vary_and_never_zero_width():
    from textfair.stats import bounded_mean

    values = np.random.default_rng(0).normal(0.1, 0.3, 400).clip(-1, 1)
    interval = bounded_mean(values)
    t_half = 1.966 * values.std(ddof=1) / np.sqrt(400)
    assert interval.estimate == pytest.approx(values.mean())
    assert t_half < interval.half_width < 1.05 * t_half
    nothing = bounded_mean(np.zeros(100))
    assert nothing.low < 0 < nothing.high and nothing.half_width == pytest.approx(0.038, abs=1e-3)
    assert nothing.p_value == 1.0 and nothing.varying == 0
    # The p-value agrees with the interval: below 0.05 exactly when 0 lies outside it.
    for k in range(0, 12):
        one = bounded_mean(np.r_[np.ones(k), np.zeros(100 - k)])
        assert (one.p_value < 0.05) == (one.low > 0)
    with pytest.raises(TextfairError, match="outside"):
        bounded_mean([0.5, 2.0])


def test_bounded_mean_estimate_is_numpys_mean_to_the_bit():
    """The estimate is the sum over n, which is how numpy computes its mean: the same
    double for every length (pairwise summation included) and every kind of value."""
    from textfair.stats import bounded_mean

    rng = np.random.default_rng(5)
    for n in [*range(1, 200), 1000, 4097]:
        for values in (rng.uniform(-1, 1, n), rng.integers(0, 2, n).astype(float)):
            assert bounded_mean(values).estimate == float(np.mean(values))
