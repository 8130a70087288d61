"""The statistics: numpy resampling against scipy.stats.bootstrap, the power of the verdict,
the expected running time, the two-sample tests and Holm's correction (rules:
gaqueens/reports/resampling.py and gaqueens/reports/stats.py)."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from gaqueens.reports import resampling, stats


def skewed(median, size=100, seed=0):
    """Evaluations shaped like a GA's: a skewed distribution in steps of 20."""
    rng = np.random.default_rng(seed)
    return (np.round(rng.lognormal(np.log(median), 0.5, size) / 20) * 20).astype(float)


def _median(sample, axis=-1):
    return np.median(sample, axis=axis)


@settings(deadline=None)
@given(st.lists(st.sampled_from([20.0, 40.0, 60.0, 140.0, 2450.0, resampling.CENSORED]),
                min_size=1, max_size=120), st.integers(1, 120), st.integers(0, 2**32))
def test_resampled_medians_are_those_of_plain_resamples(work, size, seed):
    """resampling.medians draws from the generator what rng.choice draws and gives exactly
    np.median of each resample, censored runs and ties included."""
    work = np.array(work)
    ours = resampling.medians(work, np.random.default_rng(seed), size)
    plain = np.median(np.random.default_rng(seed).choice(work, (resampling.RESAMPLES, size)),
                      axis=1)
    assert np.array_equal(ours, plain)


def test_resampled_medians_leave_the_generator_where_rng_choice_does():
    ours, plain = np.random.default_rng(3), np.random.default_rng(3)
    resampling.medians(np.arange(7.0), ours, 5)
    plain.choice(np.arange(7.0), (resampling.RESAMPLES, 5))
    assert ours.integers(0, 2**62) == plain.integers(0, 2**62)


@pytest.mark.parametrize("median, size", [(140, 100), (2450, 100), (16500, 60)])
def test_median_interval_agrees_with_scipy_bootstrap(median, size):
    """Both are percentile bootstraps: they differ by resampling noise alone, here within one
    step of the work's lattice or 3% of the median, whichever is larger."""
    work = skewed(median, size)
    ours = resampling.median_interval(work, np.random.default_rng(1))
    theirs = scipy_stats.bootstrap((work,), _median, method="percentile", vectorized=True,
                                   rng=np.random.default_rng(2)).confidence_interval
    tolerance = max(20, 0.03 * median)
    assert ours == pytest.approx((theirs.low, theirs.high), abs=tolerance)


def test_the_verdicts_acceptance_agrees_with_scipy_bootstrap_of_two_medians():
    """With 100 runs of ours, the acceptance band is the central 99% of the difference of the
    medians of two independent resamples: scipy.stats.bootstrap of that statistic on the two
    samples (ours, ours) gives it too."""
    work = skewed(2450)
    low, high = resampling.acceptance(work, np.random.default_rng(1))
    difference = scipy_stats.bootstrap(
        (work, work), lambda a, b, axis=-1: _median(a, axis) - _median(b, axis),
        method="percentile", vectorized=True, confidence_level=0.99,
        rng=np.random.default_rng(2)).confidence_interval
    ours = np.median(work)
    assert (low - ours, high - ours) == pytest.approx((difference.low, difference.high), abs=40)


def test_a_degenerate_sample_detects_the_smallest_shift():
    """All runs alike: every resampled median is the same, so any shift is told apart."""
    work = np.full(100, 1000.0)
    accepted = resampling.acceptance(work, np.random.default_rng(0))
    assert accepted == (1000, 1000)
    assert resampling.detectable_shift(work, accepted, np.random.default_rng(0)) == 0.01


def test_the_detectable_shift_has_the_stated_power():
    """Simulated directly: published runs shifted by the returned s fail the verdict in at
    least 80% of samples (up to the noise of 2,000 samples), and by 5 points less in fewer."""
    work = skewed(2450, size=100)
    rng = np.random.default_rng(0)
    accepted = resampling.acceptance(work, rng)
    shift = resampling.detectable_shift(work, accepted, rng)
    check = np.random.default_rng(9)

    def power(factor):
        medians = np.median(check.choice(work, (2000, 100)), axis=1) * factor
        return np.mean((medians < accepted[0]) | (medians > accepted[1]))

    assert min(power(1 + shift), power(1 - shift)) >= 0.77
    weaker = shift - 0.05
    assert min(power(1 + weaker), power(1 - weaker)) < 0.8


def test_more_runs_detect_smaller_shifts():
    rng = np.random.default_rng(0)
    small, large = skewed(2450, 100), skewed(2450, 1000)
    shifts = [resampling.detectable_shift(w, resampling.acceptance(w, rng), rng)
              for w in (small, large)]
    assert shifts[1] < shifts[0]


def test_no_power_without_a_median():
    work = np.r_[np.full(60, resampling.CENSORED), np.full(40, 100.0)]
    accepted = resampling.acceptance(work, np.random.default_rng(0))
    assert np.isnan(accepted[0])
    assert np.isnan(resampling.detectable_shift(work, accepted, np.random.default_rng(0)))


def test_ert_by_hand():
    assert resampling.ert([100, 200, 300], [True, True, False]) == 300
    assert resampling.ert([100, 200], [True, True]) == 150
    assert resampling.ert([5, 7], [False, False]) == math.inf


def test_holm_by_hand():
    """p = 0.01, 0.04, 0.03, 0.005: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 gives
    0.02, 0.03, 0.06, 0.04, made non-decreasing: 0.02, 0.03, 0.06, 0.06."""
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    held = stats.holm([np.nan, 0.2, 0.01])
    assert np.isnan(held[0]) and held[1:] == pytest.approx([0.2, 0.02])
    assert len(stats.holm([])) == 0


@settings(deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_keeps_order_and_never_lowers_a_p_value(p):
    adjusted = stats.holm(p)
    p = np.array(p)
    assert (adjusted >= p - 1e-15).all() and (adjusted <= 1).all()
    order = np.argsort(p, kind="stable")
    assert (np.diff(adjusted[order]) >= -1e-15).all()


def test_holm_agrees_with_statsmodels():
    from statsmodels.stats import multitest

    p = np.random.default_rng(4).uniform(0, 0.05, 25)
    expected = multitest.multipletests(p, alpha=0.01, method="holm")[1]
    assert stats.holm(p) == pytest.approx(expected)


def test_median_ratio_of_a_doubled_sample():
    work = skewed(1000, 200)
    ratio, low, high = stats.median_ratio(2 * work, work, np.random.default_rng(0))
    assert ratio == 2 and low <= 2 <= high
    ratio, low, high = stats.median_ratio(work, work, np.random.default_rng(0))
    assert ratio == 1 and low < 1 < high


def _plain_median_ratio(first, second, axis=-1):
    """The ratio of the medians, none (nan) where the second is infinite (stats.py)."""
    top, bottom = np.median(first, axis=axis), np.median(second, axis=axis)
    with np.errstate(invalid="ignore"):
        return np.where(bottom >= resampling.REACHED, np.nan, top / bottom)


WORK = st.sampled_from([20.0, 40.0, 60.0, 140.0, 160.0, 2450.0, math.inf])


@settings(deadline=None)
@given(st.lists(WORK, min_size=2, max_size=60), st.lists(WORK, min_size=2, max_size=60),
       st.integers(0, 2**32), st.sampled_from([300, 2_100]))
def test_median_ratio_is_scipys_bootstrap_of_the_values(first, second, seed, resamples):
    """median_ratio draws the picks as scipy.stats.bootstrap does, batch by batch, and reads
    the medians from their counts: its ratio and interval are exactly those of
    scipy.stats.bootstrap of the plain ratio of np.median on the values themselves, from the
    same generator (stats.py, median_ratio), ties, unsolved runs and several batches
    included."""
    ours = stats.median_ratio(first, second, np.random.default_rng(seed), resamples=resamples)
    values = [np.where(np.isinf(s), resampling.CENSORED, s) for s in (first, second)]
    ratio = float(_plain_median_ratio(*values))
    if np.isnan(ratio):
        assert np.isnan(ours).all()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nan resamples: a nan interval
        low, high = scipy_stats.bootstrap(
            values, _plain_median_ratio, vectorized=True, paired=False, confidence_level=0.95,
            method="percentile", n_resamples=resamples, batch=1000,
            rng=np.random.default_rng(seed)).confidence_interval
    plain = [math.inf if v >= resampling.REACHED else v for v in (ratio, low, high)]
    np.testing.assert_array_equal(ours, plain)


def test_median_ratio_with_unsolved_runs():
    work = skewed(1000, 100)
    unsolved = np.r_[np.full(60, np.inf), work[:40]]
    assert stats.median_ratio(unsolved, work, np.random.default_rng(0))[:2] == (math.inf, math.inf)
    # over an infinite median: none, not the tiny number CENSORED makes of it (issue 47 saw
    # 4.09e-296 printed as "0.00 (0.00 to 0.00)")
    assert np.isnan(stats.median_ratio(work, unsolved, np.random.default_rng(0))).all()
    ratio, low, high = stats.median_ratio(unsolved, unsolved, np.random.default_rng(0))
    assert np.isnan(ratio) and np.isnan(low) and np.isnan(high)
    ratio, low, high = stats.median_ratio(work, [500.0], np.random.default_rng(0))
    assert ratio == np.median(work) / 500 and np.isnan(low)


def test_mann_whitney_ranks_unsolved_runs_as_the_worst():
    solved = np.arange(1, 31, dtype=float) * 1e6
    unsolved = np.full(30, np.inf)
    p, share = stats.mann_whitney(unsolved, solved)
    assert share == 1 and p < 1e-6
    assert stats.mann_whitney(solved, unsolved)[1] == 0
    assert stats.mann_whitney([1.0, 1.0], [1.0, 1.0, 1.0]) == (1.0, 0.5)


def test_mann_whitney_rows_gives_each_rows_own_test():
    first = np.stack([skewed(1000, 40, seed=s) for s in range(3)] + [np.full(40, np.inf)])
    second = np.stack([skewed(1000 + 300 * s, 30, seed=10 + s) for s in range(3)]
                      + [np.full(30, np.inf)])
    p = stats.mann_whitney_rows(first, second)
    assert p == pytest.approx([stats.mann_whitney(a, b)[0] for a, b in zip(first, second)])
    assert p[-1] == 1.0


def test_the_distribution_tests_tell_a_shift_from_none():
    work = skewed(1000, 400, seed=1)
    same, shifted = skewed(1000, 400, seed=2), skewed(1400, 400, seed=3)
    for test in (stats.kolmogorov_smirnov, stats.anderson_darling,
                 lambda a, b: stats.mann_whitney(a, b)[0]):
        assert test(work, same) > 0.01 and test(work, shifted) < 0.01
    assert 0.001 <= stats.anderson_darling(work, shifted) <= 0.25


def test_no_property_test_has_a_deadline():
    """Every property test runs without hypothesis' deadline (tests/conftest.py's profile, and
    deadline=None where a test sets its own): a loaded machine slows an example, never fails it."""
    import ast
    from pathlib import Path

    from hypothesis import settings as current

    assert current.default.deadline is None
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "settings":
                given = {keyword.arg: ast.unparse(keyword.value) for keyword in node.keywords}
                assert given.get("deadline", "None") == "None", (path.name, node.lineno)
