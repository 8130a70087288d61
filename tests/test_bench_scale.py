"""The 100,000-run sweep's measurement (python -m gaqueens.bench.scale), run small, and the
memory sampler it reads /proc with."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gaqueens.bench import memory, scale
from gaqueens.bench.common import pyarrow_warning

pytestmark = pytest.mark.skipif(memory.available() is not None, reason="needs Linux's /proc")


def test_the_sampler_sees_the_memory_a_child_process_holds():
    # sampled below a parent of its own: this test process may hold children of other tests
    # (a process pool's forkserver), which the sampler would count too
    child = ("import numpy, time; a = numpy.ones(25_000_000); time.sleep(0.5)")
    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time; time.sleep(0.2); "
                               f"subprocess.run([sys.executable, '-c', {child!r}], check=True)"])
    sampler = memory.Sampler(root=parent.pid).start()
    assert parent.wait() == 0
    sampler.stop()
    held = 25_000_000 * 8
    assert held < sampler.peak_pss <= sampler.peak < held + 150 * memory.MB
    assert held < sampler.largest < held + 150 * memory.MB


def test_a_process_ending_while_its_tree_is_walked_has_no_descendants(monkeypatch):
    # /proc/PID/task of a process being reaped raises ESRCH (ProcessLookupError), not ENOENT
    gone = f"/proc/{os.getpid()}/task"
    listed = Path.iterdir

    def iterdir(self):
        if str(self) == gone:
            raise ProcessLookupError(3, "No such process", gone)
        return listed(self)

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in memory.descendants(os.getpid())
        monkeypatch.setattr(Path, "iterdir", iterdir)
        assert memory.descendants(os.getpid()) == []
    finally:
        child.kill()
        child.wait()


def test_one_sample_of_a_tree_counts_what_a_child_holds():
    held = 25_000_000 * 8
    child = subprocess.Popen([sys.executable, "-c", "import numpy, sys, time; "
                              "a = numpy.ones(25_000_000); print(flush=True); time.sleep(30)"],
                             stdout=subprocess.PIPE)
    try:
        child.stdout.readline()  # its array is in memory
        assert memory.tree_pss() > held
    finally:
        child.kill()
        child.wait()


def test_a_sampler_that_fails_says_so_when_stopped(monkeypatch):
    def fails(pid):
        raise ProcessLookupError(3, "No such process")

    monkeypatch.setattr(memory, "descendants", fails)
    sampler = memory.Sampler().start()
    with pytest.raises(RuntimeError, match="sampling the memory .* failed: ProcessLookupError"):
        sampler.stop()


def test_the_quick_measurement_reports_each_figure_beside_its_goal(tmp_path, capsys):
    # local processes only: a sweep on Dask is tested in tests/test_sweep.py
    assert scale.main(["--quick", "--repeats", "1", "--no-dask", "--out", str(tmp_path)]) == 0
    report = (tmp_path / "scale.md").read_text()
    assert "--quick: a smoke run" in report
    # the warning, said where pyarrow is installed (the tests' extra brings it)
    assert report.splitlines()[1:2] == ([pyarrow_warning()] if pyarrow_warning() else [""])
    assert "| figure | local processes | goal | verdict |" in report
    assert "| runs stored | 200 |" in report
    for goal in ("under 1,000 MB", "above the rate runs are computed", "within 100 s",
                 "within 15 s (median)"):
        assert goal in report
    lines = [line for line in report.splitlines() if "within 15 s (median)" in line]
    assert len(lines) == 3  # the exports, the IOH export and verify, each with its verdict
    assert all(line.rstrip(" |").endswith(("met", "not met**")) for line in lines)
    rows = pd.read_csv(tmp_path / "scale.csv")
    assert list(rows.columns) == list(scale.COLUMNS)
    stored = rows[rows["figure"] == "runs stored"].set_index("executor")["value"]
    assert stored.to_dict() == {"local processes": 200}
    for executor in ("local processes",):
        mine = rows[rows["executor"] == executor].set_index("figure")["value"]
        assert mine["sweep wall"] > 0 and mine["exports wall"] > 0 and mine["export wall"] > 0
        assert 0 < mine["peak PSS, sum over the processes"] <= mine[
            "peak RSS, sum over the processes"]
        for kind in ("exports", "export", "verify"):  # timed unsampled, memory from a run sampled
            assert mine[f"{kind} wall, sampled"] > 0
            assert 0 < mine[f"{kind} peak PSS, sum"] <= mine[f"{kind} peak RSS, sum"]
    assert "with no sampling (it costs them time)" in report
    assert (rows.loc[rows["executor"] == "store alone", "value"] > 0).all()
    goals = pd.read_csv(tmp_path / "goals.csv", keep_default_na=False)
    assert list(goals.columns) == ["figure", "measured", "goal", "met"]
    assert {met.split(":")[0] for met in goals["met"]} <= {"met", "met at the median", "not met"}
    assert "within 100 s" in set(goals["goal"])


def test_the_dask_half_measures_a_fresh_cluster_before_and_after_each_sweep(tmp_path):
    pytest.importorskip("distributed")
    assert scale.main(["--quick", "--repeats", "2", "--out", str(tmp_path)]) == 0
    rows = pd.read_csv(tmp_path / "scale.csv")
    for repetition in (1, 2):  # each sweep on each executor, each Dask one on its own cluster
        mine = rows[rows["repetition"] == repetition]
        for executor in ("local processes", "Dask loopback"):
            measured = mine[mine["executor"] == executor].set_index("figure")["value"]
            assert measured["runs stored"] == 200 and measured["sweep wall"] > 0
        dask = mine[mine["executor"] == "Dask loopback"].set_index("figure")["value"]
        before, after = (dask[f"cluster PSS, sum, {when} the sweep"]
                         for when in ("before", "after"))
        assert 0 < before <= after < dask["peak PSS, sum over the processes"]
    report = (tmp_path / "scale.md").read_text()
    assert "each sweep 2 times, the executors alternating: median (min..max)" in report
    assert "| figure | local processes | Dask loopback | goal | verdict |" in report
    assert "the Dask cluster's own processes (scheduler, workers), PSS summed" in report
    wall = next(line for line in report.splitlines() if line.startswith("| sweep wall"))
    assert wall.count("..") == 2  # a spread per executor


def test_a_missing_file_or_a_sweep_that_fails_is_one_line(tmp_path, capsys):
    missing = str(tmp_path / "missing.yaml")
    assert scale.main(["--file", missing, "--quick", "--repeats", "1", "--no-dask"]) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("error: ") and "missing.yaml: no such experiment file" in error
    broken = tmp_path / "broken.yaml"
    broken.write_text("boards: [8\nseeds: 1\n")
    assert scale.main(["--file", str(broken), "--quick", "--repeats", "1", "--no-dask"]) == 3
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("error: ") and "not valid YAML" in error


def test_a_goal_met_by_one_executor_only_is_not_met_and_says_which():
    from gaqueens.bench.scale_report import _met_by

    assert _met_by({"local processes": True, "Dask loopback": True}) == "met"
    assert _met_by({"local processes": False, "Dask loopback": False}) == "**not met**"
    assert _met_by({"local processes": True, "Dask loopback": False}) == (
        "**not met**: local processes met, Dask loopback not met")
    # verdicts over repetitions (bench.common.verdict): the worst stands, each said
    assert _met_by({"local processes": "met", "Dask loopback": "met at the median"}) == (
        "met at the median: local processes met, Dask loopback met at the median")
    assert _met_by({"local processes": "met at the median", "Dask loopback": "not met"}) == (
        "**not met**: local processes met at the median, Dask loopback not met")
    assert _met_by({"local processes": "met at the median"}) == "met at the median"
