"""Re-checks an output folder: its runs by the independent verifier, its exported files against
what they were exported from, and its manifest against its store.

    python -m gaqueens.verify DIR

With the folder's store (runs.sqlite):

- the store passes SQLite's integrity check;
- every stored run passes the verifier (gaqueens/runtime/claims.py) with the target of the settings
  stored beside it, and a GA run's trace counts generations 0, 1, ... and ends at the run's
  generations and evaluations, with the run's conflicts as its best;
- manifest.json records a complete sweep whose algorithms have the stored settings, and every
  run of its experiment is stored: the runs its outputs describe, which may be fewer than the
  store keeps (a narrower rerun; gaqueens/runtime/manifest.py);
- runs.csv and summary.csv are what the store gives: exported again in memory (the runs of the
  manifest's experiment in its order, the summary from gaqueens/reports/tables.py), they have
  the same rows, text equal and numbers equal to a relative 1e-9; summary.md says it is made
  from as many runs, by the sweep manifest.json names;
- the outputs present are those the manifest lists, none left by another sweep, and no sweep
  stopped while moving its outputs in (gaqueens/reports/staged.py).

A manifest with "outputs": null names a sweep that has written no outputs yet (interrupted
before its first, or after --fresh discarded the runs of the earlier ones): its stored runs are
checked, and no output may be present.

Without the store (results/ in git keeps none: the stores hold the traces and weigh the most),
what the committed files allow: the rows of runs.csv pass the verifier with the manifest's
targets and are exactly the runs of the manifest's experiment, in its order; summary.csv equals
the summary recomputed from them, but for the attacking pairs measured over the GA's first
populations, which need the traces. A runs.csv without placements (a compact one), or
runs-compact.csv where runs.csv is not kept, is checked the same way, placements aside. A
folder with neither runs.sqlite nor one of those has no runs to verify: exit status 2.

A store of 20,000 runs or more (gaqueens.reports.tables.PARALLEL_FROM) is checked by two worker
processes, a group of one algorithm and board a task (gaqueens/reports/verify_checks.py), beside the
summary's resampling: the same lines as one process finds.

Prints a one-line verdict and exits 0, or lists what is wrong and exits 1; 2 bad usage; 3 a
fault, with the traceback in a temporary error.log (verify writes nothing into DIR); 130
interrupted (gaqueens/cli.py). tests/test_verify.py alters stores and files by hand.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gaqueens import cli, problems
from gaqueens.core.errors import BadInput
from gaqueens.runtime import manifest
from gaqueens.runtime.claims import rows_problems, stored_algorithm, stored_claims
from gaqueens.cli import Parser
from gaqueens.experiment import MAX_BOARD_KEY, Entry, Experiment
from gaqueens.reports import tables, verify_checks
from gaqueens.reports.readback import compare, read_runs
from gaqueens.reports.folded import first_frame
from gaqueens.reports.outputs import in_entry_order as ordered  # the export's own order
from gaqueens.runtime.executors import Workers
from gaqueens.runtime.store import FILE, Store, Unreadable

LISTED = 40  # problems printed; the count says how many more


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


def _settings_problems(name: str, recorded: dict, stored: dict | None) -> list[str]:
    """How the settings manifest.json records for ``name`` differ from the store's; the store
    keeps only what changes a run, so the keys that choose which runs to do (max-board) are
    the manifest's alone (gaqueens/experiment/settings_yaml.py, run_settings)."""
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
        if verify_checks.exported(record) and record.get("status") != "complete":
            problems.append(f"{manifest.FILE}: the sweep's status is {record.get('status')!r}, "
                            "not complete (run it again to finish it)")
        problems += verify_checks.outputs_problems(folder, record, experiment, stored)
    if stored:
        return problems, _with_store(folder, experiment, problems, record)
    if not verify_checks.exported(record):
        return problems, f"nothing more: {manifest.FILE} says no outputs were written"
    return problems, _without_store(folder, experiment, problems)


def _with_store(folder: Path, experiment, problems: list[str], record) -> str:
    try:
        with Store(folder) as store:
            integrity = [line for line, in store.db.execute("PRAGMA integrity_check")]
            if integrity != ["ok"]:
                problems += [f"{FILE}: {line}" for line in integrity]
                return "nothing more: the store is damaged"
            count = store.db.execute("SELECT count(*) FROM runs").fetchone()[0]
            with Workers(2 if count >= tables.PARALLEL_FROM else 1) as workers:
                return _checked(folder, store, experiment, problems, store.settings(), count,
                                workers, record)
    except Unreadable as error:
        problems.append(str(error))
    except sqlite3.DatabaseError as error:
        problems.append(f"{FILE}: damaged ({error})")
    return "nothing more: the store cannot be read"


def _checked(folder: Path, store: Store, experiment, problems: list[str], settings: dict,
             count: int, workers: Workers, record) -> str:
    """Every stored run checked, and the exports compared with the runs the manifest says they
    describe, the work shared by ``workers``: the summary's resampling first, then the runs, a
    group of one algorithm and board a task."""
    exported = experiment is not None and verify_checks.exported(record)
    keys = set(experiment.tasks()) if exported else set()
    summary = None
    if exported:
        runs = ordered(store.runs(keys), experiment)
        summary = tables.summarize_later(runs, experiment.reference, experiment.problem, workers)
    wanted = {}
    for algorithm, board, seed in keys:
        wanted.setdefault((algorithm, board), set()).add(seed)
    groups = verify_checks.groups(store)
    rules = {name: stored_claims(name, settings.get(name, {})) for name, _ in groups}
    tasks = [(folder, name, board, rules[name], name in settings,
              frozenset(wanted.get((name, board), ()))) for name, board in groups]
    pending = workers.later(verify_checks.group_problems, tasks)
    workers.start()
    # meanwhile, here: runs.csv against the store (its problems listed after the runs')
    exports = [] if not exported else compare(folder / "runs.csv", runs,
                                              ("algorithm", "board", "seed"))
    first = []  # the first generation of each run of the experiment
    for found, firsts in pending():
        problems += found
        first += firsts
    if experiment is None:
        return f"{count} stored runs pass the verifier"
    for entry in experiment.entries:
        problems += _settings_problems(entry.name, entry.settings, settings.get(entry.name))
    if not exported:
        return (f"{count} stored runs pass the verifier; no outputs yet: {manifest.FILE} names "
                f"the sweep that stored them, {record.get('status')} (run it again to write "
                "them)")
    missing = sorted(keys - store.keys())
    if missing:
        problems.append(f"{FILE}: {len(missing)} runs of the experiment are not stored, "
                        f"e.g. {missing[0][0]} on board {missing[0][1]}, seed {missing[0][2]}")
    problems += exports
    _exports(folder, experiment, runs, first_frame(first), problems, summary)
    described = "" if len(keys) == count else f" (the outputs describe {len(keys)} of them)"
    return (f"{count} stored runs pass the verifier{described}; runs.csv, summary.csv and "
            f"{manifest.FILE} match the store{verify_checks.since(record, count)}")


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
        _exports(folder, experiment, runs, None, problems)
    return (f"{len(runs)} runs of {file}{placements} pass the verifier and are the runs of "
            f"{manifest.FILE}; summary.csv is recomputed from them; without {FILE} here, the "
            "traces, and the attacking pairs measured from them, are not checked")


def _exports(folder: Path, experiment, runs, traces, problems, summary=None) -> None:
    """Compares summary.csv with the summary of ``runs`` and ``traces`` (``summary``:
    tables.summarize_later's, already started on ``runs``), when the sweep completed."""
    if summary is None:
        summary = tables.summarize_later(runs, experiment.reference, experiment.problem)
    summary = ordered(summary(traces), experiment)
    skip = ("random_measured",) if traces is None else ()
    problems += compare(folder / "summary.csv", summary, ("algorithm", "board"), skip)
    problems += verify_checks.summary_md_problems(folder, manifest.read(folder), len(runs))


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
    cli.command(main)
