"""Section (c): the main job end to end, where its start-up goes, and whether two entries with
equal settings get equal seconds in one sweep (issue 15: the first entry once paid the
process's one-off costs)."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

import pandas as pd

from gaqueens.bench.common import (
    Plan, Report, published_experiment, spread, tested, times_text, verdict,
)
from gaqueens.bench.table import sweep_command, sweep_wall, wall_time


def main_job(plan: Plan, report: Report, scratch: Path) -> None:
    """The main job end to end, and where its start-up goes."""
    file = published_experiment(scratch, "n8", [8])  # experiments/n8.yaml
    report.say(f"### (c) The main job: python -m gaqueens.sweep experiments/n8.yaml (the "
               f"published GA on 8 x 8, seeds 1..100), end to end, {times_text(plan.job_repeats)}")
    report.say()
    command = sweep_command(file, scratch / "n8", None)
    walls = []
    for repetition in range(plan.job_repeats):
        walls.append(sweep_wall(command).seconds)
        report.row(section="main-job", engine="gaqueens.sweep", board=8, seeds="1..100",
                   repetition=repetition, seconds=walls[-1], evaluations="")
    report.say(f"- wall time: {spread(walls)} s")
    python = wall_time([sys.executable, "-c", "pass"]).seconds
    imports = wall_time([sys.executable, "-c", "import gaqueens.sweep"]).seconds
    report.say(f"- start-up: Python {python:.2f} s; Python and `import gaqueens.sweep` "
               f"{imports:.2f} s")
    equal_entries(plan, report, scratch)
    if plan.importtime:
        report.say(f"- imports, by package (python -X importtime, own time of its modules): "
                   f"{_imports(command)}")
    report.say()


def _imports(command: list[str]) -> str:
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], capture_output=True,
                          text=True)
    total: dict[str, int] = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            own = int(parts[0].removeprefix("import time:"))  # self time: no double counting
            root = parts[2].strip().split(".")[0]
            total[root] = total.get(root, 0) + own
    top = sorted(total.items(), key=lambda item: -item[1])[:8]
    return ", ".join(f"{name} {us / 1e3:.0f} ms" for name, us in top) + (
        f"; all {sum(total.values()) / 1e6:.2f} s")


FAIR = (0.9, 1.1)  # issue 15's fair timings: equal settings, equal seconds, whichever is first


def equal_entries(plan: Plan, report: Report, scratch: Path) -> None:
    """Sweeps of the published GA and a twin entry whose settings differ only in a generation
    limit no run reaches (50,001), so that it makes the very same runs without sharing them:
    the ratio of their median seconds per board, one per sweep, beside FAIR (bench.csv keeps
    each sweep's medians). Seeds 1 to 1,000: a GA run's seconds are its share of its batch of
    50, so 100 seeds gave each entry two batches a board, too few for a median to say
    anything; the two entries' batches take turns (gaqueens.runtime.batches.in_turn). The
    sweep runs ``fair_repeats`` times: one sweep's ratio on board 8 read 0.94 in one benchmark
    and 1.21 in the next, and the sign tests of 9 sweeps can tell a median from either bound
    (of 5, never)."""
    seeds = "1..10" if plan.quick else "1..1000"
    file = Path(scratch) / "equal.yaml"
    file.write_text("boards: [8, 16]\nvariants: {twin: {stop: {target: 0, generations: 50001}}}\n",
                    encoding="utf-8")
    medians: dict[tuple[int, str], list[float]] = {}  # (board, entry) -> per sweep
    same = True
    for repetition in range(plan.fair_repeats):
        sweep_wall(sweep_command(file, Path(scratch) / "equal", seeds))
        runs = pd.read_csv(Path(scratch) / "equal" / "runs.csv")
        for board, rows in runs.groupby("board"):
            same &= (rows[rows.algorithm == "ga"]["work"].tolist()
                     == rows[rows.algorithm == "twin"]["work"].tolist())
            for name, median in rows.groupby("algorithm")["seconds"].median().items():
                medians.setdefault((board, name), []).append(median)
                report.row(section="equal-entries", engine=name, board=board, seeds=seeds,
                           repetition=repetition, seconds=median, evaluations="")
    for board in sorted({board for board, _ in medians}):
        values = [twin / ga for ga, twin in zip(medians[board, "ga"], medians[board, "twin"])]
        met = verdict(values, FAIR[1], FAIR[0])
        measured = tested(values, FAIR[1], FAIR[0], "sweeps")
        report.goal(f"board {board}: equal settings in two entries, median seconds twin / ga",
                    measured, f"{FAIR[0]} to {FAIR[1]}", met)
        ga, twin = (statistics.median(medians[board, name]) for name in ("ga", "twin"))
        report.say(f"- board {board}, seeds {seeds}, {times_text(len(values))}: the ga and its "
                   f"twin (the same settings but a generation limit no run reaches; "
                   f"{'the same' if same else 'NOT the same'} work run for run), median "
                   f"seconds {ga * 1e6:,.0f} / {twin * 1e6:,.0f} µs; ratio twin / ga per sweep "
                   f"{measured}; goal {FAIR[0]} to {FAIR[1]}: {met}")
