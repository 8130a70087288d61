"""The memory of a tree of processes, sampled from /proc (Linux): every SAMPLE_SECONDS, the
resident set size (VmRSS) of each descendant of a process, summed, and its proportional set
size (Pss, /proc/PID/smaps_rollup), summed.

The sum of RSS counts the pages that forked processes share (a sweep's workers, the processes
that draw its plots) once per process: an upper bound of the memory the tree holds. The sum of
PSS shares each page among the processes that map it: the memory the tree holds. A peak
between two samples is missed.

    python -m gaqueens.bench.memory [--quick]

prints, per algorithm and board of NEEDS (QUICK_NEEDS with --quick), the memory its run
states it needs (``memory(settings, board)``, gaqueens.core.algorithms) beside the peak one run
adds to a fresh process that has paid its one-off costs (gaqueens.bench.solver_runs peak says
how it is measured), and their ratio measured / stated: a ratio above 1 is a need that is not
an upper bound (the line says so, and the exit status is 1). The settings are the defaults
but the budgets and generation limits of NEEDS, which keep each run to seconds (the memory
of these algorithms does not grow with either).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

SAMPLE_SECONDS = 0.1
MB = 1e6
# per algorithm: the boards measured and the settings changed ([] for the defaults)
NEEDS = {
    "local-search": ((10**4, 10**5, 10**6), []),
    "min-conflicts": ((10**4, 10**5, 10**6), []),
    "construction": ((10**4, 10**5, 10**6), []),
    "backtracking": ((10**4, 10**5, 10**6), ["budget=100000"]),
    "backtracking-heuristic": ((10**3, 10**4, 10**5), ["budget=200"]),
    "ga": ((10**3, 10**4, 10**5), ["generations=5"]),
}
QUICK_NEEDS = {name: (boards[:1], fields) for name, (boards, fields) in NEEDS.items()}


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from each of its threads' children lists."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except OSError:
            continue  # the process has ended (ENOENT, or ESRCH while it is being reaped)
        for task in tasks:
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


def tree_pss(root: int | None = None) -> int:
    """The PSS of every process below ``root`` (this process by default) summed, in bytes:
    one sample."""
    return sum(_status(pid).get("Pss", 0) for pid in descendants(root or os.getpid()))


def available() -> str | None:
    """Why the tree cannot be sampled here, or None."""
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        return "this system has no /proc/PID/task/TID/children (Linux with CONFIG_PROC_CHILDREN)"
    return None


class Sampler:
    """Samples the descendants of ``root`` (this process by default, which is not counted) in
    a thread, from ``start()`` to ``stop()``: the largest sums of their RSS and of their PSS,
    in bytes (``peak``, ``peak_pss``)."""

    def __init__(self, root: int | None = None):
        self.root = root or os.getpid()
        self.peak = self.peak_pss = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._failed: BaseException | None = None  # what stopped the sampling early

    def start(self) -> "Sampler":
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while True:
                found = [_status(pid) for pid in descendants(self.root)]
                self.peak = max(self.peak, sum(one.get("VmRSS", 0) for one in found))
                self.peak_pss = max(self.peak_pss, sum(one.get("Pss", 0) for one in found))
                if self._done.wait(SAMPLE_SECONDS):
                    return
        except BaseException as error:  # raised by stop(): no peak from part of the time
            self._failed = error

    def stop(self, check: bool = True) -> "Sampler":
        """Ends the sampling; with ``check``, raises RuntimeError if it failed before (its
        samples would cover only part of the time)."""
        self._done.set()
        self._thread.join()
        if check and self._failed is not None:
            raise RuntimeError(f"sampling the memory of process {self.root}'s tree failed: "
                               f"{self._failed!r}") from self._failed
        return self


def need_and_peak(name: str, board: int, fields: list[str]) -> dict:
    """One run's stated need and measured peak, in a process of its own."""
    import json
    import sys

    from gaqueens.bench.common import timed

    return json.loads(timed([sys.executable, "-m", "gaqueens.bench.solver_runs", "peak", name,
                             str(board), *fields])[1])


def main(argv: list[str] | None = None) -> int:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if argv not in ([], ["--quick"]):
        print("usage: python -m gaqueens.bench.memory [--quick]", file=sys.stderr)
        return 2
    plan = QUICK_NEEDS if argv else NEEDS
    print(f"{'algorithm':<23} {'board':>11} {'stated':>10} {'measured':>10} {'ratio':>6}  settings")
    over = 0
    for name, (boards, fields) in plan.items():
        for board in boards:
            found = need_and_peak(name, board, fields)
            need, peak = found["need"], found["peak"]
            ratio = f"{peak / need:.2f}" if need and peak is not None else "-"
            above = bool(need and peak is not None and peak > need)
            over += above
            print(f"{name:<23} {board:>11,} {need / MB:>8,.1f}MB "
                  f"{'-' if peak is None else f'{peak / MB:,.1f}MB':>10} {ratio:>6}  "
                  f"{' '.join(fields) or 'defaults'}"
                  + ("" if found["reset"] else " (peak since start)")
                  + (" NOT an upper bound" if above else ""))
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
