"""Plots drawn in forked processes (gaqueens/reports/drawing.py): at most ``limit`` at a time,
every one drawn by ``wait``'s end, a plot whose process fails drawn again here, raising what
went wrong, and stopped drawing leaving no partial file. (tests/test_faults.py: drawn here while
another thread runs; tests/test_signals.py: Ctrl-C and SIGTERM while the plots draw.)
Which plots run at once is counted by the plots themselves, never read off clocks."""

import multiprocessing
import os
import subprocess
import sys
import textwrap

import pytest

from gaqueens.reports.drawing import Drawing

linux = pytest.mark.skipif(sys.platform != "linux", reason="forks only on Linux")


@pytest.fixture(autouse=True)
def forked(monkeypatch):
    """These plots are forked whatever thread an earlier test left in this test process (Dask's
    offload thread lives as long as the process): whether to fork is workers.forks' rule,
    tests/test_faults.py draws here while another thread runs."""
    monkeypatch.setattr("gaqueens.reports.drawing.forks", lambda: sys.platform == "linux")


def record(folder, name):
    """A stand-in plot: writes which process drew it, and how many plots were drawing as it
    began (itself included): each is marked by a file while it draws."""
    drawing = folder / f"drawing-{name}"
    drawing.touch()
    at_once = len(list(folder.glob("drawing-*")))
    for _ in range(200_000):  # a while, the others going on meanwhile
        pass
    (folder / name).write_text(f"{os.getpid()} {at_once}")
    drawing.unlink()


@linux
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_at_most_limit_plots_are_drawn_at_once_and_every_one_by_the_end(tmp_path, limit):
    drawing = Drawing(limit)
    drawing.add([(record, tmp_path, "a"), (record, tmp_path, "b")])
    drawing.add([(record, tmp_path, f"c{k}") for k in range(3)])
    assert len(drawing.running) <= limit
    drawing.wait()
    assert not drawing.running and not drawing.queued
    drawn = {path.name: path.read_text().split() for path in tmp_path.iterdir()}
    assert sorted(drawn) == ["a", "b", "c0", "c1", "c2"]
    assert all(int(pid) != os.getpid() for pid, _ in drawn.values())  # forked
    assert max(int(at_once) for _, at_once in drawn.values()) <= limit


@linux
def test_poll_starts_a_waiting_plot_once_a_core_is_free(tmp_path):
    drawing = Drawing(1)
    drawing.add([(record, tmp_path, "first"), (record, tmp_path, "second")])
    assert len(drawing.running) == 1 and len(drawing.queued) == 1  # the second waits
    (_, first), = drawing.running
    first.join()
    assert (tmp_path / "first").exists() and not (tmp_path / "second").exists()
    drawing.poll()  # starts the second, the first's process having ended: no wait
    assert len(drawing.running) == 1 and not drawing.queued
    assert drawing.running[0][1] is not first
    drawing.wait()
    assert (tmp_path / "second").read_text().split()[1] == "1"  # drawn alone


def fails_in_a_child(parent):
    if os.getpid() != parent:
        raise RuntimeError("only in the child")
    raise ValueError("the plot's own error, raised here")


@linux
def test_a_plot_whose_process_fails_is_drawn_here_and_raises_here():
    drawing = Drawing(2)
    drawing.add([(fails_in_a_child, os.getpid())])
    with pytest.raises(ValueError, match="raised here"):
        drawing.wait()


@linux
def test_a_plot_that_fails_only_in_its_process_is_drawn_here(tmp_path):
    def once(folder):
        if os.getpid() != parent:
            os._exit(3)  # as a process the kernel killed
        (folder / "drawn").write_text(str(os.getpid()))

    parent = os.getpid()
    drawing = Drawing(1)
    drawing.add([(once, tmp_path)])
    drawing.wait()
    assert (tmp_path / "drawn").read_text() == str(parent)


@linux
def test_plots_that_ended_before_wait_leave_nothing_to_wait_for(tmp_path):
    drawing = Drawing(2)
    drawing.add([(record, tmp_path, "a")])
    drawing.running[0][1].join()  # it ends before wait, which finds it ended, nothing queued
    drawing.wait()
    assert (tmp_path / "a").exists() and not drawing.running


def drawn_partly(path, begun, parent):
    """A stand-in plot that writes its file through core.files.replacing, as the plots do,
    and stops half way until it is ended."""
    from gaqueens.core.files import replacing

    with replacing(path) as partial:
        partial.write_text("half a plot")
        begun.set()
        if os.getpid() != parent:
            multiprocessing.Event().wait()  # ended by close, never set


@linux
def test_plots_stopped_half_drawn_leave_no_partial_file(tmp_path):
    """close() (wait and the block beside end by an exception: Ctrl-C, SIGTERM, a fault) ends
    the processes drawing by SIGTERM, each removing its partial file as SystemExit leaves
    replacing's block, joins them, and drops the plots still waiting."""
    begun = multiprocessing.get_context("fork").Event()
    drawing = Drawing(1)
    drawing.add([(drawn_partly, tmp_path / "a.png", begun, os.getpid()),
                 (record, tmp_path, "b")])
    try:
        assert begun.wait(300)  # a guard against a hang, not a measure
        assert (tmp_path / "a.png.partial.png").exists()
        (_, process), = drawing.running
    finally:
        drawing.close()
    assert process.exitcode == 1  # its SystemExit, then _draw_quietly's exit
    assert not drawing.running and not drawing.queued
    assert list(tmp_path.iterdir()) == []


class Beside:
    """A stand-in for the exports' Workers: ``count`` processes alive, and its polls counted."""

    def __init__(self, count):
        self.count, self.polled = count, 0

    def poll(self):
        self.polled += 1

    def alive(self):
        return self.count

    def ending(self, close):
        self.close = close


@linux
def test_plots_wait_while_the_processes_beside_hold_the_cores(tmp_path):
    beside = Beside(2)
    drawing = Drawing(2, beside=beside)
    drawing.add([(record, tmp_path, "a"), (record, tmp_path, "b")])
    assert not drawing.running and len(drawing.queued) == 2 and beside.polled == 1
    beside.count = 1  # a worker has ended: one core free
    drawing.poll()
    assert len(drawing.running) == 1 and len(drawing.queued) == 1 and beside.polled == 2
    drawing.wait()
    assert {path.name for path in tmp_path.iterdir()} == {"a", "b"}


@linux
def test_plots_waiting_while_the_workers_hold_every_core_are_drawn_here_by_wait(tmp_path):
    drawing = Drawing(2, beside=Beside(2))
    drawing.add([(record, tmp_path, "a")])
    drawing.wait()
    assert int((tmp_path / "a").read_text().split()[0]) == os.getpid()


def test_beside_real_workers_plots_wait_for_their_end():
    """Two workers waiting on a gate hold both cores: no plot is forked until their results
    are in."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import multiprocessing, os, tempfile
        from pathlib import Path
        from gaqueens.reports.drawing import Drawing
        from gaqueens.runtime.workers import Workers

        def mark(folder, name):
            (Path(folder) / name).write_text(str(os.getpid()))

        folder = tempfile.mkdtemp()
        gate = multiprocessing.get_context("fork").Event()
        with Workers(2) as workers:
            waited = workers.later(gate.wait, [(), ()])
            workers.start()
            drawing = Drawing(2, beside=workers)
            drawing.add([(mark, folder, "a"), (mark, folder, "b")])
            waiting = (len(drawing.running), len(drawing.queued))
            gate.set()
            waited()
        drawing.wait()
        drawn = {path.name: path.read_text() for path in Path(folder).iterdir()}
        print(waiting, sorted(drawn), all(pid != str(os.getpid()) for pid in drawn.values()))
    """)], capture_output=True, text=True, timeout=600)
    assert done.stdout == "(0, 2) ['a', 'b'] True\n", done.stderr
