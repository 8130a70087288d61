"""Where the runs execute: this process, or a pool of local processes (a Dask cluster:
gaqueens.runtime.cluster).

Each executor takes batches (gaqueens.runtime.batches.Batch) and yields each batch with its
results as it finishes, in any order; the sweep stores them. A run's result depends only on its
settings and seed, so the executor changes nothing but the time.

When a worker dies. A local worker process that dies (killed, out of memory) loses only the
batch it was running (and the next, sent ahead but not started): a new process takes its place
and both are sent again, so the sweep ends with the rows it would have had. A batch whose
worker dies LOST_LIMIT times raises WorkerLost naming its runs; one that runs out of memory
raises OutOfMemory. tests/test_faults.py kills real workers.

Processes are forked only while this process runs a single thread (forking copies one thread
and whatever locks the others held); otherwise, and on systems without fork, they are spawned.
A pool may hold some of its workers back until the threads this process started after the
pool have ended: the sweep imports the reports' modules in a thread while the first workers
compute, on the core the held-back worker would take. Three busy processes on two cores cost
each run about 8% more processor time than two (ga.run_many on boards 16 to 128, side by
side), and the imports done, the last worker is forked rather than spawned (where no other
thread runs: a notebook's threads, there before the pool, make every worker spawned, and hold
none back).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import traceback
from collections import Counter, deque
from multiprocessing.connection import wait
from typing import Iterable, Iterator

from gaqueens.core.errors import Fault
from gaqueens.runtime import allocator, signals
from gaqueens.runtime.batches import Batch
from gaqueens.runtime.execution import ending
from gaqueens.runtime.workers import STOP_SECONDS, Workers, end, forks

LOST_LIMIT = 3  # deaths of the same batch's worker before the sweep gives up
PER_CORE = 4  # worker processes a core, at most


class WorkerLost(Fault):
    """The worker processes running one batch died LOST_LIMIT times."""


class WorkerFailed(Fault):
    """A run raised an exception in a worker process: a bug; ``details`` is its traceback."""


class OutOfMemory(Fault):
    """A batch ran out of memory (MemoryError) where it ran: the message names its runs."""


OUT_OF_MEMORY = "MemoryError"  # how a worker's reply names a batch that ran out of memory


def out_of_memory(batch: Batch, where: str) -> OutOfMemory:
    return OutOfMemory(f"{batch} ran out of memory (MemoryError) {where}: run "
                       "smaller boards, or give the workers more memory")


def processes(asked: int, tasks: int, units: str = "runs") -> tuple[int, str | None]:
    """The worker processes to start for ``tasks`` (runs, or a command's tasks: ``units`` says
    which) when ``asked`` for: at most one a task and PER_CORE a core; and the line saying
    so when that is fewer than asked (None otherwise)."""
    cores = os.cpu_count() or 1
    most = max(1, min(tasks, PER_CORE * cores))
    if asked <= most:
        return asked, None
    why = (f"{PER_CORE} for each of this machine's {cores} cores (more would only share them)"
           if PER_CORE * cores < tasks else f"one for each of the {tasks} {units}")
    counted = f"{most} worker process{'es' if most > 1 else ''}"
    return most, f"{asked} is more than the work can use: {counted}, {why}"


def run_batch(batch: Batch):
    """A batch and its results, computed here (a plug-in's SystemExit a fault: execution.ending)."""
    with ending(f"the runs of {batch}"):
        return batch, batch.run()


def in_process(batches: Iterable[Batch]) -> Iterator:
    for batch in batches:
        try:
            yield run_batch(batch)
        except MemoryError:
            raise out_of_memory(batch, "in this process") from None


def starmap(function, tasks: list[tuple], workers: int) -> list:
    """``function(*task)`` for each of ``tasks``, in order, on ``workers`` processes (forked
    where the system forks, else spawned), or here when ``workers`` is 1: for the checks that
    run many seeds outside a sweep (fidelity, agreement), which store nothing. Each task is
    handed out on its own (a task is already a batch of runs), so that a slow one holds back no
    others queued behind it in the same worker."""
    with Workers(workers) as pool:
        return pool.later(function, tasks)()


# ---- local processes ---------------------------------------------------------------------


def _serve(connection, inherited) -> None:
    """A worker: runs the batches that come down ``connection`` until it closes. A forked
    worker first closes its copies of the sweep's ends of the pipes (``inherited``), so that
    it sees the end of its own pipe when the sweep dies, and leaves."""
    signals.worker()  # the sweep alone handles Ctrl-C; SIGTERM ends a worker quietly
    allocator.keep_freed()  # its arrays' pages faulted in once, not every generation
    for other in inherited:
        other.close()
    while True:
        try:
            index, batch = connection.recv()
        except (EOFError, OSError):
            return
        try:
            reply = (index, None, run_batch(batch)[1])
        except MemoryError:
            reply = (index, OUT_OF_MEMORY, None)  # no room, perhaps, for a traceback
        except Fault as fault:  # named where it happened: sent as itself, with its traceback
            reply = (index, traceback.format_exc(), fault)
        except Exception:
            reply = (index, traceback.format_exc(), None)
        try:
            connection.send(reply)
        except OSError:
            return


def _how(exitcode) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


class _Pool:
    """Worker processes, each with a pipe of its own, that know which batches each holds: the
    one it runs and the next (sent ahead, so that it never waits while the sweep stores)."""

    AHEAD = 2  # batches a worker holds at most
    LOOK = 0.05  # seconds between looks for the other threads' end, while workers are held back

    def __init__(self, size: int, later: int = 0):
        self.workers = {}  # our end of a worker's pipe -> (process, its batches, oldest first)
        self.later = max(0, min(later, size - 1))  # held back: the module's docstring
        self.before = set(threading.enumerate())  # the threads that hold no worker back
        for _ in range(size - self.later):
            self._start()

    def _start_held(self) -> None:
        """Starts the workers held back once the threads started after the pool have ended."""
        if self.later and set(threading.enumerate()) <= self.before:
            for _ in range(self.later):
                self._start()
            self.later = 0

    def _start(self) -> None:
        forking = forks()
        context = multiprocessing.get_context("fork" if forking else "spawn")
        ours, theirs = context.Pipe()
        inherited = [*self.workers, ours] if forking else []
        process = context.Process(target=_serve, args=(theirs, inherited), daemon=True)
        with signals.starting():
            process.start()
        theirs.close()
        self.workers[ours] = (process, deque())

    def results(self, batches: list[Batch]) -> Iterator:
        todo = deque(range(len(batches)))
        lost = Counter()
        try:
            while todo or any(held for _, held in self.workers.values()):
                if todo:
                    self._start_held()
                self._hand_out(batches, todo)
                ready = wait([*self.workers, *(p.sentinel for p, _ in self.workers.values())],
                             timeout=self.LOOK if self.later and todo else None)
                for ours in list(self.workers):
                    process, held = self.workers[ours]
                    if ours in ready:
                        try:
                            done, failure, results = ours.recv()
                        except (EOFError, OSError):
                            pass  # it died: its sentinel is ready too, or soon
                        else:
                            held.remove(done)
                            if failure == OUT_OF_MEMORY:
                                raise out_of_memory(batches[done], "in its worker process")
                            if isinstance(results, Fault):  # the worker's own fault
                                results.details = failure
                                raise results
                            if failure:
                                raise WorkerFailed(
                                    f"a run failed in its worker process: {batches[done]} "
                                    f"raised {failure.strip().splitlines()[-1]}", failure)
                            yield batches[done], results
                            continue
                    if ours in ready or process.sentinel in ready:
                        self._replace(ours, batches, todo, lost)
        finally:
            self.stop()

    def _hand_out(self, batches, todo) -> None:
        """Fills every worker's hands, a batch to each in turn, so that the first (largest)
        batches go to different workers rather than two to the first."""
        for depth in range(1, self.AHEAD + 1):
            for ours, (_, held) in self.workers.items():
                if len(held) < depth and todo:
                    index = todo.popleft()
                    try:
                        ours.send((index, batches[index]))
                    except OSError:  # it died: its sentinel tells
                        todo.appendleft(index)
                        continue
                    held.append(index)

    def _replace(self, ours, batches, todo, lost) -> None:
        """A worker died: the batch it ran counts a loss, its batches go back at the head of
        the queue, and a new worker takes its place while there is work left."""
        process, held = self.workers.pop(ours)
        process.join(STOP_SECONDS)
        if process.is_alive():  # its pipe broke, yet it lives: end it
            process.kill()
            process.join()
        ours.close()
        if held:
            running = held[0]
            lost[running] += 1
            if lost[running] >= LOST_LIMIT:
                raise WorkerLost(f"the worker process running {batches[running]} died "
                                 f"{lost[running]} times (the last {_how(process.exitcode)})")
            todo.extendleft(reversed(held))
        if todo:
            self._start()

    def stop(self) -> None:
        """Ends every worker: SIGTERM, then SIGKILL after STOP_SECONDS (workers.end)."""
        end([process for process, _ in self.workers.values()])
        for ours in self.workers:
            ours.close()
        self.workers.clear()


class _Running:
    """The results of a pool, iterated once; ``close`` ends its workers, started or not."""

    def __init__(self, pool: _Pool, batches: list[Batch]):
        self.pool = pool
        self.results = pool.results(batches)

    def __iter__(self):
        return self.results

    def close(self) -> None:
        self.results.close()
        self.pool.stop()


def local_pool(batches: list[Batch], workers: int, later: int = 0):
    """``workers`` processes, started now (before the sweep starts any thread, so forked on
    Linux: they start without importing anything again), but for ``later`` of them (at most
    all but one), started as the results are iterated once the threads started after the pool
    have ended (the module's docstring); iterating gives results as they come, and ``close()``
    ends the workers."""
    return _Running(_Pool(workers, later), batches)
