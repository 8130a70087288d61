"""What a sweep writes for the statistics (rules: gaqueens/reports/outputs.py): the compact runs
file of large boards, and the success rate and ERT of runs that stop short."""

import pandas as pd

from gaqueens.reports import tables
from gaqueens.sweep import main


def sweep(tmp_path, text):
    (tmp_path / "x.yaml").write_text(text)
    out = tmp_path / "out"
    assert main([str(tmp_path / "x.yaml"), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    return out


def test_boards_above_1000_queens_get_a_compact_runs_file(tmp_path):
    out = sweep(tmp_path, "boards: [8, 1024]\nseeds: {first: 1, last: 3}\nga: none\n"
                          "baselines: [min-conflicts]\n")
    full, compact = pd.read_csv(out / "runs.csv"), pd.read_csv(out / "runs-compact.csv")
    assert "solution" not in compact.columns
    pd.testing.assert_frame_equal(compact, full.drop(columns="solution"))
    summary = pd.read_csv(out / "summary.csv")
    again = tables.summarize(compact)
    assert again["median"].tolist() == summary["median"].tolist()
    assert again["median_seconds"].tolist() == summary["median_seconds"].tolist()


def test_small_boards_need_no_compact_file(tmp_path):
    out = sweep(tmp_path, "boards: [8]\nseeds: {first: 1, last: 3}\n")
    assert not (out / "runs-compact.csv").exists()


def test_runs_that_stop_short_get_a_success_rate_and_an_ert(tmp_path):
    out = sweep(tmp_path, "boards: [16]\nseeds: {first: 1, last: 10}\n"
                          "ga: {stop: {target: 0, generations: 5}}\n")
    runs = pd.read_csv(out / "runs.csv")
    assert not runs["solved"].all()
    row = pd.read_csv(out / "summary.csv").iloc[0]
    solved = runs["solved"].sum()
    assert row["success_rate"] == solved / 10
    assert row["ert"] == (runs["work"].sum() / solved if solved else float("inf"))
    summary = (out / "summary.md").read_text()
    assert "| ERT |" in summary and "expected running time" in summary


def test_the_tables_of_worker_processes_are_those_made_here(tmp_path, monkeypatch):
    """From PARALLEL_FROM runs the summary's resampling and the comparisons go to two worker
    processes: the same summary.csv and comparisons.csv as made in this process."""
    text = "boards: [8, 10]\nseeds: {first: 1, last: 12}\nvariants: {near: {stop: {target: 2}}}\n"
    for place in ("here", "there"):
        (tmp_path / place).mkdir()
    here = sweep(tmp_path / "here", text)
    monkeypatch.setattr(tables, "PARALLEL_FROM", 1)
    there = sweep(tmp_path / "there", text)
    for name in ("summary.csv", "comparisons.csv"):  # compared in evaluations, not seconds
        mine, theirs = pd.read_csv(here / name), pd.read_csv(there / name)
        columns = [c for c in mine.columns if c != "median_seconds"]  # timings differ
        pd.testing.assert_frame_equal(mine[columns], theirs[columns])
    assert pd.read_csv(here / "comparisons.csv")["unit"].eq("evaluations").all()
