"""Two-sample statistics, all from scipy.stats: the ratio of two medians with its bootstrap
interval, the Kolmogorov-Smirnov, Anderson-Darling and Mann-Whitney tests, and Holm's
correction for many tests.

Only the parts that compare two samples import this module (the comparisons of a sweep with
several algorithms, the fidelity check): the summary of every sweep resamples in numpy
(gaqueens.reports.resampling), so that a sweep of one algorithm does not import scipy.stats.

Runs that stop short enter as infinite work: the tests rank them as the worst; inside the
bootstrap they stand as CENSORED, and a median ratio at least REACHED reads as infinite. A
ratio over an infinite median is none (nan), never the tiny number CENSORED would make of it.
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
from scipy import stats

from gaqueens.reports import bootstrap_middles
from gaqueens.reports.resampling import CENSORED, REACHED

ALPHA = 0.01  # the level at which a test is said to reject, after Holm's correction if many
LEVEL = 0.95  # the level of the interval of a median ratio
RESAMPLES = 9_999  # scipy.stats.bootstrap's default
BATCH = 1_000  # resamples drawn at once, as scipy.stats.bootstrap(batch=BATCH) draws them


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """top / bottom, nan where bottom is infinite (at least REACHED): a finite median over an
    infinite one is no measure of either, and infinite over infinite is none."""
    with np.errstate(invalid="ignore"):
        return np.where(bottom >= REACHED, np.nan, top / bottom)


def _finite(values) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    return np.where(np.isinf(values), CENSORED, values)


def _uncensored(value: float) -> float:
    return np.inf if value >= REACHED else float(value)


def median_ratio(first, second, rng: np.random.Generator, level: float = LEVEL,
                 resamples: int = RESAMPLES) -> tuple[float, float, float]:
    """median(first) / median(second), with its percentile-bootstrap interval at ``level``
    (scipy.stats.bootstrap, each sample resampled on its own). Infinite values (unsolved runs)
    are allowed: a ratio whose second median is infinite is nan, and so is an interval that
    reaches such resamples; one whose first alone is infinite is inf. A sample of one value
    gives the ratio and no interval."""
    samples = [_finite(first), _finite(second)]
    orders = [np.argsort(sample, kind="stable") for sample in samples]
    ordered = [sample[order] for sample, order in zip(samples, orders)]
    top, bottom = (_middle(values, (len(values) - 1) // 2, len(values) // 2) for values in ordered)
    ratio = float(_ratio(top, bottom))
    if np.isnan(ratio) or min(map(len, samples)) < 2:
        return _uncensored(ratio), np.nan, np.nan
    # the bootstrap distribution as scipy.stats.bootstrap draws it, its medians read from
    # counted picks (gaqueens.reports.bootstrap_middles); scipy takes its percentiles
    distribution = []
    for start in range(0, resamples, BATCH):
        rows = min(BATCH, resamples - start)
        top, bottom = (_middle(values, *bootstrap_middles.middle(rng, order, rows, len(order)))
                       for values, order in zip(ordered, orders))
        distribution.append(_ratio(top, bottom))
    done = SimpleNamespace(bootstrap_distribution=np.concatenate(distribution))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nan resamples: the interval is nan
        result = stats.bootstrap(samples, _ratio_of_medians, vectorized=True, paired=False,
                                 confidence_level=level, method="percentile", n_resamples=0,
                                 bootstrap_result=done)
    low, high = result.confidence_interval
    return _uncensored(ratio), _uncensored(low), _uncensored(high)


def _middle(ordered: np.ndarray, low, high):
    """The median from the sorted values at the places of the two middle ones."""
    return (ordered[low] + ordered[high]) / 2


def _ratio_of_medians(first, second, axis=-1):  # what the bootstrap distribution holds
    return _ratio(np.median(first, axis=axis), np.median(second, axis=axis))


def mann_whitney(first, second) -> tuple[float, float]:
    """The two-sided Mann-Whitney U test of first against second: (p, share), where share is
    U / (n m), the chance that a run of ``first`` takes more than one of ``second`` (ties
    counted half); infinite values rank as the worst. p is 1 where every value is the same."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    result = stats.mannwhitneyu(first, second, alternative="two-sided")
    share = float(result.statistic) / (len(first) * len(second))
    p = float(result.pvalue)
    return (1.0 if np.isnan(p) else p), share


def mann_whitney_rows(first, second) -> np.ndarray:
    """The two-sided Mann-Whitney p-value of each row of ``first`` against the same row of
    ``second`` (2-D arrays, a simulated pair of samples a row; scipy.stats.mannwhitneyu along
    the last axis, which chooses its method as for one pair); infinite values rank as the worst.
    p is 1 for a row whose values are all the same."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    p = np.asarray(stats.mannwhitneyu(first, second, alternative="two-sided", axis=-1).pvalue,
                   dtype=float)
    return np.where(np.isnan(p), 1.0, p)


def kolmogorov_smirnov(first, second) -> float:
    """The p-value of the two-sided two-sample Kolmogorov-Smirnov test (scipy.stats.ks_2samp).
    With ties (evaluations come in steps of 20) it is conservative."""
    return float(stats.ks_2samp(first, second).pvalue)


def anderson_darling(first, second) -> float:
    """The p-value of the k-sample Anderson-Darling test on two samples (its midrank variant,
    for discrete data). scipy interpolates it from tables, so it is floored at 0.001 and capped
    at 0.25. nan when either sample has fewer than two runs, or the two together fewer than two
    distinct values: the test has too little to rank."""
    values = np.concatenate([np.asarray(first, dtype=float), np.asarray(second, dtype=float)])
    if min(len(first), len(second)) < 2 or len(np.unique(values)) < 2:
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the floor and cap, stated above
        try:
            result = stats.anderson_ksamp([first, second], variant="midrank")
        except TypeError:  # scipy before 1.17: midrank is its default
            result = stats.anderson_ksamp([first, second])
    return float(result.pvalue)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment of ``p_values`` for testing them all at once: sorted
    ascending, the i-th of m becomes max over j <= i of min(1, (m - j + 1) p_j). nan stays nan
    and is not counted in m."""
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    present = np.flatnonzero(~np.isnan(p))
    order = present[np.argsort(p[present], kind="stable")]
    m = len(order)
    factors = m - np.arange(m)
    adjusted[order] = np.maximum.accumulate(np.minimum(1.0, factors * p[order]))
    return adjusted
