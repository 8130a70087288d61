"""Fixed-target runtimes from the GA's stored traces: for each run and each target level of
conflicts, the evaluations after which the best so far first had at most that many conflicts.

The view is COCO's and IOHanalyzer's fixed-target ECDF: the fraction of (run, target) pairs
reached within a given number of evaluations. The targets are fixed per size and fitness
measure, the same for every entry (``target_levels``): 0 and five levels a decade below the
median measure of random genomes of that size, so that the hard levels weigh as much as the
easy ones, as COCO's log-spaced targets do. A trace's ``fitness`` column names its measure
(attacking pairs without one).

The best so far is the running minimum of a trace's best. The GA evaluates a population at
once, so a target is reached at the evaluation count that ends its generation; targets at or
above the first population's worst count as reached at evaluation 1 (the first individual
reaches them). The IOHanalyzer export (gaqueens.reports.ioh) follows the same rule.

A trace describes each population after survival, while the run's own best is the best it
evaluated: where survivors may drop the best child, the run's best can lie below every
population's, and counts as reached at the run's last generation (exact for a solved run,
the latest possible for an unsolved one).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from gaqueens import problems

COLUMNS = ("algorithm", "board", "seed", "target", "runtime")


def measures(traces: pd.DataFrame) -> np.ndarray:
    """Each trace row's fitness measure: its ``fitness`` column, or pairs without one."""
    if "fitness" in traces.columns:
        return traces["fitness"].to_numpy()
    return np.full(len(traces), "pairs", dtype=object)


RANDOM_GENOMES = 1_000  # the random genomes whose median measure bounds the targets
PER_DECADE = 5


def targets(traces: pd.DataFrame, problem: str = problems.DEFAULT) -> dict[tuple[int, str], np.ndarray]:
    """Per (size, fitness measure) of ``traces``: the fixed target levels (target_levels)."""
    keys = zip(traces["board"].to_numpy(), measures(traces))
    return {(int(board), measure): target_levels(problem, int(board), measure)
            for board, measure in dict.fromkeys(keys)}


@cache
def target_levels(problem: str, size: int, measure: str) -> np.ndarray:
    """The targets of ``measure`` on ``size``, highest first: 0 and the levels 10^(k/5),
    rounded (1, 2, 3, 4, 6, 10, 16, 25, 40, 63, 100...), below the median measure of
    RANDOM_GENOMES uniformly random permutations (drawn from a generator seeded 0; fewer on
    sizes above a thousand, a million numbers in all)."""
    count = max(16, min(RANDOM_GENOMES, 10**6 // max(size, 1)))
    genomes = np.argsort(np.random.default_rng(0).random((count, size)), axis=1)
    typical = float(np.median(problems.get(problem).evaluate(size, genomes, measure)))
    decades = int(np.ceil(np.log10(max(typical, 1.0)))) + 1
    levels = np.unique(np.round(10 ** (np.arange(PER_DECADE * decades) / PER_DECADE)))
    return np.r_[levels[levels < typical][::-1], 0].astype(np.int64)


def best_so_far(best, final=None) -> np.ndarray:
    """A run's best so far at each generation, from its trace's best per generation and the
    run's own best ``final`` (where given), reached at its last generation at the latest."""
    so_far = np.minimum.accumulate(np.asarray(best, dtype=float))
    if final is not None and final < so_far[-1]:
        so_far[-1] = final
    return so_far


def below_first(evaluations, bests, finals) -> tuple[np.ndarray, np.ndarray]:
    """Many runs' runtimes to the levels below their first best, from each run's evaluations
    and best per generation and its own best (``finals``, None where not known): run r's to
    the levels 0 .. first best - 1 are values[offsets[r]:offsets[r + 1]] (inf where not
    reached). A generation whose best so far drops from a to b reaches the levels b .. a - 1."""
    lengths = np.array([len(best) for best in bests])
    ends = np.cumsum(lengths)
    run = np.repeat(np.arange(len(bests)), lengths)
    best = np.concatenate(bests).astype(np.int64)
    firsts = best[ends - lengths]
    offsets = np.r_[0, np.cumsum(firsts)]
    # the best so far of every run at once: runs set apart by more than any value's range
    apart = run * (int(best.max(initial=0)) + 1)
    so_far = np.minimum.accumulate(best - apart) + apart
    last = [np.inf if final is None else final for final in finals]
    so_far[ends - 1] = np.minimum(so_far[ends - 1], last)
    at = np.flatnonzero(so_far[1:] < so_far[:-1]) + 1
    at = at[run[at] == run[at - 1]]  # the drops within a run
    low, high = so_far[at], so_far[at - 1]
    widths = high - low
    places = (np.repeat(offsets[run[at]] + low - np.cumsum(widths) + widths, widths)
              + np.arange(widths.sum()))
    values = np.full(offsets[-1], np.inf)
    values[places] = np.repeat(np.concatenate(evaluations)[at], widths)
    return values, offsets


def run_runtimes(evaluations, best, worst: float, levels: np.ndarray, final=None) -> np.ndarray:
    """The runtime of one run to each of ``levels``, from its trace's evaluations and best per
    generation, its first population's worst and its own best ``final``: 1 at or above that
    worst, else the evaluations of the first generation whose best so far is at most the
    level, else infinite."""
    so_far = best_so_far(best, final)
    first = np.searchsorted(-so_far, -np.asarray(levels, dtype=float), side="left")
    found = np.asarray(evaluations, dtype=float)[np.minimum(first, len(so_far) - 1)]
    return np.where(levels >= worst, 1.0, np.where(first < len(so_far), found, np.inf))


def runtimes(traces: pd.DataFrame, finals=None, problem: str = problems.DEFAULT) -> pd.DataFrame:
    """Every (run, target) pair's runtime, with COLUMNS, in the traces' order of runs (each
    run's rows in order of generation, from 0); ``finals`` maps (algorithm, board, seed) to
    the run's own best (its ``conflicts``); the targets are those of ``problem``."""
    if traces.empty:
        return pd.DataFrame(columns=COLUMNS)
    levels = targets(traces, problem)
    starts = np.flatnonzero(traces["generation"].to_numpy() == 0)
    ends = np.r_[starts[1:], len(traces)]
    evaluations, best = traces["evaluations"].to_numpy(), traces["best"].to_numpy()
    worst, boards = traces["worst"].to_numpy(), traces["board"].to_numpy()
    algorithms, seeds = traces["algorithm"].to_numpy(), traces["seed"].to_numpy()
    measure = measures(traces)
    counts, times, chosen = [], [], []
    for start, end in zip(starts, ends):
        board_levels = levels[int(boards[start]), measure[start]]
        chosen.append(board_levels)
        key = (algorithms[start], int(boards[start]), int(seeds[start]))
        times.append(run_runtimes(evaluations[start:end], best[start:end], worst[start],
                                  board_levels, (finals or {}).get(key)))
        counts.append(len(board_levels))
    return pd.DataFrame({
        "algorithm": np.repeat(algorithms[starts], counts),
        "board": np.repeat(boards[starts], counts),
        "seed": np.repeat(seeds[starts], counts),
        "target": np.concatenate(chosen),
        "runtime": np.concatenate(times),
    }, columns=COLUMNS)
