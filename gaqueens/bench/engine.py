"""Section (a): the engines' cost per evaluation, side by side in one process."""

from __future__ import annotations

import time

from gaqueens.bench.common import (
    DEAP, INSTALL, NUMPY, Plan, Report, _published, _seeds, _spread, _times, genoxide_run,
)
from gaqueens.board import Conflicts


def engine_cost(plan: Plan, report: Report, gx) -> None:
    """Microseconds per evaluation of each engine over the same seeds, alternating engines."""
    from gaqueens import ga
    from gaqueens.ga import GaSettings

    board, fitness, published = plan.engine_board, Conflicts(plan.engine_board), _published()
    on_deap = GaSettings(engine="deap")
    engines = {NUMPY: (plan.engine_seeds, lambda seed: ga.run(published, board, seed).evaluations)}
    if gx is not None:
        engines["genoxide"] = (plan.engine_seeds,
                               lambda seed: genoxide_run(gx, board, seed, fitness).evaluations)
    engines[DEAP] = (plan.deap_seeds, lambda seed: ga.run(on_deap, board, seed).evaluations)
    names = list(engines)
    cost = {name: [] for name in names}
    for repetition in range(plan.repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            seeds, one = engines[name]
            start = time.perf_counter()
            evaluations = sum(one(seed) for seed in seeds)
            seconds = time.perf_counter() - start
            cost[name].append(seconds / evaluations * 1e6)
            report.row(section="engine", engine=name, board=board, seeds=_seeds(seeds),
                       repetition=repetition, seconds=seconds, evaluations=evaluations)
    report.say(f"### (a) Engine cost per evaluation: board {board}, one process, "
               f"{_times(plan.repeats)}, engines alternating")
    report.say()
    for name in names:
        report.say(f"- {name} (seeds {_seeds(engines[name][0])}): {_spread(cost[name])} µs per "
                   "evaluation")
    ratios = [(NUMPY, "genoxide"), (DEAP, "genoxide"), (DEAP, NUMPY)]
    for slow, fast in ratios:
        if slow in cost and fast in cost:
            per_repetition = [s / f for s, f in zip(cost[slow], cost[fast])]
            report.say(f"- ratio {slow} / {fast}: {_spread(per_repetition)}")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    report.say()
