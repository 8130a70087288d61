"""One run of one algorithm, printed like the published example.

    python -m gaqueens.run --board N [--seed S] [--algorithm NAME] [FILE [--set PATH=VALUE ...]]

NAME is an algorithm's name (built in, or a plug-in's: gaqueens.registry), ga by default; with
FILE, an experiment file, the name of one of its entries (a GA variant's too), run with the
file's settings (the published ones by default).
Prints the conflicts and the work it took, the columns (shortened for big boards), the board
for N up to 20, and the wall time. Exit status (gaqueens/cli.py): 0 done; 1 the verifier
rejects the answer (gaqueens/checks.py); 2 bad input or usage; 3 an unexpected error, in one
line with the traceback in a temporary error.log; 130 interrupted.
"""

from __future__ import annotations

import sys

from gaqueens import cli, registry
from gaqueens.registry import execute
from gaqueens.board import drawing, has_solution
from gaqueens.checks import claims, run_problem
from gaqueens.cli import Parser
from gaqueens.experiment import BOARDS, SEED, BadInput, load

DRAWN_UP_TO = 20
LISTED_UP_TO = 64


def columns_text(solution) -> str:
    """The columns as a list, the middle left out past LISTED_UP_TO entries."""
    columns = [int(c) for c in solution]
    if len(columns) <= LISTED_UP_TO:
        return str(columns)
    shown = ", ".join(map(str, columns[:8])) + ", ..., " + ", ".join(map(str, columns[-3:]))
    return f"[{shown}] ({len(columns):,} columns)"


def report(algorithm: str, unit: str, result, seconds: float) -> str:
    """The lines `gaqueens.run` prints for a result of ``algorithm``, whose work is in ``unit``."""
    if unit == "evaluations":
        work = f"after {result.generations} generations and {result.evaluations} evaluations"
    elif unit == "none":
        work = "with no search"
    else:
        work = f"after {result.evaluations} {unit}"
    lines = [f"{result.conflicts} conflicts {work}", f"columns {columns_text(result.solution)}"]
    if len(result.solution) <= DRAWN_UP_TO:
        lines.append(drawing(result.solution))
    lines.append(f"{algorithm}, {seconds:.3f} s")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.run", description="One run of one algorithm.")
    parser.add_argument("file", nargs="?", help="an experiment file for the settings (optional)")
    parser.add_argument("--board", type=int, required=True, help="the board size N")
    parser.add_argument("--seed", type=int, default=1, help="the seed (default 1)")
    parser.add_argument("--algorithm", default="ga",
                        help="the algorithm, or with FILE one of its entries (default: ga)")
    parser.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                        help="with FILE: change its setting at PATH (VALUE is YAML); repeatable")
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return cli.INTERRUPTED
    except Exception as error:
        return cli.fault(f"unexpected {type(error).__name__}: {error}", error)


def _run(args) -> int:
    try:
        if not BOARDS.accepts(args.board):
            raise BadInput(f"--board must be {BOARDS.expected}, got {args.board}")
        if not SEED.accepts(args.seed):
            raise BadInput(f"--seed must be {SEED.expected}, got {args.seed}")
        if args.set and not args.file:
            raise BadInput("--set changes an experiment file's settings: give the FILE too")
        if args.file:
            experiment = load(args.file, overrides=args.set)
            names = [entry.name for entry in experiment.entries]
            if args.algorithm not in names:
                raise BadInput(f"{args.file}: has no settings for {args.algorithm} "
                               f"(it runs {', '.join(names)})")
            entry = experiment.entry(args.algorithm)
            algorithm, settings = entry.runner, entry.settings
        else:
            try:
                algorithm = registry.algorithm(args.algorithm)
            except registry.Unknown as error:
                raise BadInput(f"--algorithm {args.algorithm} {error}") from None
            settings = algorithm.settings()
        if not has_solution(args.board) and getattr(settings, "target", 0) == 0:
            raise BadInput(f"--board {args.board} has no solution (boards 2 and 3 have none)")
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return cli.BAD_INPUT
    result = execute(algorithm, settings, args.board, args.seed)
    print(report(args.algorithm, algorithm.unit, result, result.seconds))
    problem = run_problem(claims(algorithm, settings), result.solution, args.board,
                          result.conflicts, result.solved)
    if problem:
        print(f"error: the verifier rejects the answer: {problem}", file=sys.stderr)
        return cli.REJECTED
    return cli.DONE


if __name__ == "__main__":
    sys.exit(main())
