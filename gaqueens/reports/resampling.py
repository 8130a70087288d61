"""Resampled medians for the summary of every sweep: the 95% interval of a median, the verdict
against a published median, and the power of that verdict.

The percentile bootstrap is scipy.stats.bootstrap's (method "percentile"), written out in numpy
because a sweep of one algorithm (the main job) needs scipy.stats for nothing else, and
importing it slows the main job noticeably; tests/test_stats.py holds both to the same
intervals. An unsolved run enters as CENSORED, a stand-in for infinite work that keeps the
arithmetic finite; values at least REACHED are read back as infinite.
"""

from __future__ import annotations

import numpy as np

from gaqueens.reports import bootstrap_middles

PUBLISHED_RUNS = 100  # the published medians are over seeds 1 to 100
MIN_RUNS = PUBLISHED_RUNS  # fewer runs of ours get no verdict (see verdict)
RESAMPLES = 10_000
CENSORED = 1e300  # stands for the infinite work of an unsolved run inside quantiles
REACHED = 1e200  # a quantile at least this large interpolates toward an unsolved run
POWER = 0.8  # the power at which the smallest detectable shift is given
SHIFTS = np.round(np.arange(1, 301) / 100, 2)  # relative shifts tried: 1% to 300%, by 1%


def uncensor(values):
    values = np.asarray(values, dtype=float)
    return np.where(values >= REACHED, np.inf, values)


def medians(work: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
    """The medians of RESAMPLES samples of ``size`` drawn from ``work`` with replacement: the
    numbers of ``np.median(rng.choice(work, (RESAMPLES, size)), axis=1)``, read from counted
    picks (gaqueens.reports.bootstrap_middles)."""
    work = np.asarray(work, dtype=float)
    order = np.argsort(work, kind="stable")
    low, high = bootstrap_middles.middle(rng, order, RESAMPLES, size)
    ordered = work[order]
    return (ordered[low] + ordered[high]) / 2


def median_interval(work: np.ndarray, rng: np.random.Generator, level: float = 0.95):
    """The percentile-bootstrap interval of the median of ``work``."""
    tail = (1 - level) / 2
    return tuple(uncensor(np.quantile(medians(work, rng, len(work)), [tail, 1 - tail])))


def acceptance(work: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """The published medians the verdict accepts, as the project defines it: bootstrap from our
    runs the difference between the medians of two independent samples of the published size;
    a published median p is reproduced when p - ours lies within its central 99%. Returns
    (lowest, highest) accepted p; (nan, nan) when our median is infinite, or when so many runs
    are unsolved that a resampled median reaches them (an end of that 99% is then infinite,
    and the verdict could accept any median at all: it gives none)."""
    ours = float(np.median(work))
    if ours >= REACHED:
        return (np.nan, np.nan)
    difference = medians(work, rng, PUBLISHED_RUNS) - medians(work, rng, PUBLISHED_RUNS)
    low, high = np.quantile(difference, [0.005, 0.995])
    if max(abs(low), abs(high)) >= REACHED:
        return (np.nan, np.nan)
    return (ours + low, ours + high)


def verdict(work: np.ndarray, published: float, rng: np.random.Generator) -> tuple[str, float]:
    """The verdict on a published median from the work of our runs (CENSORED for unsolved
    ones), and the smallest shift it detects (nan where it claims none):

    "too few runs (n)"   fewer than MIN_RUNS runs: the verdict resamples medians of
                         PUBLISHED_RUNS runs from ours, which needs at least as many runs to
                         stand for their spread, so no verdict and no detectable shift is given
    "not comparable (too many runs unsolved)"   a resampled median reaches unsolved runs
    "reproduced"         the published median lies within ``acceptance``
    "not reproduced"     it lies outside, or our median is infinite

    MIN_RUNS: below the published sample's own size, acceptance's band is too narrow and the
    verdict would reject too often (``python -m gaqueens.bench.verdict`` measures how often)."""
    work = np.asarray(work, dtype=float)
    if len(work) < MIN_RUNS:
        return f"too few runs ({len(work)})", np.nan
    accepted = acceptance(work, rng)
    if np.isnan(accepted[0]) and np.median(work) < REACHED:
        return "not comparable (too many runs unsolved)", np.nan
    if not accepted[0] <= published <= accepted[1]:
        return "not reproduced", detectable_shift(work, accepted, rng)
    return "reproduced", detectable_shift(work, accepted, rng)


def detectable_shift(work: np.ndarray, accepted: tuple[float, float],
                     rng: np.random.Generator) -> float:
    """The smallest relative shift s (to the nearest percent, SHIFTS) such that published runs
    whose work is ours times 1 + s, and ours times 1 - s, are each told apart by the verdict in
    at least POWER of the cases: the published median is simulated as the median of
    PUBLISHED_RUNS runs drawn from ``work`` and scaled, and is rejected when it falls outside
    ``accepted``. nan when no shift up to 300% (or 99% downward) reaches that power."""
    low, high = accepted
    if np.isnan(low):
        return np.nan
    simulated = np.sort(medians(work, rng, PUBLISHED_RUNS))

    def power(factors):
        below = np.searchsorted(simulated, low / factors, side="left")
        above = len(simulated) - np.searchsorted(simulated, high / factors, side="right")
        return (below + above) / len(simulated)

    up = power(1 + SHIFTS) >= POWER
    down = np.r_[power(1 - SHIFTS[SHIFTS < 1]) >= POWER, np.zeros((SHIFTS >= 1).sum(), bool)]
    both = np.flatnonzero(up & down)
    return float(SHIFTS[both[0]]) if len(both) else np.nan


def ert(work, solved) -> float:
    """The expected running time: the work of all runs, solved or not, over the solved runs
    (Hansen et al., COCO; IOHanalyzer's ERT); infinite when none solved."""
    solved = np.asarray(solved, dtype=bool)
    count = int(solved.sum())
    return float(np.sum(work)) / count if count else np.inf


BAND_RESAMPLES = 1_000  # resamples of an ECDF's band
BAND_CHUNK = 100  # resamples counted at once


def ecdf_band(times, runs_of, level: float = 0.95, resamples: int = BAND_RESAMPLES):
    """The ECDF of ``times`` (a value per pair of a run and a target, inf where never
    reached; ``runs_of``, each pair's run, 0 to n - 1) with its pointwise percentile-bootstrap
    interval at ``level``: at each distinct finite time, the fraction of pairs reached by then.
    The runs are resampled with replacement, each with all its pairs (the pairs of one run are
    not independent), from a generator seeded 0, as scipy.stats.bootstrap picks them; a
    resample's fraction is read from each run's count of picks (tests/test_resampling.py holds
    it to scipy.stats.bootstrap). Returns (time, fraction, low, high); with no resamples, low
    and high are None."""
    times, runs_of = np.asarray(times, dtype=float), np.asarray(runs_of, dtype=np.int64)
    order = np.argsort(times, kind="stable")
    order = order[np.isfinite(times[order])]
    at = times[order]
    last = np.r_[at[1:] != at[:-1], True] if len(at) else np.zeros(0, dtype=bool)
    fraction = (np.arange(1, len(at) + 1) / len(times))[last]
    n = int(runs_of.max(initial=-1)) + 1
    if not resamples or not n:
        return at[last], fraction, None, None
    pairs = np.bincount(runs_of, minlength=n)  # each run's pairs
    owners = runs_of[order]
    rng = np.random.default_rng(0)
    resampled = []
    for start in range(0, resamples, BAND_CHUNK):
        rows = min(BAND_CHUNK, resamples - start)
        picks = rng.integers(0, n, (rows, n))
        counts = np.bincount((picks + n * np.arange(rows)[:, None]).ravel(),
                             minlength=rows * n).reshape(rows, n)
        reached = np.cumsum(counts[:, owners], axis=1)[:, last]
        resampled.append(reached / (counts @ pairs)[:, None])
    tail = (1 - level) / 2
    low, high = np.quantile(np.vstack(resampled), [tail, 1 - tail], axis=0)
    return at[last], fraction, low, high
