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
independent verifier, with its entry's target and fitness (gaqueens/runtime/claims.py).

To open it: zip OUT (or an algorithm's folder) and upload it at IOHanalyzer's "Upload Data"
page, or in Python: iohinspector.DataManager().add_folder(OUT).

OUT is built beside its final name and renamed into place; an existing OUT is replaced only if
it is an earlier export (it holds gaqueens-export.txt). Exit status (gaqueens/cli.py): 0 done;
1 a stored run fails the verifier; 2 bad input (no such folder, not an output folder, OUT not an
export); 3 an unexpected error, in one line with the traceback in a temporary error.log; 130
interrupted (Ctrl-C or SIGTERM: OUT is as it was, or the whole new export; no partial one is
left).
"""

from __future__ import annotations

import sys
from pathlib import Path

from gaqueens import cli
from gaqueens.cli import Parser
from gaqueens.reports.ioh import export


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

    def body() -> None:
        counts = export(source, out, say=lambda text: print(text, file=sys.stderr))
        print(f"wrote {out}: " + ", ".join(f"{name} {count} runs" for name, count in counts.items()))

    return cli.run(body, interrupted="interrupted: no partial export is left",
                   after_fault=lambda error: "nothing was written")


if __name__ == "__main__":
    cli.command(main)
