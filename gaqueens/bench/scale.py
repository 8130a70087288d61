"""A 100,000-run sweep, measured: experiments/sweep-100k.yaml run on the sweep's local worker
processes and on a loopback Dask cluster (a scheduler and a worker of two single-threaded
processes, each a process of its own, as `dask scheduler` and `dask worker` start them), each
into a fresh folder, K times (--repeats, 3 by default), the executors alternating, each Dask
sweep on a cluster of its own.

    python -m gaqueens.bench.scale [--out results/scale] [--quick] [--seeds FIRST..LAST]
                                   [--repeats K] [--no-dask] [--file FILE]

Per executor: each sweep's wall time (from its start to its exit, tables and plots included),
the runs it stored and the peak memory of every process it takes (gaqueens.bench.memory); on
Dask, the memory of the cluster's own processes before and after it. Then, over each executor's
last folder: the exports (the same command again), `python -m gaqueens.export` and
`python -m gaqueens.verify`, timed K times, and sampled once more for their peak memory. Each
figure stands beside issue 17's goal where it has one (scale.md says how it is measured).
--quick runs 2 cells x 2 boards x 50 seeds: a smoke run, not a measurement. Writes scale.md,
scale.csv (every figure measured) and goals.csv.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from gaqueens.bench.common import Report, header, pyarrow_warning, repetitions, spread, timed
from gaqueens.bench.memory import MB, Sampler, available, tree_pss

FILE = Path("experiments") / "sweep-100k.yaml"  # from the project's folder, or --file
QUICK = ("boards=[8, 16]", "grid={population: [5, 10]}", "seeds={first: 1, last: 50}")
COLUMNS = ("executor", "figure", "repetition", "value", "unit")
EXECUTORS = ("local processes", "Dask loopback")
AFTER = ("exports", "IOH export", "verify")  # each command over a finished folder
GOALS = {"sweep wall time": 100, "sweep peak PSS": 1000,
         **{f"{kind} wall time": 15 for kind in AFTER},
         **{f"{kind} peak PSS": 1000 for kind in AFTER}}  # each figure at most this


def _unit(figure: str) -> tuple[str, str]:
    """A figure's unit, in scale.csv's words, and its format."""
    if "PSS" in figure or "RSS" in figure:
        return "MB", ",.0f"
    return ("runs", ",.0f") if "runs" in figure else ("s", ",.1f")


def sampled(command: list[str]) -> tuple[float, Sampler]:
    """The wall time of ``command`` and the sampler of its processes' memory."""
    sampler = Sampler().start()
    try:
        seconds, _ = timed(command)
    except BaseException:
        sampler.stop(check=False)
        raise
    return seconds, sampler.stop()


@contextmanager
def loopback_cluster(scratch: Path):
    """A Dask scheduler on 127.0.0.1 and a worker of two single-threaded processes, started as
    processes of this one; yields the scheduler's address, and ends them."""
    from distributed import Client

    address_file = scratch / "scheduler.json"
    address_file.unlink(missing_ok=True)  # an earlier cluster's, if it was killed
    started = []
    try:
        started.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", "0", "--no-dashboard", "--scheduler-file", str(address_file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        deadline = time.monotonic() + 60
        while not address_file.exists():
            if time.monotonic() > deadline or started[0].poll() is not None:
                raise RuntimeError("the Dask scheduler did not start within a minute")
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        started.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "2",
             "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _stored(folder: Path) -> int:
    from gaqueens.runtime.store import Store

    with Store(folder) as store:
        return store.db.execute("SELECT count(*) FROM runs").fetchone()[0]


def measure(base: list[str], scratch: Path, executors, repeats: int) -> dict:
    """Every figure, per executor: a list of its values (one per repetition)."""
    figures = {name: {} for name in executors}

    def keep(name, figure, value):
        figures[name].setdefault(figure, []).append(value)

    folders = {}
    for repetition in range(1, repeats + 1):
        for name in executors:
            print(f"{name}: the sweep ({repetition} of {repeats}) ...", file=sys.stderr)
            folders[name] = scratch / f"{name.split()[0].lower()}-{repetition}"
            command = [*base, "--out", str(folders[name])]
            if name == EXECUTORS[0]:
                seconds, sampler = sampled(command)
            else:
                with loopback_cluster(scratch) as address:
                    keep(name, "cluster PSS before the sweep", tree_pss() / MB)
                    seconds, sampler = sampled([*command, "--scheduler", address])
                    keep(name, "cluster PSS after the sweep", tree_pss() / MB)
            keep(name, "sweep wall time", seconds)
            keep(name, "runs stored", _stored(folders[name]))
            keep(name, "sweep peak PSS", sampler.peak_pss / MB)
            keep(name, "sweep peak RSS", sampler.peak / MB)
    for name, folder in folders.items():
        print(f"{name}: the exports, the IOH export and verify ...", file=sys.stderr)
        again = [arg for arg in base if arg != "--fresh"] + ["--out", str(folder)]
        commands = dict(zip(AFTER, (again, [sys.executable, "-m", "gaqueens.export", str(folder)],
                                    [sys.executable, "-m", "gaqueens.verify", str(folder)])))
        for kind, command in commands.items():
            _, sampler = sampled(command)
            keep(name, f"{kind} peak PSS", sampler.peak_pss / MB)
            keep(name, f"{kind} peak RSS", sampler.peak / MB)
        for _ in range(repeats):
            for kind, command in commands.items():
                keep(name, f"{kind} wall time", timed(command)[0])
    return figures


def report(out: Report, figures: dict, command: str, quick: bool, options, repeats,
           load) -> None:
    """scale.md's lines: the header, how it was measured, each figure beside its goal."""
    out.say(header("A 100,000-run sweep", command, quick, load) + " at the start, {:.1f} {:.1f} "
            "{:.1f} at the end".format(*os.getloadavg()))
    if (warning := pyarrow_warning()) is not None:
        out.say(warning)
    out.say()
    out.say(f"experiments/sweep-100k.yaml{' with ' + ' '.join(options) if options else ''}: "
            f"each sweep {repetitions(repeats)}, the executors alternating, each time into a fresh "
            "folder (on Dask, a fresh cluster), its memory sampled; over the last folders, the "
            "exports (the sweep again with nothing to compute: runs.csv, the summary, the plots), "
            f"the IOH export and verify, each timed {repetitions(repeats)} with nothing "
            "sampling, and sampled in one more run for its peak memory. Memory: RSS and PSS "
            "of every process below the command, read from /proc every 0.1 s and summed (a "
            "peak shorter than that may be missed); RSS counts the pages forked processes "
            "share once per process, PSS shares them out: its sum is the memory the processes "
            "hold, which the goal judges. Medians (min..max); beside a goal, the sign test of "
            "the repetitions against it.")
    out.say()
    for figure in dict.fromkeys(f for measured in figures.values() for f in measured):
        unit, form = _unit(figure)
        unit = "" if unit == "runs" else " " + unit
        for name, values in ((name, m[figure]) for name, m in figures.items() if figure in m):
            out.say("- " + (out.goal(f"{name}: {figure}", values, GOALS[figure], unit, form,
                                     "runs") if figure in GOALS
                            else f"{name}: {figure}: {spread(values, form, unit)}"))


def main(argv=None) -> int:
    from gaqueens.cli import Parser, run

    parser = Parser(prog="python -m gaqueens.bench.scale", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="write scale.md, scale.csv and goals.csv here")
    parser.add_argument("--file", default=str(FILE), help=f"the experiment (default {FILE})")
    parser.add_argument("--quick", action="store_true", help="200 runs: a smoke run")
    parser.add_argument("--seeds", help="FIRST..LAST instead of the file's seeds")
    parser.add_argument("--repeats", type=int, default=3,
                        help="repetitions of each sweep, the exports and verify (default 3)")
    parser.add_argument("--no-dask", action="store_true", help="the local processes only")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be a whole number >= 1")
    if not Path(args.file).is_file():
        parser.error(f"--file {args.file}: no such experiment file (the 100,000-run sweep is "
                     "experiments/sweep-100k.yaml in the project's folder)")
    if available() is not None:
        parser.error(f"the memory cannot be sampled: {available()}")
    if not args.no_dask and importlib.util.find_spec("distributed") is None:
        parser.error("the Dask half needs pip install 'gaqueens[cluster]' (or --no-dask)")
    options = [arg for change in (QUICK if args.quick else ()) for arg in ("--set", change)]
    options += ["--seeds", args.seeds] if args.seeds else []
    command = "python -m gaqueens.bench.scale " + " ".join(argv or sys.argv[1:])
    return run(lambda: _scale(args, options, command.strip()))


def _scale(args, options, command) -> None:
    base = [sys.executable, "-m", "gaqueens.sweep", str(Path(args.file).resolve()), "--quiet",
            "--fresh", *options]
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="gaqueens-scale-") as scratch:
        figures = measure(base, Path(scratch), EXECUTORS[:1 if args.no_dask else 2], args.repeats)
    out = Report()
    report(out, figures, command, args.quick, options, args.repeats, load)
    if args.out:
        rows = [dict(executor=name, figure=figure, repetition=repetition + 1, value=value,
                     unit=_unit(figure)[0])
                for name, measured in figures.items() for figure, values in measured.items()
                for repetition, value in enumerate(values)]
        out.write(args.out, "scale", rows, COLUMNS)
        print(f"wrote {args.out}: scale.md, scale.csv and goals.csv", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
