"""The benchmark's command: the header, the sections in turn, and the report written."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from gaqueens.bench import boards, engine, job, solvers, table
from gaqueens.bench.common import (
    GENOXIDE_VERSION, INSTALL, QUICK, Plan, Report, genoxide_module, pyarrow_warning,
)


def _header(report: Report, plan: Plan, gx) -> None:
    from importlib.metadata import version as installed

    from gaqueens.runtime import manifest

    code = manifest.code(manifest.checkout(), installed("gaqueens"))
    version = gx.__version__ if gx is not None else f"not installed ({INSTALL})"
    quick = " (--quick: a smoke run, not a measurement)" if plan.quick else ""
    report.say(f"**gaqueens benchmark**{quick}: `python -m gaqueens.bench`, "
               f"{time.strftime('%Y-%m-%d %H:%M')}, {code}; {platform.platform()}, "
               f"{os.cpu_count()} cores; Python {platform.python_version()}, numpy "
               f"{installed('numpy')}, DEAP {installed('deap')}, genoxide {version}; load "
               "average {:.1f} {:.1f} {:.1f} at the start".format(*os.getloadavg()))
    if gx is not None and gx.__version__ != GENOXIDE_VERSION:
        report.say(f"warning: the yardstick is genoxide {GENOXIDE_VERSION}, not {gx.__version__}")
    if (warning := pyarrow_warning()) is not None:
        report.say(warning)
    report.say()


def main(argv=None) -> int:
    import gaqueens.bench

    parser = argparse.ArgumentParser(prog="python -m gaqueens.bench",
                                     description=gaqueens.bench.__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--out", type=Path, help="write bench.md and bench.csv into this folder")
    parser.add_argument("--repeats", type=int, default=Plan.repeats,
                        help=f"repetitions of the engine comparison (default {Plan.repeats})")
    parser.add_argument("--genoxide-table", metavar="BOARDS", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.genoxide_table and genoxide_module() is None:
        print(f"error: this needs genoxide: {INSTALL}", file=sys.stderr)
        return 2
    if args.genoxide_table:
        print(json.dumps(table.genoxide_table(args.genoxide_table, args.seeds or "1..100")))
        return 0
    if args.repeats < 1:
        parser.error("--repeats must be a whole number >= 1")
    plan = QUICK if args.quick else Plan()
    if args.repeats != Plan.repeats:
        plan = replace(plan, repeats=args.repeats)
    gx = genoxide_module()
    report = Report()
    _header(report, plan, gx)
    with tempfile.TemporaryDirectory(prefix="gaqueens-bench-") as scratch:
        cost = engine.engine_cost(plan, report, gx, Path(scratch))
        table.table_sweep(plan, report, gx, Path(scratch), cost)
        job.main_job(plan, report, Path(scratch))
        boards.per_board(plan, report)
        solvers.classic_solvers(plan, report, Path(scratch))
    report.say("Load average {:.1f} {:.1f} {:.1f} at the end: other work on the machine slows "
               "the parallel sweep most.".format(*os.getloadavg()))
    if args.out:
        report.write(args.out)
        print(f"wrote {args.out / 'bench.md'} and {args.out / 'bench.csv'}", file=sys.stderr)
    return 0
