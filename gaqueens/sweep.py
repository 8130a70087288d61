"""The sweep: every run of an experiment, stored as it finishes, then the tables and plots.

    python -m gaqueens.sweep FILE [--out DIR] [--seeds FIRST..LAST] [--set PATH=VALUE ...]
                                  [--workers K] [--scheduler ADDRESS] [--fresh] [--mixed-code]
                                  [--quiet]

Runs already in the output folder's store are not run again, so an interrupted sweep resumes
where it stopped. ``--set PATH=VALUE`` changes a setting of the file as if it were written there
(gaqueens.experiment.overrides); the manifest records it. Every stored run records the code
that made it (manifest.code_identity): resuming runs that other code made is refused unless
--fresh (compute them again) or --mixed-code (keep them; the manifest and summary.md then say
so). A worker process that dies costs
only the batch it was running (and the next, sent ahead), computed again on a new worker
(gaqueens/executors.py). Exit status (gaqueens/cli.py): 0 done; 1 a run, or a stored run being
exported, failed the verifier; 2 bad input or usage; 3 a fault (a batch's worker died three
times, the disk is full, the cluster failed, an unexpected error), with one line and the
traceback in the folder's error.log; 130 interrupted (Ctrl-C or SIGTERM). Every fault keeps
the runs stored before it.
"""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys
import threading
from collections import defaultdict

from gaqueens import cli, executors, manifest
from gaqueens.checks import Invalid, entry_claims, run_problem
from gaqueens.reports import outputs
from gaqueens.cli import Parser
from gaqueens.experiment import BadInput, Experiment, load, parse_seeds, run_settings
from gaqueens.registry import runs_together
from gaqueens.store import Busy, Store, Unreadable, WriteFailed

BATCH = 25  # runs sent to a worker at once, one after another: at most this many are lost with it
TOGETHER = 50  # the same for runs advanced together (the GA's published family), which cost
# less the more seeds share the arrays: the published table's runs take about 20% less CPU in
# batches of 50 seeds than of 25 (ga.run_many on boards 8 to 128, seeds 1 to 100)


class Interrupted(Exception):
    """The sweep was stopped by Ctrl-C or a termination signal; stored runs are kept."""


class Rejected(Exception):
    """A run's answer failed the independent verifier: a bug to report, not bad input."""


def batches(experiment: Experiment, todo: list[tuple[str, int, int]], workers: int) -> list[tuple]:
    """The runs to do, grouped by algorithm and board into batches of a few seeds, the largest
    boards first so that the longest runs start early: runs made one after another in batches
    of at most BATCH, at least two a worker for each group; runs advanced together in as few
    batches as there are workers, of at most TOGETHER."""
    seeds = defaultdict(list)
    for algorithm, board, seed in todo:
        seeds[algorithm, board].append(seed)
    out = []
    for (name, board), group in sorted(seeds.items(), key=lambda item: -item[0][1]):
        entry = experiment.entry(name)
        if runs_together(entry.runner, entry.settings, board):
            size = min(TOGETHER, -(-len(group) // workers))
        else:
            size = max(1, min(BATCH, len(group) // (2 * workers)))
        out += [(name, entry.runner, entry.settings, board, group[i:i + size])
                for i in range(0, len(group), size)]
    return out


def verify(name: str, rule, board: int, seed: int, result) -> None:
    """Checks a run's claims (``rule``, gaqueens/checks.py) with the independent verifier
    before it is stored."""
    problem = run_problem(rule, result.solution, board, result.conflicts, result.solved)
    if problem:
        raise Rejected(f"the verifier rejects {name} on board {board}, seed {seed}: {problem}")


def run_sweep(experiment: Experiment, *, workers: int | None = None, scheduler: str | None = None,
              fresh: bool = False, mixed_code: bool = False, progress: bool = True, say=print,
              argv=None) -> str:
    """Runs the experiment's missing runs and writes its outputs; returns the results table
    (markdown). Raises BadInput for settings that differ from the stored ones (unless
    ``fresh``, which discards the runs of those), Busy when another sweep writes into the same
    folder, Unreadable for a store that is not one, Interrupted, Rejected, Invalid (a stored
    run fails the verifier as it is exported), and the faults: executors.WorkerLost,
    WorkerFailed and ClusterFailed, store.WriteFailed, OSError."""
    workers = workers or os.cpu_count() or 1
    executor = f"dask scheduler {scheduler}" if scheduler else (
        f"{workers} local processes" if workers > 1 else "1 process")
    client = executors.connect(scheduler) if scheduler else None
    try:
        return _sweep(experiment, workers, client, executor, fresh, mixed_code, progress, say, argv)
    finally:
        if client is not None:
            client.close()


def _sweep(experiment, workers, client, executor, fresh, mixed_code, progress, say, argv) -> str:
    with Store(experiment.output, write=True) as store:
        settings = {entry.name: run_settings(entry) for entry in experiment.entries}
        differences = store.differences(settings)
        if differences and not fresh:
            lines = [line for changes in differences.values() for line in changes]
            more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
            raise BadInput(f"{experiment.output}: its stored runs used other settings "
                           f"({lines[0]}{more}); add --fresh to discard those runs, or use "
                           "another --out")
        store.discard(differences)
        store.use(settings)
        code = manifest.code_identity()
        others = {made: count for made, count in store.codes().items() if made != code}
        if others and fresh:
            store.discard_other_code(code)
        done = store.keys()
        tasks = experiment.tasks()
        todo = [task for task in tasks if task not in done]
        if others and todo and not (fresh or mixed_code):
            made, count = next(iter(others.items()))
            more = f" and {len(others) - 1} more" if len(others) > 1 else ""
            raise BadInput(f"{experiment.output}: {count} of its stored runs were made by other "
                           f"code ({made}{more}) than this sweep's ({code}); add --fresh to "
                           "compute them again, or --mixed-code to keep them beside new runs")
        say(f"{experiment.name}: {len(tasks) - len(todo)} of {len(tasks)} runs stored, "
            f"{len(todo)} to compute on {executor}")
        results = _executor(batches(experiment, todo, workers), workers, client)
        try:
            imported = _import_later(*outputs.HEAVY)
            record = manifest.start(experiment, argv, executor)
            record["runs_stored_before"] = len(tasks) - len(todo)
            record["code"] = code
            if others and not fresh:
                record["mixed_code"] = others  # the stored runs other code made, kept
            if todo or manifest.read(experiment.output) is None:
                outputs.remove(experiment.output)
                manifest.write(experiment.output, record)
            try:
                _store(store, results, len(todo), experiment, progress, code)
            except BaseException as error:
                stopped = ("interrupted" if isinstance(error, (Interrupted, KeyboardInterrupt))
                           else f"failed: {cli.one_line(error)}")
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
        imported.join()
        try:
            table = outputs.write(store, experiment)
        except OSError as error:
            error.filename = error.filename or "the tables and plots"
            raise
        (experiment.output / cli.LOG).unlink(missing_ok=True)  # an earlier fault's, now stale
        return table


def _import_later(*modules: str) -> threading.Thread:
    """Imports ``modules`` in a thread, so that pandas and matplotlib load while the runs
    compute; started after the worker processes, which are forked without it."""
    thread = threading.Thread(target=lambda: [importlib.import_module(m) for m in modules],
                              daemon=True)
    thread.start()
    return thread


def _executor(work: list[tuple], workers: int, client):
    if client is not None:
        return executors.dask_cluster(work, client)
    if workers > 1 and len(work) > 1:
        return executors.local_pool(work, min(workers, len(work)))
    return executors.in_process(work)


def _store(store, results, count: int, experiment: Experiment, progress: bool, code: str) -> None:
    """Verifies and stores each batch of results as it arrives; SIGTERM interrupts it as
    Ctrl-C does."""
    from tqdm import tqdm

    rules = entry_claims(experiment.entries)
    tqdm.monitor_interval = 0  # no monitor thread: processes are forked only without threads
    bar = tqdm(total=count, unit="run", disable=None if progress and count else True,
               file=sys.stderr, desc=experiment.name, dynamic_ncols=True)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        for (name, algorithm, settings, board, _), finished in results:
            for seed, result in finished:
                verify(name, rules[name], board, seed, result)
            store.add(name, algorithm.unit, board, finished, code)
            bar.update(len(finished))
    except KeyboardInterrupt:
        raise Interrupted() from None
    finally:
        try:
            results.close()
        finally:
            bar.close()
            signal.signal(signal.SIGTERM, previous)


def _terminate(signum, frame):
    raise KeyboardInterrupt


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
                        help="discard the stored runs of settings that changed")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or messages")
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    say = (lambda *a, **k: None) if args.quiet else (lambda text: print(text, file=sys.stderr))
    experiment = None
    try:
        if args.workers is not None and args.workers < 1:
            raise BadInput(f"--workers must be a whole number >= 1, got {args.workers}")
        seeds = parse_seeds(args.seeds) if args.seeds is not None else None
        experiment = load(args.file, output=args.out, seeds=seeds, overrides=args.set)
        table = run_sweep(experiment, workers=args.workers, scheduler=args.scheduler,
                          fresh=args.fresh, mixed_code=args.mixed_code, progress=not args.quiet,
                          say=say, argv=argv)
    except (BadInput, Busy, Unreadable, executors.Unreachable) as error:
        print(f"error: {error}", file=sys.stderr)
        return cli.BAD_INPUT
    except Rejected as error:
        print(f"error: {error}; the runs before it are stored", file=sys.stderr)
        return cli.REJECTED
    except Invalid as error:
        print(f"error: {error}; python -m gaqueens.verify {experiment.output} lists every "
              "problem", file=sys.stderr)
        return cli.REJECTED
    except (Interrupted, KeyboardInterrupt):
        print("\ninterrupted: the runs stored so far are kept; run the same command again to "
              "resume", file=sys.stderr)
        return cli.INTERRUPTED
    except Exception as error:
        folder = experiment.output if experiment is not None else None
        return cli.fault(_fault_line(error, folder), error, folder,
                         getattr(error, "details", ""))
    say(f"wrote {experiment.output}: runs.csv, summary.csv, summary.md and plots")
    print(table)
    return cli.DONE


NO_ROOM = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
KEPT = "the runs stored so far are kept: run the same command again to go on"


def _fault_line(error: Exception, folder) -> str:
    """The line a fault is reported by."""
    if isinstance(error, (executors.WorkerLost, executors.ClusterFailed)):
        return f"{error}; {KEPT}"
    if isinstance(error, WriteFailed):
        return f"{error}; {KEPT}"
    if isinstance(error, OSError) and error.errno in NO_ROOM:
        written = os.path.basename(str(error.filename or "")) or "a file"
        return (f"{folder or 'the output folder'}: writing {written} failed ({error.strerror}): "
                f"the disk is full or a file size limit is reached; {KEPT}")
    if isinstance(error, executors.WorkerFailed):
        return (f"a run failed in its worker process: {error}; the runs stored so far are "
                "kept, but a run that raises will raise again until its code or settings change")
    return f"unexpected {type(error).__name__}: {error}; {KEPT}"


def _exit(status: int) -> None:
    """Ends the command with ``status``. After a sweep that ended well, every file is written
    and closed, the store closed and every process joined: it skips the interpreter's own
    teardown of pandas, matplotlib and pyarrow (about 0.4 s) once stdout and stderr are
    flushed. Any other ending, or output that cannot be flushed, exits as usual."""
    if status != cli.DONE:
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: the usual exit reports it as Python does
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":
    _exit(main())
