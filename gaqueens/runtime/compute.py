"""Computing an experiment's missing runs into its folder's store, each verified and stored as
its batch comes back, with the manifest saying what made them.

Before any run: the stored runs of settings that changed are refused, or discarded with
``fresh``; those that other code made (gaqueens', or a plug-in's source) are refused, or
computed again with ``fresh``, or kept with ``mixed_code``; an entry that shares another's
runs (a grid cell of the ga's settings) takes them from the store. Then the batches go to the
executor (this process, local worker processes, or a Dask cluster), and each batch's runs are
checked by the independent verifier (gaqueens.runtime.claims) and committed in one
transaction. Ctrl-C or SIGTERM stops it (Interrupted), every committed run kept.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from gaqueens.core.errors import BadInput, Interrupted, Rejected
from gaqueens.experiment import Experiment, run_settings
from gaqueens.runtime import cluster, executors, manifest, signals
from gaqueens.runtime.batches import batches
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
            starting: Callable[[bool, bool], None] = lambda elsewhere, new: None) -> None:
    """Computes and stores the experiment's missing runs (see the module's docstring).
    ``starting(elsewhere, new)`` is called once the runs start: whether they compute in other
    processes, and whether any run is to be computed or copied (the outputs of the folder are
    then out of date)."""
    settings = {entry.name: run_settings(entry) for entry in experiment.entries}
    differences = store.differences(settings)
    if differences and not plan.fresh:
        lines = [line for changes in differences.values() for line in changes]
        more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
        raise BadInput(f"{experiment.output}: its stored runs used other settings "
                       f"({lines[0]}{more}); add --fresh to discard those runs, or use another "
                       "--out")
    store.discard(differences)
    store.use(settings)
    codes = {entry.name: manifest.entry_code(entry.plugins) for entry in experiment.entries}
    tasks = experiment.tasks()
    others = other_code(store.codes(set(tasks)), codes)
    if others and plan.fresh:
        store.discard_other_code(codes)
    elif others and not plan.mixed_code:
        raise BadInput(other_code_line(experiment.output, others, codes))
    shared = experiment.shared()
    done = store.keys()
    for name, same in shared.items():  # runs of the same settings stored under its twin
        store.copy_runs(same, name, {(b, s) for n, b, s in tasks
                                     if n == name and (n, b, s) not in done})
    done = store.keys()
    todo = [task for task in tasks if task not in done]
    computed = [task for task in todo if task[0] not in shared]
    twins = "".join(f"; {name} has the settings of {same} and shares its runs"
                    for name, same in shared.items())
    plan.say(f"{experiment.name}: {len(tasks) - len(todo)} of {len(tasks)} runs stored, "
             f"{len(computed)} to compute on {plan.executor}{twins}")
    work = batches(experiment, computed, plan.workers, plan.budget)
    results, elsewhere = _executor(work, plan.workers, plan.client)
    try:
        record = manifest.start(experiment, plan.argv, plan.executor)
        record["runs_stored_before"] = len(tasks) - len(todo)
        if any(batch.compiled for batch in work):  # the GA's generation in numba (batches.py)
            record["compiled"] = {"numba": manifest.version("numba")}
        record["code"] = codes
        earlier = manifest.read(experiment.output)
        if earlier is not None and record["runs_stored_before"]:  # the sweeps that made them
            record["earlier"] = manifest.earlier(earlier)
        if others and not plan.fresh:
            record["mixed_code"] = others  # the stored runs other code made, kept
        starting(elsewhere, bool(todo) or earlier is None)
        if todo or earlier is None:
            manifest.write(experiment.output, record)
        try:
            _store(store, results, len(computed), experiment, plan.progress, codes, shared)
        except BaseException as error:
            stopped = ("interrupted" if isinstance(error, (Interrupted, KeyboardInterrupt))
                       else f"failed: {error}".splitlines()[0])
            record.update(ended=manifest.now(), status=stopped)
            try:
                manifest.write(experiment.output, record)
            except OSError:
                pass  # the disk may be full: the store says what is done
            raise
    finally:
        results.close()
    if todo:
        record.update(ended=manifest.now(), status="complete")
        manifest.write(experiment.output, record)


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
    return executors.in_process(work), False


def _store(store, results, count: int, experiment: Experiment, progress: bool,
           codes: dict[str, str], shared: dict[str, str]) -> None:
    """Verifies and stores each batch of results as it arrives, under its entry's name and
    under the names of the entries that share its runs (``shared``: name -> the entry whose
    runs it shares); SIGTERM interrupts it as Ctrl-C does (runtime/signals.py)."""
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
                    store.add(name, batch.algorithm.unit, batch.board, finished, codes[name])
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
