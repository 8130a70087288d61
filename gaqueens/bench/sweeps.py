"""Sections (b) and (c): whole commands against genoxide's program making the same runs, each a
process of its own from its start to its exit, imports included, in turn first, each sweep into
a fresh folder. (b): the whole published table beside issue 17's goal, at most 0.4x genoxide's
wall time, reaching 0.25x. (c): the main job (experiments/n8.yaml, the README's first command)
beside issue 49's goal, at most 3x genoxide's, reaching 2x, and the imports it pays for."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

from gaqueens.bench.common import (
    INSTALL, Plan, Report, genoxide_command, published_experiment, published_medians,
    repetitions, spread, timed,
)

OURS = "gaqueens.sweep"
FIGURES = {"table": "the whole table", "n8": "the main job"}  # the goals' names


def _sweep(file: Path, out: Path, seeds: str, quiet: bool) -> list[str]:
    return [sys.executable, "-m", OURS, str(file), "--out", str(out),
            *(["--seeds", seeds] if seeds != "1..100" else []), *(["--quiet"] if quiet else [])]


def against_genoxide(report: Report, gx, scratch: Path, name: str, boards: list[int],
                     seeds: str, repeats: int, goals: tuple[float, float],
                     quiet: bool = True) -> tuple[Path, dict]:
    """Our sweep of the published GA on ``boards`` and ``seeds`` against genoxide's program on
    the same, ``repeats`` times, in turn first; their wall times and their ratio beside
    ``goals`` (the goal and its reach). Returns the last sweep's folder and genoxide's median
    evaluations per board."""
    file = published_experiment(scratch, name, boards)
    commands = {OURS: lambda out: _sweep(file, out, seeds, quiet)}
    if gx is not None:
        commands["genoxide"] = lambda out: genoxide_command(boards, seeds)
    walls, printed = {who: [] for who in commands}, "{}"
    for repetition in range(repeats):
        for who in list(commands)[::1 if repetition % 2 == 0 else -1]:
            seconds, output = timed(commands[who](scratch / f"{name}-{repetition}"))
            walls[who].append(seconds)
            printed = output if who == "genoxide" else printed
            report.row(section=name, engine=who, board=",".join(map(str, boards)), seeds=seeds,
                       repetition=repetition, seconds=seconds, evaluations="")
    for who, values in walls.items():
        report.say(f"- {who}: wall {spread(values, unit=' s')}")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    else:
        ratios = [ours / theirs for ours, theirs in zip(walls[OURS], walls["genoxide"])]
        figure = f"{FIGURES[name]}: {OURS} / genoxide, wall time"
        report.say("- " + report.goal(figure, ratios, goals[0]))
        report.say("- " + report.goal(f"{figure}, reaching", ratios, goals[1]))
    return scratch / f"{name}-{repeats - 1}", json.loads(printed)


def table_sweep(plan: Plan, report: Report, gx, scratch: Path) -> None:
    """(b): the whole table, and each board's median evaluations: published, ours, genoxide's."""
    seeds = plan.table_seeds or "1..100"
    report.say(f"### (b) The whole table: experiments/table.yaml, seeds {seeds}, "
               f"{repetitions(plan.table_repeats)}")
    report.say()
    report.say(f"`python -m {OURS} experiments/table.yaml --quiet` (its default workers; tables, "
               "plots and page) against genoxide's program (gaqueens/bench/genoxide_runs.py), "
               "which makes the same runs one after the other in one process.")
    folder, theirs = against_genoxide(report, gx, scratch, "table", list(published_medians()),
                                      seeds, plan.table_repeats, (0.4, 0.25))
    with open(folder / "summary.csv", encoding="utf-8") as file:
        ours = [row for row in csv.DictReader(file) if row["algorithm"] == "ga"]
    report.say()
    report.say("| board | published | gaqueens.sweep median evaluations | genoxide median "
               "evaluations |")
    report.say("|---|---|---|---|")
    for row in ours:
        genoxide = f"{theirs[row['board']]:g}" if row["board"] in theirs else ""
        report.say(f"| {row['board']} | {row['reference']} | {float(row['median']):g} "
                   f"({row['verdict']}) | {genoxide} |")
    report.say()


def main_job(plan: Plan, report: Report, gx, scratch: Path) -> None:
    """(c): the main job against genoxide's runs of board 8, and where its imports go."""
    seeds = plan.job_seeds or "1..100"
    report.say(f"### (c) The main job: python -m gaqueens.sweep experiments/n8.yaml, seeds "
               f"{seeds}, {repetitions(plan.job_repeats)}")
    report.say()
    report.say("The README's first command into a fresh folder (table, plots, page and store) "
               "against genoxide's program making the same runs.")
    folder, _ = against_genoxide(report, gx, scratch, "n8", [8], seeds, plan.job_repeats, (3, 2),
                                 quiet=False)
    if plan.importtime:
        command = _sweep(scratch / "n8.yaml", folder.with_name("n8-imports"), seeds, False)
        done = subprocess.run([command[0], "-X", "importtime", *command[1:]],
                              capture_output=True, text=True)
        report.say(f"- imports, by package (python -X importtime, the own time of its modules): "
                   f"{_imports(done.stderr)}")
    report.say()


def _imports(stderr: str) -> str:
    total: dict[str, int] = {}
    for line in stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            own = int(parts[0].removeprefix("import time:"))  # self time: no double counting
            root = parts[2].strip().split(".")[0]
            total[root] = total.get(root, 0) + own
    top = sorted(total.items(), key=lambda item: -item[1])[:8]
    return ", ".join(f"{name} {us / 1e3:.0f} ms" for name, us in top) + (
        f"; all {sum(total.values()) / 1e6:.2f} s")
