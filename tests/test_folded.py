"""The traces folded one run at a time (gaqueens/reports/folded.py) give the numbers computed
from all the traces at once: the convergence quartiles, the fixed-target runtimes and the first
populations' attacking pairs."""

import numpy as np
import pandas as pd
import pytest

from gaqueens.reports import folded, runtimes, tables
from gaqueens.runtime.store import Store, read_traces
from gaqueens.sweep import main


def levels(board, measure):
    """The fixed targets of N-Queens (gaqueens/reports/runtimes.py)."""
    return runtimes.target_levels("nqueens", board, measure)

EXPERIMENT = """\
boards: [8, 16]
seeds: {first: 1, last: 25}
variants:
  short: {stop: {target: 0, generations: 12}}
  small: {population: 6}
"""


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A small sweep: the GA, a variant whose runs stop short (most unsolved) and another."""
    folder = tmp_path_factory.mktemp("folded")
    (folder / "x.yaml").write_text(EXPERIMENT)
    assert main([str(folder / "x.yaml"), "--out", str(folder / "out"), "--quiet",
                 "--workers", "1"]) == 0
    return folder / "out"


def matrix_lines(traces):
    """The convergence quartiles as plots.convergence computed them from all the traces: a
    matrix of best conflicts, a row per seed, a stopped run keeping its last best."""
    lines = {}
    for (name, board), rows in traces.groupby(["algorithm", "board"], sort=False):
        seeds, index = np.unique(rows["seed"].to_numpy(), return_inverse=True)
        generations = rows["generation"].to_numpy()
        best = np.full((len(seeds), generations.max() + 1), np.nan)
        best[index, generations] = rows["best"].to_numpy()
        for i, length in enumerate(np.bincount(index, minlength=len(seeds))):
            best[i, length:] = best[i, length - 1]
        evaluations = np.zeros(best.shape[1])
        evaluations[generations] = rows["evaluations"].to_numpy()
        lines[name, board] = (evaluations, *np.quantile(best, [0.25, 0.5, 0.75], axis=0))
    return lines


def test_the_folded_store_gives_the_numbers_of_all_the_traces_at_once(stored):
    traces = read_traces(stored)
    assert traces.groupby(["algorithm", "board", "seed"]).size().nunique() > 1  # lengths differ
    assert (traces.groupby(["algorithm", "seed"])["best"].min() > 0).any()  # some unsolved
    with Store(stored) as store:
        ours = folded.from_store(store)
    assert ours.runs == traces.groupby(["algorithm", "board", "seed"]).ngroups
    expected = matrix_lines(traces)
    lines = ours.convergence()
    assert sorted((line.algorithm, line.board) for line in lines) == sorted(expected)
    for line in lines:
        for got, want in zip((line.evaluations, line.low, line.median, line.high),
                             expected[line.algorithm, line.board]):
            assert np.array_equal(got, want)
    pairs = runtimes.runtimes(traces)
    groups = {key: times for key, _, times in ours.runtimes(levels)}
    assert set(groups) == set(expected)
    for (name, board), times in groups.items():
        want = pairs[(pairs["algorithm"] == name) & (pairs["board"] == board)]
        assert np.array_equal(times, want["runtime"].to_numpy())
    assert tables._initial_pairs(ours.first_rows()) == tables._initial_pairs(traces)


def test_a_group_of_two_fitness_measures_gives_each_run_its_own_targets_in_run_order(stored):
    traces = read_traces(stored)
    traces = traces[traces["board"] == 8].reset_index(drop=True)
    # every other seed of each algorithm counted in excess, its numbers halved: levels of its
    # own, run after run
    excess = traces["seed"] % 2 == 0
    traces["fitness"] = np.where(excess, "excess", "pairs")
    for column in ("best", "median", "worst", "mean"):
        traces.loc[excess, column] = traces.loc[excess, column] // 2
    pairs = runtimes.runtimes(traces)
    assert pairs.groupby("seed")["target"].max().nunique() > 1  # the two measures' levels differ
    for (name, board), measure, times in folded.from_frame(traces).runtimes(levels):
        want = pairs[(pairs["algorithm"] == name) & (pairs["board"] == board)
                     & (pairs["seed"] % 2 == (measure == "pairs"))]
        assert np.array_equal(times, want["runtime"].to_numpy())


def test_folded_lines_come_in_the_given_order_boards_ascending(stored):
    with Store(stored) as store:
        ours = folded.from_store(store, order=["small", "ga"])
    keys = [(line.algorithm, line.board) for line in ours.convergence()]
    assert keys == [("small", 8), ("small", 16), ("ga", 8), ("ga", 16), ("short", 8),
                    ("short", 16)]
    assert [key for key, _, _ in ours.runtimes(levels)] == keys == ours.keys()


def test_only_the_given_runs_are_folded(stored):
    keys = {("ga", 8, seed) for seed in range(1, 6)}
    with Store(stored) as store:
        ours = folded.from_store(store, keys)
    assert ours.runs == 5
    assert [(line.algorithm, line.board) for line in ours.convergence()] == [("ga", 8)]


def test_algorithms_folded_apart_and_merged_give_the_whole_store_folded(stored):
    """The exports fold each algorithm in a worker process (from_folder) and merge the parts."""
    order = ["small", "ga", "short"]
    with Store(stored) as store:
        whole = folded.from_store(store, order=order)
    parts = folded.merged([folded.from_folder(stored, None, order, None, name)
                           for name in order], order)  # not the store's (alphabetical) order
    assert parts.keys() == whole.keys() and parts.runs == whole.runs
    for ours, theirs in zip(parts.convergence(), whole.convergence()):
        for field in ("evaluations", "low", "median", "high"):
            assert np.array_equal(getattr(ours, field), getattr(theirs, field))
    for (key, measure, ours), (_, _, theirs) in zip(parts.runtimes(levels),
                                                     whole.runtimes(levels)):
        assert np.array_equal(ours, theirs), (key, measure)
    by_key = ["algorithm", "board", "seed"]
    pd.testing.assert_frame_equal(
        parts.first_rows().sort_values(by_key, ignore_index=True),
        whole.first_rows().sort_values(by_key, ignore_index=True))
    with pytest.raises(ValueError, match="share"):
        folded.merged([parts, folded.from_folder(stored, None, order, None, "ga")])


def trace(best):
    """A run whose generation g ends at 10 + 10 g evaluations with the given best."""
    g = np.arange(len(best))
    return np.column_stack([g, 10 + 10 * g, best, np.add(best, 1), np.add(best, 2), best])


def test_quartiles_by_hand():
    """Best per generation 3 1 0, 2 2 and 4 0: stopped runs keep their last best, so the
    generations hold {3, 2, 4}, {1, 2, 0} and {0, 2, 0}."""
    ours = folded.Folded()
    for seed, best in enumerate([[3, 1, 0], [2, 2], [4, 0]], start=1):
        ours.add("ga", 8, seed, trace(best))
    line, = ours.convergence()
    assert line.median.tolist() == [3, 1, 0]
    assert line.low.tolist() == [2.5, 0.5, 0] and line.high.tolist() == [3.5, 1.5, 1]
    assert line.evaluations.tolist() == [10, 20, 30]


def test_the_fold_holds_a_table_of_conflicts_not_of_seeds():
    """A thousand runs of the same trace leave the per-generation counts the size that one
    leaves: the fold's memory grows with the generations and conflicts, not the runs."""
    one, many = folded.Folded(), folded.Folded()
    one.add("ga", 8, 1, trace([5, 3, 3, 1, 0]))
    for seed in range(1, 1001):
        many.add("ga", 8, seed, trace([5, 3, 3, 1, 0]))
        assert len(many._group.pending) < folded.CHUNK  # the others are folded
    one._group.fold()
    many._group.fold()
    assert many._group.counts.shape == one._group.counts.shape
    assert many._group.counts.sum() == 1000 * one._group.counts.sum()


def test_traces_that_come_apart_are_refused():
    ours = folded.Folded()
    ours.add("ga", 8, 1, trace([1, 0]))
    ours.add("ga", 16, 1, trace([1, 0]))
    with pytest.raises(ValueError, match="grouped by algorithm and board"):
        ours.add("ga", 8, 2, trace([1, 0]))


def test_a_frame_of_traces_folds_as_the_store_does(stored):
    traces = read_traces(stored)
    with Store(stored) as store:
        ours = folded.from_store(store, order=list(traces["algorithm"].unique()))
    again = folded.from_frame(traces)
    for line, other in zip(ours.convergence(), again.convergence()):
        assert np.array_equal(line.median, other.median)
    pd.testing.assert_frame_equal(ours.first_rows(), again.first_rows())


def test_a_group_folded_in_chunks_gives_the_numbers_of_one_fold(monkeypatch):
    rng = np.random.default_rng(3)
    runs = [np.minimum.accumulate(rng.integers(0, 9, rng.integers(1, 30))) for _ in range(40)]
    finals = [int(max(0, r[-1] - rng.integers(0, 2))) for r in runs]

    def fold():
        ours = folded.Folded()
        for seed, (best, final) in enumerate(zip(runs, finals), start=1):
            ours.add("ga", 8, seed, trace(best.tolist()), final=final)
        (_, _, times), = ours.runtimes(levels)
        return ours.convergence()[0], times

    whole_line, whole_times = fold()
    monkeypatch.setattr(folded, "CHUNK", 7)
    line, times = fold()
    for name in ("evaluations", "low", "median", "high"):
        assert np.array_equal(getattr(line, name), getattr(whole_line, name))
    assert np.array_equal(whole_times, times)
