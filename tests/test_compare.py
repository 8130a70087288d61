"""Comparisons of each algorithm with the first entry (rules: gaqueens/reports/compare.py), on
hand-built runs and in a sweep's outputs."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

import plugged
from gaqueens.reports import compare, stats
from gaqueens.sweep import main


def runs_of(algorithm, work, board=8, unit="evaluations", solved=None, seconds=None):
    solved = [True] * len(work) if solved is None else solved
    return pd.DataFrame({
        "algorithm": algorithm, "board": board, "seed": range(1, len(work) + 1),
        "solved": solved, "work": work, "unit": unit,
        "seconds": seconds if seconds is not None else np.asarray(work) * 1e-5,
    })


def lattice(median, size=100, seed=0):
    rng = np.random.default_rng(seed)
    return (np.round(rng.lognormal(np.log(median), 0.4, size) / 20) * 20 + 20).astype(int)


def test_a_variant_needing_more_evaluations_is_called_more():
    runs = pd.concat([runs_of("ga", lattice(1000)), runs_of("slow", lattice(1500, seed=1)),
                      runs_of("alike", lattice(1000, seed=2))])
    table = compare.comparisons(runs).set_index("algorithm")
    assert list(table.columns) == [c for c in compare.COLUMNS if c != "algorithm"]
    assert table.loc["slow", "verdict"] == "more" and table.loc["slow", "unit"] == "evaluations"
    assert table.loc["slow", "ci_low"] <= table.loc["slow", "median_ratio"] <= table.loc["slow", "ci_high"]
    assert table.loc["alike", "verdict"] == compare.SAME
    assert (table["reference"] == "ga").all()
    assert (table["p_holm"] >= table["p_value"]).all()


def test_fewer_when_the_variant_needs_less():
    runs = pd.concat([runs_of("ga", lattice(1500)), runs_of("fast", lattice(1000, seed=1))])
    assert compare.comparisons(runs)["verdict"].tolist() == ["fewer"]


def test_holm_runs_over_the_whole_table():
    """Four comparisons, one per board: the smallest p is multiplied by 4, as Holm's first
    step over the whole table (gaqueens.reports.stats.holm) does."""
    runs = [runs_of("ga", lattice(1000), board=b) for b in (8, 9, 10, 11)]
    runs += [runs_of("v", lattice(1000, seed=b), board=b) for b in (8, 9, 10, 11)]
    table = compare.comparisons(pd.concat(runs))
    assert table["p_holm"].tolist() == pytest.approx(list(stats.holm(table["p_value"])))
    assert table["p_holm"].min() == pytest.approx(min(1, 4 * table["p_value"].min()))


def test_work_in_other_units_is_compared_in_seconds():
    runs = pd.concat([runs_of("ga", lattice(1000), seconds=np.full(100, 0.01)),
                      runs_of("local-search", lattice(50), unit="swaps",
                              seconds=np.full(100, 0.001))])
    row = compare.comparisons(runs).iloc[0]
    assert row["unit"] == "seconds" and row["median_ratio"] == pytest.approx(0.1)
    assert row["verdict"] == "fewer"
    note = compare.note(compare.comparisons(runs))
    assert "compared in processor time only" in note and "wall" not in note
    assert "| processor time |" in compare.table(compare.comparisons(runs))


def test_unsolved_runs_rank_as_the_worst():
    """Unsolved runs that stopped early (little work) still count as the most work."""
    runs = pd.concat([runs_of("ga", lattice(1000)),
                      runs_of("stuck", [20] * 100, solved=[False] * 100)])
    row = compare.comparisons(runs).iloc[0]
    assert row["verdict"] == "more" and row["median_ratio"] == math.inf
    assert "| - (- to -) |" in compare.table(compare.comparisons(runs))


def test_a_ratio_over_an_infinite_median_reads_as_none():
    """A reference whose median is an unsolved run: the ratio of a solved entry's median to it
    is none ("-" in summary.md, empty in comparisons.csv), and so is its interval, never the
    tiny number the stand-in for infinite work makes of it (issue 47: 4.09e-296, printed
    "0.00 (0.00 to 0.00)"); only the rank test still compares them."""
    runs = pd.concat([runs_of("ga", [20] * 60 + list(lattice(1000)[:40]),
                              solved=[False] * 60 + [True] * 40),
                      runs_of("solver", lattice(800))])
    table = compare.comparisons(runs)
    row = table.iloc[0]
    assert np.isnan(row["median_ratio"]) and np.isnan(row["ci_low"]) and np.isnan(row["ci_high"])
    assert row["verdict"] == "fewer"  # ranked: ga's unsolved runs are the worst
    text = compare.table(table)
    assert "| 8 | solver | - | fewer | evaluations | 2.3e-18 |" in text and "0.00" not in text
    assert compare.ratio_text(math.inf) == compare.ratio_text(math.nan) == "-"
    assert compare.ratio_text(0.125) == "0.12"


def test_the_column_of_sizes_is_headed_in_the_problems_words():
    runs = pd.concat([runs_of("ga", lattice(1000)), runs_of("v", lattice(1000, seed=1))])
    table = compare.comparisons(runs)
    assert compare.table(table).startswith("| board | algorithm |")  # N-Queens, as always
    assert "on the same board:" in compare.note(table)
    with plugged.on_path() as problem:  # a problem of a user's own: "size" by default
        assert compare.table(table, problem).startswith("| size | algorithm |")
        assert "on the same size:" in compare.note(table, problem)


def test_boards_the_reference_did_not_run_are_left_out():
    runs = pd.concat([runs_of("ga", lattice(1000)), runs_of("v", lattice(1000), board=9),
                      runs_of("v", lattice(1000))])
    assert compare.comparisons(runs)["board"].tolist() == [8]


def test_a_sweep_with_a_variant_writes_its_comparisons(tmp_path):
    text = ("boards: [8, 10]\nseeds: {first: 1, last: 30}\n"
            "variants: {uniform-parents: {select: uniform}}\n"
            "baselines: [construction]\n")
    (tmp_path / "x.yaml").write_text(text)
    out = tmp_path / "out"
    assert main([str(tmp_path / "x.yaml"), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    table = pd.read_csv(out / "comparisons.csv")
    assert list(table.columns) == list(compare.COLUMNS)
    assert table[["board", "algorithm", "unit"]].values.tolist() == [
        [8, "uniform-parents", "evaluations"], [8, "construction", "seconds"],
        [10, "uniform-parents", "evaluations"], [10, "construction", "seconds"]]
    summary = (out / "summary.md").read_text()
    assert "## Compared with ga" in summary and "Holm" in summary
    assert (out / "fixed-target.png").stat().st_size > 0


def test_a_sweep_of_one_algorithm_writes_no_comparisons(tmp_path):
    (tmp_path / "x.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 5}\n")
    out = tmp_path / "out"
    assert main([str(tmp_path / "x.yaml"), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    assert not (out / "comparisons.csv").exists()
    assert "Compared with" not in (out / "summary.md").read_text()


@pytest.mark.parametrize("n, m", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (1, 100), (1, 198),
                                  (1, 199), (1, 250), (2, 20), (3, 100)])
def test_the_least_p_is_that_of_the_exact_test_on_samples_wholly_apart(n, m):
    exact = scipy_stats.mannwhitneyu(np.arange(n), np.arange(n, n + m) + 0.5, method="exact")
    assert compare.least_p(n, m) == pytest.approx(exact.pvalue)


@pytest.mark.parametrize("n, m", [(1, 1), (3, 3), (4, 4), (5, 5), (1, 100), (1, 199), (1, 200),
                                  (2, 30), (3, 100), (100, 100)])
def test_too_few_runs_exactly_where_the_test_cannot_go_below_its_level(n, m):
    """Issue 48: 3 seeds a board can never give p below 0.1, yet results/scaling read "no
    difference detected" for backtracking-heuristic at 332x local search; one run against 100
    neither (its least p is 2/101)."""
    rng = np.random.default_rng(0)
    runs = pd.concat([runs_of("ga", rng.integers(100, 200, m)),
                      runs_of("far", rng.integers(10**6, 2 * 10**6, n))])
    row = compare.comparisons(runs).iloc[0]
    can = compare.least_p(n, m) < stats.ALPHA
    assert row["verdict"].startswith("too few runs") != can
    if can:
        assert row["verdict"] in ("more", compare.SAME)  # what the test found (ties: asymptotic)
    else:
        assert row["verdict"] == (f"too few runs ({n})" if n == m else f"too few runs ({n} and {m})")
        assert np.isnan(row["p_holm"]) and row["median_ratio"] > 1000  # the effect is still given
        assert row["verdict"] in compare.table(compare.comparisons(runs))


def test_rows_of_too_few_runs_stay_out_of_holms_correction():
    runs = pd.concat([runs_of("ga", lattice(1000)), runs_of("slow", lattice(1500, seed=1)),
                      runs_of("ga", [10, 20, 30], board=9), runs_of("slow", [40, 50, 60], board=9)])
    table = compare.comparisons(runs).set_index("board")
    assert table.loc[9, "verdict"] == "too few runs (3)" and np.isnan(table.loc[9, "p_holm"])
    assert table.loc[8, "p_holm"] == table.loc[8, "p_value"]  # a family of one


def test_the_table_gives_the_effect_first():
    runs = pd.concat([runs_of("ga", lattice(1000)), runs_of("slow", lattice(1500, seed=1))])
    frame = compare.comparisons(runs)
    header = compare.table(frame).splitlines()[0]
    assert header.index("median / median of ga (95% CI)") < header.index("verdict") \
        < header.index("| p |")
    assert compare.effect_text(frame.iloc[0]).startswith(
        f"{compare.ratio_text(frame.iloc[0]['median_ratio'])} x ga (")
