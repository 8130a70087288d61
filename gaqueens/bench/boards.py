"""Section (d): per board, the median wall time of one run of the local search, of the GA on
engine: numpy, and of the GA on engine: deap (DEAP's own objects, the naive approach), and how
many times the local search is faster."""

from __future__ import annotations

import statistics
import time

from gaqueens.bench.common import Plan, Report


def per_board(plan: Plan, report: Report) -> None:
    """A table row per board: each solver's median milliseconds and their ratios."""
    import gaqueens.baselines  # noqa: F401  (registers the local search)
    from gaqueens import ga
    from gaqueens.core.algorithms import ALGORITHMS
    from gaqueens.ga import GaSettings
    from gaqueens.runtime.execution import execute

    local = ALGORITHMS["local-search"]
    runners = {"local-search": lambda board, seed: execute(local, local.settings(), board, seed),
               "engine: numpy": lambda board, seed: ga.run(GaSettings(), board, seed),
               "engine: deap": lambda board, seed: ga.run(GaSettings(engine="deap"), board, seed)}
    for run in runners.values():
        run(8, 0)  # numba, the kernels and DEAP's classes loaded, untimed
    names = list(runners)
    ratios = [(names[1], names[0]), (names[2], names[0]), (names[2], names[1])]
    report.say(f"### (d) Per board: median wall time of one run, seeds {plan.board_seeds[0]}.."
               f"{plan.board_seeds[-1]}, the solvers in turn first")
    report.say()
    report.say("| board | " + " | ".join(names) + " | "
               + " | ".join(f"{slow} / {fast}" for slow, fast in ratios) + " |")
    report.say("|---" * (1 + len(names) + len(ratios)) + "|")
    for board in plan.boards:
        seconds = {name: [] for name in names}
        for turn, seed in enumerate(plan.board_seeds):
            for name in names[turn % 3:] + names[:turn % 3]:
                start = time.perf_counter()
                result = runners[name](board, seed)
                seconds[name].append(time.perf_counter() - start)
                report.row(section="per-board", engine=name, board=board, seeds=seed,
                           repetition=0, seconds=seconds[name][-1], evaluations=result.work)
        median = {name: statistics.median(values) for name, values in seconds.items()}
        cells = [f"{median[name] * 1e3:.3g} ms" for name in names]
        cells += [f"{median[slow] / median[fast]:.3g}" for slow, fast in ratios]
        report.say(f"| {board} | " + " | ".join(cells) + " |")
    report.say()
