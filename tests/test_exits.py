"""Exit statuses that mean one thing each, for every command (gaqueens/cli.py; README,
"Commands"): 0 done, 1 a verifier's rejection, 2 bad input, 3 a fault with one line and its
traceback in error.log (a plug-in's SystemExit among them), 130 interrupted; and output that
cannot be written (stdout or stderr closed, or their reader gone) changing none of them.
(tests/test_signals.py: Ctrl-C and SIGTERM in every phase of every command.)"""

import json
import os
import shutil
import subprocess
import tempfile
import sys
import uuid
from pathlib import Path

import pytest

from gaqueens import cli, count, run, sweep, verify
from gaqueens.reports import outputs
from sweeps import QUIET, experiment_file, finished_sweep


def boom(*args, **kwargs):
    raise RuntimeError("something nobody expected\non two lines")


def interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.fixture
def temporary(tmp_path, monkeypatch):
    """The system's temporary folder, for the logs of commands without an output folder."""
    folder = tmp_path / "temporary"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


COMMANDS = [
    (run, "execute", ["--board", "8"]),
    (count, "count", ["8"]),
    (verify, "verify_folder", ["."]),
]


@pytest.mark.parametrize("module, function, argv", COMMANDS)
def test_an_unexpected_error_exits_3_in_one_line_with_its_traceback_logged(
        capsys, monkeypatch, temporary, module, function, argv):
    monkeypatch.setattr(module, function, boom)
    assert module.main(argv) == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "Traceback" not in error
    assert "unexpected RuntimeError" in error and "something nobody expected; on two lines" in error
    logs = list(temporary.glob("gaqueens-*-error.log"))
    assert len(logs) == 1 and f"the traceback is in {logs[0]}" in error
    assert "Traceback" in logs[0].read_text() and "something nobody expected" in logs[0].read_text()


@pytest.mark.parametrize("module, function, argv", COMMANDS)
def test_ctrl_c_exits_130(capsys, monkeypatch, module, function, argv):
    monkeypatch.setattr(module, function, interrupt)
    assert module.main(argv) == cli.INTERRUPTED
    assert capsys.readouterr().err == "interrupted\n"  # one line: stderr is no terminal


def exits(*args, **kwargs):
    sys.exit(0)


@pytest.mark.parametrize("module, function, argv", COMMANDS)
def test_a_systemexit_inside_a_command_is_a_fault_never_done(
        capsys, monkeypatch, temporary, module, function, argv):
    """A command's own statuses are returned, never raised: a SystemExit that its work meets
    (code it called tried to end it) is a fault naming where it was raised."""
    monkeypatch.setattr(module, function, exits)
    assert module.main(argv) == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert error.startswith(f"error: {__name__} ({__file__}, line ")
    assert "raised SystemExit(0) in the command" in error


def test_a_sweep_that_meets_an_unexpected_error_logs_it_in_its_folder(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    file = experiment_file(tmp_path)
    monkeypatch.setattr(outputs, "write", boom)
    argv = [file, "--out", str(out), "--workers", "1", "--quiet"]
    monkeypatch.setattr(sys, "argv", ["gaqueens.sweep", *argv])  # the log's first line
    assert sweep.main(argv) == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert error == ("error: unexpected RuntimeError: something nobody expected; on two lines; the "
                     "runs stored so far are kept: run the same command again to go on; the "
                     f"traceback is in {out / 'error.log'}")
    log = (out / "error.log").read_text()
    assert log.splitlines()[0].endswith(" ".join(["gaqueens.sweep", *argv])) and "in boom" in log
    monkeypatch.undo()
    assert sweep.main([file, "--out", str(out), "--quiet"]) == cli.DONE
    assert not (out / "error.log").exists()


def test_a_fault_whose_log_cannot_be_written_still_says_it_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "absent"))
    code = cli.fault("the disk is full", OSError(28, "No space left on device"),
                     tmp_path / "also-absent")
    assert code == cli.FAULT
    assert capsys.readouterr().err == "error: the disk is full\n"


def test_usage_errors_exit_2_for_every_command(capsys):
    for module in (run, count, verify, sweep):
        with pytest.raises(SystemExit) as exit:
            module.main(["--no-such-option"])
        assert exit.value.code == cli.BAD_INPUT
        assert len(capsys.readouterr().err.strip().splitlines()) == 1


# ---- a plug-in's SystemExit, or its own KeyboardInterrupt, in a run -----------------------------

EXITING = """\
import os, sys
from gaqueens.baselines import local_search
from gaqueens.baselines.local_search import Settings, UNIT

def run(settings, board, seed):
    if seed == 7:
        if os.environ.get("GAQUEENS_TEST_HOW") == "interrupt":
            raise KeyboardInterrupt
        if os.environ.get("GAQUEENS_TEST_HOW") == "helper":
            import HELPER
            HELPER.stop()
        sys.exit(0)
    return local_search.run(settings, board, seed)
"""
HELPER = "import sys\n\ndef stop():\n    sys.exit(3)\n"
PLUGGED = ("boards: [8]\nseeds: {first: 1, last: 20}\nga: none\n"
           "baselines: {exiting: {plugin: SOLVER}}\n")


class Exiting:
    """The files of a plug-in solver and of a helper module it calls, named for one test (the
    loaded plug-ins are kept for the process, by name)."""

    def __init__(self, folder: Path, tag: str):
        self.solver, self.helper = f"exiting_solver_{tag}", f"exiting_helper_{tag}"
        self.path = folder / f"{self.solver}.py"
        self.helper_path = folder / f"{self.helper}.py"
        self.path.write_text(EXITING.replace("HELPER", self.helper))
        self.helper_path.write_text(HELPER)

    def experiment(self, tmp_path) -> str:
        return experiment_file(tmp_path, PLUGGED.replace("SOLVER", self.solver))


@pytest.fixture
def exiting(tmp_path, monkeypatch):
    """A plug-in solver that calls sys.exit(0) on seed 7 (or raises KeyboardInterrupt, with
    GAQUEENS_TEST_HOW=interrupt, or has a helper module call sys.exit(3), with helper),
    importable here and in the processes this one starts."""
    folder = tmp_path / "plugin"
    folder.mkdir()
    plugin = Exiting(folder, uuid.uuid4().hex[:12])
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("PYTHONPATH",
                       os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]))
    return plugin


@pytest.mark.parametrize("how", ["exit", "interrupt"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_plugins_systemexit_or_own_keyboardinterrupt_in_a_run_is_a_fault_naming_it(
        tmp_path, capsys, monkeypatch, exiting, how, workers):
    """In this process or in a worker, sys.exit(0) in a plug-in's run, or a KeyboardInterrupt
    it raises itself (no signal came), is exit 3 in one line naming the plug-in's module, file
    and line and the runs; the runs stored before are kept (runtime/execution.py)."""
    monkeypatch.setenv("GAQUEENS_TEST_HOW", how)
    out = tmp_path / "out"
    argv = [exiting.experiment(tmp_path), "--out", str(out), "--workers", workers, "--quiet"]
    assert sweep.main(argv) == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "Traceback" not in error
    line = 12 if how == "exit" else 8
    raised = ("SystemExit(0)" if how == "exit"
              else "KeyboardInterrupt, with no Ctrl-C or SIGTERM,")
    assert error.startswith(f"error: {exiting.solver} ({exiting.path}, line {line}) raised "
                            f"{raised} in the runs of exiting on board 8, seeds ")
    assert "will raise again until its code or settings change" in error
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"].startswith(f"failed: {exiting.solver} (")
    assert exiting.path.name in (out / "error.log").read_text()


@pytest.mark.parametrize("how", ["exit", "interrupt"])
def test_a_plugins_systemexit_on_a_dask_worker_is_a_fault_naming_it(tmp_path, capsys, monkeypatch,
                                                                   exiting, how):
    """On Dask, as in a local worker: the batch's fault comes back as its result and is raised
    here (runtime/cluster.py), the worker kept."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("GAQUEENS_TEST_HOW", how)
    out = tmp_path / "out"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        code = sweep.main([exiting.experiment(tmp_path), "--out", str(out), "--quiet",
                           "--scheduler", cluster.scheduler_address])
    assert code == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1, error
    line = 12 if how == "exit" else 8
    assert error.startswith(f"error: {exiting.solver} ({exiting.path}, line {line}) raised ")
    assert "in the runs of exiting on board 8, seeds " in error
    assert exiting.solver in (out / "error.log").read_text()


def test_a_plugins_systemexit_in_a_single_run_is_a_fault(tmp_path, capsys, temporary, exiting):
    file = exiting.experiment(tmp_path)
    assert run.main([file, "--algorithm", "exiting", "--board", "8", "--seed", "7"]) == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert error.startswith(f"error: {exiting.solver} ({exiting.path}, line 12) raised "
                            "SystemExit(0) in the run on board 8, seed 7")


def test_a_plugin_that_calls_sys_exit_as_it_is_imported_is_a_fault_never_done(
        tmp_path, capsys, monkeypatch, temporary):
    name = f"exits_at_import_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{name}.py").write_text("import sys\nsys.exit(0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "out"
    file = experiment_file(tmp_path, PLUGGED.replace("SOLVER", name))
    assert sweep.main([file, "--out", str(out), "--quiet"]) == cli.FAULT
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and name in error
    assert not out.exists()


def test_a_systemexit_from_a_module_a_plugin_calls_names_both(tmp_path, capsys, monkeypatch,
                                                             exiting):
    monkeypatch.setenv("GAQUEENS_TEST_HOW", "helper")
    out = tmp_path / "out"
    assert sweep.main([exiting.experiment(tmp_path), "--out", str(out), "--workers", "1",
                       "--quiet"]) == cli.FAULT
    assert capsys.readouterr().err.startswith(
        f"error: {exiting.helper} ({exiting.helper_path}, line 4), called through "
        f"{exiting.solver} raised SystemExit(3) in the runs of exiting on board 8, seeds ")


def test_a_keyboardinterrupt_that_a_signal_raised_in_a_run_is_an_interruption(
        tmp_path, capsys, monkeypatch):
    """Ctrl-C while a run computes here (the plug-in's code stands in for wherever it lands):
    130, never a fault."""
    import signal

    from gaqueens.runtime import execution

    real = execution._timed

    def pressed(algorithm, settings, board, seed):
        if seed == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return real(algorithm, settings, board, seed)

    monkeypatch.setattr(execution, "_timed", pressed)
    text = "boards: [8]\nseeds: {first: 1, last: 20}\nga: none\nbaselines: [local-search]\n"
    out = tmp_path / "out"
    assert sweep.main([experiment_file(tmp_path, text), "--out", str(out), "--workers", "1",
                       "--quiet"]) == cli.INTERRUPTED
    assert capsys.readouterr().err.startswith("interrupted: the runs stored so far are kept")


# ---- output nobody reads ----------------------------------------------------------------------

STREAMS = ["stdout closed", "stderr closed", "stdout's reader gone", "stderr's reader gone"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    return finished_sweep(tmp_path_factory)


def command_with(streams: str, argv, cwd):
    """``python -m gaqueens.ARGV`` with stdout or stderr closed, or a pipe whose reader has
    already gone (every write to it fails with EPIPE, as after ``| head -c1``)."""
    stream = 1 if streams.startswith("stdout") else 2
    other = {"stderr" if stream == 1 else "stdout": subprocess.PIPE}
    if streams.endswith("closed"):
        return subprocess.run([sys.executable, "-m", *argv], cwd=cwd, env=QUIET, text=True,
                              preexec_fn=lambda: os.close(stream), timeout=600, **other), ""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, "-m", *argv], cwd=cwd, env=QUIET, text=True,
                              timeout=600, **{"stdout" if stream == 1 else "stderr": writer},
                              **other)
    finally:
        os.close(writer)
    return done, ""


COMMAND_LINES = {  # each command, and the file it writes (None: it writes none)
    "sweep": (["gaqueens.sweep", "tiny.yaml", "--out", "new", "--workers", "2"],
              "new/index.html"),
    "run": (["gaqueens.run", "--board", "8", "--trace", "run.trace", "--html", "run.html"],
            "run.html"),
    "report": (["gaqueens.report", "out"], None),
    "export": (["gaqueens.export", "out", "--out", "ioh"], "ioh/gaqueens-export.txt"),
    "verify": (["gaqueens.verify", "out"], None),
    "count": (["gaqueens.count", "8"], None),
    "count --list --html": (["gaqueens.count", "8", "--list", "--html", "solutions.html"],
                            "solutions.html"),
    "fidelity": (["gaqueens.fidelity", "--seeds", "1..50", "--boards", "8", "--out", "fid"],
                 "fid/fidelity.md"),
}


@pytest.mark.parametrize("streams", STREAMS)
@pytest.mark.parametrize("name", list(COMMAND_LINES))
def test_output_nobody_reads_never_changes_the_status_of_work_done(tmp_path, swept, name,
                                                                    streams):
    """Every command, with stdout or stderr closed (``>&-``, ``2>&-``) or their reader gone
    (``| head -c1``): its work all done, exit 0, no traceback (cli.command, cli.Unbroken)."""
    experiment_file(tmp_path)
    shutil.copytree(swept, tmp_path / "out")
    argv, made = COMMAND_LINES[name]
    done, _ = command_with(streams, argv, tmp_path)
    said = done.stderr if done.stderr is not None else done.stdout
    assert done.returncode == 0, said
    assert "Traceback" not in (said or "") and "Exception ignored" not in (said or "")
    if made:
        assert (tmp_path / made).stat().st_size > 0
    if name == "sweep":
        assert json.loads((tmp_path / "new" / "manifest.json").read_text())["status"] == \
            "complete"


@pytest.mark.parametrize("streams", STREAMS)
def test_output_nobody_reads_never_changes_a_status_of_bad_input_either(tmp_path, streams):
    done, _ = command_with(streams, ["gaqueens.run", "--board", "2"], tmp_path)
    assert done.returncode == cli.BAD_INPUT
