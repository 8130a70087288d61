"""One run of one algorithm, printed like the published example.

    python -m gaqueens.run --board N [--seed S] [--algorithm NAME] [FILE [--set PATH=VALUE ...]]
                           [--trace FILE] [--html FILE]

NAME is an algorithm's name (built in, or a plug-in's), ga by default; with FILE, an
experiment file, the name of one of its entries (a GA variant's too), run with the file's
settings. Prints the conflicts and the work it took, the columns (shortened for big boards),
the board for N up to 20, and the wall time. A GA run on a board of up to TRACED_UP_TO queens
can also be written, made again from its seed (gaqueens.reports.trace): --trace FILE in
genoxide's example trace format 1 (at most 200 frames, the last the run's end), --html FILE
as a standalone page that plays the same frames back beside the run's settings; a FILE that
is a folder, or in a folder that does not exist, is refused before the run. Exit statuses as
every command's (gaqueens/cli.py); 1 when the verifier rejects the answer.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gaqueens import cli
from gaqueens.core import algorithms
from gaqueens.core.registry import Unknown
from gaqueens.runtime import budget
from gaqueens.runtime.execution import execute, need
from gaqueens import problems
from gaqueens.runtime.claims import claims, run_problem
from gaqueens.cli import Parser
from gaqueens.core.errors import Fault, Rejected
from gaqueens.core.files import file_problem, write_text
from gaqueens.experiment import BOARDS, SEED, BadInput, load
from gaqueens.experiment.baseline_keys import board_problem
from gaqueens.experiment.reader import no_solution
from gaqueens.ga import GaSettings

DRAWN_UP_TO = 20
TRACED_UP_TO = 4_096  # a trace holds up to 200 placements of the board
LISTED_UP_TO = 64


def columns_text(solution) -> str:
    """The columns as a list, the middle left out past LISTED_UP_TO entries."""
    if len(solution) <= LISTED_UP_TO:
        return str([int(c) for c in solution])
    ends = [int(c) for c in solution[:8]], [int(c) for c in solution[-3:]]  # not every column
    shown = ", ".join(map(str, ends[0])) + ", ..., " + ", ".join(map(str, ends[1]))
    return f"[{shown}] ({len(solution):,} columns)"


def report(algorithm: str, unit: str, result, seconds: float, problem: str = problems.DEFAULT) -> str:
    """The lines `gaqueens.run` prints for a result of ``algorithm``, whose work is in ``unit``,
    on ``problem``."""
    if unit == "evaluations":
        work = f"after {result.generations} generations and {result.work} evaluations"
    elif unit == "none":
        work = "with no search"
    else:
        work = f"after {result.work} {unit}"
    lines = [f"{result.conflicts} conflicts {work}", f"columns {columns_text(result.solution)}"]
    drawn = problems.get(problem).drawing(result.solution)
    if len(result.solution) <= DRAWN_UP_TO and drawn:
        lines.append(drawn)
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
    parser.add_argument("--memory-budget", metavar="SIZE",
                        help="the memory the run may take, e.g. 4GB (default: the available "
                             "memory)")
    parser.add_argument("--trace", metavar="FILE",
                        help="also write the GA run's trace (genoxide's format 1) to FILE")
    parser.add_argument("--html", metavar="FILE",
                        help="also write a page that plays the GA run back to FILE")
    args = parser.parse_args(argv)
    return cli.run(lambda: _run(args))


def _run(args) -> None:
    if not BOARDS.accepts(args.board):
        raise BadInput(f"--board must be {BOARDS.expected}, got {args.board}")
    if not SEED.accepts(args.seed):
        raise BadInput(f"--seed must be {SEED.expected}, got {args.seed}")
    if args.set and not args.file:
        raise BadInput("--set changes an experiment file's settings: give the FILE too")
    for option, path in (("--trace", args.trace), ("--html", args.html)):
        problem = path and file_problem(path)
        if problem:
            raise BadInput(f"{option} {path}: {problem}")
    if (args.trace or args.html) and args.board > TRACED_UP_TO:
        raise BadInput(f"--trace and --html take boards up to {TRACED_UP_TO:,}, got "
                       f"{args.board:,}")
    if args.file:
        experiment = load(args.file, overrides=args.set)
        names = [entry.name for entry in experiment.entries]
        if args.algorithm not in names:
            raise BadInput(f"{args.file}: has no settings for {args.algorithm} "
                           f"(it runs {', '.join(names)})")
        entry = experiment.entry(args.algorithm)
        algorithm, settings, problem = entry.runner, entry.settings, entry.problem
    else:
        try:
            algorithm = algorithms.find(args.algorithm)
        except Unknown as error:
            raise BadInput(f"--algorithm {args.algorithm} {error}") from None
        settings, problem = algorithm.settings(), problems.DEFAULT
        if not problems.solves(algorithm.problems, problem):
            raise BadInput(f"--algorithm {args.algorithm} solves {', '.join(algorithm.problems)}, "
                           f"not {problems.get(problem).title}: run it from an experiment file "
                           "that names its problem (FILE)")
    if (args.trace or args.html) and not isinstance(settings, GaSettings):
        raise BadInput(f"--trace and --html replay a GA run; {args.algorithm} is not a GA")
    if refused := board_problem(args.algorithm, algorithm, args.board):
        raise BadInput(f"--board {refused}")
    if not problems.get(problem).has_solution(args.board) and getattr(settings, "target", 0) == 0:
        raise BadInput(f"--board {args.board} has no solution "
                       f"({no_solution(problems.get(problem), args.board)})")
    given = None
    if args.memory_budget is not None:
        given = budget.parse_size(args.memory_budget)
        if given is None:
            raise BadInput(f"--memory-budget must be a size such as 4GB or 512MB, got "
                           f"{args.memory_budget!r}")
    limit, how = budget.per_worker(1, given)
    wanted = need(algorithm, settings, args.board)
    if limit is not None and wanted is not None and wanted > limit:
        raise BadInput(f"{args.algorithm} on board {args.board:,} needs about "
                       f"{budget.shown(wanted)} of memory, more than the budget of "
                       f"{budget.shown(limit)} ({how}); run a smaller board, or set "
                       "--memory-budget")
    try:
        result = execute(algorithm, settings, args.board, args.seed)
    except MemoryError:
        raise Fault(f"{args.algorithm} on board {args.board:,}, seed {args.seed} ran out of "
                    "memory (MemoryError): give it more memory, or run a smaller board") from None
    print(report(args.algorithm, algorithm.unit, result, result.seconds, problem))
    wrong = run_problem(claims(algorithm, settings, problem), result.solution, args.board,
                        result.conflicts, result.solved)
    if wrong:
        raise Rejected(f"the verifier rejects the answer: {wrong}")
    if args.trace or args.html:
        _write_replays(args, settings, result)


def _write_replays(args, settings, result) -> None:
    """The --trace and --html files, from the run made again; each must end as ``result``."""
    from gaqueens.reports import page, page_player, trace

    def check(end, frames):
        last = frames[-1]
        if (end.work != result.work or last["evaluations"] != result.work
                or last["state"]["best"] != [int(c) for c in result.solution]):
            raise Fault(f"the run made again for {args.algorithm} on board {args.board}, seed "
                        f"{args.seed} does not end as the run did: it depends on more than its "
                        "settings and seed")

    if args.trace:
        end, frames = trace.frames(settings, args.board, args.seed)
        check(end, frames)
        write_text(Path(args.trace), trace.trace_text(args.board, frames, settings.problem))
        print(f"trace: {args.trace} ({len(frames)} frames)")
    if args.html:
        row = SimpleNamespace(algorithm=args.algorithm, board=args.board, seed=args.seed,
                              work=result.work, solved=result.solved,
                              solution=" ".join(str(int(c)) for c in result.solution))
        item = page_player.replayed(settings, row)
        if not item["matches"]:
            raise Fault(f"the run made again for {args.algorithm} on board {args.board}, seed "
                        f"{args.seed} does not end as the run did")
        page.player_page(Path(args.html), args.algorithm, item, settings, settings.problem)
        print(f"page: {args.html} ({len(item['frames'])} frames)")


if __name__ == "__main__":
    cli.command(main)
