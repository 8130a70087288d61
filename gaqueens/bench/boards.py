"""Section (d): per board, one run of the local search and of the GA on each engine."""

from __future__ import annotations

import statistics
import time

from gaqueens.bench.common import DEAP, NUMPY, Plan, Report, published_settings, seeds_text


def per_board(plan: Plan, report: Report) -> None:
    """Median wall time of one run per board, and how many times the local search is faster."""
    import gaqueens.baselines  # noqa: F401  (registers the local search)
    from gaqueens import ga
    from gaqueens.ga import GaSettings
    from gaqueens.core.algorithms import ALGORITHMS
    from gaqueens.runtime.execution import execute

    published = published_settings()
    local_search = ALGORITHMS["local-search"].settings()
    runners = {
        "local-search": lambda board, seed: execute(ALGORITHMS["local-search"], local_search, board,
                                                    seed),
        NUMPY: lambda board, seed: ga.run(published, board, seed),
        DEAP: lambda board, seed: ga.run(GaSettings(engine="deap"), board, seed),
    }
    names = list(runners)
    report.say(f"### (d) Per board: median wall time of one run, seeds {seeds_text(plan.board_seeds)}")
    report.say()
    ratios = [(NUMPY, "local-search"), (DEAP, "local-search"), (DEAP, NUMPY)]
    report.say("| board | " + " | ".join(names) + " | "
               + " | ".join(f"{slow} / {fast}" for slow, fast in ratios) + " |")
    report.say("|---" * (1 + len(names) + len(ratios)) + "|")
    for board in plan.boards:
        seconds = {name: [] for name in names}
        for i, seed in enumerate(plan.board_seeds):
            for name in names[i % len(names):] + names[:i % len(names)]:
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
