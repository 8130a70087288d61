"""The 100,000-run sweep's measurement (python -m gaqueens.bench.scale), run small, and the
memory sampler it reads /proc with (gaqueens/bench/memory.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gaqueens.bench import memory, scale

pytestmark = [pytest.mark.bench,
              pytest.mark.skipif(memory.available() is not None, reason="needs Linux's /proc")]
HELD = 25_000_000 * 8  # the bytes of the array a child holds


def test_the_sampler_sees_the_memory_a_child_process_holds():
    # sampled below a parent of its own: this test process may hold children of other tests
    child = "import numpy, time; a = numpy.ones(25_000_000); time.sleep(0.5)"
    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time; "
                               "time.sleep(0.2); "
                               f"subprocess.run([sys.executable, '-c', {child!r}], check=True)"])
    sampler = memory.Sampler(root=parent.pid).start()
    assert parent.wait() == 0
    sampler.stop()
    assert HELD < sampler.peak_pss <= sampler.peak


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
    child = subprocess.Popen([sys.executable, "-c", "import numpy, sys, time; "
                              "a = numpy.ones(25_000_000); print(flush=True); time.sleep(30)"],
                             stdout=subprocess.PIPE)
    try:
        child.stdout.readline()  # its array is in memory
        assert memory.tree_pss() > HELD
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


def test_the_quick_measurement_states_each_figure_beside_its_goal_on_both_executors(tmp_path):
    pytest.importorskip("distributed")
    assert scale.main(["--quick", "--repeats", "1", "--out", str(tmp_path)]) == 0
    report = (tmp_path / "scale.md").read_text()
    assert "--quick: a smoke run" in report and "each sweep 1 repetition," in report
    rows = pd.read_csv(tmp_path / "scale.csv")
    assert list(rows.columns) == list(scale.COLUMNS)
    stored = rows[rows["figure"] == "runs stored"].set_index("executor")["value"]
    assert stored.to_dict() == {"local processes": 200, "Dask loopback": 200}
    for executor in scale.EXECUTORS:
        mine = rows[rows["executor"] == executor].set_index("figure")["value"]
        assert 0 < mine["sweep peak PSS"] <= mine["sweep peak RSS"]
        for kind in scale.AFTER:  # timed unsampled, their memory from a run sampled
            assert mine[f"{kind} wall time"] > 0
            assert 0 < mine[f"{kind} peak PSS"] <= mine[f"{kind} peak RSS"]
    dask = rows[rows["executor"] == "Dask loopback"].set_index("figure")["value"]
    assert dask["cluster PSS before the sweep"] > 0 and dask["cluster PSS after the sweep"] > 0
    goals = pd.read_csv(tmp_path / "goals.csv", keep_default_na=False)
    assert list(goals.columns) == ["figure", "measured", "goal", "met"]
    assert len(goals) == 2 * len(scale.GOALS)  # every goal, on each executor
    assert set(goals["goal"]) == {"at most 100 s", "at most 15 s", "at most 1000 MB"}
    assert set(goals["met"]) <= {"met", "met at the median", "not met"}
    for goal in goals.itertuples():
        assert f"- {goal.figure}: {goal.measured}; goal {goal.goal}: {goal.met}" in report


def test_a_missing_file_is_bad_input_and_a_sweep_that_fails_a_fault(tmp_path, capsys):
    missing = str(tmp_path / "missing.yaml")
    with pytest.raises(SystemExit) as stop:
        scale.main(["--file", missing, "--quick", "--repeats", "1", "--no-dask"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "missing.yaml: no such experiment file" in error
    broken = tmp_path / "broken.yaml"
    broken.write_text("boards: [8\nseeds: 1\n")
    assert scale.main(["--file", str(broken), "--quick", "--repeats", "1", "--no-dask"]) == 3
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("error: ") and "not valid YAML" in error
