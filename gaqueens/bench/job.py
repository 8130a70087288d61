"""Section (c): the main job end to end, and where its start-up goes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gaqueens.bench.common import EXPERIMENTS, ROOT, Plan, Report, _spread, _times
from gaqueens.bench.table import _sweep_command, _sweep_wall, _wall


def main_job(plan: Plan, report: Report, scratch: Path) -> None:
    """The main job end to end, and where its start-up goes."""
    file = EXPERIMENTS / "n8.yaml"
    report.say(f"### (c) The main job: python -m gaqueens.sweep {file.relative_to(ROOT)}, end to "
               f"end, {_times(plan.job_repeats)}")
    report.say()
    if not file.exists():
        report.say(f"- skipped: {file} is missing")
        report.say()
        return
    command = _sweep_command(file, scratch / "n8", None)
    walls = []
    for repetition in range(plan.job_repeats):
        walls.append(_sweep_wall(command)[0])
        report.row(section="main-job", engine="gaqueens.sweep", board=8, seeds="1..100",
                   repetition=repetition, seconds=walls[-1], evaluations="")
    report.say(f"- wall time: {_spread(walls)} s")
    python = _wall([sys.executable, "-c", "pass"])[0]
    imports = _wall([sys.executable, "-c", "import gaqueens.sweep"])[0]
    report.say(f"- start-up: Python {python:.2f} s; Python and `import gaqueens.sweep` "
               f"{imports:.2f} s")
    if plan.importtime:
        report.say(f"- imports, by package (python -X importtime, own time of its modules): "
                   f"{_imports(command)}")
    report.say()


def _imports(command: list[str]) -> str:
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], cwd=ROOT,
                          capture_output=True, text=True)
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
