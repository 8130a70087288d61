"""The IOHanalyzer export (gaqueens/export.py): the files it writes, iohinspector reading them
with our run counts and fixed-target runtimes (gaqueens/reports/runtimes.py), and bad input."""

import json
import sqlite3
import warnings

import iohinspector
import numpy as np
import pandas as pd
import polars as pl
import pytest
from iohinspector.align import align_data

from gaqueens import read_runs, read_traces
from gaqueens.export import main
from gaqueens.reports import ioh
from gaqueens.reports.ioh import run_lines
from gaqueens.reports import runtimes
from gaqueens.sweep import main as sweep

EXPERIMENT = """\
boards: [8, 10]
seeds: {first: 1, last: 12}
variants:
  short: {stop: {target: 0, generations: 3}}
baselines: [local-search]
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A sweep with the GA, a variant stopped after 3 generations (some runs unsolved) and a
    baseline, which counts swaps and is left out."""
    root = tmp_path_factory.mktemp("export")
    (root / "x.yaml").write_text(EXPERIMENT)
    assert sweep([str(root / "x.yaml"), "--out", str(root / "out"), "--quiet",
                  "--workers", "1"]) == 0
    return root / "out"


@pytest.fixture(scope="module")
def exported(folder):
    assert main([str(folder)]) == 0
    return folder / "ioh"


def test_the_export_has_a_folder_per_ga_with_a_json_and_a_dat_per_board(exported, capsys):
    assert sorted(p.name for p in exported.iterdir()) == ["ga", "gaqueens-export.txt", "short"]
    meta = json.loads((exported / "ga" / "IOHprofiler_f1_NQueens.json").read_text())
    assert (meta["function_id"], meta["function_name"], meta["maximization"]) == (1, "NQueens", False)
    assert meta["algorithm"]["name"] == "ga"
    assert [s["dimension"] for s in meta["scenarios"]] == [8, 10]
    for scenario in meta["scenarios"]:
        assert (exported / "ga" / scenario["path"]).exists()
        assert [run["seed"] for run in scenario["runs"]] == list(range(1, 13))
    assert "left out: local-search" in (exported / "gaqueens-export.txt").read_text()


def test_each_run_starts_at_evaluation_1_and_ends_at_its_final_count(folder, exported):
    runs = read_runs(folder).set_index(["algorithm", "board", "seed"])
    for name in ("ga", "short"):
        blocks = (exported / name / "data_f1_NQueens" / "IOHprofiler_f1_DIM8.dat").read_text()
        blocks = blocks.strip().split("evaluations raw_y\n")[1:]
        assert len(blocks) == 12
        for seed, block in enumerate(blocks, 1):
            lines = [tuple(map(int, line.split())) for line in block.strip().splitlines()]
            run = runs.loc[(name, 8, seed)]
            assert lines[0][0] == 1 and lines[-1] == (run["work"], run["conflicts"])
            assert all(b[0] > a[0] and b[1] <= a[1] for a, b in zip(lines, lines[1:]))


def test_an_unsolved_runs_last_line_is_its_final_count():
    trace = np.array([[0, 20, 4, 5, 7, 5.0], [1, 40, 3, 4, 6, 4.0], [2, 60, 3, 4, 5, 4.0]])
    assert run_lines(trace, 60) == [(1, 7), (20, 4), (40, 3), (60, 3)]
    assert run_lines(trace[:1], 20) == [(1, 7), (20, 4)]
    assert run_lines(trace, 60, 1) == [(1, 7), (20, 4), (40, 3), (60, 1)]  # a lost best child


def test_iohinspector_reads_our_run_counts_and_fixed_target_runtimes(folder, exported):
    manager = iohinspector.DataManager()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a file iohinspector cannot read is only a warning
        manager.add_folder(str(exported))
    runs = read_runs(folder)
    ga_runs = runs[runs["unit"] == "evaluations"]
    overview = manager.overview.to_pandas()
    assert len(overview) == len(ga_runs) == 48
    counted = overview.groupby(["algorithm_name", "dimension"]).size()
    assert counted.to_dict() == ga_runs.groupby(["algorithm", "board"]).size().to_dict()
    assert sorted(overview["evals"]) == sorted(ga_runs["work"])
    assert sorted(overview["best_y"]) == sorted(ga_runs["conflicts"])

    data = manager.load(monotonic=True, include_meta_data=True)
    finals = {(r.algorithm, r.board, r.seed): r.conflicts for r in ga_runs.itertuples()}
    ours = runtimes.runtimes(read_traces(folder), finals)
    compared = 0
    for (name, board), mine in ours.groupby(["algorithm", "board"]):
        part = data.filter((pl.col("algorithm_name") == name) & (pl.col("dimension") == board))
        levels = np.sort(mine["target"].unique()).astype(float)
        theirs = align_data(part, levels, group_cols=["data_id", "run_id"], x_col="raw_y",
                            y_col="evaluations", silence_warning=True).to_pandas()
        theirs["seed"] = theirs["run_id"].astype(int)  # runs are written in seed order, 1 to 12
        both = mine.merge(theirs.rename(columns={"raw_y": "target", "evaluations": "their"}),
                          on=["seed", "target"])
        assert len(both) == len(mine)
        assert both["runtime"].tolist() == both["their"].astype(float).tolist()
        compared += len(both)
    assert compared == len(ours)
    assert np.isinf(ours["runtime"]).any()  # the short runs include some that stopped short


def test_iohinspectors_median_and_ert_at_target_0_are_our_summarys(folder, exported):
    """The published GA solves every run here; iohinspector counts the ERT of unsolved runs
    with the largest budget in the data instead of the run's own, so only solved runs agree."""
    from iohinspector.metrics import aggregate_running_time

    manager = iohinspector.DataManager()
    manager.add_folder(str(exported / "ga"))
    data = manager.load(monotonic=True, include_meta_data=True)
    theirs = aggregate_running_time(data, free_vars=["dimension"], f_min=0, f_max=1,
                                    scale_f_log=False)
    theirs = theirs[theirs["raw_y"] == 0].set_index("dimension")
    summary = pd.read_csv(folder / "summary.csv").set_index(["algorithm", "board"])
    for board in (8, 10):
        ours = summary.loc[("ga", board)]
        assert ours["solved"] == ours["runs"] == 12
        assert theirs.loc[board, "median"] == ours["median"]
        assert theirs.loc[board, "ERT"] == pytest.approx(ours["ert"])
        assert theirs.loc[board, "success_ratio"] == 1


def test_a_rerun_replaces_an_earlier_export(folder, exported, tmp_path):
    before = sorted(p.name for p in exported.rglob("*"))
    assert main([str(folder), "--out", str(exported)]) == 0
    assert sorted(p.name for p in exported.rglob("*")) == before


def one_line(capsys):
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    return err


def test_bad_input_is_one_line_and_exit_2(tmp_path, folder, capsys):
    assert main([str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in one_line(capsys)
    (tmp_path / "runs.csv").write_text("algorithm\n")
    assert main([str(tmp_path / "runs.csv")]) == 2
    assert "runs.csv: is a file, expected an output folder of a sweep" in one_line(capsys)
    assert main([str(tmp_path)]) == 2
    assert "not an output folder" in one_line(capsys)
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    assert main([str(folder), "--out", str(taken)]) == 2
    assert "not an earlier export" in one_line(capsys)
    assert (taken / "notes.txt").read_text() == "mine"
    (tmp_path / "runs.sqlite").write_text("not a database")
    assert main([str(tmp_path)]) == 2
    one_line(capsys)
    with pytest.raises(SystemExit) as stop:
        main([str(folder), "--format", "coco"])
    assert stop.value.code == 2


def test_two_processes_write_the_same_files_as_one(folder, exported, tmp_path, monkeypatch):
    """From PARALLEL_FROM runs the algorithms are written by two forked processes."""
    monkeypatch.setattr(ioh, "PARALLEL_FROM", 0)
    assert main([str(folder), "--out", str(tmp_path / "both")]) == 0
    files = sorted(p.relative_to(exported) for p in exported.rglob("*.*")
                   if p.name != "gaqueens-export.txt")
    assert files == sorted(p.relative_to(tmp_path / "both") for p in (tmp_path / "both").rglob("*.*")
                           if p.name != "gaqueens-export.txt")
    for path in files:
        assert (tmp_path / "both" / path).read_bytes() == (exported / path).read_bytes()


@pytest.mark.parametrize("parallel_from", [0, 10**9])
def test_a_tampered_run_fails_the_verifier_and_nothing_is_written(folder, tmp_path, capsys,
                                                                   monkeypatch, parallel_from):
    monkeypatch.setattr(ioh, "PARALLEL_FROM", parallel_from)  # in workers, and here
    copy = tmp_path / "copy"
    copy.mkdir()
    with sqlite3.connect(folder / "runs.sqlite") as source, sqlite3.connect(copy / "runs.sqlite") as target:
        source.backup(target)
    with sqlite3.connect(copy / "runs.sqlite") as db:
        db.execute("UPDATE runs SET solution = '0 1 2 3 4 5 6 7' WHERE algorithm = 'ga' AND "
                   "board = 8 AND seed = 3")
    assert main([str(copy)]) == 1
    assert "seed 3" in capsys.readouterr().err
    assert not (copy / "ioh").exists() and not (copy / "ioh.partial").exists()


def test_a_folder_of_baselines_only_has_nothing_to_export(tmp_path, capsys):
    (tmp_path / "b.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 2}\nga: none\n"
                                     "baselines: [local-search]\n")
    assert sweep([str(tmp_path / "b.yaml"), "--out", str(tmp_path / "b"), "--quiet"]) == 0
    assert main([str(tmp_path / "b")]) == 2
    assert "no stored GA runs" in one_line(capsys)


def test_the_traces_read_as_arrays_are_the_table_of_traces(folder):
    """Store.trace_arrays, which the export reads, holds what Store.traces gives, run by run,
    and only the runs asked for."""
    from gaqueens.runtime.store import Store

    with Store(folder) as store:
        table = store.traces()
        arrays = store.trace_arrays()
        some = set(list(arrays)[:3])
        assert set(store.trace_arrays(some)) == some
        for name in {key[0] for key in arrays}:  # the export reads an algorithm at a time
            assert list(store.trace_arrays(algorithm=name)) == [k for k in arrays if k[0] == name]
    grouped = {key: rows.drop(columns=["algorithm", "board", "seed"]).to_numpy()
               for key, rows in table.groupby(["algorithm", "board", "seed"], sort=False)}
    assert list(arrays) == list(grouped)
    assert all(np.array_equal(arrays[key], grouped[key]) for key in arrays)


@pytest.mark.parametrize("final", [None, 0, 2])
def test_a_runs_lines_are_the_improvements_of_its_best_so_far(final):
    """run_lines, in numpy, against the rule written out: a line where the best so far falls
    below every line before it, the first population's worst first, the final count last."""
    rng = np.random.default_rng(final or 7)
    for _ in range(50):
        length = int(rng.integers(1, 12))
        best = rng.integers(0, 9, length).astype(float)
        trace = np.column_stack((np.arange(length), 20 + 20 * np.arange(length), best,
                                 best, best + rng.integers(0, 4, length), best))
        total = 20 + 20 * (length - 1) + int(rng.integers(0, 2)) * 20
        expected = [(1, int(trace[0, 4]))]
        for count, value in zip(trace[:, 1], runtimes.best_so_far(trace[:, 2], final)):
            if value < expected[-1][1]:
                expected.append((int(count), int(value)))
        if expected[-1][0] != total:
            expected.append((total, expected[-1][1]))
        assert run_lines(trace, total, final) == expected
