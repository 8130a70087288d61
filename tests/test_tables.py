"""Summaries, bootstrap intervals and the reproduction verdict on hand-built runs."""

import math

import numpy as np
import pandas as pd
import pytest

from gaqueens.reports import tables


def runs_frame(work, solved=None, algorithm="ga", board=8, unit="evaluations"):
    solved = [True] * len(work) if solved is None else solved
    return pd.DataFrame({
        "algorithm": algorithm, "board": board, "seed": range(1, len(work) + 1),
        "solved": solved, "conflicts": [0 if s else 1 for s in solved], "generations": 0,
        "evaluations": work, "unit": unit, "seconds": 0.001, "solution": "",
    })


def skewed_sample(median, size=100, seed=0):
    """Evaluations shaped like a GA's: a skewed distribution in steps of 20."""
    rng = np.random.default_rng(seed)
    return (np.round(rng.lognormal(np.log(median), 0.5, size) / 20) * 20).astype(int)


def test_a_published_median_from_the_same_distribution_is_reproduced():
    work = skewed_sample(2450).astype(float)
    assert tables.reproduced(work, float(np.median(work)), np.random.default_rng(1))
    assert tables.reproduced(work, float(np.median(skewed_sample(2450, seed=5))), np.random.default_rng(1))


def test_a_published_median_far_from_ours_is_not_reproduced():
    work = skewed_sample(2450).astype(float)
    assert not tables.reproduced(work, 2 * float(np.median(work)), np.random.default_rng(1))
    assert not tables.reproduced(work, 0.5 * float(np.median(work)), np.random.default_rng(1))


def test_the_verdict_tolerates_about_the_noise_of_two_medians():
    work = skewed_sample(1000, size=400).astype(float)
    ours = float(np.median(work))
    verdicts = [tables.reproduced(work, ours * f, np.random.default_rng(1)) for f in (0.9, 1.1, 1.6)]
    assert verdicts == [True, True, False]


def test_mostly_unsolved_runs_have_no_median_and_are_not_reproduced():
    summary = tables.summarize(runs_frame([100, 200, 300, 400], [True, False, False, False]),
                               reference={8: 100})
    row = summary.iloc[0]
    assert row["median"] == math.inf and row["verdict"] == "not reproduced"
    assert row["solved"] == 1 and row["runs"] == 4 and row["max"] == 100
    assert tables.number(row["median"]) == "-"


def test_summary_counts_quartiles_and_interval():
    work = list(range(20, 2020, 20))  # 100 runs: 20, 40, ..., 2000
    row = tables.summarize(runs_frame(work), reference={8: 1010}).iloc[0]
    assert (row["runs"], row["solved"], row["median"], row["max"]) == (100, 100, 1010, 2000)
    assert row["q1"] == pytest.approx(515) and row["q3"] == pytest.approx(1505)
    assert row["ci_low"] < row["median"] < row["ci_high"]
    assert row["verdict"] == "reproduced"


def test_reference_applies_to_the_published_ga_only():
    runs = pd.concat([runs_frame([100] * 5), runs_frame([100] * 5, algorithm="uniform-parents")])
    summary = tables.summarize(runs, reference={8: 100}).set_index("algorithm")
    assert summary.loc["ga", "verdict"] == "reproduced"
    assert summary.loc["uniform-parents", "verdict"] == ""


@pytest.mark.parametrize("n, text", [(8, "40,320"), (16, "2.1e13"), (32, "2.6e35"),
                                     (64, "1.3e89"), (128, "3.9e215")])
def test_placements_read_like_the_published_table(n, text):
    assert tables.placements_text(n) == text


def test_growth_exponent_of_a_square_law():
    runs = pd.concat([runs_frame([n * n] * 3, board=n) for n in (8, 16, 32, 64)])
    runs["seconds"] = runs["board"] ** 1.5 * 1e-6
    fit = tables.growth(tables.summarize(runs)).iloc[0]
    assert fit["work_exponent"] == pytest.approx(2) and fit["seconds_exponent"] == pytest.approx(1.5)


def test_an_interval_reaching_unsolved_runs_is_open_ended():
    work = list(range(20, 1220, 20))  # 60 solved runs, and 40 unsolved
    row = tables.summarize(runs_frame(work + [0] * 40, [True] * 60 + [False] * 40)).iloc[0]
    assert math.isfinite(row["median"]) and row["ci_high"] == math.inf and row["q3"] == math.inf
    assert tables.number(row["ci_high"]) == "-"


def test_ks_statistic_by_hand():
    from kstest import ks_critical, ks_statistic

    # after 1 and 2 the first sample's distribution is at 2/4, the second's at 0: a gap of 1/2
    assert ks_statistic([1, 2, 3, 4], [3, 4, 5, 6]) == 0.5
    assert ks_statistic([5, 5, 5], [5, 5]) == 0.0
    assert ks_critical(100, 100) > ks_critical(1000, 1000) > 0
