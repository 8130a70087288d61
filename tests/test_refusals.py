"""Input refused before any work, in one line, exit 2 (README, "Commands"): an experiment file
that is not a regular file, a file to write that is a folder or in a folder that does not
exist, an --out folder that no sweep wrote; and --workers above what the work can use brought
down to it, and said (gaqueens/core/files.py, experiment/yaml_file.py, sweep.py, run.py,
count.py, runtime/executors.py)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gaqueens import cli, count, fidelity, run, sweep
from gaqueens.experiment import load
from gaqueens.runtime import executors
from sweeps import QUIET, TINY, experiment_file

REPOSITORY = Path(__file__).resolve().parents[1]
posix = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def one_line(capsys) -> str:
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1, error
    return error


# ---- the experiment file ------------------------------------------------------------------------


def sweep_of(tmp_path, file, **popen):
    """``python -m gaqueens.sweep FILE`` in a process of its own (a FIFO read here would block
    this test until a writer came)."""
    return subprocess.run([sys.executable, "-m", "gaqueens.sweep", str(file), "--out",
                           str(tmp_path / "out"), "--quiet"], capture_output=True, text=True,
                          env=QUIET, timeout=600, **popen)


@posix
def test_a_fifo_as_the_experiment_file_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "experiment.yaml"
    os.mkfifo(fifo)
    done = sweep_of(tmp_path, fifo)
    assert done.returncode == cli.BAD_INPUT
    assert done.stderr == (f"error: {fifo}: is a pipe or FIFO, expected an experiment file "
                           "(YAML) in a regular file\n")
    assert not (tmp_path / "out").exists()


@posix
def test_a_pipe_as_the_experiment_file_is_refused(tmp_path):
    """/dev/stdin reading a pipe, as `cat n8.yaml | python -m gaqueens.sweep /dev/stdin`."""
    done = sweep_of(tmp_path, "/dev/stdin", input=TINY)
    assert done.returncode == cli.BAD_INPUT
    assert done.stderr.endswith("/dev/stdin: is a pipe or FIFO, expected an experiment file "
                                "(YAML) in a regular file\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("path, said", [("/dev/null", "is a device"), (".", "is a folder")])
def test_what_is_not_a_regular_file_is_refused_as_the_experiment_file(tmp_path, capsys, path,
                                                                       said):
    if not Path(path).exists():
        pytest.skip(f"no {path} here")
    out = tmp_path / "out"
    assert sweep.main([path, "--out", str(out), "--quiet"]) == cli.BAD_INPUT
    assert one_line(capsys).startswith(f"error: {path}: {said}, expected an experiment file")
    assert not out.exists()


# ---- files to write -----------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--trace", "--html"])
def test_run_refuses_a_file_to_write_that_is_a_folder_before_the_run(tmp_path, capsys, option):
    assert run.main(["--board", "8", option, str(tmp_path)]) == cli.BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""  # the run did not run
    assert captured.err == f"error: {option} {tmp_path}: is a folder, expected a file\n"


@pytest.mark.parametrize("option", ["--trace", "--html"])
def test_run_refuses_a_file_in_a_folder_that_does_not_exist_before_the_run(tmp_path, capsys,
                                                                          option):
    path = tmp_path / "absent" / "run.out"
    assert run.main(["--board", "8", option, str(path)]) == cli.BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"error: {option} {path}: its folder {path.parent} does not "
                            "exist\n")


@posix
def test_run_refuses_a_fifo_to_write_the_trace_to(tmp_path, capsys):
    fifo = tmp_path / "trace"
    os.mkfifo(fifo)
    assert run.main(["--board", "8", "--trace", str(fifo)]) == cli.BAD_INPUT
    assert one_line(capsys) == (f"error: --trace {fifo}: is a pipe or FIFO, expected a "
                                "regular file")


def test_count_refuses_a_page_that_is_a_folder_before_counting(tmp_path, capsys):
    assert count.main(["6", "--list", "--html", str(tmp_path)]) == cli.BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing listed
    assert captured.err == f"error: --html {tmp_path}: is a folder, expected a file\n"


# ---- a folder the sweep does not own ------------------------------------------------------------


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_folder_of_other_files_is_refused_untouched_unless_mixed_folder(tmp_path, capsys):
    """`--out .` from a user's project folder: refused, nothing written; --mixed-folder writes
    the sweep's files among the user's, which it leaves alone."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.py").write_text("print('mine')\n")
    (project / "README.md").write_text("# notes\n")
    before = files(project)
    file = experiment_file(tmp_path)
    assert sweep.main([file, "--out", str(project), "--quiet"]) == cli.BAD_INPUT
    assert one_line(capsys) == (
        f"error: {project}: holds README.md, main.py but no runs.sqlite, so no sweep wrote it; "
        "choose a new or empty --out, or add --mixed-folder to write the sweep's files among "
        "these (they are left alone)")
    assert files(project) == before
    assert sweep.main([file, "--out", str(project), "--quiet", "--mixed-folder"]) == cli.DONE
    after = files(project)
    assert {name: after[name] for name in before} == before
    assert "runs.sqlite" in after and "summary.csv" in after
    capsys.readouterr()
    assert sweep.main([file, "--out", str(project), "--quiet"]) == cli.DONE  # its store: its own


def test_an_empty_folder_and_a_sweeps_own_folder_are_taken_as_they_are(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert sweep.owned_problem(empty, fresh=False) is None
    assert sweep.owned_problem(tmp_path / "new", fresh=False) is None
    (empty / "runs.sqlite").write_bytes(b"")
    (empty / "notes.txt").write_text("the user's, beside a store\n")
    assert sweep.owned_problem(empty, fresh=False) is None


def test_a_committed_results_folder_needs_fresh_and_other_files_in_it_mixed_folder(tmp_path):
    """results/table is a sweep's outputs without their store: --fresh replaces them, as
    `python -m gaqueens.sweep experiments/table.yaml --fresh` does for results/table; a file of
    the user's among them needs --mixed-folder too."""
    experiment = load(REPOSITORY / "experiments" / "table.yaml")
    assert experiment.output.resolve() == (REPOSITORY / "results" / "table").resolve()
    committed = tmp_path / "committed"  # as a checkout has it: a sweep here keeps its store
    shutil.copytree(experiment.output, committed,
                    ignore=shutil.ignore_patterns("runs.sqlite*", "*.lock"))
    assert sweep.owned_problem(committed, fresh=True) is None
    assert "add --fresh to replace them" in sweep.owned_problem(committed, fresh=False)
    copy = tmp_path / "table"
    shutil.copytree(committed, copy)
    (copy / "runs.csv.partial.csv").write_text("left by an interrupted sweep of old\n")
    assert sweep.owned_problem(copy, fresh=True) is None
    (copy / "notes.md").write_text("mine\n")
    assert "holds notes.md but no runs.sqlite" in sweep.owned_problem(copy, fresh=True)
    assert sweep.owned_problem(copy, fresh=True, mixed_folder=True) is None


# ---- workers ------------------------------------------------------------------------------------


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)


def test_processes_are_at_most_one_a_task_and_per_core_a_core(two_cores):
    most = executors.PER_CORE * 2
    assert executors.processes(2, 100) == (2, None)
    assert executors.processes(most, 100) == (most, None)
    assert executors.processes(1000, 64) == (most, (
        f"1000 is more than the work can use: {most} worker processes, {executors.PER_CORE} "
        "for each of this machine's 2 cores (more would only share them)"))
    assert executors.processes(6, 5) == (5, "6 is more than the work can use: 5 worker "
                                            "processes, one for each of the 5 runs")
    assert executors.processes(3, 1) == (1, "3 is more than the work can use: 1 worker "
                                            "process, one for each of the 1 runs")


def test_a_sweep_asked_for_more_workers_than_it_can_use_starts_fewer_and_says_so(
        tmp_path, two_cores, monkeypatch):
    started = []
    real = executors.local_pool

    def pool(batches, workers, later=0):
        started.append(workers)
        return real(batches, workers, later)

    monkeypatch.setattr(executors, "local_pool", pool)
    said = []
    experiment = load(experiment_file(tmp_path, "boards: [8]\nseeds: {first: 1, last: 64}\n"),
                      output=tmp_path / "out")
    sweep.run_sweep(experiment, workers=1000, progress=False, say=said.append)
    most = executors.PER_CORE * 2
    assert said[0] == (f"--workers 1000 is more than the work can use: {most} worker processes, "
                       f"{executors.PER_CORE} for each of this machine's 2 cores (more would "
                       "only share them)")
    assert started and started[0] <= most
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["executor"] == f"{most} local processes"


def test_fidelity_asked_for_more_workers_than_tasks_starts_one_a_task_and_says_so(
        tmp_path, capsys, two_cores):
    out = tmp_path / "fidelity"
    assert fidelity.main(["--seeds", "1..100", "--boards", "8", "--workers", "5", "--out",
                          str(out)]) == cli.DONE
    assert capsys.readouterr().err == ("--workers 5 is more than the work can use: 2 worker "
                                       "processes, one for each of the 2 tasks of a board's 50 "
                                       "seeds\n")
