"""IOHexperimenter's analyzer format, which IOHanalyzer and its Python package iohinspector read:
an output folder's stored GA runs written as a folder of JSON meta-data and two-column raw data
(``python -m gaqueens.export`` writes it; its docstring describes the files).

The export is built in a folder beside its final name, removed on the way out whatever stops
it (an exception, Ctrl-C or SIGTERM: gaqueens.runtime.signals), and moved into place with
the signals held, so that no signal parts an earlier export from its place before the new one
takes it: OUT ends as it was, or as the whole new export.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from gaqueens import problems
from gaqueens.core.errors import BadInput, Rejected
from gaqueens.core.files import write_text
from gaqueens.runtime import manifest, signals
from gaqueens.runtime.claims import each_row_problem, own_best, stored_claims
from gaqueens.reports import runtimes
from gaqueens.runtime.store import FILE, Store, Unreadable
from gaqueens.runtime.executors import Workers

MARKER = "gaqueens-export.txt"
FUNCTION_ID = 1  # each export holds one problem, its function 1
FORMAT_VERSION = "0.3.5"  # the IOHexperimenter release whose analyzer format this follows


def function_name(problem: str) -> str:
    """The problem's name as IOH's files give it, its title's letters and digits: NQueens."""
    solved_by = problems.get(problem)
    return "".join(c for c in solved_by.title if c.isalnum()) or solved_by.name


def json_name(problem: str) -> str:
    return f"IOHprofiler_f{FUNCTION_ID}_{function_name(problem)}.json"


def data_folder(problem: str) -> str:
    return f"data_f{FUNCTION_ID}_{function_name(problem)}"
HEADER = "evaluations raw_y"
PARALLEL_FROM = 20_000  # runs from which the algorithms are written by two processes at once


class Refused(BadInput):
    """Bad input: what the folder or OUT is not."""


def run_lines(trace: np.ndarray, final: int, conflicts=None) -> list[tuple[int, int]]:
    """One run's (evaluations, best so far) lines from its trace (a row per generation with
    gaqueens.core.result.TRACE_COLUMNS) and its own best ``conflicts`` (runtimes.best_so_far):
    evaluation 1 with the first population's worst, each improvement, and the final
    evaluation count."""
    evaluations, worst = trace[:, 1], trace[0, 4]
    so_far = runtimes.best_so_far(trace[:, 2], conflicts)
    # a generation makes a line where its best so far is below every line before it: below
    # the first population's worst and below every earlier generation's best so far
    before = np.minimum.accumulate(np.concatenate(([int(worst)], so_far[:-1])))
    improved = np.flatnonzero(so_far < before)
    lines = [(1, int(worst))] + list(zip(evaluations[improved].astype(np.int64).tolist(),
                                         so_far[improved].astype(np.int64).tolist()))
    if lines[-1][0] != final:
        lines.append((final, lines[-1][1]))
    return lines


def _best(lines, row) -> dict:
    """The run's best point: its value (the run's own best, in its fitness measure), the
    evaluations that first reached it, and its placement."""
    value = lines[-1][1]
    reached = next(count for count, best in lines if best == value)
    columns = list(map(int, row.solution.split()))
    return {"evals": reached, "y": value, "x": columns}


def _verify(row, problem: str | None) -> None:
    """Refuses the export of a run the verifier rejects (``problem``, claims.row_problem's)."""
    if problem:
        raise Rejected(f"the verifier rejects {row.algorithm} on board {row.board}, seed "
                       f"{row.seed}: {problem}; nothing was written")


def write_algorithm(folder: Path, name: str, settings: dict, runs, traces: dict) -> int:
    """Writes one algorithm's JSON and .dat files into ``folder``; returns its run count."""
    scenarios = []
    rule = stored_claims(name, settings)
    function, data = function_name(rule.problem), data_folder(rule.problem)
    found = dict(zip(zip(runs["board"], runs["seed"]), each_row_problem(runs, {name: rule})))
    for board, rows in runs.groupby("board", sort=True):
        path = f"{data}/IOHprofiler_f{FUNCTION_ID}_DIM{board}.dat"
        blocks, entries = [], []
        for row in rows.sort_values("seed").itertuples(index=False):
            _verify(row, found[board, row.seed])
            lines = run_lines(traces[(name, board, row.seed)], int(row.work),
                              own_best(row.conflicts, row.solution, rule.fitness, rule.problem))
            blocks.append("\n".join([HEADER] + [f"{e} {v}" for e, v in lines]))
            entries.append({"instance": 1, "evals": int(row.work),
                            "best": _best(lines, row),
                            "seed": int(row.seed)})
        (folder / data).mkdir(parents=True, exist_ok=True)
        write_text(folder / path, "\n".join(blocks) + "\n")
        scenarios.append({"dimension": int(board), "path": path, "runs": entries})
    meta = {
        "version": FORMAT_VERSION, "suite": "gaqueens", "function_id": FUNCTION_ID,
        "function_name": function, "maximization": False,
        "algorithm": {"name": name, "info": json.dumps(settings, sort_keys=True)},
        "attributes": ["evaluations", "raw_y"], "run_attributes": ["seed"],
        "scenarios": scenarios,
    }
    write_text(folder / json_name(rule.problem), json.dumps(meta) + "\n")
    return len(runs)


def _write_stored(source: Path, folder: Path, name: str, settings: dict, runs, keys) -> int:
    """write_algorithm with the algorithm's traces read from the store at ``source``, opened
    here (in a worker of its own): an algorithm's traces at a time, as those of a large sweep
    fill gigabytes."""
    with Store(source) as store:
        return write_algorithm(folder, name, settings, runs, store.trace_arrays(keys, name))


def export(source: Path, out: Path, say=print) -> dict[str, int]:
    """Writes the IOH export of ``source`` into ``out``; returns the runs per algorithm."""
    _check(source, out)
    try:
        with Store(source) as store:
            runs, settings = store.runs(), store.settings()
            record = manifest.read(source)
            if record is not None:  # only the experiment's own entries
                runs = runs[runs["algorithm"].isin(record["settings"]["algorithms"])]
            traced = runs[(runs["unit"] == "evaluations")]
            keys = set(zip(traced["algorithm"], traced["board"], traced["seed"]))
            with_trace = set(store.db.execute(
                "SELECT algorithm, board, seed FROM runs WHERE trace IS NOT NULL"))
            names = list(dict.fromkeys(runs["algorithm"]))
            left = [n for n in names if not all(k in keys and k in with_trace
                                                for k in _keys(runs, n))]
            exported = [n for n in names if n not in left]
            if not exported:
                raise Refused(f"{source}: no stored GA runs with traces to export "
                              "(IOHanalyzer compares evaluations)")
            partial = out.with_name(out.name + ".partial")
            try:
                shutil.rmtree(partial, ignore_errors=True)
                partial.mkdir(parents=True)
                tasks = [(source, partial / name, name, settings.get(name, {}),
                          runs[runs["algorithm"] == name], keys) for name in exported]
                with Workers(2 if len(runs) >= PARALLEL_FROM and len(tasks) > 1 else 1) as pool:
                    counts = dict(zip(exported, pool.later(_write_stored, tasks)()))
                write_text(partial / MARKER, _describe(source, counts, left, runs))
                _replace(out, partial)
            finally:
                shutil.rmtree(partial, ignore_errors=True)
    except Unreadable as error:
        raise Refused(str(error)) from None
    if left:
        units = ", ".join(f"{n} ({runs.loc[runs['algorithm'] == n, 'unit'].iloc[0]})" for n in left)
        say(f"left out: {units}: IOHanalyzer compares evaluations, and these runs have no traces")
    return counts


def _keys(runs, name):
    rows = runs[runs["algorithm"] == name]
    return list(zip(rows["algorithm"], rows["board"], rows["seed"]))


def _check(source: Path, out: Path) -> None:
    if source.is_file():
        raise Refused(f"{source}: is a file, expected an output folder of a sweep")
    if not source.is_dir():
        raise Refused(f"{source}: no such folder")
    if not (source / FILE).exists():
        raise Refused(f"{source}: not an output folder with stored runs (no {FILE}; the store "
                      "is not kept in the repository: run the sweep into it first)")
    if out.exists() and not (out.is_dir() and ((out / MARKER).exists() or not any(out.iterdir()))):
        raise Refused(f"--out {out}: exists and is not an earlier export ({MARKER} missing); "
                      "choose another folder")


def _replace(out: Path, partial: Path) -> None:
    """Moves the export built in ``partial`` to ``out``, in place of an earlier one (the
    module's docstring)."""
    old = out.with_name(out.name + ".old")
    with signals.held():
        if out.exists():
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
        partial.rename(out)
        shutil.rmtree(old, ignore_errors=True)


def _describe(source: Path, counts: dict, left: list, runs) -> str:
    lines = [f"IOHexperimenter analyzer format (version {FORMAT_VERSION}), written by "
             f"python -m gaqueens.export from {source}/{FILE}: {manifest.exporter()}.",
             f"Runs: {manifest.describe(manifest.read(source))}."]
    lines += [f"{name}: {count} runs" for name, count in counts.items()]
    lines += [f"left out: {name} (counts {runs.loc[runs['algorithm'] == name, 'unit'].iloc[0]})"
              for name in left]
    return "\n".join(lines) + "\n"
