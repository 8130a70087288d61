"""Re-checks an output folder: its runs by the independent verifier, its exported files against
what they were exported from, and its manifest against its store.

    python -m gaqueens.verify DIR

With the folder's store (runs.sqlite):

- the store passes SQLite's integrity check;
- every stored run passes the verifier (gaqueens/runtime/claims.py) with the target of the settings
  stored beside it, and a GA run's trace counts generations 0, 1, ... and ends at the run's
  generations and evaluations, with the run's conflicts as its best;
- manifest.json records a complete sweep whose algorithms have the stored settings, and every
  run of its experiment is stored;
- runs.csv and summary.csv are what the store gives: exported again in memory (the runs of the
  manifest's experiment in its order, the summary from gaqueens/reports/tables.py), they have
  the same rows, text equal and numbers equal to a relative 1e-9.

Without the store (results/ in git keeps none: the stores hold the traces and weigh the most),
what the committed files allow: the rows of runs.csv pass the verifier with the manifest's
targets and are exactly the runs of the manifest's experiment, in its order; summary.csv equals
the summary recomputed from them, but for the attacking pairs measured over the GA's first
populations, which need the traces. A runs.csv without placements (a compact one), or
runs-compact.csv where runs.csv is not kept, is checked the same way, placements aside. A
folder with neither runs.sqlite nor one of those has no runs to verify: exit status 2.

Prints a one-line verdict and exits 0, or lists what is wrong and exits 1; 2 bad usage; 3 a
fault, with the traceback in a temporary error.log (verify writes nothing into DIR); 130
interrupted (gaqueens/cli.py). tests/test_verify.py alters stores and files by hand.
"""

from __future__ import annotations

import sqlite3
import sys
from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens import cli, problems
from gaqueens.core.errors import BadInput
from gaqueens.runtime import manifest
from gaqueens.runtime.claims import (each_row_problem, own_best, rows_problems, stored_algorithm,
                                     stored_claims)
from gaqueens.cli import Parser
from gaqueens.experiment import MAX_BOARD_KEY, Entry, Experiment
from gaqueens.reports.readback import compare, read_runs
from gaqueens.reports.folded import first_frame, first_row
from gaqueens.reports.outputs import in_entry_order as ordered  # the export's own order
from gaqueens.core.result import TRACE_COLUMNS
from gaqueens.runtime.store import FILE, RUN_COLUMNS, Store, Unreadable, unpack

LISTED = 40  # problems printed; the count says how many more
StoredRun = namedtuple("StoredRun", RUN_COLUMNS)


class NothingToVerify(BadInput):
    """DIR is not a folder, or holds no runs."""


def experiment_of(record: dict, folder: Path) -> Experiment:
    """The experiment a manifest records (its resolved settings); raises KeyError, TypeError or
    ValueError for a manifest that is not a sweep's."""
    settings = record["settings"]
    entries = tuple(Entry(name, algorithm, value, value.get(MAX_BOARD_KEY), value.get("plugin"), spec)
                    for name, value in settings["algorithms"].items()
                    for algorithm, spec in [stored_algorithm(name, value)])
    experiment = Experiment(
        name=str(settings["name"]), source=str(record.get("experiment", "")),
        boards=tuple(int(board) for board in settings["boards"]),
        seeds=(int(settings["seeds"]["first"]), int(settings["seeds"]["last"])),
        entries=entries, output=folder,
        reference={int(board): value for board, value in settings["reference"].items()},
        problem=str(settings.get("problem", problems.DEFAULT)),
    )
    experiment.tasks()  # every setting it needs is there
    return experiment


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


def _settings_problems(name: str, recorded: dict, stored: dict | None) -> list[str]:
    """How the settings manifest.json records for ``name`` differ from the store's; the store
    keeps only what changes a run, so the keys that choose which runs to do (max-board) are
    the manifest's alone (gaqueens/experiment/written.py, run_settings)."""
    if stored is None:
        return [f"{manifest.FILE}: {name} has no settings in {FILE}"]
    keys = (set(recorded) | set(stored)) - {MAX_BOARD_KEY}
    return [f"{manifest.FILE}: {name}.{key} is {recorded.get(key)!r}, "
            f"{FILE} has {stored.get(key)!r}"
            for key in sorted(keys) if recorded.get(key) != stored.get(key)]


def verify_folder(folder) -> tuple[list[str], str]:
    """What is wrong with ``folder`` (a line each, empty when nothing is), and what was
    checked, in words; NothingToVerify when it holds no runs."""
    folder = Path(folder)
    if folder.is_file():
        raise NothingToVerify(f"{folder}: is a file, expected an output folder of a sweep")
    if not folder.is_dir():
        raise NothingToVerify(f"{folder}: no such folder")
    stored = (folder / FILE).exists()
    if not stored and _runs_file(folder) is None:
        raise NothingToVerify(f"{folder}: neither {FILE} nor runs.csv (or runs-compact.csv): "
                              "no runs to verify")
    problems = []
    record = manifest.read(folder)
    experiment = None
    if record is None:
        problems.append(f"{manifest.FILE}: missing, or not JSON")
    else:
        try:
            experiment = experiment_of(record, folder)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            problems.append(f"{manifest.FILE}: not the manifest of a sweep ({error!r} is wrong)")
        if record.get("status") != "complete":
            problems.append(f"{manifest.FILE}: the sweep's status is {record.get('status')!r}, "
                            "not complete (run it again to finish it)")
    if stored:
        return problems, _with_store(folder, experiment, problems)
    return problems, _without_store(folder, experiment, problems)


def _with_store(folder: Path, experiment, problems: list[str]) -> str:
    try:
        with Store(folder) as store:
            return _stored(folder, store, experiment, problems)
    except Unreadable as error:
        problems.append(str(error))
    except sqlite3.DatabaseError as error:
        problems.append(f"{FILE}: damaged ({error})")
    return "nothing more: the store cannot be read"


def _stored(folder: Path, store: Store, experiment, problems: list[str]) -> str:
    integrity = [line for line, in store.db.execute("PRAGMA integrity_check")]
    if integrity != ["ok"]:
        problems += [f"{FILE}: {line}" for line in integrity]
        return "nothing more: the store is damaged"
    settings = store.settings()
    keys = set(experiment.tasks()) if experiment is not None else set()
    stored = list(store.each())
    count, first = len(stored), []  # first: the first generation of each run of the experiment
    rows = [StoredRun(*values) for *values, _ in stored]
    rules = {name: stored_claims(name, settings.get(name, {}))
             for name in dict.fromkeys(row.algorithm for row in rows)}
    checked = each_row_problem(pd.DataFrame(rows, columns=RUN_COLUMNS),
                               {name: rule for name, rule in rules.items() if name in settings})
    for row, (*_, blob), found in zip(rows, stored, checked):
        trace, unreadable = None, None
        if blob is not None:
            try:
                trace = unpack(blob)
            except Exception as error:  # zlib or numpy refuse an altered blob
                unreadable = f"its trace cannot be read ({type(error).__name__})"
        rule = rules[row.algorithm]
        if row.algorithm not in settings:
            problem = "it is stored without its algorithm's settings"
        else:
            problem = found
            if problem is None and blob is not None:
                try:
                    problem = unreadable or trace_problem(
                        trace, row.generations, row.work,
                        own_best(row.conflicts, row.solution, rule.fitness, rule.problem))
                except Exception as error:  # numbers an altered trace cannot compare
                    problem = f"its trace cannot be read ({type(error).__name__})"
        if (row.algorithm, row.board, row.seed) in keys and _whole(trace):
            first.append(first_row(row.algorithm, row.board, row.seed, trace, rule.fitness))
        if problem:
            problems.append(f"{FILE}: {row.algorithm} on board {row.board}, seed "
                            f"{row.seed}: {problem}")
    if experiment is None:
        return f"{count} stored runs pass the verifier"
    for entry in experiment.entries:
        problems += _settings_problems(entry.name, entry.settings, settings.get(entry.name))
    missing = sorted(keys - store.keys())
    if missing:
        problems.append(f"{FILE}: {len(missing)} runs of the experiment are not stored, "
                        f"e.g. {missing[0][0]} on board {missing[0][1]}, seed {missing[0][2]}")
    runs = ordered(store.runs(keys), experiment)
    _exports(folder, experiment, runs, first_frame(first), problems)
    return (f"{count} stored runs pass the verifier; runs.csv, summary.csv and "
            f"{manifest.FILE} match the store")


def _whole(trace) -> bool:
    """Whether ``trace`` is a table of TRACE_COLUMNS with a first generation."""
    return trace is not None and trace.ndim == 2 and trace.shape[1] == len(TRACE_COLUMNS) \
        and len(trace) > 0


def _runs_file(folder: Path) -> str | None:
    """runs.csv, or where a repository keeps only it, runs-compact.csv (no placements)."""
    return next((name for name in ("runs.csv", "runs-compact.csv") if (folder / name).exists()),
                None)


def _without_store(folder: Path, experiment, problems: list[str]) -> str:
    file = _runs_file(folder)
    runs = read_runs(folder / file)
    absent = [column for column in ("algorithm", "board", "seed", "solved", "conflicts", "unit")
              if column not in runs.columns]
    if absent:
        problems.append(f"{file}: has no column {', '.join(absent)}")
        return f"{file} is not a table of runs"
    if experiment is None:
        rules = {name: stored_claims(name, {}) for name in runs["algorithm"].unique()}
    else:
        rules = {entry.name: stored_claims(entry.name, entry.settings) for entry in experiment.entries}
    wrong = [f"{file}: {line}" for line in rows_problems(runs, rules)]
    if experiment is None:
        problems += wrong
        return f"{len(runs)} runs of {file} pass the verifier"
    keys = list(zip(runs["algorithm"], runs["board"], runs["seed"]))
    tasks = experiment.tasks()
    if len(keys) != len(tasks) or set(keys) != set(tasks):
        wrong.append(f"{file}: its {len(keys)} runs are not the {len(tasks)} runs of the "
                     f"experiment in {manifest.FILE}")
    elif keys != list(zip(*(ordered(runs, experiment)[c] for c in ("algorithm", "board", "seed")))):
        wrong.append(f"{file}: the runs are not in the experiment's order")
    problems += wrong
    placements = "" if "solution" in runs.columns else " (it has no placements)"
    if not wrong:  # a summary of other runs would differ everywhere
        _exports(folder, experiment, runs, None, problems, runs_file=False)
    return (f"{len(runs)} runs of {file}{placements} pass the verifier and are the runs of "
            f"{manifest.FILE}; summary.csv is recomputed from them; without {FILE} here, the "
            "traces, and the attacking pairs measured from them, are not checked")


def _exports(folder: Path, experiment, runs, traces, problems, runs_file: bool = True) -> None:
    """Compares runs.csv (unless not ``runs_file``) and summary.csv with ``runs`` and the
    summary of ``runs`` and ``traces``, when the sweep completed."""
    from gaqueens.reports import tables

    if runs_file:
        problems += compare(folder / "runs.csv", runs, ("algorithm", "board", "seed"))
    summary = ordered(tables.summarize(runs, traces, experiment.reference, experiment.problem),
                      experiment)
    skip = ("random_measured",) if traces is None else ()
    problems += compare(folder / "summary.csv", summary, ("algorithm", "board"), skip)


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.verify",
                    description="Re-check an output folder: every run by the independent "
                                "verifier, runs.csv and summary.csv against the store, and "
                                "the manifest.")
    parser.add_argument("folder", metavar="DIR", help="an output folder of a sweep")
    args = parser.parse_args(argv)

    def body() -> int:
        problems, checked = verify_folder(args.folder)
        if not problems:
            print(f"{args.folder}: verified: {checked}")
            return cli.DONE
        print(f"{args.folder}: {len(problems)} problem{'s' * (len(problems) > 1)}:")
        for problem in problems[:LISTED]:
            print(f"  {problem}")
        if len(problems) > LISTED:
            print(f"  and {len(problems) - LISTED} more")
        return cli.REJECTED

    return cli.run(body)


if __name__ == "__main__":
    sys.exit(main())
