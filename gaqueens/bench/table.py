"""Section (b): the whole published table, ours with the default workers against genoxide's
single process, as subprocesses, beside issue 17's goal (at most 0.4x genoxide's wall time);
a run's seconds in the sweep against what ga.run_many costs on the same seeds (issue 17: within
1.1x); and genoxide's own table sweep (the internal mode --genoxide-table)."""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import queue
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from gaqueens.bench.common import (
    INSTALL, Plan, Report, genoxide_module, genoxide_run, published_experiment, spread, tested,
    times_text, verdict,
)
from gaqueens.problems.nqueens.fitness import Conflicts


GOAL = 0.4  # issue 17: the whole table, default workers, at most 0.4x genoxide's single process
IN_SWEEP_GOAL = 1.1  # issue 17: in-sweep µs per evaluation within 1.1x of ga.run_many's
IN_SWEEP_GENOXIDE = (32, 128), 0.5  # issue 17: and at most 0.5x genoxide's on these boards


def wall_time(command: list[str]) -> tuple[float, str]:
    """The wall time of a command, and its output."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, done.stdout


def sweep_command(file: Path, out: Path, seeds: str | None, workers: str | None = None):
    command = [sys.executable, "-m", "gaqueens.sweep", str(file), "--out", str(out), "--quiet"]
    command += ["--seeds", seeds] if seeds else []
    return command + (["--workers", workers] if workers else [])


def sweep_wall(command: list[str]) -> tuple[float, str]:
    """The wall time of a sweep into an empty output folder, so that it computes every run."""
    shutil.rmtree(command[command.index("--out") + 1], ignore_errors=True)
    return wall_time(command)


def _our_medians(summary_csv: Path) -> dict[int, str]:
    """The GA's median evaluations per board from a sweep's summary.csv, with its verdict."""
    with open(summary_csv, encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["algorithm"] == "ga"]
    return {int(row["board"]): f"{float(row['median']):g}"
            + (f" ({row['verdict']})" if row["verdict"] else "") for row in rows}


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


def _in_sweep(report: Report, name: str, ratios: dict, engine_cost: dict | None) -> None:
    """The lines of a sweep's in-sweep cost against ga.run_many's alone (and, for several
    workers, its control: ga.run_many in as many processes at once), and genoxide's from (a)."""
    boards, limit = IN_SWEEP_GENOXIDE
    for board, values in ratios.items():
        to_run_many = [mine / alone for mine, alone, _ in values]
        measured = tested(to_run_many, IN_SWEEP_GOAL)
        met = report.goal(f"board {board}: {name}, a run's seconds / ga.run_many's", measured,
                          f"within {IN_SWEEP_GOAL}x", verdict(to_run_many, IN_SWEEP_GOAL))
        line = (f"  - board {board}: in-sweep / ga.run_many {measured}; goal within "
                f"{IN_SWEEP_GOAL}x: {met}")
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


def table_sweep(plan: Plan, report: Report, gx, scratch: Path, engine_cost: dict | None = None) -> None:
    """Wall time of the whole table sweep, ours (default workers) against genoxide's (one
    process), alternating, and each one's median evaluations per board; each sweep's runs'
    seconds per evaluation against ga.run_many's on the same seeds measured right after it
    (``engine_cost``: section (a)'s figures, for genoxide's per board)."""
    from gaqueens.experiment import load

    file = published_experiment(scratch, "table")  # experiments/table.yaml
    experiment = load(file)
    seeds = plan.table_seeds or "{}..{}".format(*experiment.seeds)
    boards = ",".join(map(str, experiment.boards))
    report.say(f"### (b) The whole table: experiments/table.yaml, seeds {seeds}, "
               f"{times_text(plan.table_repeats)}, alternating")
    report.say()
    out = scratch / "table"
    ours, alone = "gaqueens.sweep", "gaqueens.sweep --workers 1"
    commands = {ours: sweep_command(file, out, plan.table_seeds),
                alone: sweep_command(file, scratch / "table-1", plan.table_seeds, "1")}
    if gx is not None:
        commands["genoxide"] = [sys.executable, "-m", "gaqueens.bench", "--genoxide-table",
                                boards, "--seeds", seeds]
    names, walls, medians = list(commands), {name: [] for name in commands}, {}
    workers = {ours: os.cpu_count() or 1, alone: 1}
    # board -> [(in-sweep, ga.run_many alone, in as many processes at once or None) a repetition]
    in_sweep = {name: {} for name in workers}
    first, last = map(int, seeds.split(".."))
    for repetition in range(plan.table_repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            seconds, output = (wall_time if name == "genoxide" else sweep_wall)(commands[name])
            walls[name].append(seconds)
            report.row(section="table", engine=name, board="table", seeds=seeds,
                       repetition=repetition, seconds=seconds, evaluations="")
            if name in workers:
                folder = Path(commands[name][commands[name].index("--out") + 1])
                mine = in_sweep_cost(folder)
                seeds_of = range(first, last + 1)
                alone_cost = run_many_cost(list(mine), seeds_of, workers[name])
                together = (run_many_at_once(list(mine), seeds_of, workers[name])
                            if workers[name] > 1 else {})
                for board, cost in mine.items():
                    in_sweep[name].setdefault(board, []).append(
                        (cost, alone_cost[board], together.get(board)))
            if name == ours:
                medians[name] = _our_medians(out / "summary.csv")
            elif name == "genoxide":
                medians[name] = {int(b): f"{m:g}" for b, m in json.loads(output).items()}
    report.say(f"- {ours}, {os.cpu_count()} workers (the default), tables and plots: "
               f"{spread(walls[ours])} s")
    report.say(f"- {alone}, the same in one process: {spread(walls[alone])} s")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    else:
        report.say(f"- genoxide, one process: {spread(walls['genoxide'])} s")
        for name in (ours, alone):
            ratios = [mine / theirs for mine, theirs in zip(walls[name], walls["genoxide"])]
            measured = tested(ratios, GOAL) if name == ours else spread(ratios)
            goal = (f"; goal at most {GOAL}: " + report.goal(
                f"the whole table: {name} / genoxide, wall time", measured, f"at most {GOAL}",
                verdict(ratios, GOAL)) if name == ours else "")
            report.say(f"- ratio {name} / genoxide: {measured}{goal}")
    for name in workers:
        report.say(f"- {name}: each run's seconds (runs.csv) per evaluation against "
                   f"ga.run_many's on the same seeds and batches, in this process right after"
                   + (f" (and, a control, in {workers[name]} processes at once, each its share "
                      "of the batches: what processes computing side by side cost each other "
                      "here, the sweep aside; in-sweep / the control is what the sweep adds to "
                      "that)" if workers[name] > 1 else "") + ":")
        _in_sweep(report, name, in_sweep[name], engine_cost)
    report.say()
    report.say("| board | published | " + " | ".join(f"{name} median evaluations"
                                                  for name in medians) + " |")
    report.say("|---" * (len(medians) + 2) + "|")
    for board in medians["gaqueens.sweep"]:
        report.say(f"| {board} | {experiment.reference.get(board, '')} | "
                   + " | ".join(m.get(board, "") for m in medians.values()) + " |")
    report.say()


def genoxide_table(boards: str, seeds: str) -> dict[int, float]:
    """The internal mode --genoxide-table 8,16 --seeds 1..100: genoxide's single-process sweep
    of those boards and seeds; its median evaluations per board. It imports no more than
    genoxide and the board, as a program of its own would."""
    gx = genoxide_module()
    first, last = map(int, seeds.split(".."))
    medians = {}
    for board in map(int, boards.split(",")):
        fitness = Conflicts(board)
        evaluations = []
        for seed in range(first, last + 1):
            result = genoxide_run(gx, board, seed, fitness)
            evaluations.append(result.evaluations if result.best_fitness == 0 else sys.maxsize)
        medians[board] = statistics.median(evaluations)
    return medians
