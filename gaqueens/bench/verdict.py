"""How many runs of ours the reproduction verdict needs: the coverage of its acceptance band
against the number of our runs.

    python -m gaqueens.bench.verdict [--trials 300] [--sizes 5,10,20,30,50,75,100,200]

The verdict (gaqueens.reports.resampling.verdict) accepts a published median when it lies
within the central 99% of the bootstrapped difference between the medians of two samples of
PUBLISHED_RUNS runs drawn from ours. Were both from the same distribution, it should accept
about 99% of published medians. Here the distribution is that of genoxide 0.13.1's runs of
the published GA (gaqueens/data/genoxide-evaluations.csv, 1,000 seeds per board, counted as 20 +
20 g): per board and size n, each trial draws n of those runs as ours and an independent
median of PUBLISHED_RUNS of them as the published one, and counts whether the band holds it.
A coverage well below 99% means the verdict would call a faithful reproduction "not
reproduced" too often; resampling.MIN_RUNS is set from this table. Prints a line per board;
``--resamples`` lowers the bootstrap's resamples for a quicker, noisier table (default: the
verdict's own, RESAMPLES).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from gaqueens.fidelity import read_reference
from gaqueens.reports import resampling


def coverage(population: np.ndarray, size: int, trials: int, rng: np.random.Generator) -> float:
    """The share of ``trials`` in which the band from ``size`` runs drawn from ``population``
    holds the median of an independent PUBLISHED_RUNS of them."""
    held = 0
    for _ in range(trials):
        ours = rng.choice(population, size, replace=False)
        low, high = resampling.acceptance(ours, rng)
        published = np.median(rng.choice(population, resampling.PUBLISHED_RUNS, replace=False))
        held += bool(low <= published <= high)
    return held / trials


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gaqueens.bench.verdict",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=300, help="trials per board and size")
    parser.add_argument("--sizes", default="5,10,20,30,50,75,100,200",
                        help="numbers of our runs to try, separated by commas")
    parser.add_argument("--resamples", type=int, default=resampling.RESAMPLES,
                        help="the bootstrap's resamples (default: the verdict's own)")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    resampling.RESAMPLES = args.resamples
    rng = np.random.default_rng(1)
    print(f"coverage of the verdict's 99% band, {args.trials} trials per cell, "
          f"{args.resamples} resamples; MIN_RUNS is {resampling.MIN_RUNS}")
    for board, runs in read_reference().items():
        population = np.array([20 + 20 * generations for _, generations in runs.values()],
                              dtype=float)
        cells = [f"{size}: {coverage(population, size, args.trials, rng):.3f}" for size in sizes]
        print(f"board {board}: " + ", ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
