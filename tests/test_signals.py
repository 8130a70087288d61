"""Ctrl-C and SIGTERM at any moment of any command: exit 130, one line, no partial file left
behind, earlier outputs intact (README, "Commands"; gaqueens/cli.py, runtime/signals.py,
core/files.py, reports/ioh.py).

Each command runs in a process of its own, in a session of its own, with one function wrapped
(HOOK): the first call whose arguments name a given thing sends the signal first, to the
command itself, to its whole process group (as a terminal's Ctrl-C does), or, from a process
the command forked (a plot's), to the command, the plot then waiting to be ended. The signal
thus lands at a chosen point of the work, never after a sleep."""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gaqueens.sweep import main as sweep
from sweeps import QUIET, experiment_file, finished_sweep

linux = pytest.mark.skipif(sys.platform != "linux", reason="finds processes through /proc")

HOOK = """\
import functools, importlib, os, runpy, signal, sys

where, match, name, whom, mark, command, *args = sys.argv[1:]
MAIN = os.getpid()
path, _, attribute = where.partition(":")
owner = importlib.import_module(path)
*parents, leaf = attribute.split(".")
for part in parents:
    owner = getattr(owner, part)
real = getattr(owner, leaf)
fired = []

@functools.wraps(real)
def hooked(*a, **k):
    if not fired and match in " ".join(map(str, a)):
        fired.append(1)
        with open(mark, "w") as file:
            file.write("main" if os.getpid() == MAIN else "child")
        number = getattr(signal, name)
        if whom == "group":
            os.killpg(0, number)
        elif os.getpid() != MAIN:  # a process the command forked: it tells the command, and
            os.kill(MAIN, number)  # waits to be ended by it
            signal.pause()
        else:
            os.kill(MAIN, number)
    return real(*a, **k)

setattr(owner, leaf, hooked)
sys.argv = [command, *args]
runpy.run_module(f"gaqueens.{command}", run_name="__main__", alter_sys=True)
"""

SIGNALS = ["SIGINT", "SIGTERM"]
TINY = "boards: [8]\nseeds: {first: 1, last: 12}\n"


def interrupt(tmp_path, where, match, name, command, *args, whom="self"):
    """Runs ``python -m gaqueens.COMMAND ARGS`` with ``where`` (module:attribute) wrapped to
    send signal ``name`` to ``whom`` at its first call naming ``match``; returns the finished
    process and which process the signal was sent from ("main" or "child", "" if never)."""
    script, mark = tmp_path / "hook.py", tmp_path / "hooked"
    script.write_text(HOOK)
    mark.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, str(script), where, match, name, whom, str(mark), command,
         *map(str, args)], capture_output=True, text=True, env=QUIET, start_new_session=True,
        cwd=tmp_path, timeout=600)
    return done, mark.read_text() if mark.exists() else ""


def partials(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if ".partial" in p.name)


def interrupted_in_one_line(done, line="interrupted"):
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == [line], done.stderr


def left_running(marker: str) -> list[int]:
    """The processes whose command line names ``marker`` (an output folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            pass
    return found


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A finished sweep's folder (with its store), to be copied and interrupted in."""
    return finished_sweep(tmp_path_factory, TINY)


def copy(swept, tmp_path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(swept, out)
    return out


STORED = "interrupted: the runs stored so far are kept; run the same command again to resume"


# ---- sweep, in each phase ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SIGNALS)
def test_a_sweep_interrupted_while_it_loads_its_file_stores_nothing(tmp_path, name):
    out = tmp_path / "out"
    done, _ = interrupt(tmp_path, "gaqueens.experiment:load", "", name, "sweep",
                        experiment_file(tmp_path, TINY), "--out", out, "--quiet")
    interrupted_in_one_line(done, "interrupted: nothing was stored")
    assert not out.exists()


@pytest.mark.parametrize("name", SIGNALS)
def test_a_sweep_interrupted_while_it_imports_a_plugin_is_interrupted_not_a_fault(tmp_path,
                                                                                 name):
    """The signal comes as a plug-in is imported (its module sends it): the user's, not the
    plug-in's KeyboardInterrupt (core/registry.py tells them apart)."""
    (tmp_path / "signalled_solver.py").write_text(
        f"import os, signal\nos.kill(os.getpid(), signal.{name})\n"
        "from gaqueens.baselines.local_search import Settings, UNIT, run\n")
    text = ("boards: [8]\nseeds: {first: 1, last: 5}\nga: none\n"
            "baselines: {signalled: {plugin: signalled_solver}}\n")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "gaqueens.sweep", experiment_file(tmp_path, text), "--out",
         str(out), "--quiet"], capture_output=True, text=True, timeout=600,
        env={**QUIET, "PYTHONPATH": os.pathsep.join([str(tmp_path),
                                                    QUIET.get("PYTHONPATH", "")])})
    interrupted_in_one_line(done, "interrupted: nothing was stored")
    assert not out.exists()


@pytest.mark.parametrize("name", SIGNALS)
@pytest.mark.parametrize("workers, whom", [("1", "self"), ("2", "group")])
def test_a_sweep_interrupted_while_it_computes_keeps_the_runs_stored(tmp_path, name, workers,
                                                                     whom):
    out = tmp_path / "out"
    text = "boards: [8]\nseeds: {first: 1, last: 200}\nga: none\nbaselines: [local-search]\n"
    done, _ = interrupt(tmp_path, "gaqueens.runtime.store:Store.add", "", name, "sweep",
                        experiment_file(tmp_path, text), "--out", out, "--workers", workers,
                        "--quiet", whom=whom)
    interrupted_in_one_line(done, STORED)
    assert partials(out) == [] and not (out / "runs.csv").exists()
    assert sweep([experiment_file(tmp_path, text), "--out", str(out), "--quiet"]) == 0


@pytest.mark.parametrize("name", SIGNALS)
def test_a_sweep_interrupted_while_it_writes_its_tables_leaves_them_whole(tmp_path, swept, name):
    out = copy(swept, tmp_path)
    before = (out / "runs.csv").read_bytes()
    done, _ = interrupt(tmp_path, "os:replace", "runs.csv", name, "sweep",
                        experiment_file(tmp_path, TINY), "--out", out, "--workers", "1",
                        "--quiet")
    interrupted_in_one_line(done, STORED)
    assert partials(out) == []
    assert (out / "runs.csv").read_bytes() == before


@linux
@pytest.mark.parametrize("name, whom", [("SIGTERM", "main"), ("SIGINT", "group")])
def test_a_sweep_interrupted_while_a_plot_draws_leaves_no_partial_plot(
        tmp_path, swept, name, whom):
    """SIGTERM to the sweep while it draws ecdf.png (in its own process: reports/outputs.py),
    or Ctrl-C to it and its workers: the partial file is removed, and no process outlives
    it."""
    out = copy(swept, tmp_path)
    done, hooked = interrupt(tmp_path, "os:replace", "ecdf.png", name, "sweep",
                             experiment_file(tmp_path, TINY), "--out", out, "--workers", "1",
                             "--quiet", whom=whom)
    interrupted_in_one_line(done, STORED)
    assert hooked == "main"  # the signal came while the sweep's own process drew
    assert partials(out) == []
    assert left_running(str(out)) == []


# ---- the other commands -----------------------------------------------------------------------


@pytest.mark.parametrize("name", SIGNALS)
def test_report_interrupted_while_it_writes_the_page_leaves_the_page_as_it_was(
        tmp_path, swept, name):
    out = copy(swept, tmp_path)
    before = (out / "index.html").read_bytes()
    done, _ = interrupt(tmp_path, "os:replace", "index.html", name, "report", out)
    interrupted_in_one_line(done, "interrupted: no partial page is left")
    assert partials(out) == [] and (out / "index.html").read_bytes() == before


def export_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", SIGNALS)
def test_export_interrupted_while_it_writes_leaves_no_partial_export_and_the_earlier_one(
        tmp_path, swept, name):
    out = copy(swept, tmp_path)
    assert subprocess.run([sys.executable, "-m", "gaqueens.export", str(out)], env=QUIET,
                          capture_output=True, timeout=600).returncode == 0
    before = export_files(out / "ioh")
    done, _ = interrupt(tmp_path, "os:replace", "ioh.partial", name, "export", out)
    interrupted_in_one_line(done, "interrupted: no partial export is left")
    assert partials(out) == [] and not (out / "ioh.old").exists()
    assert export_files(out / "ioh") == before


@pytest.mark.parametrize("name", SIGNALS)
def test_export_interrupted_as_it_moves_into_place_ends_with_the_whole_new_export(
        tmp_path, swept, name):
    """The signal comes as the export is renamed into place, with signals held
    (reports/ioh.py): it is handled once the new export has taken the old one's place."""
    out = copy(swept, tmp_path)
    (out / "ioh").mkdir()
    (out / "ioh" / "gaqueens-export.txt").write_text("an earlier export\n")
    done, _ = interrupt(tmp_path, "os:rename", "ioh.partial", name, "export", out)
    interrupted_in_one_line(done, "interrupted: no partial export is left")
    assert partials(out) == [] and not (out / "ioh.old").exists()
    assert (out / "ioh" / "gaqueens-export.txt").read_text().startswith("IOHexperimenter")


@pytest.mark.parametrize("name", SIGNALS)
def test_verify_interrupted_exits_130_in_one_line(tmp_path, swept, name):
    done, _ = interrupt(tmp_path, "gaqueens.runtime.store:Store.__init__", "", name, "verify",
                        swept)
    interrupted_in_one_line(done)


@pytest.mark.parametrize("name", SIGNALS)
def test_count_interrupted_while_it_counts_exits_130_in_one_line(tmp_path, name):
    done, _ = interrupt(tmp_path, "gaqueens.problems.nqueens.counting:count", "", name, "count",
                        "8")
    interrupted_in_one_line(done)


@pytest.mark.parametrize("name", SIGNALS)
def test_count_interrupted_while_it_writes_its_page_leaves_no_partial_page(tmp_path, name):
    done, _ = interrupt(tmp_path, "os:replace", "solutions.html", name, "count", "6", "--html",
                        tmp_path / "solutions.html")
    interrupted_in_one_line(done)
    assert partials(tmp_path) == [] and not (tmp_path / "solutions.html").exists()


@pytest.mark.parametrize("name", SIGNALS)
def test_run_interrupted_while_it_runs_exits_130_in_one_line(tmp_path, name):
    done, _ = interrupt(tmp_path, "gaqueens.runtime.execution:execute", "", name, "run",
                        "--board", "8")
    interrupted_in_one_line(done)


@pytest.mark.parametrize("name", SIGNALS)
def test_run_interrupted_while_it_writes_its_trace_leaves_no_partial_trace(tmp_path, name):
    done, _ = interrupt(tmp_path, "os:replace", "run.trace", name, "run", "--board", "8",
                        "--trace", tmp_path / "run.trace")
    interrupted_in_one_line(done)
    assert partials(tmp_path) == [] and not (tmp_path / "run.trace").exists()


@pytest.mark.parametrize("name", SIGNALS)
def test_fidelity_interrupted_while_it_runs_exits_130_in_one_line(tmp_path, name):
    done, _ = interrupt(tmp_path, "gaqueens.runtime.executors:starmap", "", name, "fidelity",
                        "--seeds", "1..100", "--boards", "8", "--workers", "2", "--out",
                        tmp_path / "fidelity")
    interrupted_in_one_line(done, "interrupted: no partial file is left")
    assert not (tmp_path / "fidelity").exists()


@pytest.mark.parametrize("name", SIGNALS)
def test_fidelity_interrupted_while_it_writes_leaves_no_partial_file(tmp_path, name):
    out = tmp_path / "fidelity"
    done, _ = interrupt(tmp_path, "os:replace", "fidelity.csv", name, "fidelity", "--seeds",
                        "1..50", "--boards", "8", "--workers", "1", "--out", out)
    interrupted_in_one_line(done, "interrupted: no partial file is left")
    assert partials(out) == [] and list(out.iterdir()) == []


# ---- what tells a signal from code that raises KeyboardInterrupt itself ---------------------


def test_a_signal_is_told_from_a_keyboardinterrupt_raised_by_code():
    """In a Stopping block (every command's), Ctrl-C raises KeyboardInterrupt and is
    remembered; a KeyboardInterrupt that code raises itself is not (runtime/signals.py)."""
    from gaqueens.runtime import signals

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    assert not signals.received()
    with signals.Stopping() as stop:
        with pytest.raises(KeyboardInterrupt):
            raise KeyboardInterrupt
        assert not signals.received() and not stop.asked
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
        assert signals.received() and stop.asked
        with pytest.raises(KeyboardInterrupt):
            stop.check()
    assert not signals.received()
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


LOADING = """\
import os, signal, sys
sys.argv = ["-m"]  # as while `python -m gaqueens.NAME` finds the command's module
import gaqueens
os.kill(os.getpid(), signal.{name})
import gaqueens.sweep
"""


@pytest.mark.parametrize("name", SIGNALS)
def test_a_signal_while_a_command_loads_its_modules_ends_it_in_one_line(name, tmp_path):
    ended = subprocess.run([sys.executable, "-c", LOADING.format(name=name)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
    assert ended.returncode == 130
    assert ended.stderr == "interrupted: nothing was done\n"
    assert list(tmp_path.iterdir()) == []


def test_importing_gaqueens_elsewhere_leaves_the_signals_alone(tmp_path):
    code = ("import signal, gaqueens; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
            "signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)")
    shown = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, preexec_fn=_signals_as_a_terminal_gives_them)
    assert shown.stdout.split() == ["True", "True"]


def _signals_as_a_terminal_gives_them():
    """Ctrl-C and SIGTERM at their defaults, as a terminal starts a command (a shell's
    background job, or nohup, starts it with Ctrl-C ignored, and Python then leaves it so)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def test_a_signal_after_the_work_is_done_leaves_the_commands_status(tmp_path):
    """issue 47: SIGTERM at the end of `report`, once its page was written, ended it with 143
    and no word. cli.command settles the signals when its work returns; here SIGTERM comes as
    the interpreter ends (atexit), after the command's status 0."""
    code = ("import atexit, os, signal; from gaqueens import cli; "
            "atexit.register(lambda: os.kill(os.getpid(), signal.SIGTERM)); "
            "cli.command(lambda: print('done') or 0)")
    ended = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, preexec_fn=_signals_as_a_terminal_gives_them)
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, "done\n", "")
