"""Where work runs: this process, or worker processes (a Dask cluster: runtime.cluster). One
pool serves ``local_pool`` (the sweep's batches, each given back with its results as it ends)
and ``Workers`` (tasks handed out now, their results collected later, in order, while this
process goes on: the exports, verify).

Each worker (gaqueens.runtime.worker) has a pipe of its own: down it the tasks' indices, up it
each result, or the exception a task raised (raised here where its results are asked for, as
soon as it comes). Workers are forked while this process runs a single thread (a fork copies
one thread and the locks the others held): they have the tasks by the fork, and each holds the
next task, so that it never waits while this process stores or draws. Otherwise they are
spawned and sent each task itself, one at a time (sending a large task waits until its worker
reads it, once done with the one before).
A worker that dies loses only the tasks it held: a new one takes its place and they are sent
again; a task whose worker dies LOST_LIMIT times raises WorkerLost (tests/test_faults.py).
``local_pool`` may hold a worker back until the threads started after it have ended: the sweep
imports the reports' modules in a thread meanwhile, on the core that worker would take.

Ctrl-C is this process's to handle; SIGTERM ends a sweep's worker at once, a ``Workers`` one by
SystemExit, so that a task writing a file removes its partial file first (runtime/signals.py).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from multiprocessing.connection import wait
from typing import Iterator

from gaqueens.core.errors import Fault
from gaqueens.runtime import signals
from gaqueens.runtime.batches import Batch, out_of_memory, run_batch
from gaqueens.runtime.worker import OUT_OF_MEMORY, serve

LOST_LIMIT = 3  # deaths of the same task's worker before the work gives up
PER_CORE = 4  # worker processes a core, at most
STOP_SECONDS = 2.0  # a process is given this long to end on SIGTERM, then killed


class WorkerLost(Fault):
    """The worker processes running one task died LOST_LIMIT times."""


class WorkerFailed(Fault):
    """A run raised an exception in a worker process: a bug; ``details`` is its traceback."""


def processes(asked: int, tasks: int, units: str = "runs") -> tuple[int, str | None]:
    """The worker processes to start for ``tasks`` (``units``) when ``asked`` for: at most one a
    task and PER_CORE a core; and the line saying so when that is fewer than asked, or None."""
    cores = os.cpu_count() or 1
    most = max(1, min(tasks, PER_CORE * cores))
    if asked <= most:
        return asked, None
    why = (f"{PER_CORE} for each of this machine's {cores} cores (more would only share them)"
           if PER_CORE * cores < tasks else f"one for each of the {tasks} {units}")
    return most, (f"{asked} is more than the work can use: {most} worker "
                  f"process{'es' if most > 1 else ''}, {why}")


def end(processes) -> None:
    """Ends ``processes``: SIGTERM, then SIGKILL for any still running STOP_SECONDS later."""
    for process in processes:
        process.terminate()  # nothing where it has ended and been joined
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def _how(exitcode) -> str:
    if exitcode is None or exitcode >= 0:
        return f"exit status {exitcode}"
    known = -exitcode in set(signal.Signals)
    return f"killed by {signal.Signals(-exitcode).name if known else f'signal {-exitcode}'}"


class _Pool:
    """Worker processes for ``tasks`` ((function, args) each); ``name(index)`` names a task."""

    LOOK = 0.05  # seconds between looks for the other threads' end, while workers are held back

    def __init__(self, tasks: list, size: int, name, later: int = 0, tidy: bool = False,
                 ahead: int = 2):
        self.tasks, self.name, self.tidy, self.ahead = tasks, name, tidy, ahead
        self.workers = {}  # our pipe's end -> (process, its tasks oldest first, forked, running)
        self.later = max(0, min(later, size - 1))  # held back: the module's docstring
        self.before = set(threading.enumerate())  # the threads that hold no worker back
        self.todo = deque(range(len(tasks)))  # not handed out yet
        try:
            for _ in range(size - self.later):
                self._start()
            self._hand_out(self.todo)  # now: this process may be busy until it asks for results
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        forking = sys.platform == "linux" and threading.active_count() == 1
        context = multiprocessing.get_context("fork" if forking else "spawn")
        ours, theirs = context.Pipe()
        inherited = [*self.workers, ours] if forking else []
        running = context.Value("q", -1, lock=False)  # the task it runs, set by the worker
        process = context.Process(target=serve, daemon=True, args=(
            theirs, inherited, self.tasks if forking else None, self.tidy, running))
        gc.freeze()  # a forked child's collector leaves this process's objects, and pages, shared
        try:
            with signals.starting():
                process.start()
        finally:
            gc.unfreeze()
        theirs.close()
        self.workers[ours] = (process, deque(), forking, running)

    def results(self) -> Iterator[tuple]:
        """(index, failure, value) as each task ends: None and its result, OUT_OF_MEMORY, or the
        traceback and the exception it raised."""
        todo, lost = self.todo, Counter()
        try:
            while todo or any(held for _, held, _, _ in self.workers.values()):
                if todo and self.later and set(threading.enumerate()) <= self.before:
                    for _ in range(self.later):
                        self._start()
                    self.later = 0
                self._hand_out(todo)
                ready = wait([*self.workers, *(w[0].sentinel for w in self.workers.values())],
                             timeout=self.LOOK if self.later and todo else None)
                for ours in list(self.workers):
                    process, held, _, _ = self.workers[ours]
                    if ours in ready:
                        try:
                            reply = ours.recv()
                        except (EOFError, OSError):
                            pass  # it died: its sentinel is ready too, or soon
                        else:
                            held.remove(reply[0])
                            yield reply
                            continue
                    if ours in ready or process.sentinel in ready:
                        self._replace(ours, todo, lost)
        finally:
            self.stop()

    def _hand_out(self, todo) -> None:
        """A task to each worker in turn, up to ``ahead``: the first (largest) to different ones."""
        for depth in range(1, self.ahead + 1):
            if not todo:
                return
            for ours, (_, held, forked, _) in self.workers.items():
                if len(held) < depth and (forked or not held) and todo:
                    index = todo.popleft()
                    try:
                        ours.send((index, None if forked else self.tasks[index]))
                    except OSError:  # it died: its sentinel tells
                        todo.appendleft(index)
                        continue
                    held.append(index)

    def _replace(self, ours, todo, lost) -> None:
        """A worker died: the task it ran counts a loss (the first it held if it ran none: it may
        die sending a result), its tasks go back first, a new worker starts."""
        process, held, _, runs = self.workers.pop(ours)
        end([process])  # where its pipe broke, yet it lives
        ours.close()
        if held:
            running = runs.value if runs.value in held else held[0]
            lost[running] += 1
            if lost[running] >= LOST_LIMIT:
                raise WorkerLost(f"the worker process running {self.name(running)} died "
                                 f"{lost[running]} times (the last {_how(process.exitcode)})")
            todo.extendleft(reversed(held))
        if todo:
            self._start()

    def stop(self) -> None:
        """Ends every worker (``end``)."""
        end([process for process, _, _, _ in self.workers.values()])
        for ours in self.workers:
            ours.close()
        self.workers.clear()


class _Running:
    """The batches of a pool with their results, iterated once; ``close`` ends its workers."""

    def __init__(self, pool: _Pool):
        self.pool = pool

    def __iter__(self) -> Iterator:
        for index, failure, value in self.pool.results():
            batch = self.pool.tasks[index][1][0]
            if failure == OUT_OF_MEMORY:
                raise out_of_memory(batch, "in its worker process")
            if isinstance(value, Fault):  # named where it happened: raised as itself
                value.details = failure
                raise value
            if failure:
                raise WorkerFailed(f"a run failed in its worker process: {batch} raised "
                                   f"{failure.strip().splitlines()[-1]}", failure)
            yield value

    def close(self) -> None:
        self.pool.stop()


def local_pool(batches: list[Batch], workers: int, later: int = 0):
    """``workers`` processes for ``batches``, started now (before the sweep starts a thread), but
    ``later`` of them (at most all but one), started once the threads started since have ended;
    iterating gives each batch with its results as they come; ``close()`` ends the workers."""
    tasks = [(run_batch, (batch,)) for batch in batches]
    return _Running(_Pool(tasks, workers, lambda index: str(batches[index]), later))


def starmap(function, tasks: list[tuple], workers: int) -> list:
    """``function(*task)`` for each of ``tasks``, in order, on ``workers`` processes (here for
    1): the checks that run many seeds outside a sweep (fidelity, agreement)."""
    with Workers(workers, ahead=2) as pool:  # a slow task holds back few queued behind it
        return pool.later(function, tasks)()


class Workers:
    """``workers`` processes sharing out the tasks of ``later``, each holding ``ahead`` at most
    (all by default: this process may be busy meanwhile); fewer than two: the tasks run here,
    when their results are asked for. A context manager, which ends the processes."""

    def __init__(self, workers: int, ahead: int | None = None):
        self.workers, self.ahead = (workers if workers > 1 else 0), ahead
        self.jobs: list[tuple] = []  # (function, tasks), as handed out
        self.results: list[dict] = []  # per job: task index -> result
        self.failed: dict[int, BaseException] = {}  # per job: the first of its tasks' exceptions
        self.pool = self.running = None
        self.started = self.ended = False

    def later(self, function, tasks):
        """Hands out ``function(*task)`` for each of ``tasks`` (before ``start``); returns a
        function that starts the workers if need be and gives their results, in order."""
        if self.started:
            raise RuntimeError("tasks are handed out before the workers start")
        job = len(self.jobs)
        self.jobs.append((function, list(tasks)))
        self.results.append({})
        return lambda: self._collect(job)

    def start(self) -> None:
        """Starts the processes on the tasks handed out so far, the earlier ones first."""
        if self.started:
            return
        self.started = True
        self.owners = [(job, index) for job, (_, tasks) in enumerate(self.jobs)
                       for index in range(len(tasks))]
        if self.workers and self.owners:
            tasks = [(self.jobs[job][0], self.jobs[job][1][index]) for job, index in self.owners]
            self.pool = _Pool(tasks, min(self.workers, len(tasks)), self._name, tidy=True,
                              ahead=self.ahead or len(tasks))
            self.running = self.pool.results()

    def _name(self, index: int) -> str:
        job, at = self.owners[index]
        return f"task {at + 1} of {self.jobs[job][0].__name__}"

    def _collect(self, job: int) -> list:
        if self.ended:
            raise RuntimeError("the workers' results are asked for after the workers ended")
        self.start()
        function, tasks = self.jobs[job]
        if self.pool is None:
            return [function(*task) for task in tasks]
        got = self.results[job]
        while job not in self.failed and len(got) < len(tasks):
            index, failure, value = next(self.running)
            done, at = self.owners[index]
            if failure:
                self.failed.setdefault(done, value or MemoryError(f"{self._name(index)} ran "
                                                                  "out of memory"))
            else:
                self.results[done][at] = value
        if job in self.failed:
            raise self.failed[job]
        if sum(map(len, self.results)) == len(self.owners):
            next(self.running, None)  # every result in: the workers end now
        return [got[index] for index in range(len(tasks))]

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.stop()  # the workers end, whether all their results were asked for or not
        self.ended = True  # and what the tasks and their results held let go
        self.jobs, self.results, self.pool, self.running = [], [], None, None
