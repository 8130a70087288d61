"""The two-sample Kolmogorov-Smirnov test, for the tests that compare distributions of
evaluations (numpy only: SciPy is not a dependency)."""

import numpy as np

ALPHA = 0.001


def ks_statistic(first, second) -> float:
    """The largest gap between the empirical distribution functions of the two samples, over
    every value either takes."""
    first, second = np.sort(first), np.sort(second)
    values = np.concatenate((first, second))
    cdf_first = np.searchsorted(first, values, side="right") / len(first)
    cdf_second = np.searchsorted(second, values, side="right") / len(second)
    return float(np.abs(cdf_first - cdf_second).max())


def ks_critical(n: int, m: int, alpha: float = ALPHA) -> float:
    """The asymptotic critical value, sqrt(-ln(alpha / 2) / 2) sqrt((n + m) / (n m)); with
    ties (evaluations come in steps of 20) the test is conservative."""
    return float(np.sqrt(-np.log(alpha / 2) / 2) * np.sqrt((n + m) / (n * m)))
