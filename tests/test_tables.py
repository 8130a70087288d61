"""Summaries, bootstrap intervals, the reproduction verdict and its power, the expected running
time, on hand-built runs (rules: gaqueens/reports/tables.py and
gaqueens/reports/resampling.py)."""

import math

import numpy as np
import pandas as pd
import pytest

from gaqueens.problems import placements_text
from gaqueens.reports import resampling, tables


def runs_frame(work, solved=None, algorithm="ga", board=8, unit="evaluations"):
    solved = [True] * len(work) if solved is None else solved
    return pd.DataFrame({
        "algorithm": algorithm, "board": board, "seed": range(1, len(work) + 1),
        "solved": solved, "conflicts": [0 if s else 1 for s in solved], "generations": 0,
        "work": work, "unit": unit, "seconds": 0.001, "solution": "",
    })


def skewed_sample(median, size=100, seed=0):
    """Evaluations shaped like a GA's: a skewed distribution in steps of 20."""
    rng = np.random.default_rng(seed)
    return (np.round(rng.lognormal(np.log(median), 0.5, size) / 20) * 20).astype(int)


def verdict(work, published):
    """The verdict the summary gives, and the shift it detects."""
    return resampling.verdict(np.asarray(work, dtype=float), published, np.random.default_rng(1))


def test_a_published_median_from_the_same_distribution_is_reproduced():
    work = skewed_sample(2450)
    assert verdict(work, float(np.median(work)))[0] == "reproduced"
    assert verdict(work, float(np.median(skewed_sample(2450, seed=5))))[0] == "reproduced"


def test_a_published_median_far_from_ours_is_not_reproduced():
    work = skewed_sample(2450)
    assert verdict(work, 2 * float(np.median(work)))[0] == "not reproduced"
    assert verdict(work, 0.5 * float(np.median(work)))[0] == "not reproduced"


def test_the_verdict_tolerates_about_the_noise_of_two_medians():
    work = skewed_sample(1000, size=400)
    ours = float(np.median(work))
    verdicts = [verdict(work, ours * f)[0] for f in (0.9, 1.1, 1.6)]
    assert verdicts == ["reproduced", "reproduced", "not reproduced"]


@pytest.mark.parametrize("runs", [1, 5, resampling.MIN_RUNS - 1])
def test_too_few_runs_get_no_verdict_and_claim_no_detectable_shift(runs):
    work = skewed_sample(100, size=runs)
    assert resampling.MIN_RUNS == resampling.PUBLISHED_RUNS
    said, detects = verdict(work, 100)
    assert said == f"too few runs ({runs})" and math.isnan(detects)
    row = tables.summarize(runs_frame(work), reference={8: 100}).iloc[0]
    assert row["verdict"] == f"too few runs ({runs})" and math.isnan(row["detects"])
    assert tables.verdict_text(row) == f"too few runs ({runs})"


def test_the_note_under_the_table_gives_the_run_counts_of_the_verdicts():
    from gaqueens.reports import outputs

    runs = pd.concat([runs_frame(skewed_sample(100, size=5)),
                      runs_frame(skewed_sample(700, size=100), board=16)])
    note = outputs.verdict_note(tables.summarize(runs, reference={8: 100, 16: 729}))
    assert "ours from 5 on board 8, 100 on board 16" in note
    assert "fewer than 100 runs" in note and "too few runs" in note


def test_mostly_unsolved_runs_have_no_median_and_are_not_reproduced():
    work = [100] + [200] * 99
    solved = [True] + [False] * 99
    summary = tables.summarize(runs_frame(work, solved), reference={8: 100})
    row = summary.iloc[0]
    assert row["median"] == math.inf and row["verdict"] == "not reproduced"
    assert row["solved"] == 1 and row["runs"] == 100
    assert tables.number(row["median"]) == "-"


def test_the_max_of_runs_some_unsolved_is_infinite_as_the_quartiles_say():
    row = tables.summarize(runs_frame([100, 200, 300, 400], [True, True, True, False])).iloc[0]
    assert row["max"] == math.inf and row["q3"] == math.inf
    assert tables.number(row["max"]) == "-"
    solved = tables.summarize(runs_frame([100, 200, 300, 400])).iloc[0]
    assert solved["max"] == 400


def test_summary_counts_quartiles_and_interval():
    work = list(range(20, 2020, 20))  # 100 runs: 20, 40, ..., 2000
    row = tables.summarize(runs_frame(work), reference={8: 1010}).iloc[0]
    assert (row["runs"], row["solved"], row["median"], row["max"]) == (100, 100, 1010, 2000)
    assert row["q1"] == pytest.approx(515) and row["q3"] == pytest.approx(1505)
    assert row["ci_low"] < row["median"] < row["ci_high"]
    assert row["verdict"] == "reproduced"


def test_reference_applies_to_the_published_ga_only():
    runs = pd.concat([runs_frame([100] * 100), runs_frame([100] * 100, algorithm="uniform-parents")])
    summary = tables.summarize(runs, reference={8: 100}).set_index("algorithm")
    assert summary.loc["ga", "verdict"] == "reproduced"
    assert summary.loc["uniform-parents", "verdict"] == ""


@pytest.mark.parametrize("n, text", [(8, "40,320"), (16, "2.1e13"), (32, "2.6e35"),
                                     (64, "1.3e89"), (128, "3.9e215")])
def test_placements_read_like_the_published_table(n, text):
    assert placements_text(n) == text


def test_an_interval_reaching_unsolved_runs_is_open_ended():
    work = list(range(20, 1220, 20))  # 60 solved runs, and 40 unsolved
    row = tables.summarize(runs_frame(work + [0] * 40, [True] * 60 + [False] * 40)).iloc[0]
    assert math.isfinite(row["median"]) and row["ci_high"] == math.inf and row["q3"] == math.inf
    assert tables.number(row["ci_high"]) == "-"


def test_summary_of_a_compact_runs_file_equals_the_full_one():
    """results/scaling keeps runs-compact.csv, runs.csv without the placements: the summary
    comes out the same from it."""
    runs = pd.concat([runs_frame([n] * 3, board=n).assign(seconds=n / 1000)
                      for n in (1000, 2000, 4000)])
    compact = tables.summarize(runs.drop(columns="solution"))
    pd.testing.assert_frame_equal(compact, tables.summarize(runs))


def test_success_rate_and_ert_appear_when_a_run_is_unsolved():
    summary = tables.summarize(runs_frame([100, 200, 300, 400], [True, True, True, False]))
    row = summary.iloc[0]
    assert row["success_rate"] == 0.75 and row["ert"] == pytest.approx(1000 / 3)
    assert list(summary.columns[5:7]) == ["success_rate", "ert"]
    assert "ERT" in tables.results_table(summary) and "333 evaluations" in tables.results_table(summary)
    solved = tables.summarize(runs_frame([100, 200]))
    assert "ert" not in solved.columns and "ERT" not in tables.results_table(solved)


def test_ert_of_runs_none_of_which_solved_is_infinite():
    row = tables.summarize(runs_frame([50, 60], [False, False])).iloc[0]
    assert row["ert"] == math.inf and row["success_rate"] == 0
    assert tables.ert_text(row) == "-"


def test_the_verdict_states_the_shift_it_detects():
    row = tables.summarize(runs_frame(list(skewed_sample(2450))), reference={8: 2450}).iloc[0]
    assert 0 < row["detects"] < 1
    assert tables.verdict_text(row) == f"reproduced (detects shifts of {row['detects']:.0%} or more)"
    assert "detects shifts of" in tables.results_table(tables.summarize(
        runs_frame(list(skewed_sample(2450))), reference={8: 2450}))


def test_no_verdict_where_the_resampled_medians_reach_unsolved_runs():
    """With 42 of 100 runs unsolved the median is finite, but resampled medians of 100 runs
    reach the unsolved ones: the verdict would accept any published median, so it gives none."""
    runs = pd.DataFrame({"algorithm": "ga", "board": 8, "seed": range(100), "unit": "evaluations",
                         "solved": [i >= 42 for i in range(100)],
                         "work": [10**6 if i < 42 else 100 + 10 * i for i in range(100)],
                         "seconds": 0.01, "conflicts": 0, "generations": 1})
    row = tables.summarize(runs, None, {8: 10**9}).iloc[0]
    assert np.isfinite(row["median"]) and row["verdict"].startswith("not comparable")


def test_the_groups_resampled_on_every_core_give_the_same_table(monkeypatch):
    runs = pd.concat([runs_frame(skewed_sample(100 * board, size=120, seed=board), board=board)
                      for board in (8, 16, 32)])
    alone = tables.summarize(runs, reference={8: 100, 16: 1600})
    monkeypatch.setattr(tables, "PARALLEL_FROM", 0)
    shared = tables.summarize(runs, reference={8: 100, 16: 1600})
    pd.testing.assert_frame_equal(alone, shared)
