"""The benchmark's command: the header, the sections in turn, and the report written."""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from gaqueens.bench.common import (
    GENOXIDE_VERSION, INSTALL, QUICK, Plan, Report, genoxide_module, header, pyarrow_warning,
)


def _header(report: Report, plan: Plan, gx) -> None:
    from importlib.metadata import version

    found = gx.__version__ if gx is not None else f"not installed ({INSTALL})"
    report.say(header("gaqueens benchmark", "python -m gaqueens.bench", plan.quick)
               + f" at the start; DEAP {version('deap')}, genoxide {found}")
    if gx is not None and gx.__version__ != GENOXIDE_VERSION:
        report.say(f"warning: the yardstick is genoxide {GENOXIDE_VERSION}, not {gx.__version__}")
    if (warning := pyarrow_warning()) is not None:
        report.say(warning)
    report.say()
    report.say("Each section runs what it compares side by side, alternating, and gives medians "
               "with their spread (min..max). Beside a goal judged on pairs (or repetitions) "
               "stand how many are within it and the two-sided sign test of their median "
               "against it (scipy.stats.binomtest): at p 0.05 or more they cannot tell their "
               "median from the goal, whatever the verdict. Met: every pair within the goal; "
               "met at the median: their median.")
    report.say()


def main(argv=None) -> int:
    from gaqueens.cli import Parser, run

    parser = Parser(prog="python -m gaqueens.bench",
                                     description="The benchmark: gaqueens beside genoxide "
                                                 f"{GENOXIDE_VERSION} and C twins.")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--out", type=Path, help="write bench.md, bench.csv and goals.csv here")
    parser.add_argument("--repeats", type=int, default=Plan.repeats,
                        help=f"repetitions of the engine comparison (default {Plan.repeats})")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be a whole number >= 1")
    plan = QUICK if args.quick else Plan()
    if args.repeats != Plan.repeats:
        plan = replace(plan, repeats=args.repeats)
    return run(lambda: _bench(plan, args.out))


def _bench(plan: Plan, out: Path | None) -> None:
    from gaqueens.bench import boards, engine, solvers, sweeps

    gx = genoxide_module()
    report = Report()
    _header(report, plan, gx)
    with tempfile.TemporaryDirectory(prefix="gaqueens-bench-") as scratch:
        engine.engine_cost(plan, report, gx, Path(scratch))
        sweeps.table_sweep(plan, report, gx, Path(scratch))
        sweeps.main_job(plan, report, gx, Path(scratch))
        boards.per_board(plan, report)
        solvers.classic_solvers(plan, report, Path(scratch))
    report.say("Load average {:.1f} {:.1f} {:.1f} at the end.".format(*os.getloadavg()))
    if out:
        report.write(out)
        print(f"wrote {out}: bench.md, bench.csv and goals.csv", file=sys.stderr)
