"""Faults a long sweep meets, each produced for real: a worker process killed, a worker that
dies every time, SIGTERM with a dead worker, a file size limit reached while the store writes,
the sweep killed while its workers run on, no fcntl, and a Dask worker killed (README,
"Commands"; gaqueens/runtime/executors.py, store.py, lock.py)."""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from gaqueens.runtime import executors
from gaqueens.runtime import lock
from gaqueens.experiment import load
from gaqueens.runtime.store import Busy, Store
from gaqueens.runtime.batches import batches, in_process
from gaqueens.sweep import main
from sweeps import (LONG, QUIET, alive, cpu_seconds, experiment_file, rows, start_sweep,
                    stored, stored_count, wait_for_runs, wait_for_workers, workers_of)

linux = pytest.mark.skipif(sys.platform != "linux", reason="finds processes through /proc")


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The LONG sweep, uninterrupted: the rows every recovered sweep must end with."""
    folder = tmp_path_factory.mktemp("whole")
    out = folder / "out"
    assert main([experiment_file(folder, LONG), "--out", str(out), "--workers", "2", "--quiet"]) == 0
    return out


def run_script(tmp_path, script: str, *args, timeout=120):
    path = tmp_path / "script.py"
    path.write_text(script)
    return subprocess.run([sys.executable, str(path), *map(str, args)], capture_output=True,
                          text=True, env=QUIET, timeout=timeout)


# ---- a worker dies ----------------------------------------------------------------------------


@linux
def test_a_killed_worker_costs_its_batch_and_the_sweep_ends_with_the_same_rows(tmp_path, whole):
    out = tmp_path / "out"
    process = start_sweep(tmp_path, out)
    wait_for_runs(out, 30, process)
    first = wait_for_workers(process.pid, 2)
    os.kill(first[0], signal.SIGKILL)
    _, error = process.communicate(timeout=60)
    assert process.returncode == 0, error
    assert "Traceback" not in error
    assert stored(out) == (300, 300)
    pd.testing.assert_frame_equal(rows(out), rows(whole))


# An algorithm whose process dies (SIGKILL, as the kernel's OOM killer sends) on seed 3, or
# raises on seed 4; at module level, so that spawned replacement workers have it too.
DYING = """\
import os, signal, sys
from gaqueens.core.algorithms import ALGORITHMS, Algorithm
from gaqueens.sweep import main

real = ALGORITHMS["local-search"]

def fragile(settings, board, seed):
    if seed == int(os.environ["GAQUEENS_TEST_SEED"]):
        if os.environ["GAQUEENS_TEST_FAULT"] == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        raise ValueError("a bug on seed %d" % seed)
    return real.run(settings, board, seed)

ALGORITHMS["local-search"] = Algorithm(fragile, real.settings, real.unit)
if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
"""
LOCAL_SEARCH = "boards: [8]\nseeds: {first: 1, last: 20}\nga: none\nbaselines: [local-search]\n"


def fragile_sweep(tmp_path, fault: str, seed: int):
    out = tmp_path / "out"
    path = tmp_path / "fragile.py"
    path.write_text(DYING)
    done = subprocess.run(
        [sys.executable, str(path), experiment_file(tmp_path, LOCAL_SEARCH), "--out", str(out),
         "--workers", "2", "--quiet"], capture_output=True, text=True, timeout=120,
        env={**QUIET, "GAQUEENS_TEST_FAULT": fault, "GAQUEENS_TEST_SEED": str(seed)})
    return out, done


def test_a_batch_whose_worker_dies_every_time_stops_the_sweep_with_exit_3(tmp_path):
    out, done = fragile_sweep(tmp_path, "die", 3)
    assert done.returncode == 3, done.stderr
    error = done.stderr.strip()
    assert len(error.splitlines()) == 1
    assert error.startswith("error: the worker process running local-search on board 8, seeds 1 "
                            "to 5 died 3 times (the last killed by SIGKILL)")
    assert "the runs stored so far are kept" in error and f"{out / 'error.log'}" in error
    with sqlite3.connect(out / "runs.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        seeds = {seed for seed, in db.execute("SELECT seed FROM runs")}
    assert not seeds & {1, 2, 3, 4, 5} and seeds <= set(range(6, 21))  # the rest kept
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"].startswith("failed: the worker process running local-search")
    assert "WorkerLost" in (out / "error.log").read_text()


def test_a_run_that_raises_in_a_worker_is_a_fault_with_its_traceback_in_error_log(tmp_path):
    out, done = fragile_sweep(tmp_path, "raise", 4)
    assert done.returncode == 3, done.stderr
    error = done.stderr.strip()
    assert len(error.splitlines()) == 1 and "Traceback" not in error
    assert "local-search on board 8, seeds 1 to 5 raised ValueError: a bug on seed 4" in error
    assert "will raise again" in error and "run the same command again" not in error
    log = (out / "error.log").read_text()
    assert "in fragile" in log and "a bug on seed 4" in log  # the worker's own traceback


@linux
def test_sigterm_ends_a_sweep_promptly_even_with_a_worker_dead(tmp_path):
    out = tmp_path / "out"
    process = start_sweep(tmp_path, out)
    wait_for_runs(out, 20, process)
    workers = wait_for_workers(process.pid, 2)
    os.kill(workers[0], signal.SIGKILL)
    os.kill(process.pid, signal.SIGTERM)  # the sweep alone, as a scheduler ends a job
    stored_then = stored_count(out)
    _, error = process.communicate(timeout=30)
    assert process.returncode == 130, error
    assert stored_count(out) - stored_then <= 2 * 2 * 25  # at most the batches in hand
    assert "Traceback" not in error
    assert not any(alive(pid) for pid in workers)  # no worker outlives it: each joined
    count, distinct = stored(out)
    assert count == distinct >= 20


# A worker signalled between its fork and its own handlers, as when the sweep stops just after
# starting one (a replacement, or the worker held back): armed, the next fork's child sends
# itself SIGTERM at once, while this process's SIGTERM handler raises, as the sweep's does.
SIGNALLED_AT_START = """\
import os, signal, sys
from gaqueens.experiment import load
from gaqueens.runtime import executors
from gaqueens.runtime.batches import batches
from gaqueens.runtime.executors import Workers

def stop(signum, frame):
    raise KeyboardInterrupt

armed = False

def disarm():
    global armed
    armed = False

def signal_self():
    if armed:
        os.kill(os.getpid(), signal.SIGTERM)

signal.signal(signal.SIGTERM, stop)
os.register_at_fork(after_in_parent=disarm, after_in_child=signal_self)
experiment = load(sys.argv[1])
armed = True
running = executors.local_pool(batches(experiment, experiment.tasks(), 2), 2)
runs = sum(len(results) for _, results in running)
running.close()
armed = True
squares = Workers(2).later(pow, [(n, 2) for n in range(50)])()
print(runs, sum(squares))
"""


@linux
def test_a_worker_signalled_before_its_handlers_are_set_ends_quietly(tmp_path):
    """The first worker of each kind gets SIGTERM before it has set its handlers: it ends as
    its own SIGTERM handler says (quietly), not by this process's (the sweep's
    KeyboardInterrupt, printed), and the other workers do its share (runtime/signals.py)."""
    done = run_script(tmp_path, SIGNALLED_AT_START, experiment_file(tmp_path, LOCAL_SEARCH))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20", str(sum(n * n for n in range(50)))]
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr

# Ctrl-C while a finalizer runs in the sweep: Python prints the handler's KeyboardInterrupt
# there ("Exception ignored in") and drops it. Here the second batch stored drops an object
# whose __del__ presses Ctrl-C and goes on running Python code, where the handler runs.
CTRL_C_IN_A_FINALIZER = """\
import os, signal, sys
from gaqueens.runtime.store import Store
from gaqueens.sweep import main

add = Store.add
added = []

class Pressing:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass

def adding(self, *args):
    added.append(1)
    if len(added) == 2:
        Pressing()
    return add(self, *args)

Store.add = adding
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_dropped_in_a_finalizer_still_stops_the_sweep(tmp_path, workers):
    out = tmp_path / "out"
    text = LOCAL_SEARCH.replace("last: 20", "last: 200")  # eight batches or more
    done = run_script(tmp_path, CTRL_C_IN_A_FINALIZER, experiment_file(tmp_path, text),
                      "--out", out, "--workers", workers, "--quiet")
    assert "Exception ignored in" in done.stderr  # the handler's exception was dropped there
    assert done.returncode == 130, done.stderr
    assert done.stderr.rstrip().endswith("run the same command again to resume")
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    count, distinct = stored(out)
    assert count == distinct < 200

def test_workers_started_beside_another_thread_are_spawned_and_give_the_same_results(tmp_path):
    experiment = load(experiment_file(tmp_path, LOCAL_SEARCH))
    work = batches(experiment, experiment.tasks(), 2)
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)
    beside.start()
    try:
        running = executors.local_pool(work, 2, later=1)  # a thread there before: none held
        pooled, kinds = {}, []
        for batch, results in running:
            kinds = kinds or [type(p).__name__ for p, *_ in running.pool.workers.values()]
            pooled[batch.seeds[0]] = [r for _, r in results]
        running.close()
    finally:
        stop.set()
        beside.join()
    assert kinds == ["SpawnProcess"] * 2
    alone = {batch.seeds[0]: [r for _, r in results] for batch, results in in_process(work)}
    assert pooled.keys() == alone.keys()
    for key in alone:
        assert [(r.conflicts, r.work) for r in pooled[key]] == \
            [(r.conflicts, r.work) for r in alone[key]]
        assert all(np.array_equal(a.solution, b.solution) for a, b in zip(pooled[key], alone[key]))


def test_a_worker_held_back_starts_forked_once_the_other_thread_ends(tmp_path):
    """The sweep's pool holds a worker back while its imports run in a thread
    (executors.local_pool, later): one worker meanwhile, then both, the same results; threads
    there before the pool (pytest-xdist's) hold none back.
    Eight batches, so that some are left when the thread ends after the first."""
    experiment = load(experiment_file(tmp_path, LOCAL_SEARCH.replace("last: 20", "last: 200")))
    work = batches(experiment, experiment.tasks(), 2)
    assert len(work) == 8
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)
    counts, kinds, pooled = [], set(), {}
    running = executors.local_pool(work, 2, later=1)  # then the thread starts, as in a sweep
    beside.start()
    try:
        for batch, results in running:
            counts.append(len(running.pool.workers))
            kinds |= {type(process).__name__ for process, *_ in running.pool.workers.values()}
            pooled[batch.seeds[0]] = [(r.conflicts, r.work) for _, r in results]
            if len(counts) == 1:
                stop.set()
                beside.join()
        running.close()
    finally:
        stop.set()
        beside.join()
    assert counts[0] == 1 and counts[-1] == 2 and len(kinds) == 1  # forked, or spawned, alike
    alone = {batch.seeds[0]: [(r.conflicts, r.work) for _, r in results]
             for batch, results in in_process(work)}
    assert pooled == alone


# ---- the disk fills ---------------------------------------------------------------------------

# A sweep under a file size limit (RLIMIT_FSIZE), SIGXFSZ ignored so that a write past it fails
# with EFBIG; each batch printed once committed.
LIMITED = """\
import resource, signal, sys
from gaqueens.runtime import store
from gaqueens.sweep import main

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY))
add = store.Store.add

def logged(self, algorithm, unit, board, results, code):
    add(self, algorithm, unit, board, results, code)
    print("\\n".join(f"{algorithm} {board} {seed}" for seed, _ in results), flush=True)

store.Store.add = logged
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file size limits")
def test_a_full_disk_stops_the_sweep_and_keeps_every_committed_run(tmp_path, whole):
    out = tmp_path / "out"
    file = experiment_file(tmp_path, LONG)
    done = run_script(tmp_path, LIMITED, 300_000, file, "--out", out, "--workers", "2", "--quiet")
    assert done.returncode == 3, done.stderr
    error = done.stderr.strip()
    assert len(error.splitlines()) == 1
    assert error.startswith(f"error: {out}: writing runs.sqlite failed (")
    assert "file size limit" in error and "run the same command again" in error
    committed = {tuple(line.split()) for line in done.stdout.splitlines()}
    with sqlite3.connect(out / "runs.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        kept = {(a, str(b), str(s)) for a, b, s in db.execute("SELECT algorithm, board, seed FROM runs")}
    assert committed and kept == committed and len(kept) < 300
    assert json.loads((out / "manifest.json").read_text())["status"].startswith("failed: ")
    assert main([file, "--out", str(out), "--quiet"]) == 0  # with room again
    pd.testing.assert_frame_equal(rows(out), rows(whole))
    assert not (out / "error.log").exists()  # the fault's log goes once the sweep completes


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file size limits")
def test_a_full_disk_while_the_tables_are_written_keeps_the_old_ones_whole(tmp_path, whole):
    out = tmp_path / "out"
    shutil.copytree(whole, out)
    before = (out / "runs.csv").read_bytes()
    file = experiment_file(tmp_path, LONG)
    # room for the store's 32 KB shared-memory file, not for the 57 KB runs.csv
    done = run_script(tmp_path, LIMITED, 40_000, file, "--out", out, "--quiet")
    assert done.returncode == 3, done.stderr
    error = done.stderr.strip()
    assert len(error.splitlines()) == 1
    assert error.startswith(f"error: {out}: writing the tables and plots failed (File too large)")
    assert (out / "runs.csv").read_bytes() == before
    assert not list(out.glob("*.partial*"))


# ---- the lock is the sweep's alone ------------------------------------------------------------

SLOW = ("boards: [31, 32, 33, 34]\nga: none\n"
        "baselines: {backtracking: {budget: 1000000000000}}\n")  # minutes per run


@linux
def test_a_killed_sweep_leaves_the_folder_free_while_its_workers_run_on(tmp_path):
    out = tmp_path / "out"
    process = start_sweep(tmp_path, out, SLOW)
    workers = wait_for_workers(process.pid, 2)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until both work on a run (an idle worker leaves
        # with its sweep); read again each time, as a child forked to run git shares the
        # sweep's command line until it runs git
        busy = [pid for pid in workers_of(process.pid) if cpu_seconds(pid) >= 0.3]
        if len(busy) >= 2:
            workers = busy
            break
        time.sleep(0.05)
    try:
        with pytest.raises(Busy):
            Store(out, write=True)
        os.kill(process.pid, signal.SIGKILL)  # the sweep alone
        process.wait()
        assert all(alive(pid) for pid in workers)  # orphans, busy on their runs
        with Store(out, write=True) as store:  # what a new sweep takes first
            assert store.keys() == set()
        assert all(alive(pid) for pid in workers)
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.communicate()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_hold_the_lock(tmp_path):
    path = tmp_path / "runs.lock"
    fd = lock.take(path)
    assert fd is not None and lock.take(path) is None
    ready, tell = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child sleeps until killed
        os.write(tell, b"x")  # its at-fork handlers have run
        time.sleep(30)
        os._exit(0)
    try:
        assert os.read(ready, 1) == b"x"
        lock.release(fd)
        again = lock.take(path)
        assert again is not None  # the child's copy did not keep it
        lock.release(again)
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        os.close(ready)
        os.close(tell)


# ---- nothing POSIX-only -----------------------------------------------------------------------

# fcntl made unavailable before gaqueens is imported; msvcrt stood in for once it is (a module
# named msvcrt makes the standard library take the system for Windows: subprocess checks it)
NO_FCNTL = """\
import sys, types
sys.modules["fcntl"] = None
from gaqueens.sweep import main
import gaqueens.runtime.store, gaqueens.runtime.lock, gaqueens.verify

calls = []
msvcrt = types.ModuleType("msvcrt")
msvcrt.LK_NBLCK = 2
msvcrt.locking = lambda fd, mode, count: calls.append((mode, count))
sys.modules["msvcrt"] = msvcrt
code = main(sys.argv[1:])
print(calls)
sys.exit(code)
"""


def test_a_sweep_needs_no_fcntl(tmp_path):
    out = tmp_path / "out"
    done = run_script(tmp_path, NO_FCNTL, experiment_file(tmp_path), "--out", out,
                      "--workers", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[(2, 1)]"  # the lock, taken through msvcrt
    assert len(pd.read_csv(out / "runs.csv")) == 12


# ---- Dask -------------------------------------------------------------------------------------

# A solver whose process dies (SIGKILL, as the kernel's OOM killer sends) on seed 25: the first
# time only, marked by a file, or every time; local search otherwise. Written where the Dask
# workers import it (PYTHONPATH), so that a worker dies while it runs a batch, for certain.
DYING_ON_DASK = """\
import os, signal
from pathlib import Path
from gaqueens.baselines import local_search
from gaqueens.baselines.local_search import Settings, UNIT

def run(settings, board, seed):
    mark = Path(os.environ["GAQUEENS_TEST_MARK"])
    if seed == 25 and (os.environ["GAQUEENS_TEST_DIES"] == "always" or not mark.exists()):
        mark.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return local_search.run(settings, board, seed)
"""


def dying_on_dask(tmp_path, monkeypatch, dies: str) -> str:
    """An experiment of the DYING_ON_DASK solver (a name of this test's own: plug-ins loaded
    are kept by name), seeds 1 to 40 on board 16."""
    name = f"dying_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(DYING_ON_DASK)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path),
                                                      os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("GAQUEENS_TEST_MARK", str(tmp_path / "died"))
    monkeypatch.setenv("GAQUEENS_TEST_DIES", dies)
    return experiment_file(tmp_path, "boards: [16]\nseeds: {first: 1, last: 40}\nga: none\n"
                                     f"baselines: {{dying: {{plugin: {name}}}}}\n")


def dask_cluster(**config):
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({f"distributed.scheduler.{k}": v for k, v in config.items()}):
        return distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True,
                                        host="127.0.0.1", dashboard_address=None)


def test_a_killed_dask_worker_costs_nothing_but_time(tmp_path, monkeypatch):
    """A Dask worker dies while it runs a batch: the scheduler runs the batch again elsewhere,
    and the sweep ends with the rows of a local one."""
    out = tmp_path / "dask"
    file = dying_on_dask(tmp_path, monkeypatch, "once")
    with dask_cluster() as cluster:
        assert main([file, "--out", str(out), "--quiet",
                     "--scheduler", cluster.scheduler_address]) == 0
    assert (tmp_path / "died").exists()  # a worker died mid-sweep
    assert main([file, "--out", str(tmp_path / "local"), "--quiet", "--workers", "2"]) == 0
    pd.testing.assert_frame_equal(rows(out), rows(tmp_path / "local"))


def test_a_dask_batch_the_scheduler_gives_up_on_stops_the_sweep_with_exit_3(tmp_path, capsys,
                                                                           monkeypatch):
    out = tmp_path / "dask"
    file = dying_on_dask(tmp_path, monkeypatch, "always")
    with dask_cluster(**{"allowed-failures": 0}) as cluster:
        code = main([file, "--out", str(out), "--quiet",
                     "--scheduler", cluster.scheduler_address])
    assert code == 3
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert error.startswith("error: the Dask workers running dying on board 16, seeds ")
    assert "KilledWorker" in error and "the runs stored so far are kept" in error
    count, distinct = stored(out)
    assert count == distinct and 25 not in {seed for seed, in sqlite3.connect(
        out / "runs.sqlite").execute("SELECT seed FROM runs")}


# ---- memory runs out ----------------------------------------------------------------------------

BIG_GA = "boards: [8, 1000000]\nseeds: {first: 1, last: 2}\nga: {stop: {generations: 1}}\n"


def under_memory_limit(limit: int):
    import resource

    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return preexec


@linux
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_run_out_of_memory_is_one_line_naming_its_runs_and_exit_3(tmp_path, workers):
    """Under an address space limit of 1.2 GB, the GA's first population on a million queens
    does not fit; the budget is set above it, so the run starts and meets MemoryError."""
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "gaqueens.sweep", experiment_file(tmp_path, BIG_GA), "--out",
         str(out), "--workers", workers, "--memory-budget", "100GB", "--quiet"],
        capture_output=True, text=True, env=QUIET, timeout=120,
        preexec_fn=under_memory_limit(1_200_000_000))
    assert done.returncode == 3, done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith("error: ga on board 1000000, seed") and "ran out of memory" in line
    assert "MemoryError" in (out / "error.log").read_text()
    with Store(out) as store:  # the runs on board 8 that finished before are kept
        assert all(board == 8 for _, board, _ in store.keys())
