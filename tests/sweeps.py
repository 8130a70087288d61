"""What the sweep tests share: experiment files under tmp_path, real sweeps in processes of
their own, and their child processes found through /proc (Linux)."""

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

TINY = """\
boards: [8, 10]
seeds: {first: 1, last: 6}
reference: {8: 100}
"""
# Slow enough to be interrupted mid-sweep: the published GA on engine: deap, whose runs are
# made one after another, in batches of a few seeds (engine: numpy advances a batch's seeds
# together, and would finish 300 runs before a test could stop them).
LONG = """\
boards: [16]
seeds: {first: 1, last: 300}
ga: {engine: deap}
"""
QUIET = {**os.environ, "CI": "true", "PYTHONDONTWRITEBYTECODE": "1"}


def experiment_file(tmp_path, text=TINY, name="tiny.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def finished_sweep(tmp_path_factory, text=TINY) -> Path:
    """The output folder (with its store) of a sweep of ``text`` run to its end in this
    process, for a module's tests to read or copy."""
    from gaqueens.sweep import main

    folder = tmp_path_factory.mktemp("swept")
    out = folder / "out"
    assert main([experiment_file(folder, text), "--out", str(out), "--workers", "1",
                 "--quiet"]) == 0
    return out


def rows(folder):
    """runs.csv without the timings, which differ from run to run."""
    return pd.read_csv(folder / "runs.csv").drop(columns="seconds")


def start_sweep(tmp_path, out, text=LONG, *args, **popen):
    """``python -m gaqueens.sweep`` on two workers, in a session of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "gaqueens.sweep", experiment_file(tmp_path, text), "--out", str(out),
         "--workers", "2", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=QUIET, **popen,
    )


def stored_count(out) -> int:
    try:
        with sqlite3.connect(out / "runs.sqlite") as db:
            return db.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def wait_for_runs(out, at_least, process, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if stored_count(out) >= at_least:
            return
        time.sleep(0.05)
    raise AssertionError("the sweep stored no runs in time")


def stored(out):
    """(rows, distinct seeds) of a store, which must pass SQLite's integrity check."""
    with sqlite3.connect(out / "runs.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return db.execute("SELECT count(*), count(DISTINCT seed) FROM runs").fetchone()


def _stat(pid: int):
    """(state, parent) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, parent = text[text.rindex(")") + 2:].split()[:2]
    return state, int(parent)


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in "ZX"


def workers_of(pid: int) -> list[int]:
    """The living children of ``pid`` forked from it (same command line): its pool workers."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            try:
                if stat and stat[1] == pid and alive(int(entry.name)) and \
                        (entry / "cmdline").read_bytes() == command:
                    found.append(int(entry.name))
            except OSError:
                pass
    return sorted(found)


def cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used so far (0 when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    user, system = text[text.rindex(")") + 2:].split()[11:13]
    return (int(user) + int(system)) / os.sysconf("SC_CLK_TCK")


def wait_for_workers(pid: int, count: int, seconds=30) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        workers = workers_of(pid)
        if len(workers) >= count:
            return workers
        time.sleep(0.02)
    raise AssertionError(f"process {pid} has no {count} workers")
