"""What ``python -m gaqueens.verify`` checks of each stored run, one algorithm and board at a
time, so that the groups can be checked in worker processes, each reading its own runs from
the store: the verifier's verdict on the run (gaqueens/runtime/claims.py) and, for a GA run,
its trace (``trace_problem``); and the first generations of the runs the experiment asks for,
from which the summary's attacking pairs of random placements are measured again.

And what it checks of the outputs beside the runs, from the manifest that speaks for them
(gaqueens/runtime/manifest.py): the files it lists, the runs it says they describe, and
summary.md's line naming its runs and their sweep (``outputs_problems``,
``summary_md_problems``)."""

from __future__ import annotations

from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens.core.result import TRACE_COLUMNS
from gaqueens.reports import outputs, staged
from gaqueens.reports.folded import first_row
from gaqueens.runtime import manifest
from gaqueens.runtime.claims import each_row_problem, own_best
from gaqueens.runtime.store import FILE, RUN_COLUMNS, Store, unpack

StoredRun = namedtuple("StoredRun", RUN_COLUMNS)


def trace_problem(trace: np.ndarray, generations: int, evaluations: int, conflicts: int):
    """What is wrong with a GA run's trace (gaqueens/core/result.py, TRACE_COLUMNS), or None.

    The run reports the best placement it evaluated (DEAP's hall of fame), the trace the best
    of each population after survival (DEAP's logbook). Where survivors may lose the best
    (scheme simple or mu,lambda, survivors by a tournament) a child can hold the run's best
    without ever being in a population, so the run's conflicts are at most the trace's lowest,
    not always its last."""
    if trace.ndim != 2 or trace.shape[1] != len(TRACE_COLUMNS) or not len(trace):
        return "its trace is not a table of generations"
    generation, spent, best = trace[:, 0], trace[:, 1], trace[:, 2]
    if not np.array_equal(generation, np.arange(len(trace))):
        return "its trace does not count generations 0, 1, ..."
    if np.any(np.diff(spent) < 0):
        return "its trace's evaluations go down"
    if (generation[-1], spent[-1]) != (generations, evaluations):
        return (f"its trace ends at generation {generation[-1]:g} after {spent[-1]:g} "
                f"evaluations, the run reports {generations} and {evaluations}")
    if conflicts > best.min():
        return f"its trace reaches {best.min():g} conflicts, the run reports {conflicts} at best"
    return None


def groups(store: Store) -> list[tuple[str, int]]:
    """The (algorithm, board) pairs of the stored runs, in the store's order."""
    return [(algorithm, int(board)) for algorithm, board in store.db.execute(
        "SELECT DISTINCT algorithm, board FROM runs ORDER BY algorithm, board")]


def group_problems(folder, algorithm: str, board: int, rule, known: bool,
                   wanted: frozenset) -> tuple[list[str], list[tuple]]:
    """What is wrong with each stored run of ``algorithm`` on ``board`` (a line naming the run,
    in the order of the seeds) and the first generations of the runs whose seeds are
    ``wanted``. ``rule`` is the algorithm's claims; ``known``, whether the store keeps its
    settings (a run stored without them is a problem of its own)."""
    with Store(folder) as store:
        stored = store.db.execute(f"SELECT {', '.join(RUN_COLUMNS)}, trace FROM runs "
                                  "WHERE algorithm = ? AND board = ? ORDER BY seed",
                                  (algorithm, board)).fetchall()
    rows = [StoredRun(*values) for *values, _ in stored]
    checked = each_row_problem(pd.DataFrame(rows, columns=RUN_COLUMNS),
                               {algorithm: rule} if known else {})
    problems, first = [], []
    for row, (*_, blob), found in zip(rows, stored, checked):
        trace, unreadable = None, None
        if blob is not None:
            try:
                trace = unpack(blob)
            except Exception as error:  # zlib or numpy refuse an altered blob
                unreadable = f"its trace cannot be read ({type(error).__name__})"
        problem = found if known else "it is stored without its algorithm's settings"
        if known and problem is None and blob is not None:
            try:
                problem = unreadable or trace_problem(
                    trace, row.generations, row.work,
                    own_best(row.conflicts, row.solution, rule.fitness, rule.problem))
            except Exception as error:  # numbers an altered trace cannot compare
                problem = f"its trace cannot be read ({type(error).__name__})"
        if row.seed in wanted and _whole(trace):
            first.append(first_row(row.algorithm, row.board, row.seed, trace, rule.fitness))
        if problem:
            problems.append(f"{FILE}: {row.algorithm} on board {row.board}, seed "
                            f"{row.seed}: {problem}")
    return problems, first


def _whole(trace) -> bool:
    """Whether ``trace`` is a table of TRACE_COLUMNS with a first generation."""
    return trace is not None and trace.ndim == 2 and trace.shape[1] == len(TRACE_COLUMNS) \
        and len(trace) > 0


def exported(record: dict | None) -> bool:
    """Whether the manifest speaks for outputs (not "outputs": null: a sweep that wrote none
    yet, gaqueens.runtime.manifest)."""
    return record is None or record.get("outputs", {}) is not None


def outputs_problems(folder: Path, record: dict, experiment, stored: bool) -> list[str]:
    """How the outputs present differ from those the manifest lists (with the store: listed
    but missing too; a committed folder may leave some out), how many runs it says they
    describe, and outputs a sweep stopped moving in (gaqueens.reports.staged)."""
    found = []
    if (folder / staged.READY).exists():
        found.append(f"{staged.READY}: a sweep was stopped while moving its outputs in; run it "
                     "again to move them in")
    present = [name for name in outputs.EXPORTS if (folder / name).exists()]
    if not exported(record):
        return found + [f"{name}: present, but {manifest.FILE} says no outputs were written "
                        f"(the sweep's status is {record.get('status')!r})" for name in present]
    said = record.get("outputs") or {}
    if experiment is not None and "runs" in said and said["runs"] != len(experiment.tasks()):
        found.append(f"{manifest.FILE}: its outputs describe {said['runs']} runs, its "
                     f"experiment has {len(experiment.tasks())}")
    listed = said.get("files")
    if listed is None:  # from before the manifest listed its outputs
        return found
    found += [f"{name}: not one of the outputs {manifest.FILE} lists" for name in present
              if name not in listed]
    compared = ("runs.csv", "summary.csv")  # their absence said as they are compared
    return found + [f"{name}: missing, though {manifest.FILE} lists it" for name in listed
                    if stored and name not in compared and not (folder / name).exists()]


def summary_md_problems(folder: Path, record: dict, runs: int) -> list[str]:
    """Whether summary.md says it is made from the ``runs`` runs the manifest ``record``
    describes, by the sweep it names (its line under the heading)."""
    path = folder / "summary.md"
    if not path.exists() or record is None:
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    said = lines[2] if len(lines) > 2 else ""
    if not said.startswith(f"From {runs} "):
        return [f"summary.md: does not say it is made from the {runs} runs {manifest.FILE} "
                "says the outputs describe"]
    if f"the runs: {manifest.describe(record)};" not in said:
        return [f"summary.md: names another sweep than {manifest.FILE}"]
    return []


def since(record: dict, count: int) -> str:
    """What verify's verdict adds of the sweeps that stored runs since the outputs were
    written, of the ``count`` runs stored now (the manifest says how many there were then)."""
    sweeps = record.get("since") or []
    if not sweeps:
        return ""
    then = (record.get("outputs") or {}).get("stored")
    added = count - then if then is not None else sum(s.get("runs_added") or 0 for s in sweeps)
    return (f"; {added} of them stored since by {len(sweeps)} sweep"
            f"{'s' * (len(sweeps) > 1)} that wrote no outputs ({sweeps[-1].get('status')})")
