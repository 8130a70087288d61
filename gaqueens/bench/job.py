"""Section (c): the main job end to end, and where its start-up goes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gaqueens.bench.common import Plan, Report, published_experiment, spread, times_text
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
        walls.append(sweep_wall(command)[0])
        report.row(section="main-job", engine="gaqueens.sweep", board=8, seeds="1..100",
                   repetition=repetition, seconds=walls[-1], evaluations="")
    report.say(f"- wall time: {spread(walls)} s")
    python = wall_time([sys.executable, "-c", "pass"])[0]
    imports = wall_time([sys.executable, "-c", "import gaqueens.sweep"])[0]
    report.say(f"- start-up: Python {python:.2f} s; Python and `import gaqueens.sweep` "
               f"{imports:.2f} s")
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
