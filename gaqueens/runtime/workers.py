"""Workers: a few processes that share out tasks handed to them now, whose results this
process collects later, so that it goes on meanwhile (the exports' resampling beside the tables
and plots, gaqueens.reports.outputs; the stored runs' checks, gaqueens.verify).

``later(function, tasks)`` hands out ``function(*task)`` for each task and returns a function
that waits for their results and gives them in the tasks' order; ``start()`` starts the
processes on all the tasks handed out so far, the earlier ones first, a task at a time to
whichever process is free. Used as a context manager, which ends the processes.

Where the system forks and this process runs a single thread, the processes are forked: they
get the tasks, and whatever this process holds, by the fork rather than by pickling, and no
thread is started here, so that this process may go on forking while they work. A forked
process sends each result down a pipe as it has it; a task that raises sends its exception,
which the waiting function of its own job raises here, as soon as it comes. A result larger than
the pipe holds keeps its worker waiting until it is read: ``poll`` takes in what has been sent,
without waiting, so that a worker done with its tasks ends and frees its core and memory;
``alive`` counts the forked processes still running. Elsewhere the tasks go to a pool of
spawned processes (multiprocessing.Pool), and with fewer than two workers they run here, when
their results are asked for. Results are asked for before the context ends.

Ctrl-C is the parent's to handle; SIGTERM, which the parent sends its processes as the context
ends, ends a process by SystemExit where it is, so that a task writing a file removes its
partial file first (runtime/signals.py). What works beside the processes and must stop with
them when the context ends by an exception (the plots' processes) says so with ``ending``.
"""

from __future__ import annotations

import gc
import multiprocessing
import pickle
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from multiprocessing.connection import wait

from gaqueens.runtime import allocator, signals


STOP_SECONDS = 2.0  # a process is given this long to end on SIGTERM, then killed


def end(processes) -> None:
    """Ends ``processes`` and joins them: SIGTERM, then SIGKILL for any still running
    STOP_SECONDS later (one busy in a long call that Python cannot interrupt)."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def forks() -> bool:
    """Whether processes started now are forked: on Linux, while this process runs a single
    thread (forking copies one thread and whatever locks the others held)."""
    return sys.platform == "linux" and threading.active_count() == 1


@contextmanager
def forking():
    """Around forking processes (the workers here):
    this process first gives back what its allocators keep freed (allocator.before_fork), and
    its collector is frozen meanwhile, so that the children's collector leaves this process's
    objects, and their pages, shared."""
    allocator.before_fork()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


class WorkerDied(RuntimeError):
    """A forked worker ended before sending the results of its tasks."""


class Workers:
    """``workers`` processes sharing out the tasks of ``later`` (the module docstring says
    how); fewer than two: the tasks run here."""

    def __init__(self, workers: int):
        self.workers = workers if workers > 1 else 0
        self.jobs: list[tuple] = []  # (function, tasks), as handed out
        self.results: list[dict] = []  # per job: task index -> result
        self.readers: list = []  # the forked processes' pipes, until each closes
        self.processes: list = []
        self.pool = None
        self.pending: list = []  # the pool's AsyncResult per job
        self.failed: dict[int, Exception] = {}  # per job: the first of its tasks' exceptions
        self.closers: list = []  # what stops with the processes on an exception (``ending``)
        self.started = self.ended = False

    def later(self, function, tasks):
        """Hands out ``function(*task)`` for each of ``tasks`` (before ``start``); returns a
        function that starts the processes if not yet started, waits for these tasks and gives
        their results, in order."""
        if self.started:
            raise RuntimeError("tasks are handed out before the workers start")
        job = len(self.jobs)
        self.jobs.append((function, list(tasks)))
        self.results.append({})
        return lambda: self._collect(job)

    def start(self) -> None:
        """Starts the processes on the tasks handed out so far."""
        if self.started:
            return
        self.started = True
        order = [(job, index) for job, (_, tasks) in enumerate(self.jobs)
                 for index in range(len(tasks))]
        if not self.workers or not order:
            return
        if not forks():
            self.pool = multiprocessing.get_context("spawn").Pool(
                self.workers, initializer=signals.worker, initargs=(True,))
            self.pending = [self.pool.starmap_async(function, tasks, chunksize=1)
                            for function, tasks in self.jobs]
            return
        fork = multiprocessing.get_context("fork")
        taken = fork.Value("q", 0)  # the tasks taken so far (a lock and a number: no thread)
        with forking():
            for _ in range(min(self.workers, len(order))):
                reader, writer = fork.Pipe(duplex=False)
                process = fork.Process(target=self._serve, args=(writer, taken, order),
                                       daemon=True)
                with signals.starting():
                    process.start()
                writer.close()
                self.readers.append(reader)
                self.processes.append(process)

    def _serve(self, writer, taken, order) -> None:
        """A forked worker: takes the next task not yet taken, sends its result, until none is
        left."""
        signals.worker(tidy=True)  # the parent handles Ctrl-C; SIGTERM: SystemExit here
        for other in self.readers:  # the pipes of the workers forked before this one
            other.close()
        while True:
            with taken.get_lock():
                at = taken.value
                taken.value += 1
            if at >= len(order):
                return
            job, index = order[at]
            function, tasks = self.jobs[job]
            try:
                writer.send((job, index, True, function(*tasks[index])))
            except Exception as error:  # sent to the parent, which raises it
                writer.send((job, index, False, _sendable(error)))

    def _collect(self, job: int) -> list:
        if self.ended:
            raise RuntimeError("the workers' results are asked for after the workers ended")
        self.start()
        function, tasks = self.jobs[job]
        if self.pool is not None:
            return self.pending[job].get()
        got = self.results[job]
        if not self.processes:  # no workers: here
            for index in range(len(got), len(tasks)):
                got[index] = function(*tasks[index])
        while len(got) < len(tasks):
            if job in self.failed:
                raise self.failed[job]
            self._receive(job)
        return [got[index] for index in range(len(tasks))]

    def poll(self) -> None:
        """Takes in the results the forked workers have sent, without waiting. A result larger
        than a pipe holds (64 kB on Linux) keeps its worker, and the memory it holds, waiting
        until it is read: call this where this process is about to fork, or to be busy a
        while, so that a worker done with its tasks ends."""
        while ready := wait(self.readers, 0):
            self._take(ready)

    def alive(self) -> int:
        """The forked processes still running."""
        return sum(process.is_alive() for process in self.processes)

    def _receive(self, job: int) -> None:
        """Takes in the results the workers have sent, waiting for at least one."""
        if not self.readers:
            missing = len(self.jobs[job][1]) - len(self.results[job])
            raise WorkerDied(f"the worker processes ended without the results of {missing} "
                             f"tasks ({self.jobs[job][0].__name__})")
        self._take(wait(self.readers))

    def _take(self, readers) -> None:
        for reader in readers:
            try:
                done, index, ok, value = reader.recv()
            except (EOFError, OSError):  # the worker ended
                self.readers.remove(reader)
                reader.close()
                continue
            if ok:
                self.results[done][index] = value
            else:
                self.failed.setdefault(done, value)

    def ending(self, close) -> None:
        """Calls ``close()`` as the context ends by an exception, before the processes end."""
        self.closers.append(close)

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, *exc) -> None:
        try:
            for close in self.closers if kind is not None else ():
                close()
        finally:
            self._end()

    def _end(self) -> None:
        end(self.processes)
        for reader in self.readers:
            reader.close()
        self.ended = True  # and what the tasks and their results held let go
        self.processes, self.readers, self.jobs, self.results = [], [], [], []
        self.closers = []
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()


def _sendable(error: Exception) -> Exception:
    """The exception itself where it pickles, else a RuntimeError with its text."""
    try:
        pickle.dumps(error)
        return error
    except Exception:
        return RuntimeError("".join(traceback.format_exception(error)))
