"""Section (a): the engines' cost per evaluation on every board of the table, side by side in
one process, against issue 11's goal (engine: numpy at most 0.5x genoxide's)."""

from __future__ import annotations

import time

from gaqueens.bench.common import (
    DEAP, INSTALL, NUMPY, Plan, Report, published_settings, seeds_text, spread, times_text, genoxide_run,
)
from gaqueens.problems.nqueens.fitness import Conflicts

GOAL = 0.5  # issue 11: engine: numpy at most half genoxide's time per evaluation
ALONE = f"{NUMPY}, one seed at a time"  # ga.run, seed after seed: what a single run costs


def _engines(plan: Plan, board: int, gx) -> dict:
    """Each engine's seeds and a function running them all, returning their evaluations."""
    from gaqueens import ga
    from gaqueens.ga import GaSettings

    published, on_deap, fitness = published_settings(), GaSettings(engine="deap"), Conflicts(board)
    engines = {NUMPY: (plan.engine_seeds, lambda seeds: sum(
        r.work for r in ga.run_many(published, board, seeds)))}
    if gx is not None:
        engines["genoxide"] = (plan.engine_seeds, lambda seeds: sum(
            genoxide_run(gx, board, seed, fitness).evaluations for seed in seeds))
    engines[ALONE] = (plan.alone_seeds, lambda seeds: sum(
        ga.run(published, board, seed).work for seed in seeds))
    engines[DEAP] = (plan.deap_seeds, lambda seeds: sum(
        ga.run(on_deap, board, seed).work for seed in seeds))
    return engines


def engine_cost(plan: Plan, report: Report, gx) -> None:
    """Microseconds per evaluation of each engine on each board, engines alternating within
    each repetition: engine: numpy runs its seeds together (ga.run_many, as the sweep's
    batches do), genoxide the same seeds one after the other on the same the N-Queens Conflicts; for
    context, ga.run one seed at a time and engine: deap on fewer seeds."""
    cost: dict[int, dict[str, list[float]]] = {}
    for board in plan.engine_boards:
        engines = _engines(plan, board, gx)
        names = list(engines)
        cost[board] = {name: [] for name in names}
        for repetition in range(plan.repeats):
            shift = repetition % len(names)
            for name in names[shift:] + names[:shift]:
                seeds, run = engines[name]
                start = time.perf_counter()
                evaluations = run(seeds)
                seconds = time.perf_counter() - start
                cost[board][name].append(seconds / evaluations * 1e6)
                report.row(section="engine", engine=name, board=board, seeds=seeds_text(seeds),
                           repetition=repetition, seconds=seconds, evaluations=evaluations)
    boards = ", ".join(map(str, plan.engine_boards))
    report.say(f"### (a) Engine cost per evaluation: boards {boards}, one process, "
               f"{times_text(plan.repeats)}, engines alternating")
    report.say()
    report.say(f"{NUMPY} runs seeds {seeds_text(plan.engine_seeds)} together (ga.run_many), genoxide "
               f"the same seeds one after the other; {ALONE} (ga.run) seeds "
               f"{seeds_text(plan.alone_seeds)}, {DEAP} seeds {seeds_text(plan.deap_seeds)}. The goal: "
               f"{NUMPY} / genoxide at most {GOAL} on every board.")
    report.say()
    for board, by_engine in cost.items():
        parts = [f"{name} {spread(values)}" for name, values in by_engine.items()]
        report.say(f"- board {board}, µs per evaluation: " + "; ".join(parts))
        if "genoxide" in by_engine:
            ratios = [ours / theirs
                      for ours, theirs in zip(by_engine[NUMPY], by_engine["genoxide"])]
            verdict = "met" if max(ratios) <= GOAL else (
                "met at the median" if sorted(ratios)[len(ratios) // 2] <= GOAL else "not met")
            report.say(f"  - ratio {NUMPY} / genoxide: {spread(ratios)}; goal at most {GOAL}: "
                       f"{verdict}")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    report.say()
