"""The memory of a tree of processes, sampled from /proc (Linux): every SAMPLE_SECONDS, the
resident set size (VmRSS) of each descendant of a process, summed, and its proportional set
size (Pss, /proc/PID/smaps_rollup), summed.

The sum of RSS counts the pages that forked processes share (a sweep's workers, the processes
that draw its plots) once per process: an upper bound of the memory the tree holds. The sum of
PSS shares each page among the processes that map it: the memory the tree holds. A peak
between two samples is missed. Each process's own peak (VmHWM, kept by the kernel) is read at
each sample too, which misses only what a process holds in its last SAMPLE_SECONDS.
"""

from __future__ import annotations

import os
import statistics
import threading
import time
from pathlib import Path

SAMPLE_SECONDS = 0.1
MB = 1e6


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from each of its threads' children lists."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue  # the thread or the process has ended
            found += children
            todo += children
    return found


def _status(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM and Pss of a process in bytes; empty once it has ended."""
    values = {}
    try:
        for name, keys in (("status", ("VmRSS", "VmHWM")), ("smaps_rollup", ("Pss",))):
            for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
                key, _, rest = line.partition(":")
                if key in keys:
                    values[key] = int(rest.split()[0]) * 1024
    except (OSError, ValueError):
        return {}
    return values


def available() -> str | None:
    """Why the tree cannot be sampled here, or None."""
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        return "this system has no /proc/PID/task/TID/children (Linux with CONFIG_PROC_CHILDREN)"
    return None


class Sampler:
    """Samples the descendants of ``root`` (this process by default, which is not counted) in
    a thread, from ``start()`` to ``stop()``."""

    def __init__(self, root: int | None = None):
        self.root = root or os.getpid()
        self.samples: list[tuple[float, int, int]] = []  # (seconds since the start, RSS, PSS)
        self.peaks: dict[int, int] = {}  # a process's own peak, VmHWM
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._began = 0.0

    def start(self) -> "Sampler":
        self._began = time.monotonic()
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            rss = pss = 0
            for pid in descendants(self.root):
                status = _status(pid)
                rss += status.get("VmRSS", 0)
                pss += status.get("Pss", 0)
                if "VmHWM" in status:
                    self.peaks[pid] = max(self.peaks.get(pid, 0), status["VmHWM"])
            self.samples.append((time.monotonic() - self._began, rss, pss))
            if self._done.wait(SAMPLE_SECONDS):
                return

    def stop(self) -> "Sampler":
        self._done.set()
        self._thread.join()
        return self

    @property
    def peak(self) -> int:
        """The largest sum of RSS over the tree, in bytes."""
        return max((rss for _, rss, _ in self.samples), default=0)

    @property
    def peak_pss(self) -> int:
        """The largest sum of PSS over the tree, in bytes."""
        return max((pss for _, _, pss in self.samples), default=0)

    @property
    def largest(self) -> int:
        """The largest peak of a single process, in bytes."""
        return max(self.peaks.values(), default=0)

    def halves(self, until: float | None = None) -> tuple[float, float]:
        """The median tree PSS over the first and the second half of the time sampled (up to
        ``until`` seconds if given)."""
        samples = [s for s in self.samples if until is None or s[0] <= until] or self.samples
        if not samples:
            return 0.0, 0.0
        middle = samples[-1][0] / 2
        first = [pss for at, _, pss in samples if at <= middle]
        second = [pss for at, _, pss in samples if at > middle] or first
        return statistics.median(first), statistics.median(second)
