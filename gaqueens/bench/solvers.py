"""Section (e): the classic solvers and the counter, each figure beside its goal.

- The local search on 10^6 and 10^7 queens against the same algorithm in C
  (gaqueens/bench/c/local_search.c, built here with ``cc -O2`` where a C compiler is found,
  else that comparison says it is skipped): a process per run, the two programs alternating,
  the same seed for both in a repetition, each timing its own search (wall seconds, and the
  CPU seconds the process spent, which a loaded machine inflates less); the section checks
  that the two made the same run (swaps tried, attacking pairs and a checksum of the
  placement), which makes it a comparison of implementations, not algorithms. Goals: at most
  twice C's time on 10^6; 10^7 under 10 s; 10^8 (issue 17) under 60 s with a peak resident
  memory under 4 GB (the process's high-water mark, Python, numpy and numba included).
- Min-conflicts on 10^6 queens. Goal: under 3 s.
- The construction on 10^8 queens, and the independent verifier on its placement (issue 17:
  the verifier checks a 10^8 answer in seconds). Bounds measured and stated here
  (CONSTRUCTION_BOUNDS): the construction under 10 s, the verifier under 10 s, the process's
  peak under 4 GB, the placement valid.
- Peak memory of every run above (each program's own high-water mark, gaqueens.bench.
  solver_runs says how), beside what the process held before the run (Python, numpy and
  numba loaded).
- Counting 16 x 16 (goal: under a minute on two cores) and 17 x 17, as
  ``python -m gaqueens.count N`` reports it, on every core.
- What the kernels cost: numba's installed size, its import, and each kernel's first call
  in a new process, compiling (an empty cache) and reading the cache.

--quick runs the same on small boards (10^4 queens, counting 10), once or twice, without the
first-call costs, and states no goal.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from gaqueens.bench.common import Plan, Report, spread

SOURCE = Path(__file__).resolve().parent / "c" / "local_search.c"


@dataclass(frozen=True)
class Work:
    """The boards and repetitions of the section: the local search against C on each board
    of ``compared`` (with its repetitions), min-conflicts, the counts."""

    compared: tuple[tuple[int, int], ...] = ((10**6, 5), (10**7, 3), (10**8, 1))
    min_conflicts: tuple[int, int] = (10**6, 5)
    construction: tuple[int, int] = (10**8, 1)
    counts: tuple[tuple[int, int], ...] = ((16, 3), (17, 3))
    first_calls: bool = True


FULL = Work()
QUICK = Work(compared=((10**4, 2),), min_conflicts=(10**4, 1), construction=(10**4, 1),
             counts=((10, 1),), first_calls=False)
# goals, by (figure, board): the words and whether a median meets them
GOALS = {
    ("ratio", 10**6): ("at most 2", lambda x: x <= 2),
    ("local-search", 10**7): ("under 10 s", lambda x: x < 10),
    ("local-search", 10**8): ("under 60 s", lambda x: x < 60),
    ("peak GB", 10**8): ("under 4 GB", lambda x: x < 4),
    ("min-conflicts", 10**6): ("under 3 s", lambda x: x < 3),
    ("count", 16): ("under 60 s", lambda x: x < 60),
}


LABELS = {"ratio": "local search / its C twin, seconds", "local-search": "local search, seconds",
          "peak GB": "local search, peak memory", "min-conflicts": "min-conflicts, seconds",
          "count": "counting every solution, seconds"}
# the construction's bounds, stated here after measuring them (issue 17): its seconds, the
# verifier's seconds on its placement, the process's peak memory in GB
CONSTRUCTION_BOUNDS = (10**8, 10, 10, 4)


def _goal(report: Report, figure: str, board: int, median: float, shown: str) -> str:
    """The words of the figure's goal on this board, if it has one, recorded in the report."""
    if (figure, board) not in GOALS:
        return ""
    words, met = GOALS[figure, board]
    said = report.goal(f"{LABELS[figure]}, board {board:,}", shown, words, "met" if met(median) else "not met")
    return f"; goal {words}: {said}"


def _output(command: list[str], env: dict | None = None) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}): "
                           f"{done.stderr[-2000:]}")
    return done.stdout


def _runs(command: str, *args) -> dict:
    return json.loads(_output([sys.executable, "-m", "gaqueens.bench.solver_runs", command,
                               *map(str, args)]))


def _spread_s(values) -> str:
    """Seconds: median (min..max), three significant digits."""
    return (f"median {statistics.median(values):.3g} ({min(values):.3g}..{max(values):.3g})"
            " s")


def _mb(runs: list[dict], key: str = "peak_kb") -> str:
    """The largest of the runs' peak memories, in MB (10^6 bytes, as the GB of the goals are
    10^9; the kernel gives KiB)."""
    values = [run[key] for run in runs if run.get(key)]
    return f"{max(values) * 1024 / 1e6:,.0f} MB" if values else "not measured here"


def _compiler() -> list[str] | None:
    named = shlex.split(os.environ.get("CC", ""))
    if named and shutil.which(named[0]):
        return named
    found = next((shutil.which(cc) for cc in ("cc", "gcc", "clang") if shutil.which(cc)), None)
    return [found] if found else None


def _build_c(scratch: Path) -> tuple[Path | None, str]:
    """The C program built with -O2, and the compiler's name; or None and why not."""
    compiler = _compiler()
    if compiler is None:
        return None, "no C compiler found (cc, gcc, clang or $CC)"
    binary = scratch / "local_search_c"
    done = subprocess.run([*compiler, "-O2", "-o", str(binary), str(SOURCE)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, f"{shlex.join(compiler)} -O2 failed: {done.stderr.strip()[:300]}"
    version = subprocess.run([*compiler, "--version"], capture_output=True, text=True)
    name = (version.stdout.splitlines() or compiler)[0]
    return binary, f"{name}, -O2"


def _theirs(binary: Path, board: int, seed: int) -> dict:
    solved, conflicts, swaps, seconds, checksum, peak, cpu = _output(
        [str(binary), str(board), str(seed)]).split()
    return {"seconds": float(seconds), "swaps": int(swaps), "conflicts": int(conflicts),
            "checksum": int(checksum), "peak_kb": int(peak), "cpu_seconds": float(cpu)}


def local_search_vs_c(board: int, repeats: int, binary: Path | None, report: Report) -> None:
    """The local search against the C program on one board, alternating, seeds 1..repeats."""
    runs = {"gaqueens": [], "C": []}
    for repetition in range(repeats):
        seed = repetition + 1
        order = ["gaqueens", "C"] if repetition % 2 == 0 else ["C", "gaqueens"]
        for program in order:
            if program == "C" and binary is None:
                continue
            run = (_runs("search", "local-search", board, seed) if program == "gaqueens"
                   else _theirs(binary, board, seed))
            runs[program].append(run)
            report.row(section="solvers", engine=f"local-search ({program})", board=board,
                       seeds=seed, repetition=repetition, seconds=run["seconds"],
                       evaluations=run["swaps"])
    ours, theirs = runs["gaqueens"], runs["C"]
    seconds = [run["seconds"] for run in ours]
    report.say(f"- local search, {board:,} queens, seeds 1..{repeats}: gaqueens "
               f"{_spread_s(seconds)}"
               f"{_goal(report, 'local-search', board, statistics.median(seconds), _spread_s(seconds))}"
               f" (CPU {_spread_s([run['cpu_seconds'] for run in ours])})")
    if theirs:
        ratios = [mine["seconds"] / c["seconds"] for mine, c in zip(ours, theirs)]
        same = sum(all(mine[k] == c[k] for k in ("swaps", "conflicts", "checksum"))
                   for mine, c in zip(ours, theirs))
        report.say(f"  - C: {_spread_s([run['seconds'] for run in theirs])} (CPU "
                   f"{_spread_s([run['cpu_seconds'] for run in theirs])}); ratio gaqueens / C "
                   f"{spread(ratios)}"
                   f"{_goal(report, 'ratio', board, statistics.median(ratios), spread(ratios))}")
        report.say(f"  - the same run in both (swaps tried, attacking pairs, placement): "
                   f"{same} of {len(theirs)} seeds; swaps tried, median "
                   f"{statistics.median(run['swaps'] for run in ours):,.0f}")
    peak = max(run["peak_kb"] or 0 for run in ours) * 1024 / 1e9
    report.say(f"  - peak memory: gaqueens {_mb(ours)} ({_mb(ours, 'before_kb')} before the "
               "run: Python, numpy, numba)" + (f", C {_mb(theirs)}" if theirs else "")
               + _goal(report, "peak GB", board, peak, f"{peak:.2f} GB"))
    report.say(f"  - first run on 8 queens in each new process (importing numba, reading the "
               f"kernel from its cache): {_spread_s([run['first'] for run in ours])}")


def min_conflicts(board: int, repeats: int, report: Report) -> None:
    runs = []
    for repetition in range(repeats):
        runs.append(_runs("search", "min-conflicts", board, repetition + 1))
        report.row(section="solvers", engine="min-conflicts", board=board,
                   seeds=repetition + 1, repetition=repetition, seconds=runs[-1]["seconds"],
                   evaluations=runs[-1]["swaps"])
    seconds = [run["seconds"] for run in runs]
    report.say(f"- min-conflicts, {board:,} queens, seeds 1..{repeats}: {_spread_s(seconds)}"
               f"{_goal(report, 'min-conflicts', board, statistics.median(seconds), _spread_s(seconds))}"
               "; peak memory "
               f"{_mb(runs)} ({_mb(runs, 'before_kb')} before the run)")


def construction(board: int, repeats: int, report: Report) -> None:
    runs = []
    for repetition in range(repeats):
        runs.append(_runs("construct", board))
        report.row(section="solvers", engine="construction", board=board, seeds=1,
                   repetition=repetition, seconds=runs[-1]["seconds"], evaluations="")
    made, checked = ([run[key] for run in runs] for key in ("seconds", "verifier_seconds"))
    valid = sum(run["valid"] for run in runs)
    peak = max(run["peak_kb"] or 0 for run in runs) * 1024 / 1e9
    report.say(f"- construction, {board:,} queens: {_spread_s(made)}; the verifier on its "
               f"placement: {_spread_s(checked)}, {valid} of {len(runs)} valid; peak memory "
               f"{_mb(runs)} ({_mb(runs, 'before_kb')} before the run)")
    bounded, most_made, most_checked, most_gb = CONSTRUCTION_BOUNDS
    if board == bounded:
        met = (statistics.median(made) < most_made and statistics.median(checked) < most_checked
               and peak < most_gb and valid == len(runs))
        said = report.goal(
            f"construction and the verifier on its placement, board {board:,}",
            f"{statistics.median(made):.2g} s; verifier {statistics.median(checked):.2g} s; "
            f"{peak:.2f} GB", f"under {most_made} s; under {most_checked} s; under {most_gb} GB",
            "met" if met else "not met")
        report.say(f"  - bounds (stated after measuring them): construction under {most_made} "
                   f"s, the verifier under {most_checked} s, under {most_gb} GB: {said}")


def counting(board: int, repeats: int, report: Report) -> None:
    runs, seconds = [], []
    for repetition in range(repeats):
        runs.append(_runs("count", board))
        seconds.append(float(runs[-1]["line"].rsplit(",", 1)[1].strip().removesuffix(" s")))
        report.row(section="solvers", engine="count", board=board, seeds="",
                   repetition=repetition, seconds=seconds[-1], evaluations="")
    counts = runs[-1]["line"].split(":", 1)[1].rsplit(",", 1)[0].strip()
    table = "as" if all(run["match"] for run in runs) else "NOT as"
    report.say(f"- counting {board} x {board} on {_cores()} threads (the time the command "
               f"prints: numba's import and the kernel's reading included): {_spread_s(seconds)}"
               f"{_goal(report, 'count', board, statistics.median(seconds), _spread_s(seconds))}"
               f"; {counts}, {table} the "
               f"shipped table; peak memory {_mb(runs)}")


def _cores() -> int:
    from gaqueens.problems.nqueens.counting import cores

    return cores()


def first_calls(scratch: Path, report: Report) -> None:
    """numba's installed size, its import and each kernel's first call, compiling and cached."""
    from importlib.metadata import distribution

    sizes = []
    for name in ("numba", "llvmlite"):
        dist = distribution(name)
        size = sum(os.path.getsize(p) for p in map(dist.locate_file, dist.files or [])
                   if os.path.isfile(p))
        sizes.append(f"{name} {dist.version} {size / 1e6:.0f} MB")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(scratch / "numba-cache")}
    shutil.rmtree(scratch / "numba-cache", ignore_errors=True)
    command = [sys.executable, "-m", "gaqueens.bench.solver_runs", "first"]
    cold, warm = (json.loads(_output(command, env)) for _ in range(2))
    report.say(f"- the kernels: installed {', '.join(sizes)}; `import numba` "
               f"{warm['import numba']:.2f} s; first call in a new process, compiling (an "
               "empty cache) / reading the cache: " + ", ".join(
                   f"{name} {cold[name]:.2f} / {warm[name]:.2f} s"
                   for name in cold if name != "import numba"))


def classic_solvers(plan: Plan, report: Report, scratch: Path) -> None:
    """The section: every figure of the classic solvers, beside its goal."""
    work = QUICK if plan.quick else FULL
    start = time.perf_counter()
    binary, compiler = _build_c(scratch)
    report.say("### (e) The classic solvers and the counter: a process per run, the local "
               "search and its C twin alternating")
    report.say()
    report.say(f"- C: {compiler}" if binary else f"- C comparison skipped: {compiler}")
    for board, repeats in work.compared:
        local_search_vs_c(board, repeats, binary, report)
    min_conflicts(*work.min_conflicts, report)
    construction(*work.construction, report)
    for board, repeats in work.counts:
        counting(board, repeats, report)
    if work.first_calls:
        first_calls(scratch, report)
    report.say(f"- this section took {time.perf_counter() - start:.0f} s")
    report.say()
