"""Computing an experiment's missing runs into its folder's store, each verified and stored as
its batch comes back, with the manifest saying what made them.

Before any run: the stored runs of settings that changed are refused, or discarded with
``fresh``; those that other code made (gaqueens', or a plug-in's source) are refused, or
computed again with ``fresh``, or kept with ``mixed_code``; an entry that shares another's
runs (a grid cell of the ga's settings) takes them from the store. Then the batches go to the
executor (this process, local worker processes, or a Dask cluster), and each batch's runs are
checked by the independent verifier (gaqueens.runtime.claims) and committed in one
transaction. Ctrl-C or SIGTERM stops it (Interrupted), every committed run kept.

The folder's outputs stay as they were while the runs compute, and manifest.json with them
(gaqueens.runtime.manifest, ``Sweep``): it names this sweep in its "since" once it is to store
runs, so a sweep stopped at any point leaves a folder that verifies. Only when the runs the
outputs describe are discarded (``fresh``) do the outputs go, the manifest then this sweep's
own record with "outputs": null. The sweep's complete record is written with its outputs.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from gaqueens.core.errors import BadInput, Interrupted, Rejected
from gaqueens.experiment import Experiment, run_settings
from gaqueens.runtime import cluster, executors, manifest, signals
from gaqueens.runtime.batches import batches, in_process
from gaqueens.runtime.claims import entry_claims, run_problem, runs_problems
from gaqueens.runtime.store import Store, other_code


@dataclass(frozen=True)
class Plan:
    """Where and how the runs are computed: ``workers`` local processes or a Dask ``client``
    (``executor`` says which, for the manifest), a worker's memory ``budget`` in bytes
    (None: unchecked), whether to start ``fresh`` or keep runs of ``mixed_code``, whether to
    show ``progress``, ``say`` for messages, and the command's ``argv`` (None from Python)."""

    workers: int
    executor: str
    client: object = None
    budget: int | None = None
    fresh: bool = False
    mixed_code: bool = False
    progress: bool = True
    say: Callable[[str], None] = print
    argv: list[str] | None = None


def compute(store: Store, experiment: Experiment, plan: Plan,
            starting: Callable[[bool], None] = lambda elsewhere: None,
            stale: Callable[[], None] = lambda: None) -> manifest.Sweep:
    """Computes and stores the experiment's missing runs (see the module's docstring), and
    returns this sweep's record, for the outputs. ``starting(elsewhere)`` is called once the
    runs start, saying whether they compute in other processes; ``stale()`` removes the
    folder's outputs, called when the runs they describe are discarded (or none are
    described)."""
    settings = {entry.name: run_settings(entry) for entry in experiment.entries}
    differences = store.differences(settings)
    if differences and not plan.fresh:
        lines = [line for changes in differences.values() for line in changes]
        more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
        raise BadInput(f"{experiment.output}: its stored runs used other settings "
                       f"({lines[0]}{more}); add --fresh to discard those runs, or use another "
                       "--out")
    codes = {entry.name: manifest.entry_code(entry.plugins) for entry in experiment.entries}
    tasks = experiment.tasks()
    others = other_code(store.codes(set(tasks)), codes)
    if others and not plan.fresh and not plan.mixed_code:
        raise BadInput(other_code_line(experiment.output, others, codes))
    discarding = bool(differences) or bool(others and plan.fresh)
    previous = manifest.read(experiment.output)
    record = manifest.start(experiment, plan.argv, plan.executor)
    record["code"] = codes
    done = store.keys()
    if previous is not None and done:  # the sweeps that made the runs kept
        record["earlier"] = manifest.earlier(previous)
    sweep = manifest.Sweep(experiment.output, record, previous,
                           kept=manifest.describes_outputs(previous) and not discarding)
    if not sweep.kept or any(task not in done for task in tasks):
        with signals.held():  # named before any run is stored, and the outputs of
            sweep.running()       # runs to be discarded (or of none) gone before those runs
            if not sweep.kept:
                stale()
    store.discard(differences)
    store.use(settings)
    if others and plan.fresh:
        store.discard_other_code(codes)
    done = store.keys()
    before = len(done)  # the runs of earlier sweeps, kept
    if not before:
        record.pop("earlier", None)
    if others and not plan.fresh:
        record["mixed_code"] = others  # the stored runs other code made, kept
    shared = experiment.shared()
    try:
        for name, same in shared.items():  # runs of the same settings stored under its twin
            store.copy_runs(same, name, {(b, s) for n, b, s in tasks
                                         if n == name and (n, b, s) not in done})
        done = store.keys()
        todo = [task for task in tasks if task not in done]
        computed = [task for task in todo if task[0] not in shared]
        record["runs_stored_before"] = len(tasks) - len(todo)
        twins = "".join(f"; {name} has the settings of {same} and shares its runs"
                        for name, same in shared.items())
        plan.say(f"{experiment.name}: {len(tasks) - len(todo)} of {len(tasks)} runs stored, "
                 f"{len(computed)} to compute on {plan.executor}{twins}")
        work = batches(experiment, computed, plan.workers, plan.budget)
        if any(batch.compiled for batch in work):  # the GA's generation in numba (batches.py)
            record["compiled"] = {"numba": manifest.version("numba")}
        results, elsewhere = _executor(work, plan.workers, plan.client)
        try:
            starting(elsewhere)
            _store(store, results, len(computed), experiment, plan.progress, codes, shared,
                   done)
        finally:
            results.close()
    except BaseException as error:
        sweep.stopped(error, len(store.keys()) - before)
        raise
    record["runs_added"] = len(store.keys()) - before
    return sweep


def other_code_line(folder, others: dict[str, dict[str, int]], codes: dict[str, str]) -> str:
    """The refusal of stored runs that other code made: how many, of which entry, and what
    changed (gaqueens' code, or which plug-in)."""
    name, made = next(iter(others.items()))
    stored, count = next(iter(made.items()))
    total = sum(sum(made.values()) for made in others.values())
    more = f" (and {total - count} more runs)" if total > count else ""
    return (f"{folder}: {count} of its stored runs of {name}{more} were made by other code "
            f"than this sweep's: {manifest.code_change(stored, codes[name])}; add --fresh to "
            "compute them again, or --mixed-code to keep them beside new runs")


def check_run(name: str, rule, board: int, seed: int, result) -> None:
    """Checks a run's claims (``rule``, gaqueens/runtime/claims.py) with the independent
    verifier before it is stored: Rejected names the run and what is wrong."""
    problem = run_problem(rule, result.solution, board, result.conflicts, result.solved)
    if problem:
        raise Rejected(f"the verifier rejects {name} on board {board}, seed {seed}: {problem}; "
                       "the runs before it are stored")


def check_batch(name: str, rule, board: int, finished: list) -> None:
    """Checks a batch's runs (seed, Result) as check_run does, the runs together
    (claims.runs_problems): Rejected names the first run the verifier rejects."""
    for (seed, _), problem in zip(finished, runs_problems(rule, board, finished)):
        if problem:
            raise Rejected(f"the verifier rejects {name} on board {board}, seed {seed}: "
                           f"{problem}; the runs before it are stored")


def _executor(work: list, workers: int, client):
    """Where the batches run, and whether that is in other processes: a Dask cluster, worker
    processes, or this process (one worker, or one batch)."""
    if client is not None:
        return cluster.dask_cluster(work, client), True
    if workers > 1 and len(work) > 1:  # one worker held back while the sweep imports (sweep.py)
        return executors.local_pool(work, min(workers, len(work)), later=1), True
    return in_process(work), False


def _store(store, results, count: int, experiment: Experiment, progress: bool,
           codes: dict[str, str], shared: dict[str, str], done: set) -> None:
    """Verifies and stores each batch of results as it arrives, under its entry's name and
    under the names of the entries that share its runs (``shared``: name -> the entry whose
    runs it shares) but where ``done`` (the keys stored before) has them already: a grid cell
    that became the ga's twin keeps the runs it made as a cell of its own. SIGTERM interrupts
    it as Ctrl-C does (runtime/signals.py)."""
    from tqdm import tqdm

    rules = entry_claims(experiment.entries)
    tqdm.monitor_interval = 0  # no monitor thread: processes are forked only without threads
    bar = tqdm(total=count, unit="run", disable=None if progress and count else True,
               file=sys.stderr, desc=experiment.name, dynamic_ncols=True)
    with signals.Stopping() as stop:
        try:
            for batch, finished in results:
                check_batch(batch.name, rules[batch.name], batch.board, finished)
                for name in [batch.name, *(twin for twin, same in shared.items()
                                           if same == batch.name)]:
                    new = [(seed, result) for seed, result in finished
                           if (name, batch.board, seed) not in done]
                    if new:
                        store.add(name, batch.algorithm.unit, batch.board, new, codes[name])
                bar.update(len(finished))
                stop.check()
            stop.check()
        except KeyboardInterrupt:
            raise Interrupted() from None
        finally:
            try:
                results.close()
            finally:
                bar.close()
