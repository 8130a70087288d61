"""The agreement check's statistics (gaqueens.bench.agreement): each row's Mann-Whitney test,
the smallest shift it detects by simulation, and its verdict."""

from __future__ import annotations

import math

import numpy as np

ALPHA = 0.01  # a row differs where Holm's correction over the table leaves p below this
WITHIN = 0.15  # a row agrees only if it detects shifts of this size or smaller
POWER = 0.8  # the power at which the smallest detectable shift is given
SIMULATIONS = 500  # simulated pairs of samples per shift tried
SHIFTS = np.round(np.arange(1, 100) / 100, 2)  # relative shifts tried: 1% to 99%, by 1%


def work(runs: np.ndarray) -> np.ndarray:
    """The evaluations of each run (rows of solved, evaluations, generations), infinite where
    it did not solve its board."""
    return np.where(runs[:, 0] > 0, runs[:, 1], np.inf)


def power(numpy_runs: np.ndarray, deap_runs: np.ndarray, factor: float, tests: int,
          rng: np.random.Generator, limit: int, simulations: int = SIMULATIONS) -> float:
    """The share of simulated pairs of samples that the Mann-Whitney test tells apart at
    ALPHA / tests (Holm's strictest step) when engine: deap's runs take ``factor`` times the
    work: both samples are drawn with replacement from the two engines' runs together, as
    many as each engine ran; the second's evaluations are multiplied by ``factor`` and rounded
    at random up or down to the steps the runs' evaluations come in (multiples of their
    greatest common divisor, so that shifted runs tie with the others as real runs would; the
    rounding keeps the mean), and a run whose generations times ``factor`` exceed ``limit``
    becomes unsolved. A run unsolved stays unsolved when ``factor`` is below 1, which
    understates the power there."""
    return float(np.mean(_p_values(numpy_runs, deap_runs, factor, rng, limit, simulations)
                         < ALPHA / tests))


def _p_values(numpy_runs, deap_runs, factor, rng, limit, simulations):
    from gaqueens.reports import stats

    pooled = np.concatenate([numpy_runs, deap_runs])
    solved, evaluations, generations = pooled[:, 0] > 0, pooled[:, 1], pooled[:, 2]
    step = max(1, int(np.gcd.reduce(evaluations[solved].astype(np.int64)))) if solved.any() else 1
    first = work(pooled)[rng.integers(0, len(pooled), (simulations, len(numpy_runs)))]
    picks = rng.integers(0, len(pooled), (simulations, len(deap_runs)))
    scaled = evaluations[picks] * factor / step
    down = np.floor(scaled)
    shifted = step * (down + (rng.random(scaled.shape) < scaled - down))
    within = solved[picks] & (generations[picks] * factor <= limit)
    return stats.mann_whitney_rows(np.where(within, shifted, np.inf), first)


def detectable_shift(numpy_runs: np.ndarray, deap_runs: np.ndarray, tests: int, seed: int,
                     limit: int) -> float:
    """The smallest relative shift s in SHIFTS such that runs taking 1 + s times the work, and
    1 - s times, are each told apart in at least POWER of the simulations (``power``); nan when
    none up to 99% is. Found by bisection in each direction, every shift simulated from the same
    draws (the generator seeded with ``seed`` each time), so that the power grows with it."""
    def enough(sign: int, index: int) -> bool:
        factor = 1 + sign * SHIFTS[index]
        rng = np.random.default_rng(seed)
        return power(numpy_runs, deap_runs, factor, tests, rng, limit) >= POWER

    def smallest(sign: int, low: int) -> int:  # the power is not enough at low, is at the end
        high = len(SHIFTS)
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if enough(sign, middle) else (middle, high)
        return high

    up = smallest(+1, -1)
    if up == len(SHIFTS):
        return math.nan
    down = up if enough(-1, up) else smallest(-1, up)
    return math.nan if down == len(SHIFTS) else float(SHIFTS[down])


def compare(numpy_runs: np.ndarray, deap_runs: np.ndarray, tests: int, seed: int,
             limit: int) -> dict:
    """A row's numbers: medians, their ratio with its 95% interval, the Mann-Whitney test and
    the smallest shift it detects (runs stopped after ``limit`` generations)."""
    from gaqueens.reports import stats

    numpy_work, deap_work = work(numpy_runs), work(deap_runs)
    ratio, low, high = stats.median_ratio(deap_work, numpy_work, np.random.default_rng(seed))
    p, share = stats.mann_whitney(deap_work, numpy_work)
    return {"numpy_solved": int(np.isfinite(numpy_work).sum()),
            "deap_solved": int(np.isfinite(deap_work).sum()),
            "numpy_median": float(np.median(numpy_work)), "deap_median": float(np.median(deap_work)),
            "median_ratio": ratio, "ci_low": low, "ci_high": high, "mw_share": share, "mw_p": p,
            "detects": detectable_shift(numpy_runs, deap_runs, tests, seed, limit)}


def verdict(p_holm: float, detects: float) -> str:
    """differ, agree or inconclusive (the docstring)."""
    if p_holm < ALPHA:
        return "differ"
    return "agree" if detects <= WITHIN else "inconclusive"
