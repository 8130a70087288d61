"""Plots drawn in forked processes of their own, on the cores the finished runs leave idle,
while the exports' own process reads the traces and writes the tables (reports/outputs.py).

At most one drawing process a core runs at a time, counting the live processes of ``beside``
(the exports' Workers: their resampling, comparisons and replays); the plots handed out beyond
that wait until a core is free (``poll`` and ``wait`` start them, and take in the results the
workers have sent, so that a worker done with its tasks ends: Workers.poll). More processes
than cores only share the cores, and each holds memory of its own: a forked process keeps a
copy of every page it, or its parent, writes to after the fork. Before forking, this process
gives back what its allocators keep freed (gaqueens.runtime.allocator.before_fork). On the
100,000-run sweep's exports, the peak PSS was 524-540 MB (five runs); with the workers neither
counted nor polled, 633 and 635 MB, the exports no faster (13.0 and 13.2 s against 12.5-12.7 s,
sampled).

A process that fails only sets its exit status: the plot is drawn again here, which raises
what went wrong. Where processes are not forked, and while another thread of this process
runs (a Dask client's, a notebook's: forking copies its locks), the plots are drawn here, when
``wait`` is called; so are those still waiting there while the workers hold every core.

Stopped (Ctrl-C, SIGTERM, or any exception that ends the exports: ``close``, called by ``wait``
and by the block of ``beside`` that ends so), the processes drawing get SIGTERM, which raises
SystemExit where each is, so that its plot's partial file is removed (gaqueens.core.files),
and are joined: none outlives the exports, or writes after them. Ctrl-C itself is the exports'
process's to handle (runtime/signals.py).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from multiprocessing.connection import wait as ready

from gaqueens.runtime import signals
from gaqueens.runtime.workers import end, forking, forks


def _draw_quietly(function, *args) -> None:
    """A forked process's drawing: a failure only sets its exit status (the module's docstring)."""
    try:
        signals.worker(tidy=True)
        function(*args)
    except BaseException:
        os._exit(1)


class Drawing:
    """Plots handed out with ``add`` (jobs: function, *arguments), drawn by ``wait``'s end."""

    def __init__(self, limit: int | None = None, beside=None):
        self.limit = max(1, limit or os.cpu_count() or 1)
        self.beside = beside  # Workers whose live processes count against the limit
        self.queued: deque = deque()
        self.running: list = []  # (job, process)
        if beside is not None:
            beside.ending(self.close)

    def add(self, jobs) -> None:
        """Starts drawing ``jobs`` where a core is free; the rest wait for ``wait``."""
        self.queued.extend(jobs)
        self.poll()

    def poll(self) -> None:
        """Starts the plots waiting, on the cores that the processes ended since have freed:
        called where this process is about to be busy a while."""
        self._reap(block=False)
        if self.beside is not None:
            self.beside.poll()  # a worker done with its tasks ends (Workers.poll), freeing a core
        if not forks():
            return  # drawn here, by wait
        if not self.queued or self._busy() >= self.limit:
            return
        fork = multiprocessing.get_context("fork")
        with forking():
            while self.queued and self._busy() < self.limit:
                job = self.queued.popleft()
                process = fork.Process(target=_draw_quietly, args=job)
                with signals.starting():
                    process.start()
                self.running.append((job, process))

    def _busy(self) -> int:
        """The cores taken: the drawing processes, and the live processes of ``beside``."""
        return len(self.running) + (0 if self.beside is None else self.beside.alive())

    def _reap(self, block: bool) -> None:
        """Joins the processes that have ended (waiting for one, if ``block``); a plot whose
        process failed is drawn here."""
        if block and self.running:
            ready([process.sentinel for _, process in self.running])
        for job, process in list(self.running):
            if process.exitcode is None:
                continue
            process.join()
            self.running.remove((job, process))
            if process.exitcode != 0:
                job[0](*job[1:])

    def stop(self) -> None:
        """Ends the plots drawing and drops those waiting: what they were drawn for stopped."""
        self.queued.clear()
        for _, process in self.running:
            process.terminate()
            process.join()
        self.running = []

    def wait(self) -> None:
        """Draws every plot handed out: starts those waiting as processes end, and draws
        here what cannot be forked."""
        try:
            while self.running or self.queued:
                self.poll()
                if self.running:
                    self._reap(block=True)
                elif self.queued:  # nothing forked: here
                    job = self.queued.popleft()
                    job[0](*job[1:])
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stops drawing: the plots waiting are dropped, and the processes drawing end, each
        removing its partial file (SIGTERM), and are joined."""
        self.queued.clear()
        end([process for _, process in self.running])
        self.running.clear()
