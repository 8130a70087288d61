"""Section (b)'s in-sweep figures: a run's seconds in a sweep of the table (runs.csv), per
evaluation, against what ga.run_many costs on the same seeds, cut into the same batches, in the
bench's own process right after the sweep (issue 17: within 1.1x; and at most 0.5x genoxide's
on boards 32 and 128); and, for a sweep of several workers, a control: ga.run_many in as many
processes at once, each its share of the batches, which tells what processes computing side by
side cost each other on this machine from what the sweep itself adds."""

from __future__ import annotations

import csv
import multiprocessing
import queue
import statistics
import threading
from pathlib import Path

from gaqueens.bench.common import Report, spread, tested, verdict

GOAL = 1.1  # issue 17: in-sweep µs per evaluation within 1.1x of ga.run_many's
GENOXIDE = (32, 128), 0.5  # issue 17: and at most 0.5x genoxide's on these boards


def measured(folder: Path, seeds: range, workers: int) -> dict[int, tuple]:
    """Per board, (in-sweep, ga.run_many alone, ga.run_many in ``workers`` processes at once or
    None for one worker), microseconds per evaluation: the sweep that wrote ``folder`` with
    ``workers`` workers, and ga.run_many measured now on its seeds and batches."""
    mine = in_sweep_cost(folder)
    alone = run_many_cost(list(mine), seeds, workers)
    together = run_many_at_once(list(mine), seeds, workers) if workers > 1 else {}
    return {board: (cost, alone[board], together.get(board)) for board, cost in mine.items()}


def in_sweep_cost(folder: Path) -> dict[int, float]:
    """The GA's microseconds per evaluation per board in a sweep's runs.csv (or
    runs-compact.csv), by its seconds column: the sum of the runs' seconds over the sum of
    their evaluations."""
    path = folder / "runs.csv"
    path = path if path.exists() else folder / "runs-compact.csv"
    totals: dict[int, list[float]] = {}
    with open(path, encoding="utf-8") as file:
        for row in csv.DictReader(file):
            if row["algorithm"] == "ga":
                total = totals.setdefault(int(row["board"]), [0.0, 0])
                total[0] += float(row["seconds"])
                total[1] += int(row["work"])
    return {board: seconds / work * 1e6 for board, (seconds, work) in sorted(totals.items())}


def sweep_batches(seeds: range, workers: int) -> list[list[int]]:
    """``seeds`` cut into the batches of runs advanced together that a sweep with ``workers``
    workers makes (gaqueens.runtime.batches)."""
    from gaqueens.runtime.batches import TOGETHER

    size = min(TOGETHER, -(-len(seeds) // workers))
    return [list(seeds[first:first + size]) for first in range(0, len(seeds), size)]


def run_many_cost(boards, seeds: range, workers: int) -> dict[int, float]:
    """ga.run_many's microseconds per evaluation per board, by its results' own seconds (the
    clock of runs.csv's), in this process, on ``seeds`` cut into the batches a sweep with
    ``workers`` workers makes (sweep_batches)."""
    from gaqueens import ga
    from gaqueens.bench.common import published_settings

    settings, cost = published_settings(), {}
    ga.warm(settings)  # what a sweep's worker pays once, untimed, before its batches
    for board in boards:
        results = [r for batch in sweep_batches(seeds, workers)
                   for r in ga.run_many(settings, board, batch)]
        cost[board] = sum(r.seconds for r in results) / sum(r.work for r in results) * 1e6
    return cost


def _share_at_once(boards, batches: list[list[int]], barrier, done) -> None:
    """A process of run_many_at_once: on each board, once every process is ready, its share of
    the batches; puts (board, seconds, evaluations) into ``done``, or, when it fails, breaks the
    barrier, so that no process waits for it, and puts (None, what failed, 0); a process the
    barrier released that way ends without a word: the one that failed says what."""
    try:
        from gaqueens import ga
        from gaqueens.bench.common import published_settings

        settings = published_settings()
        ga.warm(settings)
        for board in boards:
            barrier.wait()
            results = [r for seeds in batches for r in ga.run_many(settings, board, seeds)]
            done.put((board, sum(r.seconds for r in results), sum(r.work for r in results)))
    except threading.BrokenBarrierError:  # another process failed and says what
        return
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which raises
        barrier.abort()
        done.put((None, f"{type(error).__name__}: {error}", 0))


def run_many_at_once(boards, seeds: range, workers: int) -> dict[int, float]:
    """ga.run_many's microseconds per evaluation per board, by its results' own seconds, in
    ``workers`` processes computing at once, each its share of the batches run_many_cost cuts:
    a control for a sweep with that many workers, what processes computing side by side cost
    each other on this machine (caches, memory), the sweep's own work aside."""
    batches = sweep_batches(seeds, workers)
    context = multiprocessing.get_context("spawn")
    barrier, done = context.Barrier(workers), context.Queue()
    processes = [context.Process(target=_share_at_once,
                                 args=(list(boards), batches[i::workers], barrier, done))
                 for i in range(workers)]
    for process in processes:
        process.start()
    totals = {board: [0.0, 0] for board in boards}
    try:
        for board, seconds, work in _messages(done, processes, len(boards) * workers):
            totals[board][0] += seconds
            totals[board][1] += work
    except RuntimeError as error:
        raise RuntimeError(f"ga.run_many in {workers} processes at once failed: {error}") from None
    finally:
        for process in processes:
            process.join()
    return {board: seconds / work * 1e6 for board, (seconds, work) in totals.items()}


def _messages(done, processes, expected: int):
    """The ``expected`` (board, seconds, evaluations) of run_many_at_once's processes; raises
    RuntimeError with the failure a process reported, or when every process has ended and some
    never reported."""
    while expected:
        try:
            board, seconds, work = done.get(timeout=1)
        except queue.Empty:
            if any(process.is_alive() for process in processes) or not done.empty():
                continue
            codes = [process.exitcode for process in processes]
            raise RuntimeError(f"a process ended without reporting (exit codes {codes})") from None
        if board is None:
            raise RuntimeError(seconds)
        expected -= 1
        yield board, seconds, work


def lines(report: Report, name: str, ratios: dict, engine_cost: dict | None) -> None:
    """The lines of a sweep's in-sweep cost against ga.run_many's alone (and, for several
    workers, its control: ga.run_many in as many processes at once), and genoxide's from (a)."""
    boards, limit = GENOXIDE
    for board, values in ratios.items():
        to_run_many = [mine / alone for mine, alone, _ in values]
        measured = tested(to_run_many, GOAL)
        met = report.goal(f"board {board}: {name}, a run's seconds / ga.run_many's", measured,
                          f"within {GOAL}x", verdict(to_run_many, GOAL))
        line = (f"  - board {board}: in-sweep / ga.run_many {measured}; goal within "
                f"{GOAL}x: {met}")
        if values[0][2] is not None:
            at_once = [together / alone for _, alone, together in values]
            beside = [mine / together for mine, _, together in values]
            line += (f"; the control, ga.run_many at once / alone {spread(at_once)}; "
                     f"in-sweep / the control {spread(beside)}")
        theirs = (engine_cost or {}).get(board, {}).get("genoxide")
        if theirs and board in boards:
            to_genoxide = [mine / statistics.median(theirs) for mine, _, _ in values]
            met = report.goal(f"board {board}: {name}, µs per evaluation / genoxide's",
                              spread(to_genoxide), f"at most {limit}", verdict(to_genoxide, limit))
            line += (f"; in-sweep / genoxide (its median in (a)) {spread(to_genoxide)}, goal at "
                     f"most {limit}: {met}")
        report.say(line)
