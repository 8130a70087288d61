"""The sweep: every run of an experiment, stored as it finishes, then the tables and plots.

    python -m gaqueens.sweep FILE [--out DIR] [--seeds FIRST..LAST] [--set PATH=VALUE ...]
                                  [--workers K] [--scheduler ADDRESS] [--memory-budget SIZE]
                                  [--fresh] [--mixed-code] [--mixed-folder] [--quiet]

The outputs describe the runs this command asks for, whatever else the store keeps: after
``--seeds 1..20``, ``--seeds 1..5`` computes nothing and exports seeds 1 to 5, the 20 stored
runs kept. Every sweep writes its outputs and manifest anew and moves them in together
(gaqueens.reports.staged): stopped at any point, it leaves the earlier ones as they were, so
the folder verifies.

Runs already in the output folder's store are not run again, so an interrupted sweep resumes
where it stopped. ``--set PATH=VALUE`` changes a setting of the file as if it were written there
(gaqueens.experiment.overrides); the manifest records it. The runs are computed and stored by
gaqueens.runtime.compute (settings and code checks, shared runs, batches, executors). A sweep
writes only into a folder it owns (``owned_problem``), checked before any work: a new or empty
folder, or one holding its store (runs.sqlite); a folder holding a sweep's outputs without the
store (a committed results folder) is refused unless --fresh, which replaces them; one holding
any other file (a folder no sweep wrote, such as a project's own) is refused unless
--mixed-folder, which writes the sweep's files among them and leaves them alone. ``--workers``
above what the runs can use is brought down to it, and said: a process a run at most, and
runtime.executors.PER_CORE a core. A run that needs more memory than a worker's budget
(gaqueens.runtime.budget) is refused before any run. Then the tables and plots are written
from the store (gaqueens.reports.outputs), while the reports' modules were imported as the runs
computed. Exit status (gaqueens/cli.py): 0 done; 1 a run, or a stored run being exported,
failed the verifier; 2 bad input or usage; 3 a fault (a batch's worker died three times, a run
ran out of memory, a plug-in's code raised SystemExit, the disk is full, the cluster failed, an
unexpected error), with one line and the traceback in the folder's error.log; 130 interrupted
(Ctrl-C or SIGTERM, in any phase: loading, computing, writing; no partial file is left).
Every fault keeps the runs stored before it.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from pathlib import Path

from gaqueens import cli
from gaqueens.cli import Parser
from gaqueens.core.errors import BadInput, Ended
from gaqueens.experiment import Experiment, load, parse_seeds
from gaqueens.reports import outputs, staged
from gaqueens.runtime import budget, cluster, executors
from gaqueens.runtime.batches import memory_problem
from gaqueens.runtime.claims import Invalid
from gaqueens.runtime.compute import Plan, compute
from gaqueens.runtime import manifest
from gaqueens.runtime.store import FILE, Store

KEPT = "the runs stored so far are kept: run the same command again to go on"
# what a sweep, or an export of it, puts in its folder beside the outputs (reports.outputs)
OWN = {FILE, f"{FILE}-wal", f"{FILE}-shm", f"{FILE}-journal", "runs.lock", manifest.FILE, cli.LOG,
       "ioh"}


def run_sweep(experiment: Experiment, *, workers: int | None = None, scheduler: str | None = None,
              fresh: bool = False, mixed_code: bool = False, progress: bool = True, say=print,
              argv=None, memory_budget: int | None = None, mixed_folder: bool = False) -> str:
    """Runs the experiment's missing runs and writes its outputs; returns the results table
    (markdown). Raises BadInput for what the input gets wrong (a folder the sweep does not
    own: outputs without their store, unless ``fresh``, other files, unless ``mixed_folder``;
    settings that differ from the stored ones, unless ``fresh``, which discards their runs;
    runs of other code, unless ``fresh`` or ``mixed_code``; a run needing more memory than
    ``memory_budget``, bytes a worker may give a batch, by default the available memory
    shared among the workers; another sweep writing into the folder; a store that is not
    one), Interrupted, Rejected (a run fails the verifier, or a stored run as it is exported)
    and Fault (a worker died three times, out of memory, a plug-in's code raised SystemExit,
    the cluster failed, the disk is full). ``workers`` more than the runs can use are brought
    down to what they can (executors.processes), and ``say`` says so."""
    _refuse(owned_problem(experiment.output, fresh, mixed_folder))
    if workers is not None and scheduler is None:
        workers, line = executors.processes(workers, len(experiment.tasks()))
        if line:
            say(f"--workers {line}")
    workers = workers or os.cpu_count() or 1
    executor = f"dask scheduler {scheduler}" if scheduler else (
        f"{workers} local processes" if workers > 1 else "1 process")
    plugins = sorted({module for entry in experiment.entries for module in entry.plugins})
    if scheduler is None:
        limit, how = budget.per_worker(workers, memory_budget)
        _refuse(memory_problem(experiment, limit, how))
    client = cluster.connect(scheduler, plugins) if scheduler else None
    try:
        if client is not None:
            limit, how = cluster.dask_budget(client, memory_budget)
            _refuse(memory_problem(experiment, limit, how))
        plan = Plan(workers, executor, client, limit, fresh, mixed_code, progress, say, argv)
        return _sweep(experiment, plan)
    finally:
        if client is not None:
            client.close()


def _refuse(problem: str | None) -> None:
    if problem:
        raise BadInput(problem)


def owned_problem(folder, fresh: bool, mixed_folder: bool = False) -> str | None:
    """Why a sweep may not write into ``folder``, or None: without a store there (runs.sqlite),
    it holds files that no sweep wrote (a project's own), which a sweep would write among
    (``mixed_folder`` allows it), or outputs that no store there wrote (a committed results
    folder keeps none), which a sweep would replace (``fresh`` replaces them)."""
    folder = Path(folder)
    try:
        names = [] if not folder.is_dir() or (folder / FILE).exists() else \
            sorted(path.name for path in folder.iterdir())
    except OSError as error:
        return f"{folder}: cannot be read ({error.strerror})"
    own = OWN | set(outputs.EXPORTS)
    others = [name for name in names if name not in own and name.split(".partial")[0] not in own]
    if others and not mixed_folder:
        return (f"{folder}: holds {_listed(others)} but no {FILE}, so no sweep wrote it; choose "
                "a new or empty --out, or add --mixed-folder to write the sweep's files among "
                "these (they are left alone)")
    found = outputs.foreign(folder)
    if not found or fresh:
        return None
    return (f"{folder}: holds {_listed(found)} but no {FILE}, so this sweep did not write them "
            "(a committed results folder keeps no store); add --fresh to replace them, or "
            "choose another --out")


def _listed(names: list[str]) -> str:
    return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _sweep(experiment: Experiment, plan: Plan) -> str:
    imported = []

    def starting(elsewhere: bool) -> None:
        """Imports the reports' modules: in a thread (``elsewhere``) while the runs compute in
        other processes, forked before it, the pool holding one worker back until it ends so
        that the imports take its core (gaqueens.runtime.executors); else now, as a thread
        importing beside runs computed here would share the interpreter's lock with them."""
        def imports():
            for module in outputs.HEAVY:
                importlib.import_module(module)

        if not elsewhere:
            return imports()
        imported.append(threading.Thread(target=imports, daemon=True))
        imported[-1].start()

    with Store(experiment.output, write=True) as store:
        staged.settle(experiment.output, outputs.EXPORTS)  # a stopped sweep's outputs
        sweep = compute(store, experiment, plan, starting,
                        stale=lambda: outputs.remove(experiment.output))
        if plan.client is not None:  # done with: the exports then fork, its threads gone
            plan.client.close()
        for thread in imported:
            thread.join()
        try:
            table = outputs.write(store, experiment, sweep)
        except OSError as error:
            error.filename = error.filename or "the tables and plots"
            raise
        except Invalid as error:
            raise Invalid(f"{error}; python -m gaqueens.verify {experiment.output} lists every "
                          "problem") from None
        (experiment.output / cli.LOG).unlink(missing_ok=True)  # an earlier fault's, now stale
        return table


# ---- the command ---------------------------------------------------------------------------


def _parser() -> Parser:
    parser = Parser(prog="python -m gaqueens.sweep",
                     description="Run every run of an experiment file, store it, and write the "
                                 "tables and plots.")
    parser.add_argument("file", help="the experiment file (YAML)")
    parser.add_argument("--out", help="the output folder (default: the file's output)")
    parser.add_argument("--seeds", help="FIRST..LAST, inclusive (default: the file's seeds)")
    parser.add_argument("--workers", type=int, help="local processes (default: all cores)")
    parser.add_argument("--scheduler", help="send the runs to the Dask scheduler at ADDRESS")
    parser.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                        help="change the file's setting at PATH (e.g. ga.population=40; VALUE "
                             "is YAML); repeatable")
    parser.add_argument("--mixed-code", action="store_true",
                        help="keep stored runs that other code made beside new ones "
                             "(the manifest and summary.md say so)")
    parser.add_argument("--fresh", action="store_true",
                        help="discard the stored runs of settings that changed, and replace "
                             "the outputs of a folder without its store (a committed one)")
    parser.add_argument("--mixed-folder", action="store_true",
                        help="write into an --out folder that holds files no sweep wrote "
                             "(they are left alone)")
    parser.add_argument("--memory-budget", metavar="SIZE",
                        help="the memory a worker may give its runs, e.g. 4GB (default: the "
                             "available memory shared among the workers)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or messages")
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    say = (lambda *a, **k: None) if args.quiet else (lambda text: print(text, file=sys.stderr))
    loaded = []

    def body() -> None:
        if args.workers is not None and args.workers < 1:
            raise BadInput(f"--workers must be a whole number >= 1, got {args.workers}")
        seeds = parse_seeds(args.seeds) if args.seeds is not None else None
        memory_budget = None
        if args.memory_budget is not None:
            memory_budget = budget.parse_size(args.memory_budget)
            if memory_budget is None:
                raise BadInput(f"--memory-budget must be a size such as 4GB or 512MB, got "
                               f"{args.memory_budget!r}")
        experiment = load(args.file, output=args.out, seeds=seeds, overrides=args.set)
        loaded.append(experiment)
        table = run_sweep(experiment, workers=args.workers, scheduler=args.scheduler,
                          fresh=args.fresh, mixed_code=args.mixed_code, progress=not args.quiet,
                          say=say, argv=argv, memory_budget=memory_budget,
                          mixed_folder=args.mixed_folder)
        say(f"wrote {experiment.output}: index.html, runs.csv, summary.csv, summary.md and plots")
        print(table)

    def after_fault(error: Exception) -> str:
        if not loaded:
            return ""
        if isinstance(error, (executors.WorkerFailed, Ended)):
            return ("the runs stored so far are kept, but a run that raises will raise again "
                    "until its code or settings change")
        return KEPT

    def interrupted() -> str:
        if loaded and (loaded[0].output / FILE).exists():
            return ("interrupted: the runs stored so far are kept; run the same command again "
                    "to resume")
        return "interrupted: nothing was stored"

    return cli.run(body, folder=lambda: loaded[0].output if loaded else None,
                   interrupted=interrupted, after_fault=after_fault)


if __name__ == "__main__":
    # once a sweep ended well, every file is written and closed, the store closed and every
    # process joined: the interpreter's own teardown of pandas, matplotlib and pyarrow is
    # skipped
    cli.command(main, quick=True)
