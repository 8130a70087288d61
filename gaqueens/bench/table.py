"""Section (b): the whole published table, ours with the default workers against genoxide's
single process, as subprocesses, beside issue 17's goal (at most 0.4x genoxide's wall time);
a run's seconds in the sweep against what ga.run_many costs on the same seeds (issue 17: within
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

from gaqueens.bench import in_sweep
from gaqueens.bench.common import (
    INSTALL, Plan, Report, genoxide_module, genoxide_run, published_experiment, spread, tested,
    times_text, verdict,
)
from gaqueens.problems.nqueens.fitness import Conflicts


GOAL = 0.4  # issue 17: the whole table, default workers, at most 0.4x genoxide's single process


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
    costs = {name: {} for name in workers}
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
                for board, figures in in_sweep.measured(folder, range(first, last + 1),
                                                         workers[name]).items():
                    costs[name].setdefault(board, []).append(figures)
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
