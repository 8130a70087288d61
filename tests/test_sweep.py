"""The sweep: its outputs, determinism across executors, resume, refusals and interruptions."""

import json
import os
import signal
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from gaqueens import load, read_runs, read_traces, run_sweep
from gaqueens.problems.nqueens.verifier import is_solution
from gaqueens.runtime.store import Store
from gaqueens.sweep import main
from sweeps import (LONG, QUIET, TINY, experiment_file, rows, start_sweep, stored, stored_count,
                    wait_for_runs)

RUN_COLUMNS = ["algorithm", "board", "seed", "solved", "conflicts", "generations",
               "work", "unit", "seconds", "solution"]


def sweep(tmp_path, out, *args, text=TINY):
    return main([experiment_file(tmp_path, text), "--out", str(out), "--quiet", *args])


def test_a_tiny_sweep_writes_every_output(tmp_path, capsys):
    out = tmp_path / "out"
    assert sweep(tmp_path, out, "--workers", "2") == 0
    for name in ("runs.csv", "summary.csv", "summary.md", "convergence.png", "ecdf.png",
                 "manifest.json", "runs.sqlite"):
        assert (out / name).stat().st_size > 0, name
    runs = pd.read_csv(out / "runs.csv")
    assert list(runs.columns) == RUN_COLUMNS and len(runs) == 12
    assert runs["solved"].all() and (runs["unit"] == "evaluations").all()
    for row in runs.itertuples():
        assert is_solution([int(c) for c in row.solution.split()], row.board)
    summary = pd.read_csv(out / "summary.csv")
    assert summary[["algorithm", "board", "runs"]].values.tolist() == [["ga", 8, 6], ["ga", 10, 6]]
    assert summary.loc[0, "verdict"] == "too few runs (6)"  # the published median is of 100
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["settings"]["boards"] == [8, 10]
    assert manifest["settings"]["algorithms"]["ga"]["select"] == {"tournament": 2}
    assert "manifest.json" in (out / "summary.md").read_text()
    printed = capsys.readouterr().out
    assert printed.splitlines()[0].startswith("| algorithm | board |") and "| ga | 8 |" in printed


def test_results_do_not_depend_on_the_worker_count(tmp_path):
    assert sweep(tmp_path, tmp_path / "one", "--workers", "1") == 0
    assert sweep(tmp_path, tmp_path / "two", "--workers", "2") == 0
    pd.testing.assert_frame_equal(rows(tmp_path / "one"), rows(tmp_path / "two"))


def test_a_rerun_resumes_and_computes_only_the_missing_runs(tmp_path, capsys):
    out = tmp_path / "out"
    assert sweep(tmp_path, out, "--seeds", "1..3") == 0
    capsys.readouterr()
    assert main([experiment_file(tmp_path), "--out", str(out)]) == 0
    assert "6 of 12 runs stored, 6 to compute" in capsys.readouterr().err
    assert sweep(tmp_path, tmp_path / "whole") == 0
    pd.testing.assert_frame_equal(rows(out), rows(tmp_path / "whole"))
    with Store(out) as store:
        assert len(store.keys()) == 12


def test_changed_settings_are_refused_unless_fresh(tmp_path, capsys):
    out = tmp_path / "out"
    assert sweep(tmp_path, out) == 0
    capsys.readouterr()
    changed = TINY + "ga: {ties: parents-first}\n"
    assert sweep(tmp_path, out, text=changed) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "ga.ties" in error and "--fresh" in error
    assert sweep(tmp_path, out, "--fresh", text=changed) == 0
    assert pd.read_csv(out / "runs.csv").shape[0] == 12
    with Store(out) as store:
        assert store.settings()["ga"]["ties"] == "parents-first"


def test_a_second_sweep_into_the_same_output_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    with Store(out, write=True):
        assert sweep(tmp_path, out) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "another sweep" in error
    assert not (out / "runs.csv").exists()


def test_the_python_api_reads_runs_and_traces_as_dataframes(tmp_path):
    experiment = load(experiment_file(tmp_path), output=tmp_path / "out")
    table = run_sweep(experiment, workers=1, progress=False, say=lambda text: None)
    assert "| ga | 10 |" in table
    runs = read_runs(tmp_path / "out")
    traces = read_traces(tmp_path / "out")
    assert len(runs) == 12 and runs["solved"].dtype == bool
    last = traces.groupby(["board", "seed"])["evaluations"].max().reset_index()
    merged = runs.merge(last, on=["board", "seed"])
    assert (merged["work"] == merged["evaluations"]).all()
    assert set(traces.columns) >= {"generation", "evaluations", "best", "median", "worst", "mean"}


def test_the_command_ends_with_its_table_printed_and_every_file_written_and_closed(tmp_path):
    """``python -m gaqueens.sweep`` leaves at once after a sweep that ended well (cli.command):
    nothing it prints or writes is lost, the store is whole and no worker outlives it."""
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "gaqueens.sweep", experiment_file(tmp_path), "--out", str(out),
         "--workers", "2"], capture_output=True, text=True, env=QUIET, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not (out / "runs.sqlite-wal").exists()  # the store closed: its log folded in
    assert done.stdout.strip().splitlines()[-1].startswith("| ga | 10 | 6/6 |")
    assert done.stderr.strip().endswith("summary.md and plots")
    assert stored(out) == (12, 6)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"
    assert (out / "summary.md").read_text().endswith("\n")
    assert len(pd.read_csv(out / "runs.csv")) == 12
    assert all((out / name).stat().st_size > 0 for name in ("convergence.png", "ecdf.png"))
    assert not list(out.glob("*.partial*"))


def test_batches_hold_more_seeds_when_their_runs_advance_together(tmp_path):
    """The GA's engine: numpy runs a batch's seeds together (execution.runs_together): as
    many batches as workers, of at most TOGETHER seeds; runs made one after another keep
    batches of at most BATCH, at least two a worker (runtime.batches)."""
    from gaqueens.runtime.batches import BATCH, TOGETHER, batches

    def sizes(text, workers):
        experiment = load(experiment_file(tmp_path, text))
        return [(batch.name, batch.board, len(batch.seeds))
                for batch in batches(experiment, experiment.tasks(), workers)]

    published = "boards: [8, 128]\nseeds: {first: 1, last: 100}\n"
    assert sizes(published, 2) == [("ga", 128, 50)] * 2 + [("ga", 8, 50)] * 2
    assert sizes(published, 3) == [("ga", 128, 34)] * 2 + [("ga", 128, 32)] + [
        ("ga", 8, 34)] * 2 + [("ga", 8, 32)]
    assert sizes(published.replace("100", "1000"), 2) == [("ga", 128, TOGETHER)] * 20 + [
        ("ga", 8, TOGETHER)] * 20
    one_by_one = "boards: [8]\nseeds: {first: 1, last: 200}\nga: {engine: deap}\n"
    assert sizes(one_by_one, 2) == [("ga", 8, BATCH)] * 8
    baseline = "boards: [8]\nseeds: {first: 1, last: 20}\nga: none\nbaselines: [local-search]\n"
    assert sizes(baseline, 2) == [("local-search", 8, 5)] * 4


def test_each_boards_batches_take_turns_among_the_entries(tmp_path):
    """runtime.batches: the largest board first, and on each board the entries' batches spread
    over its order by count (in_turn), back and forth where their counts are equal."""
    from gaqueens.runtime.batches import batches

    text = ("boards: [8, 16]\nseeds: {first: 1, last: 20}\nga: none\n"
            "baselines: [local-search, min-conflicts]\n")
    experiment = load(experiment_file(tmp_path, text))
    made = [(batch.board, batch.name, batch.seeds[0])
            for batch in batches(experiment, experiment.tasks(), 2)]
    # 5 seeds a batch (two a worker), the two entries' in turn, back and forth
    names = ("local-search", "min-conflicts")
    turns = [(name, first) for turn, first in enumerate((1, 6, 11, 16))
             for name in (names[::-1] if turn % 2 else names)]
    assert made == [(16, *turn) for turn in turns] + [(8, *turn) for turn in turns]


@pytest.mark.parametrize("lists, order", [
    ([["a1", "a2", "a3"], ["b1", "b2", "b3"]],  # equal lengths take turns, back and forth
     ["a1", "b1", "b2", "a2", "a3", "b3"]),
    ([["g1", "g2"], list("0123456789")],  # g's at 1/4 and 3/4 of the way, 0..9 at 1/20, 3/20..:
     ["0", "1", "g1", "2", "3", "4", "5", "6", "7", "g2", "8", "9"]),  # g1 ties 2 (i = 0, 2:
    # list places 0 and 1), g2 ties 7 (i = 1, 7, both odd: places negated, -1 before -0)
    ([["a1", "a2", "a3"], ["b1"]], ["a1", "a2", "b1", "a3"]),  # b1 ties a2: -0 before 1
    ([[], ["x"]], ["x"]),
])
def test_in_turn_spreads_each_list_over_the_order(lists, order):
    from gaqueens.runtime.batches import in_turn

    assert in_turn(lists) == order


@given(st.lists(st.integers(0, 12), max_size=6))
def test_in_turn_keeps_every_item_and_every_lists_order_and_never_lets_one_list_run_ahead(
        lengths):
    """In every prefix of the order, two lists' shares taken differ by at most half an item of
    each (a list's i-th of k stands (2i + 1) / 2k of the way)."""
    from gaqueens.runtime.batches import in_turn

    lists = [[(k, i) for i in range(length)] for k, length in enumerate(lengths)]
    order = in_turn(lists)
    assert sorted(order) == sorted(item for items in lists for item in items)
    for k, items in enumerate(lists):
        assert [item for item in order if item[0] == k] == items
    taken = [0] * len(lists)
    for k, _ in order:
        taken[k] += 1
        shares = [(Fraction(count, len(items)), Fraction(1, 2 * len(items)))
                  for count, items in zip(taken, lists) if items]
        for share, half in shares:
            for other, other_half in shares:
                assert abs(share - other) <= half + other_half


def test_a_large_sweep_runs_its_ga_batches_compiled(tmp_path):
    """runtime.batches: COMPILED_RUNS runs a worker that advance together on boards from
    COMPILED_FROM make every batch that advances together compiled; fewer, none; runs made one
    after another never."""
    from gaqueens.runtime.batches import COMPILED_FROM, COMPILED_RUNS, batches

    def compiled(text, workers):
        experiment = load(experiment_file(tmp_path, text))
        return {(batch.name, batch.board, batch.compiled)
                for batch in batches(experiment, experiment.tasks(), workers)}

    def sweep(last, boards=f"[8, {COMPILED_FROM}]", more=""):
        return f"boards: {boards}\nseeds: {{first: 1, last: {last}}}\n{more}"

    enough = COMPILED_RUNS * 2
    assert compiled(sweep(enough), 2) == {("ga", 8, True), ("ga", COMPILED_FROM, True)}
    assert compiled(sweep(enough - 1), 2) == {("ga", 8, False), ("ga", COMPILED_FROM, False)}
    assert compiled(sweep(enough), 3) == {("ga", 8, False), ("ga", COMPILED_FROM, False)}
    small_boards = sweep(enough * 4, boards=f"[8, {COMPILED_FROM - 1}]")
    assert {c for *_, c in compiled(small_boards, 2)} == {False}
    one_by_one = sweep(enough, more="ga: {variation: and, mutpb: 1}\n")
    assert {c for *_, c in compiled(one_by_one, 2)} == {False}


def test_a_compiled_sweep_stores_the_runs_of_a_numpy_one_and_says_so(tmp_path, monkeypatch):
    from gaqueens.runtime import batches

    text = "boards: [8, 33]\nseeds: {first: 1, last: 6}\n"
    assert sweep(tmp_path, tmp_path / "plain", "--workers", "1", text=text) == 0
    monkeypatch.setattr(batches, "COMPILED_RUNS", 1)
    assert sweep(tmp_path, tmp_path / "made", "--workers", "1", text=text) == 0
    pd.testing.assert_frame_equal(rows(tmp_path / "made"), rows(tmp_path / "plain"))
    plain, made = (json.loads((tmp_path / name / "manifest.json").read_text())
                   for name in ("plain", "made"))
    assert "compiled" not in plain and made["compiled"]["numba"]


def test_workers_are_handed_a_batch_each_before_any_gets_a_second():
    """The first batches are the largest boards' (runtime.batches): two workers must not both
    wait while one holds the two largest (executors._Pool._hand_out)."""
    from collections import deque

    from gaqueens.runtime import executors

    class Pipe:
        def __init__(self):
            self.sent = []

        def send(self, message):
            self.sent.append(message[0])

    pool = executors._Pool.__new__(executors._Pool)
    pool.tasks, pool.ahead = ["batch"] * 5, 2
    first, second = Pipe(), Pipe()
    pool.workers = {first: (None, deque(), True, None), second: (None, deque(), True, None)}
    todo = deque(range(5))
    pool._hand_out(todo)
    assert first.sent == [0, 2] and second.sent == [1, 3] and list(todo) == [4]
    pool.workers[second][1].popleft()  # the second finished its first batch
    pool._hand_out(todo)
    assert second.sent == [1, 3, 4] and not todo


# ---- interruptions, in a real process -----------------------------------------------------------

def test_kill_9_loses_only_the_runs_in_flight_and_a_rerun_completes_them(tmp_path):
    out = tmp_path / "out"
    process = start_sweep(tmp_path, out)
    wait_for_runs(out, 30, process)
    os.killpg(process.pid, signal.SIGKILL)  # the sweep and its workers, at once
    process.wait()
    count, distinct = stored(out)
    assert 30 <= count < 300 and count == distinct  # whole rows, no duplicates
    assert not (out / "runs.csv").exists()  # no partial table presented as complete
    resumed = subprocess.run(
        [sys.executable, "-m", "gaqueens.sweep", str(tmp_path / "tiny.yaml"), "--out", str(out)],
        capture_output=True, text=True, env=QUIET,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{count} of 300 runs stored, {300 - count} to compute" in resumed.stderr
    assert sweep(tmp_path, tmp_path / "whole", "--workers", "2", text=LONG) == 0
    pd.testing.assert_frame_equal(rows(out), rows(tmp_path / "whole"))


def test_ctrl_c_stops_promptly_keeps_finished_runs_and_exits_130(tmp_path):
    out = tmp_path / "out"
    process = start_sweep(tmp_path, out)
    wait_for_runs(out, 20, process)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    stored_then = stored_count(out)
    _, error = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stored_count(out) - stored_then <= 2 * 2 * 25  # at most the batches in hand
    assert "run the same command again to resume" in error and "Traceback" not in error
    count, distinct = stored(out)
    assert count == distinct and count >= 20
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"


# ---- a real Dask cluster on loopback -------------------------------------------------------------


def test_a_dask_cluster_gives_the_rows_of_a_local_sweep(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    text = TINY + "variants:\n  with-pmx: {crossover: {pmx: 0.5}}\n  with-shuffle: {mutation: {shuffle: 0.1}}\n"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        assert sweep(tmp_path, tmp_path / "dask", "--scheduler", cluster.scheduler_address,
                     text=text) == 0
    assert sweep(tmp_path, tmp_path / "local", "--workers", "2", text=text) == 0
    pd.testing.assert_frame_equal(rows(tmp_path / "dask"), rows(tmp_path / "local"))
    manifest = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert manifest["executor"].startswith("dask scheduler tcp://127.0.0.1:")


def test_a_dask_sweep_closes_its_client_before_the_exports(tmp_path, monkeypatch):
    """Its threads gone, the exports fork their workers and plots, as a local sweep's do
    (sweep.py, _sweep)."""
    distributed = pytest.importorskip("distributed")
    from gaqueens.reports import outputs
    from gaqueens.runtime import cluster

    clients, seen = [], []
    connect, write = cluster.connect, outputs.write
    monkeypatch.setattr(cluster, "connect", lambda *a: clients.append(connect(*a)) or clients[-1])
    monkeypatch.setattr(outputs, "write", lambda *a: seen.append(clients[0].status) or write(*a))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as dask:
        assert sweep(tmp_path, tmp_path / "dask", "--scheduler", dask.scheduler_address) == 0
    assert seen == ["closed"]


def test_dask_batches_go_out_a_few_at_a_time(tmp_path):
    """The sweep sends a Dask cluster a bounded number of batches, the next as each one's
    results arrive, and keeps no future of a batch whose results it has: the cluster holds a
    few batches' results, however many runs (cluster.dask_cluster)."""
    distributed = pytest.importorskip("distributed")
    from gaqueens.runtime.batches import batches
    from gaqueens.runtime.cluster import dask_cluster

    (tmp_path / "x.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 40}\nga: none\n"
                                     "baselines: [local-search]\n")
    experiment = load(tmp_path / "x.yaml")
    work = batches(experiment, experiment.tasks(), 20)
    assert len(work) == 40
    held, seeds = [], []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        for batch, finished in dask_cluster(work, client, in_flight=3):
            held.append(len(client.futures))
            seeds += [seed for seed, _ in finished]
    assert sorted(seeds) == list(range(1, 41))
    assert max(held) <= 3 + 1  # a dropped future reaches the client's own thread soon after


def test_an_unreachable_scheduler_is_refused_before_any_work(tmp_path, capsys):
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    assert sweep(tmp_path, out, "--scheduler", "tcp://127.0.0.1:9") == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "tcp://127.0.0.1:9" in error
    assert not out.exists()


# ---- what goes wrong, said in one line ----------------------------------------------------------

WITH_CONSTRUCTION = TINY + "baselines: [construction]\n"


def test_fresh_discards_only_the_runs_of_changed_settings(tmp_path, capsys):
    out = tmp_path / "out"
    assert sweep(tmp_path, out, text=WITH_CONSTRUCTION) == 0
    capsys.readouterr()
    changed = WITH_CONSTRUCTION + "ga: {ties: parents-first}\n"
    assert main([experiment_file(tmp_path, changed), "--out", str(out), "--fresh"]) == 0
    assert "2 of 14 runs stored, 12 to compute" in capsys.readouterr().err  # construction kept


def test_a_run_the_verifier_rejects_stops_the_sweep_in_one_line(tmp_path, capsys, monkeypatch):
    from gaqueens.core import algorithms
    from gaqueens.core.result import Result

    def liar(settings, board, seed):
        return Result(solved=True, conflicts=0, work=0, solution=np.arange(board))

    fake = algorithms.Algorithm(liar, algorithms.ALGORITHMS["construction"].settings, "none", True)
    monkeypatch.setitem(algorithms.ALGORITHMS, "construction", fake)
    out = tmp_path / "out"
    assert sweep(tmp_path, out, "--workers", "1", text="boards: [8]\nga: none\nbaselines: [construction]\n") == 1
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "verifier rejects construction on board 8" in error
    assert json.loads((out / "manifest.json").read_text())["status"].startswith("failed")
    assert not (out / "runs.csv").exists()


def test_a_folder_whose_store_is_not_one_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "runs.sqlite").write_text("not a database")
    assert sweep(tmp_path, out) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "runs.sqlite: not a store of gaqueens runs" in error


def test_an_experiment_without_search_has_no_work_distribution_to_plot(tmp_path):
    out = tmp_path / "out"
    assert sweep(tmp_path, out, text="boards: [8, 9]\nga: none\nbaselines: [construction]\n") == 0
    assert pd.read_csv(out / "runs.csv")["solved"].all()
    assert (out / "summary.md").exists() and not (out / "ecdf.png").exists()


# ---- a folder the sweep owns, and what it keeps of earlier sweeps ------------------------------


def committed_folder(tmp_path):
    """A copy of a committed results folder: outputs of a sweep, without its store (which a
    checkout where the folder was regenerated keeps beside them)."""
    import shutil
    from pathlib import Path

    return Path(shutil.copytree(Path(__file__).parents[1] / "results" / "table",
                                tmp_path / "table",
                                ignore=shutil.ignore_patterns("runs.sqlite*", "runs.lock")))


def contents(folder):
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_a_folder_of_outputs_without_their_store_is_refused_and_left_untouched(tmp_path, capsys):
    folder = committed_folder(tmp_path)
    before = contents(folder)
    assert main(["experiments/n8.yaml", "--out", str(folder), "--seeds", "1..3", "--quiet"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and str(folder) in error
    assert "runs.csv" in error and "no runs.sqlite" in error and "--fresh" in error
    assert contents(folder) == before  # not even a lock or a store is made
    assert main(["experiments/n8.yaml", "--out", str(folder), "--seeds", "1..3", "--quiet",
                 "--fresh"]) == 0
    assert len(pd.read_csv(folder / "runs.csv")) == 3 and (folder / "runs.sqlite").exists()


def test_a_grid_cell_with_the_ga_settings_shares_its_runs(tmp_path, capsys):
    text = "boards: [8]\nseeds: {first: 1, last: 4}\ngrid: {population: [10, 20]}\n"
    out = tmp_path / "out"
    assert main([experiment_file(tmp_path, text), "--out", str(out)]) == 0
    said = capsys.readouterr().err
    assert "0 of 12 runs stored, 8 to compute" in said
    assert "population=20 has the settings of ga and shares its runs" in said
    runs = rows(out).set_index(["algorithm", "board", "seed"])
    assert runs.loc["population=20"].equals(runs.loc["ga"])
    with Store(out) as store:  # a cell added later takes the ga's stored runs, computing none
        assert len(store.keys()) == 12
        store.db.execute("DELETE FROM runs WHERE algorithm = 'population=20'")
        store.db.commit()
    assert main([experiment_file(tmp_path, text), "--out", str(out)]) == 0
    assert "12 of 12 runs stored, 0 to compute" in capsys.readouterr().err
    assert rows(out).set_index(["algorithm", "board", "seed"]).loc["population=20"].equals(
        runs.loc["ga"])


def test_a_resumed_sweep_keeps_the_commands_that_made_its_runs(tmp_path):
    out = tmp_path / "out"
    assert sweep(tmp_path, out, "--seeds", "1..2") == 0
    first = json.loads((out / "manifest.json").read_text())
    assert sweep(tmp_path, out, "--seeds", "1..4") == 0
    second = json.loads((out / "manifest.json").read_text())
    assert second["runs_stored_before"] == 4 and "--seeds 1..4" in second["command"]
    assert [sweep["command"] for sweep in second["earlier"]] == [first["command"]]
    assert second["earlier"][0]["status"] == "complete"
    assert "--seeds 1..2" in second["earlier"][0]["command"]


def test_an_address_that_is_not_one_is_refused_at_once_in_one_line(tmp_path):
    pytest.importorskip("distributed")
    done = subprocess.run([sys.executable, "-m", "gaqueens.sweep", experiment_file(tmp_path),
                           "--out", str(tmp_path / "out"), "--scheduler", "notanaddress"],
                          capture_output=True, text=True, env=QUIET, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr  # no Client.__del__ traceback at exit
    assert "--scheduler notanaddress is not the address of a Dask scheduler" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_run_that_needs_more_memory_than_the_budget_is_refused_before_any_run(tmp_path, capsys):
    from gaqueens.core.algorithms import ALGORITHMS
    from gaqueens.runtime.execution import need

    out = tmp_path / "out"
    text = "boards: [8, 1000000]\nga: none\nbaselines: [local-search]\n"
    local_search = ALGORITHMS["local-search"]
    needed = need(local_search, local_search.settings(), 1_000_000)
    assert needed is not None and needed > 10**6
    assert sweep(tmp_path, out, "--memory-budget", "1MB", text=text) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert "local-search on board 1,000,000 needs about" in error and "budget of 1 MB" in error
    assert not out.exists()
    assert sweep(tmp_path, out, "--memory-budget", "1e3", text=text) == 2
    assert "--memory-budget must be a size such as 4GB" in capsys.readouterr().err
