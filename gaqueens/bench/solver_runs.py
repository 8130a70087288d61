"""What section (e) of the benchmark measures, each in a process of its own (so that its peak
memory is its own), printed as one line of JSON:

    python -m gaqueens.bench.solver_runs search NAME N SEED
        one run of the local search or min-conflicts (its module alone imported) with its
        default settings on N queens: ``seconds`` of the run alone, after a first run on 8
        queens has imported numba and read the kernel (``first``, seconds), and the CPU
        seconds this process spent on it (``cpu_seconds``); ``swaps`` (its
        work), ``conflicts``, the ``checksum`` of the placement (the C program's: the sum of
        (2r + 1) x column(r), modulo 2^64); the process's peak memory before the run and at
        the end (``before_kb``, ``peak_kb``).
    python -m gaqueens.bench.solver_runs construct N
        one run of the construction on N queens (``seconds``, ``cpu_seconds``), then the
        independent verifier on its placement (``verifier_seconds``, and whether it is
        ``valid``); ``before_kb`` and ``peak_kb`` as for search.
    python -m gaqueens.bench.solver_runs count N
        ``python -m gaqueens.count N`` in this process: its ``line`` (counts and time), whether
        the counts ``match`` the table, and ``peak_kb``.
    python -m gaqueens.bench.solver_runs first
        seconds to import numba, then to import the GA's two kernels, its generation and its
        draws' (which compiles their signatures), and of each solver kernel's first call on 8
        queens (compiling it, or reading it from the cache when numba finds it there).
    python -m gaqueens.bench.solver_runs peak NAME N [FIELD=VALUE ...] [runs=K]
        one run of any algorithm (the GA too) on N queens, seed 1, at its default settings but
        the FIELDs given (whole numbers, the GA's engine a name; runs=K: the GA's seeds
        1..K advanced together), after the process has paid its one-off costs (gaqueens.runtime.
        execution.warm: an untimed run on a small board): the ``need`` the algorithm states
        (bytes), and the ``peak`` its run adds to the process (bytes): the high-water mark of
        the resident memory at the end less the resident memory before the run, the mark
        reset just before the run where Linux allows it (``reset``: /proc/self/clear_refs);
        ``seconds`` of the run and whether it ``solved`` the board.

Peak memory is VmHWM of /proc/self/status, the high-water mark of the resident memory since
the program started (on Linux; elsewhere getrusage's ru_maxrss, which may count the memory of
the process that started it: a parent's wait4 does on Linux).
"""

from __future__ import annotations

import json
import sys
import time


MODULES = {"local-search": "gaqueens.baselines.local_search",
           "min-conflicts": "gaqueens.baselines.min_conflicts"}


def _peak_kb() -> int | None:
    """This process's peak resident memory in KB, where the system tells it (not Windows)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        pass
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes there, KB on Linux


def _resident_kb() -> int | None:
    """This process's resident memory now in KB (VmRSS), where /proc tells it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return None


def _reset_peak() -> bool:
    """Resets this process's high-water mark to its resident memory now (Linux 4.0 on)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def peak(name: str, n: int, fields: list[str]) -> dict:
    """One run's stated need and measured peak (see the module's docstring)."""
    import dataclasses

    from gaqueens import baselines  # noqa: F401  (registers the built-in solvers)
    from gaqueens import ga  # noqa: F401  (registers the GA)
    from gaqueens.core.algorithms import find
    from gaqueens.runtime.execution import need, warm

    algorithm = find(name)
    changes, runs = {}, 1
    for field in fields:
        key, _, value = field.partition("=")
        if key == "runs":  # the GA's runs advanced together: seeds 1..runs
            runs = int(value)
        else:
            changes[key.replace("-", "_")] = value if key == "engine" else int(value)
    settings = dataclasses.replace(algorithm.settings(), **changes)
    warm(algorithm, settings)
    reset = _reset_peak()
    before = _resident_kb()
    start = time.perf_counter()
    if runs > 1:
        result = algorithm.run_many(settings, n, list(range(1, runs + 1)))[0]
    else:
        result = algorithm.run(settings, n, 1)
    seconds = time.perf_counter() - start
    after = _peak_kb()
    grown = None if before is None or after is None else max(0, after - before) * 1024
    return {"need": need(algorithm, settings, n, runs), "peak": grown, "reset": reset,
            "seconds": seconds, "solved": bool(result.solved)}


def search(name: str, n: int, seed: int) -> dict:
    import importlib

    import numpy as np

    algorithm = importlib.import_module(MODULES[name])
    settings = algorithm.Settings()
    start = time.perf_counter()
    algorithm.run(settings, 8, seed)
    first = time.perf_counter() - start
    before = _peak_kb()
    start, cpu = time.perf_counter(), time.process_time()
    result = algorithm.run(settings, n, seed)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    weights = 2 * np.arange(n, dtype=np.uint64) + np.uint64(1)
    checksum = int((weights * result.solution.astype(np.uint64)).sum(dtype=np.uint64))
    return {"seconds": seconds, "cpu_seconds": cpu, "first": first, "swaps": result.work,
            "conflicts": result.conflicts, "checksum": checksum, "before_kb": before,
            "peak_kb": _peak_kb()}


def construct(n: int) -> dict:
    from gaqueens.baselines import construction
    from gaqueens.problems.nqueens.verifier import is_solution

    before = _peak_kb()
    start, cpu = time.perf_counter(), time.process_time()
    result = construction.run(construction.Settings(), n, 1)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    valid = bool(is_solution(result.solution, n))
    return {"seconds": seconds, "cpu_seconds": cpu, "verifier_seconds": time.perf_counter() - start,
            "valid": valid, "before_kb": before, "peak_kb": _peak_kb()}


def count(n: int) -> dict:
    import contextlib
    import io

    from gaqueens import count as command

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = command.main([str(n)])
    return {"line": printed.getvalue().splitlines()[0], "match": status == 0,
            "peak_kb": _peak_kb()}


def first_calls() -> dict:
    import numpy as np

    times = {}
    start = time.perf_counter()
    import numba  # noqa: F401

    times["import numba"] = time.perf_counter() - start
    start = time.perf_counter()
    from gaqueens.problems.nqueens import generation_kernel  # noqa: F401 (compiled on import)

    times["GA generation"] = time.perf_counter() - start
    from gaqueens.baselines import local_search_kernel, min_conflicts_kernel
    from gaqueens.problems.nqueens import counting_kernel

    calls = {
        "local search": lambda: local_search_kernel.search(8, 50, 256, 10**9, np.uint64(1)),
        "min-conflicts": lambda: min_conflicts_kernel.search(8, 50, 4, 10**8, np.uint64(1)),
        "counting": lambda: counting_kernel.count_below(8, np.array([1, 4, 32], np.int64)),
    }
    for name, call in calls.items():
        start = time.perf_counter()
        call()
        times[name] = time.perf_counter() - start
    return times


def main(argv: list[str]) -> int:
    if argv[:1] == ["search"] and len(argv) == 4:
        print(json.dumps(search(argv[1], int(argv[2]), int(argv[3]))))
    elif argv[:1] == ["construct"] and len(argv) == 2:
        print(json.dumps(construct(int(argv[1]))))
    elif argv[:1] == ["count"] and len(argv) == 2:
        print(json.dumps(count(int(argv[1]))))
    elif argv[:1] == ["peak"] and len(argv) >= 3:
        print(json.dumps(peak(argv[1], int(argv[2]), argv[3:])))
    elif argv == ["first"]:
        print(json.dumps(first_calls()))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
