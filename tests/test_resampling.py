"""The ECDF's bootstrap band (gaqueens/reports/resampling.py, ecdf_band): by hand on a proportion
whose bootstrap distribution is binomial, its coverage of a known distribution, and against
scipy.stats.bootstrap."""

import numpy as np
import pytest
from scipy import stats

from gaqueens.reports.resampling import ecdf_band


def test_a_band_by_hand_on_ten_runs():
    """Ten runs, five solved at work 1 to 5: at 5 the fraction solved is 0.5, and a resample's
    count of runs solved by then is binomial(10, 0.5), whose 2.5% and 97.5% points are 2 and 8
    (P(X <= 1) = 1.1%, P(X <= 2) = 5.5%); at 1 it is binomial(10, 0.1): 0 to 3 (P(X <= 2) =
    93.0%, P(X <= 3) = 98.7%)."""
    times = np.r_[1.0, 2, 3, 4, 5, [np.inf] * 5]
    x, fraction, low, high = ecdf_band(times, np.arange(10))
    assert x.tolist() == [1, 2, 3, 4, 5]
    assert fraction.tolist() == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5])
    assert (low[-1], high[-1]) == (0.2, 0.8) and (low[0], high[0]) == (0.0, 0.3)
    assert (stats.binom.ppf([0.025, 0.975], 10, 0.5) / 10).tolist() == [0.2, 0.8]


def test_equal_times_make_one_step_and_runs_carry_all_their_pairs():
    """Two runs of three targets each: run 0 reaches all three at 10, run 1 one at 20. A
    resample holds run 0 twice (fraction 1), each once (4/6) or run 1 twice (1/3) at 20; at
    10, 1, 1/2 or 0."""
    times = np.array([10.0, 10, 10, 20, np.inf, np.inf])
    x, fraction, low, high = ecdf_band(times, np.repeat([0, 1], 3))
    assert x.tolist() == [10, 20] and fraction.tolist() == pytest.approx([0.5, 4 / 6])
    assert (low.tolist(), high.tolist()) == ([0, 1 / 3], [1, 1])


def test_the_band_holds_the_true_distribution_about_95_times_in_100():
    """Pointwise coverage on runs drawn from an exponential distribution, at its quartiles:
    the percentile bootstrap of a proportion covers near its level (a little below, on 60
    runs)."""
    rng = np.random.default_rng(7)
    points = np.log([4 / 3, 2, 4])  # F = 0.25, 0.5, 0.75
    covered = np.zeros(len(points))
    trials = 200
    for _ in range(trials):
        times = rng.exponential(1.0, 60)
        x, _, low, high = ecdf_band(times, np.arange(60), resamples=400)
        at = np.searchsorted(x, points, side="right") - 1
        truth = 1 - np.exp(-points)
        covered += (low[at] <= truth) & (truth <= high[at])
    assert ((covered / trials > 0.88) & (covered / trials < 0.99)).all(), covered / trials


def test_the_band_is_scipys_percentile_bootstrap():
    """At each time, the band of the fraction of runs solved is scipy.stats.bootstrap's
    percentile interval of the mean of "solved by then" over the runs, to within the noise of
    resampling (a step of 1/40 either way)."""
    rng = np.random.default_rng(2)
    times = np.where(rng.random(40) < 0.8, rng.lognormal(5, 1, 40), np.inf)
    x, fraction, low, high = ecdf_band(times, np.arange(40), resamples=4000)
    for i in (3, 15, 28):
        solved = (times <= x[i]).astype(float)
        theirs = stats.bootstrap((solved,), np.mean, method="percentile", n_resamples=4000,
                                 rng=np.random.default_rng(0)).confidence_interval
        assert fraction[i] == pytest.approx(solved.mean())
        assert abs(low[i] - theirs.low) <= 1 / 40 + 1e-9 and abs(high[i] - theirs.high) <= 1 / 40 + 1e-9


def test_no_resamples_no_band_and_no_run_reaching_nothing():
    x, fraction, low, high = ecdf_band(np.array([3.0, np.inf]), np.array([0, 1]), resamples=0)
    assert x.tolist() == [3] and fraction.tolist() == [0.5] and low is None and high is None
    x, fraction, low, high = ecdf_band(np.array([np.inf, np.inf]), np.array([0, 1]))
    assert len(x) == len(fraction) == len(low) == len(high) == 0
