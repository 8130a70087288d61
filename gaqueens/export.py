"""Export an output folder's stored runs for other tools: IOHanalyzer and its Python package
iohinspector read IOHexperimenter's analyzer format.

    python -m gaqueens.export DIR [--format ioh] [--out OUT]

Reads DIR/runs.sqlite (the store a sweep writes; it is not kept in the repository, so run the
sweep first) and writes OUT (default DIR/ioh), in the format of IOHexperimenter's analyzer
logger from version 0.3.3 on (JSON meta-data, two-column raw data):

    OUT/ALGORITHM/IOHprofiler_f1_NQueens.json              a file per problem: per board (its
                                                           "dimension"), the runs' final
                                                           evaluations and best values
    OUT/ALGORITHM/data_f1_NQueens/IOHprofiler_f1_DIMN.dat  per board N: "evaluations raw_y",
                                                           the best-so-far fitness (attacking
                                                           pairs, or the excess measure for an
                                                           algorithm with fitness: excess)
    OUT/gaqueens-export.txt                                what was exported, from where

The problem is function 1, NQueens, minimised (fitness 0 solves it), instance 1; each
seed is a run, in seed order, its seed a run attribute. A run's block in the .dat file starts
at evaluation 1 and has a line at every generation whose best so far improves, and a last line
at its final evaluation count. The GA evaluates a whole population at once, so an improvement
is written at the evaluation count that ends its generation; the first evaluation is written
with the first population's worst, which the first individual cannot exceed. These are the
fixed-target runtimes of gaqueens.reports.runtimes. Only algorithms that count evaluations and
store traces (the GA and its variants) of the experiment that the folder's manifest records are
exported (runs of entries no longer in it are left out); the baselines count other units
(swaps, moves, nodes) and are named as left out. Each exported run is checked again by the
independent verifier, with its entry's target and fitness (gaqueens/checks.py).

To open it: zip OUT (or an algorithm's folder) and upload it at IOHanalyzer's "Upload Data"
page, or in Python: iohinspector.DataManager().add_folder(OUT).

OUT is built beside its final name and renamed into place; an existing OUT is replaced only if
it is an earlier export (it holds gaqueens-export.txt). Exit status (gaqueens/cli.py): 0 done;
1 a stored run fails the verifier; 2 bad input (no such folder, not an output folder, OUT not an
export); 3 an unexpected error, in one line with the traceback in a temporary error.log; 130
interrupted.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np

from gaqueens import manifest
from gaqueens import cli
from gaqueens.checks import own_best, row_problem, stored_claims
from gaqueens.cli import Parser
from gaqueens.files import write_text
from gaqueens.reports import runtimes
from gaqueens.store import FILE, Store, Unreadable

MARKER = "gaqueens-export.txt"
FUNCTION_ID, FUNCTION = 1, "NQueens"
FORMAT_VERSION = "0.3.5"  # the IOHexperimenter release whose analyzer format this follows
JSON_NAME = f"IOHprofiler_f{FUNCTION_ID}_{FUNCTION}.json"
DATA_FOLDER = f"data_f{FUNCTION_ID}_{FUNCTION}"
HEADER = "evaluations raw_y"


class Refused(Exception):
    """Bad input: one line, exit status 2."""


class Rejected(Exception):
    """A stored run fails the verifier: exit status 1."""


def run_lines(trace: np.ndarray, final: int, conflicts=None) -> list[tuple[int, int]]:
    """One run's (evaluations, best so far) lines from its trace (a row per generation with
    gaqueens.result.TRACE_COLUMNS) and its own best ``conflicts`` (runtimes.best_so_far):
    evaluation 1 with the first population's worst, each improvement, and the final
    evaluation count."""
    evaluations, worst = trace[:, 1], trace[0, 4]
    lines = [(1, int(worst))]
    for count, value in zip(evaluations, runtimes.best_so_far(trace[:, 2], conflicts)):
        if value < lines[-1][1]:
            lines.append((int(count), int(value)))
    if lines[-1][0] != final:
        lines.append((final, lines[-1][1]))
    return lines


def _best(lines, row) -> dict:
    """The run's best point: its value (the run's own best, in its fitness measure), the
    evaluations that first reached it, and its placement."""
    value = lines[-1][1]
    reached = next(count for count, best in lines if best == value)
    columns = [int(c) for c in row.solution.split()]
    return {"evals": reached, "y": value, "x": columns}


def _verify(row, rule) -> None:
    problem = row_problem(row, rule)
    if problem:
        raise Rejected(f"the verifier rejects {row.algorithm} on board {row.board}, seed "
                       f"{row.seed}: {problem}")


def write_algorithm(folder: Path, name: str, settings: dict, runs, traces: dict) -> int:
    """Writes one algorithm's JSON and .dat files into ``folder``; returns its run count."""
    scenarios = []
    rule = stored_claims(name, settings)
    for board, rows in runs.groupby("board", sort=True):
        path = f"{DATA_FOLDER}/IOHprofiler_f{FUNCTION_ID}_DIM{board}.dat"
        blocks, entries = [], []
        for row in rows.sort_values("seed").itertuples(index=False):
            _verify(row, rule)
            lines = run_lines(traces[(name, board, row.seed)], int(row.evaluations),
                              own_best(row.conflicts, row.solution, rule.fitness))
            blocks.append("\n".join([HEADER] + [f"{e} {v}" for e, v in lines]))
            entries.append({"instance": 1, "evals": int(row.evaluations),
                            "best": _best(lines, row),
                            "seed": int(row.seed)})
        (folder / DATA_FOLDER).mkdir(parents=True, exist_ok=True)
        write_text(folder / path, "\n".join(blocks) + "\n")
        scenarios.append({"dimension": int(board), "path": path, "runs": entries})
    meta = {
        "version": FORMAT_VERSION, "suite": "gaqueens", "function_id": FUNCTION_ID,
        "function_name": FUNCTION, "maximization": False,
        "algorithm": {"name": name, "info": json.dumps(settings, sort_keys=True)},
        "attributes": ["evaluations", "raw_y"], "run_attributes": ["seed"],
        "scenarios": scenarios,
    }
    write_text(folder / JSON_NAME, json.dumps(meta) + "\n")
    return len(runs)


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
            traces = store.traces(keys)
    except Unreadable as error:
        raise Refused(str(error)) from None
    arrays = {key: rows.drop(columns=["algorithm", "board", "seed"]).to_numpy()
              for key, rows in traces.groupby(["algorithm", "board", "seed"], sort=False)}
    names = list(dict.fromkeys(runs["algorithm"]))
    left = [n for n in names if not all(k in arrays for k in _keys(runs, n))]
    exported = [n for n in names if n not in left]
    if not exported:
        raise Refused(f"{source}: no stored GA runs with traces to export (IOHanalyzer compares "
                      "evaluations)")
    partial = out.with_name(out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    counts = {}
    try:
        for name in exported:
            counts[name] = write_algorithm(partial / name, name, settings.get(name, {}),
                                           runs[runs["algorithm"] == name], arrays)
        write_text(partial / MARKER, _describe(source, counts, left, runs))
        _replace(out, partial)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    if left:
        units = ", ".join(f"{n} ({runs.loc[runs['algorithm'] == n, 'unit'].iloc[0]})" for n in left)
        say(f"left out: {units}: IOHanalyzer compares evaluations, and these runs have no traces")
    return counts


def _keys(runs, name):
    rows = runs[runs["algorithm"] == name]
    return list(zip(rows["algorithm"], rows["board"], rows["seed"]))


def _check(source: Path, out: Path) -> None:
    if not source.is_dir():
        raise Refused(f"{source}: no such folder")
    if not (source / FILE).exists():
        raise Refused(f"{source}: not an output folder with stored runs (no {FILE}; the store "
                      "is not kept in the repository: run the sweep into it first)")
    if out.exists() and not (out.is_dir() and ((out / MARKER).exists() or not any(out.iterdir()))):
        raise Refused(f"--out {out}: exists and is not an earlier export ({MARKER} missing); "
                      "choose another folder")


def _replace(out: Path, partial: Path) -> None:
    if out.exists():
        old = out.with_name(out.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        out.rename(old)
        partial.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        partial.rename(out)


def _describe(source: Path, counts: dict, left: list, runs) -> str:
    lines = [f"IOHexperimenter analyzer format (version {FORMAT_VERSION}), written by "
             f"python -m gaqueens.export from {source}/{FILE}: {manifest.exporter()}.",
             f"Runs: {manifest.describe(manifest.read(source))}."]
    lines += [f"{name}: {count} runs" for name, count in counts.items()]
    lines += [f"left out: {name} (counts {runs.loc[runs['algorithm'] == name, 'unit'].iloc[0]})"
              for name in left]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.export",
                    description="Write an output folder's stored runs in IOHanalyzer's format.")
    parser.add_argument("folder", help="an output folder of a sweep (with runs.sqlite)")
    parser.add_argument("--format", choices=["ioh"], default="ioh",
                        help="ioh: IOHexperimenter's analyzer format (the only one)")
    parser.add_argument("--out", help="where to write (default: FOLDER/ioh)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    source = Path(args.folder)
    out = Path(args.out) if args.out else source / "ioh"
    try:
        counts = export(source, out, say=lambda text: print(text, file=sys.stderr))
    except Refused as error:
        print(f"error: {error}", file=sys.stderr)
        return cli.BAD_INPUT
    except Rejected as error:
        print(f"error: {error}; nothing was written", file=sys.stderr)
        return cli.REJECTED
    except KeyboardInterrupt:
        print("\ninterrupted: nothing was written", file=sys.stderr)
        return cli.INTERRUPTED
    except Exception as error:
        return cli.fault(f"unexpected {type(error).__name__}: {error}; nothing was written", error)
    print(f"wrote {out}: " + ", ".join(f"{name} {count} runs" for name, count in counts.items()))
    return cli.DONE


if __name__ == "__main__":
    sys.exit(main())
