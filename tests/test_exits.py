"""Exit statuses that mean one thing each, for every command (gaqueens/cli.py; README,
"Commands"): 0 done, 1 a verifier's rejection, 2 bad input, 3 a fault with one line and its
traceback in error.log, 130 interrupted."""

import tempfile
import sys

import pytest

from gaqueens import cli, count, run, sweep, verify
from gaqueens.reports import outputs
from sweeps import experiment_file


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
    assert "interrupted" in capsys.readouterr().err


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
