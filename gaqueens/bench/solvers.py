"""Section (e): the classic solvers and the counter, each figure beside its goal, each run in a
process of its own (gaqueens.bench.solver_runs), so that its peak memory is its own.

- The local search on 10^6, 10^7 and 10^8 queens against the same algorithm in C
  (gaqueens/bench/c/local_search.c), the two alternating, the same seed for both in a
  repetition, each timing its own search; the section checks that both made the same run (swaps
  tried, attacking pairs and a checksum of the placement): a comparison of implementations, not
  of algorithms. Goals: at most twice C's time on 10^6; 10^7 within 10 s; 10^8 within 60 s and
  4 GB of peak memory (the process's high-water mark, Python, numpy and numba included).
- Min-conflicts on 10^6 queens, within 3 s.
- The construction on 10^8 queens and the independent verifier on its placement, each within
  10 s, the process within 4 GB.
- Counting 16 x 16 within a minute, as ``python -m gaqueens.count 16`` reports it.

--quick runs the same on small boards once or twice, where no goal is stated.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from gaqueens.bench import c_twin
from gaqueens.bench.common import Plan, Report, spread, timed


@dataclass(frozen=True)
class Work:
    """Each figure's boards and repetitions."""

    compared: tuple[tuple[int, int], ...] = ((10**6, 5), (10**7, 3), (10**8, 1))
    min_conflicts: tuple[int, int] = (10**6, 5)
    construction: tuple[int, int] = (10**8, 1)
    count: tuple[int, int] = (16, 3)


QUICK = Work(compared=((10**4, 2),), min_conflicts=(10**4, 1), construction=(10**4, 1),
             count=(10, 1))
LABELS = {"local-search": "local search, seconds", "ratio": "local search / its C twin, seconds",
          "peak": "local search, peak memory", "min-conflicts": "min-conflicts, seconds",
          "construction": "construction, seconds", "verifier": "the verifier on a construction, "
          "seconds", "construction peak": "construction and verifier, peak memory",
          "count": "counting every solution, seconds"}
GOALS = {("ratio", 10**6): 2, ("local-search", 10**7): 10, ("local-search", 10**8): 60,
         ("peak", 10**8): 4, ("min-conflicts", 10**6): 3, ("construction", 10**8): 10,
         ("verifier", 10**8): 10, ("construction peak", 10**8): 4, ("count", 16): 60}


def _line(report: Report, key: str, board: int, values, unit: str = " s") -> str:
    """The figure on this board: beside its goal where it has one, else its spread."""
    figure = f"{LABELS[key]}, board {board:,}"
    if (key, board) in GOALS:
        return report.goal(figure, values, GOALS[key, board], unit, ".3g", "runs")
    return f"{figure}: {spread(values, '.3g', unit)}"


def _runs(*args) -> dict:
    return json.loads(timed([sys.executable, "-m", "gaqueens.bench.solver_runs",
                             *map(str, args)])[1])


def _mb(runs: list[dict], key: str = "peak_kb") -> str:
    """The largest of the runs' memories (KiB from the kernel) in MB of 10^6 bytes."""
    values = [run[key] for run in runs if run.get(key)]
    return f"{max(values) * 1024 / 1e6:,.0f} MB" if values else "not measured here"


def _gb(runs: list[dict]) -> list[float]:
    return [max(run["peak_kb"] or 0 for run in runs) * 1024 / 1e9]


def _rows(report: Report, name: str, board: int, seconds: list[float]) -> list[float]:
    for repetition, value in enumerate(seconds):
        report.row(section="solvers", engine=name, board=board, seeds=repetition + 1,
                   repetition=repetition, seconds=value, evaluations="")
    return seconds


def _theirs(binary: Path, board: int, seed: int) -> dict:
    solved, conflicts, swaps, seconds, checksum, peak, _cpu = timed(
        [str(binary), str(board), str(seed)])[1].split()
    return {"seconds": float(seconds), "swaps": int(swaps), "conflicts": int(conflicts),
            "checksum": int(checksum), "peak_kb": int(peak)}


def local_search_vs_c(board: int, repeats: int, binary: Path | None, report: Report) -> None:
    """The local search against its C twin on one board, in turn first, seeds 1..repeats."""
    runs = {"gaqueens": [], "C": []}
    for repetition in range(repeats):
        for program in ("gaqueens", "C")[::1 if repetition % 2 == 0 else -1]:
            if program == "C" and binary is None:
                continue
            run = (_runs("search", "local-search", board, repetition + 1) if program == "gaqueens"
                   else _theirs(binary, board, repetition + 1))
            runs[program].append(run)
            report.row(section="solvers", engine=f"local-search ({program})", board=board,
                       seeds=repetition + 1, repetition=repetition, seconds=run["seconds"],
                       evaluations=run["swaps"])
    ours, theirs = runs["gaqueens"], runs["C"]
    report.say("- " + _line(report, "local-search", board, [run["seconds"] for run in ours]))
    if theirs:
        same = sum(all(mine[k] == c[k] for k in ("swaps", "conflicts", "checksum"))
                   for mine, c in zip(ours, theirs))
        report.say(f"  - C: {spread([run['seconds'] for run in theirs], '.3g', ' s')}; "
                   + _line(report, "ratio", board, [mine["seconds"] / c["seconds"]
                                                    for mine, c in zip(ours, theirs)], ""))
        report.say(f"  - the same run in both (swaps tried, attacking pairs, placement): "
                   f"{same} of {len(theirs)} seeds")
    report.say(f"  - peak memory: gaqueens {_mb(ours)} ({_mb(ours, 'before_kb')} before the run: "
               f"Python, numpy, numba){f', C {_mb(theirs)}' if theirs else ''}"
               + (f"; {_line(report, 'peak', board, _gb(ours), ' GB')}"
                  if ("peak", board) in GOALS else ""))


def classic_solvers(plan: Plan, report: Report, scratch: Path) -> None:
    """The section: every figure of the classic solvers and the counter, beside its goal."""
    work = QUICK if plan.quick else Work()
    start = time.perf_counter()
    binary, compiler = c_twin.build("local_search", scratch)
    report.say("### (e) The classic solvers and the counter: a process per run")
    report.say()
    report.say(f"- C: {compiler}" if binary else f"- C comparison skipped: {compiler}")
    for board, repeats in work.compared:
        local_search_vs_c(board, repeats, binary, report)
    board, repeats = work.min_conflicts
    runs = [_runs("search", "min-conflicts", board, seed) for seed in range(1, repeats + 1)]
    seconds = _rows(report, "min-conflicts", board, [run["seconds"] for run in runs])
    report.say(f"- {_line(report, 'min-conflicts', board, seconds)}; peak memory {_mb(runs)}")
    board, repeats = work.construction
    runs = [_runs("construct", board) for _ in range(repeats)]
    seconds = _rows(report, "construction", board, [run["seconds"] for run in runs])
    report.say("- " + _line(report, "construction", board, seconds))
    report.say("  - " + _line(report, "verifier", board, [run["verifier_seconds"]
                                                          for run in runs])
               + f"; {sum(run['valid'] for run in runs)} of {len(runs)} valid")
    report.say(f"  - {_line(report, 'construction peak', board, _gb(runs), ' GB')}")
    board, repeats = work.count
    runs = [_runs("count", board) for _ in range(repeats)]
    seconds = _rows(report, "count", board, [float(
        run["line"].rsplit(",", 1)[1].strip().removesuffix(" s")) for run in runs])
    counts = runs[-1]["line"].split(":", 1)[1].rsplit(",", 1)[0].strip()
    table = "as" if all(run["match"] for run in runs) else "NOT as"
    report.say("- " + _line(report, "count", board, seconds) + f" (numba's import and the "
               f"kernel's reading included); {counts}, {table} the shipped table")
    report.say(f"- this section took {time.perf_counter() - start:.0f} s")
    report.say()
