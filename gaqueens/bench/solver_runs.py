"""The runs section (e) and gaqueens.bench.memory measure, each in a process of its own (so that
its peak memory is its own), printed as one line of JSON:

    python -m gaqueens.bench.solver_runs search NAME N SEED
        one run of the local search or min-conflicts (its module alone imported) on N queens
        at its default settings, after an untimed run on 8 queens has imported numba and read
        the kernel: ``seconds``, ``swaps`` (its work), ``conflicts``, the ``checksum`` of the
        placement (the C twin's: the sum of (2r + 1) x column(r), modulo 2^64), the process's
        peak memory before the run and at the end (``before_kb``, ``peak_kb``).
    python -m gaqueens.bench.solver_runs construct N
        the construction on N queens (``seconds``), then the independent verifier on its
        placement (``verifier_seconds``, ``valid``); ``before_kb`` and ``peak_kb``.
    python -m gaqueens.bench.solver_runs count N
        ``python -m gaqueens.count N`` in this process: its ``line``, whether the counts
        ``match`` the table (its exit status), ``peak_kb``.
    python -m gaqueens.bench.solver_runs peak NAME N [FIELD=VALUE ...] [runs=K]
        one run of any algorithm on N queens, seed 1, at its default settings but the FIELDs
        given (whole numbers; the GA's engine a name; runs=K: the GA's seeds 1..K together),
        after the process has paid its one-off costs (gaqueens.runtime.execution.warm): the
        ``need`` the algorithm states (bytes) and the ``peak`` its run adds to the process
        (bytes: the high-water mark at the end less the resident memory before the run, the
        mark reset just before it where Linux allows, ``reset``), ``seconds``, ``solved``.

Peak memory is VmHWM of /proc/self/status (Linux; None elsewhere).
"""

from __future__ import annotations

import json
import sys
import time

MODULES = {"local-search": "gaqueens.baselines.local_search",
           "min-conflicts": "gaqueens.baselines.min_conflicts"}


def _status_kb(key: str) -> int | None:
    """A figure of /proc/self/status in KiB (VmHWM, VmRSS), or None where there is none."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith(key + ":"))
    except (OSError, StopIteration):
        return None


def _peak_kb() -> int | None:
    """This process's peak resident memory in KiB, where /proc tells it."""
    return _status_kb("VmHWM")


def _reset_peak() -> bool:
    """Resets this process's high-water mark to its resident memory now (Linux 4.0 on)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def peak(name: str, n: int, fields: list[str]) -> dict:
    """One run's stated need and measured peak (the module's docstring)."""
    import dataclasses

    from gaqueens import baselines, ga  # noqa: F401  (register the built-in algorithms)
    from gaqueens.core.algorithms import find
    from gaqueens.runtime.execution import need, warm

    algorithm = find(name)
    changes, runs = {}, 1
    for field in fields:
        key, _, value = field.partition("=")
        if key == "runs":
            runs = int(value)
        else:
            changes[key.replace("-", "_")] = value if key == "engine" else int(value)
    settings = dataclasses.replace(algorithm.settings(), **changes)
    warm(algorithm, settings)
    reset = _reset_peak()
    before = _status_kb("VmRSS")
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
    algorithm.run(settings, 8, seed)
    before = _peak_kb()
    start = time.perf_counter()
    result = algorithm.run(settings, n, seed)
    seconds = time.perf_counter() - start
    weights = 2 * np.arange(n, dtype=np.uint64) + np.uint64(1)
    checksum = int((weights * result.solution.astype(np.uint64)).sum(dtype=np.uint64))
    return {"seconds": seconds, "swaps": result.work, "conflicts": result.conflicts,
            "checksum": checksum, "before_kb": before, "peak_kb": _peak_kb()}


def construct(n: int) -> dict:
    from gaqueens.baselines import construction
    from gaqueens.problems.nqueens.verifier import is_solution

    before = _peak_kb()
    start = time.perf_counter()
    result = construction.run(construction.Settings(), n, 1)
    seconds = time.perf_counter() - start
    valid = bool(is_solution(result.solution, n))
    return {"seconds": seconds, "verifier_seconds": time.perf_counter() - start - seconds,
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


def main(argv: list[str]) -> int:
    kinds = {"search": (search, 4), "construct": (construct, 2), "count": (count, 2)}
    if argv[:1] == ["peak"] and len(argv) >= 3:
        print(json.dumps(peak(argv[1], int(argv[2]), argv[3:])))
    elif argv[:1] and argv[0] in kinds and len(argv) == kinds[argv[0]][1]:
        function, _ = kinds[argv[0]]
        print(json.dumps(function(*[int(a) if a.isdigit() else a for a in argv[1:]])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
