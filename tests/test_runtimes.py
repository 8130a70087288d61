"""Fixed-target runtimes from traces, and their ECDF plot (rules: gaqueens/reports/runtimes.py)."""

import numpy as np
import pandas as pd
import pytest

from gaqueens import problems
from gaqueens.reports import ecdfs, runtimes


def trace(best, worst0, median0, seed=1, board=8, algorithm="ga"):
    """A run's trace: generation g ends at 20 + 20 g evaluations with the given best."""
    generations = np.arange(len(best))
    return pd.DataFrame({
        "algorithm": algorithm, "board": board, "seed": seed, "generation": generations,
        "evaluations": 20 + 20 * generations, "best": best,
        "median": [median0] + [b + 1 for b in best[1:]], "worst": [worst0] * len(best),
        "mean": 0.0,
    })


def test_runtimes_by_hand():
    """Best per generation 5, 6, 3, 3, 1, 0 (the best so far never rises: 5, 5, 3, 3, 1, 0);
    the first population's worst is 9, so levels 9 and above are reached at evaluation 1."""
    times = runtimes.run_runtimes(
        [20, 40, 60, 80, 100, 120], [5, 6, 3, 3, 1, 0], 9, np.array([10, 9, 8, 5, 4, 3, 2, 1, 0]))
    assert times.tolist() == [1, 1, 20, 20, 60, 60, 100, 100, 120]


def test_an_unsolved_run_never_reaches_the_lower_targets():
    times = runtimes.run_runtimes([20, 40], [4, 2], 7, np.array([3, 2, 1, 0]))
    assert times.tolist() == [40, 40, np.inf, np.inf]


def test_a_runs_own_best_below_its_last_population_counts_at_its_last_generation():
    """Survivors dropped the solution a child found: the populations' best ends at 2, the run
    (its hall of fame) at 0, found in the last generation."""
    levels = np.array([3, 2, 1, 0])
    assert runtimes.run_runtimes([20, 40, 60], [3, 1, 2], 7, levels, final=0).tolist() == [
        20, 40, 40, 60]
    assert runtimes.run_runtimes([20, 40, 60], [3, 1, 2], 7, levels, final=1).tolist() == [
        20, 40, 40, np.inf]


def test_the_targets_are_0_and_five_levels_a_decade_below_a_random_placements_median():
    """Board 8: a random placement has 5 attacking pairs at the median (the mean is 5.0 exactly,
    gaqueens.problems.nqueens); the levels 1, 2, 3, 4 lie below it, 6 above."""
    problem = problems.get("nqueens")
    rng = np.random.default_rng(12345)  # another sample than the targets' own
    for board in (8, 32, 128):
        genomes = np.argsort(rng.random((4000, board)), axis=1)
        median = np.median(problem.evaluate(board, genomes, "pairs"))
        below = [level for level in (63, 40, 25, 16, 10, 6, 4, 3, 2, 1) if level < median]
        assert runtimes.target_levels("nqueens", board, "pairs").tolist() == below + [0]
    assert runtimes.target_levels("nqueens", 8, "pairs").tolist() == [4, 3, 2, 1, 0]


def test_the_targets_do_not_depend_on_the_entries_or_their_runs():
    """Issue 48: the levels once began at the first populations' median, so they differed
    with the entries and most pairs were reached in the first generation."""
    one = trace([4, 2, 0], 9, 6.5, seed=1)
    other = pd.concat([one, trace([2, 0], 6, 1.0, algorithm="variant"),
                       trace([30, 0], 40, 20.0, board=32)])
    levels = runtimes.targets(other)
    assert levels[8, "pairs"].tolist() == runtimes.targets(one)[8, "pairs"].tolist() \
        == runtimes.target_levels("nqueens", 8, "pairs").tolist()
    assert levels[32, "pairs"].tolist() == runtimes.target_levels("nqueens", 32, "pairs").tolist()
    pairs = runtimes.runtimes(other)
    assert (pairs.groupby(["algorithm", "board"]).size() == [5, 8, 5]).all()
    first = pairs[(pairs["seed"] == 1) & (pairs["algorithm"] == "ga") & (pairs["board"] == 8)]
    # best 4, 2, 0 and first worst 9: 4 is reached with the first population, 3 and 2 next
    assert first["runtime"].tolist() == [20, 40, 40, 60, 60]


def test_no_traces_no_pairs():
    assert runtimes.runtimes(trace([1], 2, 1.0).iloc[0:0]).empty


@pytest.mark.parametrize("algorithms", [["ga"], ["ga", "variant"]])
def test_the_fixed_target_plot_is_drawn(tmp_path, algorithms):
    traces = pd.concat([trace([5, 3, 1, 0], 9, 5.0, seed=s, algorithm=a, board=b)
                        for a in algorithms for b in (8, 16) for s in (1, 2, 3)])
    path = tmp_path / "fixed-target.png"
    ecdfs.fixed_target(traces, path, "test")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_each_fitness_measure_has_its_own_targets():
    """The excess measure counts less than attacking pairs for the same placements: runs of
    each measure are held to their own levels (gaqueens/reports/runtimes.py)."""
    def trace(algorithm, seed, fitness, medians):
        return pd.DataFrame({"algorithm": algorithm, "board": 20, "seed": seed, "fitness": fitness,
                             "generation": range(len(medians)), "evaluations": [20, 40, 60][:len(medians)],
                             "best": [m - 2 for m in medians], "median": medians,
                             "worst": [m + 3 for m in medians], "mean": medians})

    traces = pd.concat([trace("pairs-ga", 1, "pairs", [6, 4, 2]), trace("excess-ga", 1, "excess", [3, 2, 2])])
    levels = runtimes.targets(traces)
    assert levels[20, "pairs"].tolist() == [10, 6, 4, 3, 2, 1, 0]
    assert levels[20, "excess"].tolist() == [6, 4, 3, 2, 1, 0]
    assert set(runtimes.runtimes(traces).groupby("algorithm")["target"].max()) == {10, 6}
