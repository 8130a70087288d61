"""Section (b): the whole published table, ours with the default workers against genoxide's
single process, as subprocesses, beside issue 17's goals (at most 0.4x genoxide's wall time,
reaching 0.25x), with what each command's processor time allows on this machine's cores; a
run's seconds in the sweep against what ga.run_many costs on the same seeds (issue 17: within
1.1x; gaqueens.bench.in_sweep); and genoxide's own table sweep (the internal mode
--genoxide-table)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from gaqueens.bench import in_sweep
from gaqueens.bench.common import (
    INSTALL, Plan, Report, genoxide_module, genoxide_run, published_experiment, sign_test, spread,
    tested, times_text, verdict,
)
from gaqueens.problems.nqueens.fitness import Conflicts


GOAL = 0.4  # issue 17: the whole table, default workers, at most 0.4x genoxide's single process
REACH = 0.25  # issue 17: and reaches 0.25x
OURS, ALONE = "gaqueens.sweep", "gaqueens.sweep --workers 1"
STORED = "gaqueens.sweep, every run stored"  # ours again over its own folder: no run to compute


class Timed(NamedTuple):
    """A command's wall time, its output, and its processor time: user and system, its own and
    that of every process it waited for (a sweep's workers and plots)."""
    seconds: float
    output: str
    processor: float


def _waited_for() -> float:
    """The processor time of this process's children that have ended and been waited for."""
    times = os.times()
    return times.children_user + times.children_system


def wall_time(command: list[str]) -> Timed:
    """The wall time of a command, its output and its processor time."""
    before, start = _waited_for(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return Timed(seconds, done.stdout, _waited_for() - before)


def sweep_command(file: Path, out: Path, seeds: str | None, workers: str | None = None):
    command = [sys.executable, "-m", "gaqueens.sweep", str(file), "--out", str(out), "--quiet"]
    command += ["--seeds", seeds] if seeds else []
    return command + (["--workers", workers] if workers else [])


def sweep_wall(command: list[str]) -> Timed:
    """The wall time of a sweep into an empty output folder, so that it computes every run."""
    shutil.rmtree(command[command.index("--out") + 1], ignore_errors=True)
    return wall_time(command)


def _our_medians(summary_csv: Path) -> dict[int, str]:
    """The GA's median evaluations per board from a sweep's summary.csv, with its verdict."""
    with open(summary_csv, encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["algorithm"] == "ga"]
    return {int(row["board"]): f"{float(row['median']):g}"
            + (f" ({row['verdict']})" if row["verdict"] else "") for row in rows}


def _whole_table(report: Report, walls: dict, processor: dict, cores: int) -> None:
    """(b)'s lines on the whole table: each command's wall and processor time; ours / genoxide
    beside the goal and the reach; and the least that ratio could be on ``cores`` cores with the
    processor time ours spent (pair by pair, ours' processor time / cores / genoxide's wall:
    no command takes less wall time than that), and with what ours spends when it has no run
    to compute (STORED: start-up, imports, tables, plots and page)."""
    what = {OURS: f"{cores} workers (the default), tables and plots",
            STORED: "run again right after over its own folder (no run left to compute)",
            ALONE: "the same in one process", "genoxide": "one process"}
    for name in walls:
        report.say(f"- {name}, {what[name]}: wall {spread(walls[name])} s, processor time "
                   f"{spread(processor[name])} s")
    if "genoxide" not in walls:
        report.say(f"- genoxide is not installed: {INSTALL}")
        return
    theirs = walls["genoxide"]
    ratios = [mine / wall for mine, wall in zip(walls[OURS], theirs)]
    measured = tested(ratios, GOAL)
    stays = report.goal(f"the whole table: {OURS} / genoxide, wall time", measured,
                        f"at most {GOAL}", verdict(ratios, GOAL))
    reaches = report.goal(f"the whole table: {OURS} / genoxide, wall time, reaching",
                          tested(ratios, REACH), f"at most {REACH}", verdict(ratios, REACH))
    report.say(f"- ratio {OURS} / genoxide: {measured}; goal at most {GOAL}: {stays}; "
               f"reaching {REACH}: {sign_test(ratios, REACH)}: {reaches}")
    alone = [mine / wall for mine, wall in zip(walls[ALONE], theirs)]
    report.say(f"- ratio {ALONE} / genoxide: {spread(alone)}")
    least = {name: [mine / cores / wall for mine, wall in zip(processor[name], theirs)]
             for name in (OURS, STORED)}
    report.say(f"- the least ratio to genoxide that this processor time allows on {cores} cores "
               f"(processor time / {cores} / genoxide's wall, pair by pair): {OURS} "
               f"{spread(least[OURS])}; {STORED} {spread(least[STORED])}")


def table_sweep(plan: Plan, report: Report, gx, scratch: Path, engine_cost: dict | None = None) -> None:
    """Wall time of the whole table sweep, ours (default workers) against genoxide's (one
    process), alternating, and each one's median evaluations per board; each command's
    processor time, and ours run again right after over its stored runs; each sweep's runs'
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
    commands = {OURS: sweep_command(file, out, plan.table_seeds),
                ALONE: sweep_command(file, scratch / "table-1", plan.table_seeds, "1")}
    if gx is not None:
        commands["genoxide"] = [sys.executable, "-m", "gaqueens.bench", "--genoxide-table",
                                boards, "--seeds", seeds]
    names, medians = list(commands), {}
    timings = [OURS, STORED, *names[1:]]  # STORED: ours again, right after it
    walls, processor = {name: [] for name in timings}, {name: [] for name in timings}
    workers = {OURS: os.cpu_count() or 1, ALONE: 1}
    # board -> [(in-sweep, ga.run_many alone, in as many processes at once or None) a repetition]
    costs = {name: {} for name in workers}
    first, last = map(int, seeds.split(".."))
    for repetition in range(plan.table_repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            timed = (wall_time if name == "genoxide" else sweep_wall)(commands[name])
            # ours, then again over the runs it stored: start-up, imports, tables, plots, page
            for label, each in [(name, timed)] + ([(STORED, wall_time(commands[OURS]))]
                                                  if name == OURS else []):
                walls[label].append(each.seconds)
                processor[label].append(each.processor)
                report.row(section="table", engine=label, board="table", seeds=seeds,
                           repetition=repetition, seconds=each.seconds,
                           processor=each.processor, evaluations="")
            if name in workers:
                folder = Path(commands[name][commands[name].index("--out") + 1])
                for board, figures in in_sweep.measured(folder, range(first, last + 1),
                                                         workers[name]).items():
                    costs[name].setdefault(board, []).append(figures)
            if name == OURS:
                medians[name] = _our_medians(out / "summary.csv")
            elif name == "genoxide":
                medians[name] = {int(b): f"{m:g}" for b, m in json.loads(timed.output).items()}
    _whole_table(report, walls, processor, workers[OURS])
    for name in workers:
        report.say(f"- {name}: each run's seconds (runs.csv) per evaluation against "
                   f"ga.run_many's on the same seeds and batches, in this process right after"
                   + (f" (and, a control, in {workers[name]} processes at once, each its share "
                      "of the batches: what processes computing side by side cost each other "
                      "here, the sweep aside; in-sweep / the control is what the sweep adds to "
                      "that)" if workers[name] > 1 else "") + ":")
        in_sweep.lines(report, name, costs[name], engine_cost)
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
