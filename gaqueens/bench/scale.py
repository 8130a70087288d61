"""A 100,000-run sweep, measured: experiments/sweep-100k.yaml run (a) on the sweep's default
local worker processes and (b) on a loopback Dask cluster (a scheduler and a worker of two
single-threaded processes, each a process of its own, as `dask scheduler` and `dask worker`
start them), each into a temporary folder, K times (--repeats, 3 by default), the executors
alternating, each Dask sweep on a cluster of its own.

    python -m gaqueens.bench.scale [--out results/scale] [--quick] [--seeds FIRST..LAST]
                                   [--repeats K]

Per executor, each time: the sweep's wall time (the command's, from start to exit, tables and
plots included) and its runs per second; the peak memory of every process it takes (the sweep,
its workers, the processes that draw its plots, the cluster's scheduler and workers; sampled
from /proc, gaqueens/bench/memory.py); on Dask, the PSS of the cluster's own processes, idle
before the sweep and after it. Then, over the last repetition's folders: the exports' own time
and peak (the same command again over the finished folder: nothing left to compute, it writes
the tables and plots again), those of `python -m gaqueens.export` (the IOH export, every trace
read) and of `python -m gaqueens.verify`, their peaks from one run each, sampled, their times
from K more, unsampled (the sampling costs them time: _measure_after). Each figure stands
beside issue 17's goal (the sweep within 100 s end to end, peak PSS under 1 GB, the export and
verify within 15 s each) and whether it is met; the sweep's wall and peak are met when every
repetition meets them, "met at the median" when their median does (one peak says little near
its goal: the Dask sweep's, measured once on three successive commits, were 990, 1,019 and
997 MB). Then the store's insert rate, measured apart: the
sweep's runs stored again, in batches of the sweep's size, into a fresh store, timing
Store.add alone (packing the traces, inserting, committing to disk), K times; beside the rate
at which the sweep computed its runs (stored runs over the time between the manifest's start
and end). --quick runs 2 cells x 2 boards x 50 seeds: a smoke run, not a measurement.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np

from gaqueens.bench.common import Report
from gaqueens.bench.memory import MB, Sampler, available, tree_pss

FILE = Path("experiments") / "sweep-100k.yaml"  # from the project's folder, or --file
QUICK = ("boards=[8, 16]", "grid={population: [5, 10]}", "seeds={first: 1, last: 50}")
COLUMNS = ("executor", "figure", "repetition", "value", "unit")
TOGETHER = 50  # the batch the store is timed with: the sweep's batches of GA runs


def _python(*args) -> list[str]:
    return [sys.executable, *args]


def _timed(command: list[str], sampling: bool = True) -> tuple[float, Sampler | None]:
    """Runs ``command`` to its end, sampling its processes if ``sampling``; its wall time and
    the sampler. A failure is one line: the command and the last line it wrote (before any
    failure of the sampling)."""
    sampler = Sampler().start() if sampling else None
    began = time.perf_counter()
    try:
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        wall = time.perf_counter() - began
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"{' '.join(command[1:])} ended with exit status "
                               f"{done.returncode}: {last}")
    except BaseException:
        if sampler:
            sampler.stop(check=False)
        raise
    if sampler:
        sampler.stop()
    return wall, sampler


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
            _python("-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--no-dashboard", "--scheduler-file", str(address_file)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        deadline = time.monotonic() + 60
        while not address_file.exists():
            if time.monotonic() > deadline or started[0].poll() is not None:
                raise RuntimeError("the Dask scheduler did not start within a minute")
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        started.append(subprocess.Popen(
            _python("-m", "distributed.cli.dask_worker", address, "--nworkers", "2",
                    "--nthreads", "1", "--no-dashboard"),
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


def _phase_seconds(folder: Path) -> float:
    """The seconds between the manifest's start and end: the runs computed and stored."""
    record = json.loads((folder / "manifest.json").read_text())
    began, ended = (datetime.fromisoformat(record[key]) for key in ("started", "ended"))
    return max((ended - began).total_seconds(), 1.0)  # the manifest counts whole seconds


def _stored(folder: Path) -> int:
    from gaqueens.runtime.store import Store

    with Store(folder) as store:
        return store.db.execute("SELECT count(*) FROM runs").fetchone()[0]


def store_rate(folder: Path, scratch: Path) -> tuple[int, float]:
    """The runs of ``folder`` stored again into a fresh store in ``scratch``, a batch of
    TOGETHER runs of one algorithm and board at a time, as the sweep stores them: the runs and
    the seconds spent in Store.add. A batch at a time is read and held."""
    from gaqueens.core.result import Result
    from gaqueens.runtime.store import Store, unpack

    count, spent = 0, 0.0
    with Store(folder) as source, Store(scratch, write=True) as target:
        target.use(source.settings())
        rows = source.each()
        for (name, board), group in itertools.groupby(rows, key=lambda row: row[:2]):
            while batch := list(itertools.islice(group, TOGETHER)):
                unit = batch[0][7]
                results = [(seed, Result(bool(solved), conflicts, evaluations,
                                         np.array(solution.split(), dtype=np.int64),
                                         generations, seconds,
                                         None if blob is None else unpack(blob)))
                           for _, _, seed, solved, conflicts, generations, evaluations, _,
                           seconds, solution, blob in batch]
                began = time.perf_counter()
                target.add(name, unit, board, results, "bench")
                spent += time.perf_counter() - began
                count += len(results)
    return count, spent


def _row(rows: list[dict], executor: str):
    def row(figure, value, unit, repetition=1):
        rows.append(dict(executor=executor, figure=figure, repetition=repetition, value=value,
                         unit=unit))
    return row


def _measure_sweep(executor: str, sweep: list[str], folder: Path, rows: list[dict],
                   repetition: int) -> dict:
    """The sweep, once, into a fresh folder."""
    row = _row(rows, executor)
    wall, sampler = _timed(sweep)
    runs, phase = _stored(folder), _phase_seconds(folder)
    first, second = sampler.halves(until=phase)
    for name, value, unit in (("sweep wall", wall, "s"), ("runs stored", runs, "runs"),
                              ("runs computed and stored", phase, "s"),
                              ("peak RSS, sum over the processes", sampler.peak / MB, "MB"),
                              ("peak PSS, sum over the processes", sampler.peak_pss / MB, "MB"),
                              ("peak RSS of one process", sampler.largest / MB, "MB"),
                              ("median PSS, first half of the runs", first / MB, "MB"),
                              ("median PSS, second half of the runs", second / MB, "MB")):
        row(name, value, unit, repetition)
    return dict(wall=wall, runs=runs, rate=runs / wall, computed=runs / phase,
                peak=sampler.peak, pss=sampler.peak_pss, largest=sampler.largest,
                halves=(first, second))


def _measure_after(executor: str, sweep: list[str], folder: Path, repeats: int,
                   figures: dict, rows: list[dict]) -> None:
    """The exports (the sweep's command again, with nothing left to compute), the IOH export
    (python -m gaqueens.export DIR) and verify, ``repeats`` times each, alternating; on the
    local processes (no cluster running). Their wall times are taken with nothing sampling
    /proc: reading each process's smaps_rollup ten times a second made the exports of the
    100,000-run sweep 1-3 s longer (15.5-16.7 s against 16.8-18.7 s, three of each,
    alternating), so their memory comes from one more run of each, sampled, whose wall time is
    kept too ("wall, sampled")."""
    row = _row(rows, executor)
    again = [arg for arg in sweep if arg != "--fresh"]
    if "--scheduler" in again:
        at = again.index("--scheduler")
        del again[at:at + 2]
    commands = (("exports", again), ("export", _python("-m", "gaqueens.export", str(folder))),
                ("verify", _python("-m", "gaqueens.verify", str(folder))))
    for kind, command in commands:
        seconds, sampled = _timed(command, sampling=True)
        figures[kind] = dict(walls=[], sampled=seconds, peak=sampled.peak, pss=sampled.peak_pss)
        row(f"{kind} wall, sampled", seconds, "s")
        row(f"{kind} peak RSS, sum", sampled.peak / MB, "MB")
        row(f"{kind} peak PSS, sum", sampled.peak_pss / MB, "MB")
    for repetition in range(1, repeats + 1):
        for kind, command in commands:
            seconds, _ = _timed(command, sampling=False)
            figures[kind]["walls"].append(seconds)
            row(f"{kind} wall", seconds, "s", repetition)


EXECUTORS = ("local processes", "Dask loopback")


def _sweep_on(name: str, commands: dict, scratch: Path, rows: list[dict], repetition: int) -> dict:
    """One repetition of the sweep on the executor ``name`` (its command and folder in
    ``commands``): on Dask, on a loopback cluster started for it, whose processes' PSS is taken
    before and after the sweep; the cluster's address is added to the command kept."""
    command, folder = commands[name]
    if name == EXECUTORS[0]:
        return _measure_sweep(name, command, folder, rows, repetition)
    with loopback_cluster(scratch) as address:
        command = [*command, "--scheduler", address]
        commands[name] = (command, folder)
        idle = tree_pss()  # the cluster's processes alone, before and after
        measured = _measure_sweep(name, command, folder, rows, repetition)
        measured["cluster"] = (idle, tree_pss())
    for when, value in zip(("before", "after"), measured["cluster"]):
        _row(rows, name)(f"cluster PSS, sum, {when} the sweep", value / MB, "MB", repetition)
    return measured


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gaqueens.bench.scale",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="write scale.md and scale.csv into this folder")
    parser.add_argument("--file", default=str(FILE), help=f"the sweep's experiment (default {FILE})")
    parser.add_argument("--quick", action="store_true", help="200 runs: a smoke run")
    parser.add_argument("--seeds", help="FIRST..LAST instead of the file's seeds")
    parser.add_argument("--repeats", type=int, default=3,
                        help="repetitions of each sweep, the exports, verify and the store's "
                             "rate (default 3)")
    parser.add_argument("--no-dask", action="store_true", help="the local processes only")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be a whole number >= 1")
    if not Path(args.file).is_file():
        print(f"error: {args.file}: no such experiment file (the 100,000-run sweep is "
              f"experiments/sweep-100k.yaml in the project's folder; give it with --file)",
              file=sys.stderr)
        return 2
    missing = available()
    if missing:
        print(f"error: the memory cannot be sampled: {missing}", file=sys.stderr)
        return 2
    if not args.no_dask:
        if importlib.util.find_spec("distributed") is None:
            print("error: the Dask half needs pip install 'gaqueens[cluster]' (or --no-dask)",
                  file=sys.stderr)
            return 2
    from gaqueens.bench.scale_report import report, write

    options = [arg for change in (QUICK if args.quick else ()) for arg in ("--set", change)]
    options += ["--seeds", args.seeds] if args.seeds else []
    rows = []
    load = os.getloadavg()
    began = time.strftime("%Y-%m-%d %H:%M")
    try:
        with tempfile.TemporaryDirectory(prefix="gaqueens-scale-") as scratch:
            scratch = Path(scratch)
            base = _python("-m", "gaqueens.sweep", str(Path(args.file).resolve()), "--quiet",
                           "--fresh", *options)
            commands, sweeps = {}, {}
            for repetition in range(1, args.repeats + 1):
                for name in EXECUTORS[: 1 if args.no_dask else 2]:
                    print(f"{name}: the sweep ({repetition} of {args.repeats}) ...",
                          file=sys.stderr, flush=True)
                    if name in commands:  # the earlier repetition's folder: the last one serves
                        shutil.rmtree(commands[name][1])
                    folder = scratch / f"{name.split()[0].lower()}-{repetition}"
                    commands[name] = ([*base, "--out", str(folder)], folder)
                    sweeps.setdefault(name, []).append(
                        _sweep_on(name, commands, scratch, rows, repetition))
            measured = {name: {figure: [one[figure] for one in ones] for figure in ones[0]}
                        for name, ones in sweeps.items()}  # each figure's repetitions
            for name, (command, folder) in commands.items():
                print(f"{name}: the exports and verify ...", file=sys.stderr, flush=True)
                _measure_after(name, command, folder, args.repeats, measured[name], rows)
            print("the store's insert rate ...", file=sys.stderr, flush=True)
            stores, local = [], commands[EXECUTORS[0]][1]  # the last local sweep's folder
            for repetition in range(1, args.repeats + 1):
                count, spent = store_rate(local, scratch / f"store-{repetition}")
                stores.append(count / spent)
                rows.append(dict(executor="store alone", figure="runs stored per second",
                                 repetition=repetition, value=count / spent, unit="runs/s"))
    except (RuntimeError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 3
    header = dict(command="python -m gaqueens.bench.scale " + " ".join(argv or sys.argv[1:]),
                  date=began, quick=args.quick, options=options, load=load, load_end=os.getloadavg(),
                  machine=f"{platform.platform()}, {os.cpu_count()} cores, Python "
                          f"{platform.python_version()}")
    out = Report()
    report(out, header, measured, stores, rows, args.repeats)
    if args.out:
        write(args.out, out, rows, COLUMNS)
        print(f"wrote {args.out / 'scale.md'}, scale.csv and goals.csv", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
