"""Section (a): the GA engine's cost per evaluation on every board of the table, side by side in
this one process, beside issue 17's goals: engine: numpy (ga.run_many, the seeds advanced
together as the sweep's batches run) at most 0.4x genoxide's on every board, and its compiled
generation (ga.run_many(compiled=True), as a large sweep's batches run) within 2.5x of the GA's
C twin on board 128 (the stretch goal)."""

from __future__ import annotations

import time
from pathlib import Path

from gaqueens.bench import c_twin
from gaqueens.bench.common import INSTALL, Plan, Report, published, repetitions, spread
from gaqueens.bench.genoxide_runs import run as genoxide_run

NUMPY, COMPILED, C = "engine: numpy", "engine: numpy, compiled", "C twin"
GOAL = 0.4  # issue 17: engine: numpy at most 0.4x genoxide's time per evaluation, every board
STRETCH = (128, 2.5)  # issue 17's stretch: compiled within 2.5x of the C twin on board 128


def engines(board: int, gx, binary: Path | None) -> dict:
    """Each engine's function running seeds on ``board``: their evaluations, or for the C
    twin its evaluations and the seconds it timed itself."""
    from gaqueens import ga
    from gaqueens.ga import GaSettings
    from gaqueens.problems.nqueens.fitness import Conflicts

    settings, fitness = GaSettings(), Conflicts(board)
    ga.run_many(settings, 8, [0], compiled=True)  # numba and the kernel loaded, untimed
    chosen = {NUMPY: lambda seeds: sum(r.work for r in ga.run_many(settings, board, seeds)),
              COMPILED: lambda seeds: sum(
                  r.work for r in ga.run_many(settings, board, seeds, compiled=True))}
    if gx is not None:
        chosen["genoxide"] = lambda seeds: sum(
            genoxide_run(gx, fitness, board, seed, *published()).evaluations for seed in seeds)
    if binary is not None:
        chosen[C] = lambda seeds: c_twin.ga_runs(binary, settings, board, seeds)
    return chosen


def warm_up(seeds):
    """The seeds an engine runs untimed right before each timed call: the first quarter of its
    own (at least one). Timed right after another engine, an engine ran slower per evaluation
    than right after itself, whichever came before; after a quarter of its seeds, it runs as
    warm as after itself."""
    return seeds[:max(1, len(seeds) // 4)]  # a range stays a range (the C twin takes one)


def per_evaluation(run, seeds, report: Report, **row) -> float:
    """Microseconds per evaluation of one call on ``seeds``, after its warm-up (untimed); its
    row written for bench.csv."""
    run(warm_up(seeds))
    start = time.perf_counter()
    evaluations = run(seeds)
    seconds = time.perf_counter() - start
    if isinstance(evaluations, tuple):  # the C twin timed itself
        evaluations, seconds = evaluations
    report.row(section="engine", seeds=f"{seeds[0]}..{seeds[-1]}", seconds=seconds,
               evaluations=evaluations, **row)
    return seconds / evaluations * 1e6


def engine_cost(plan: Plan, report: Report, gx, scratch: Path) -> None:
    """Each engine's microseconds per evaluation on each board, ``plan.repeats`` times, the
    engines' order turning a step each repetition; the goals' ratios pair by pair."""
    binary, compiler = c_twin.build("ga", scratch)
    report.say(f"### (a) Engine cost per evaluation: boards "
               f"{', '.join(map(str, plan.engine_boards))}, seeds {plan.engine_seeds[0]}.."
               f"{plan.engine_seeds[-1]}, {repetitions(plan.repeats)} in this process")
    report.say()
    report.say(f"Each repetition runs every engine on every seed, in an order that turns a step "
               f"each time, each timed call right after its engine ran the first quarter of its "
               f"seeds, untimed. {NUMPY} advances the seeds together (ga.run_many), {COMPILED} "
               f"the same with each generation in numba's kernel (compiled=True, as a large "
               f"sweep's batches run), genoxide runs them one after the other on the same "
               f"N-Queens fitness, the {C} (gaqueens/bench/c/ga.c: the same operators and "
               f"settings in plain C, its own random numbers) in one process, timing itself. "
               f"Each engine's time is for all its seeds, over its own evaluations.")
    report.say(f"- {C}: {compiler}" if binary else f"- {C} skipped: {compiler}")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    for board in plan.engine_boards:
        chosen = engines(board, gx, binary)
        names = list(chosen)
        cost = {name: [] for name in names}
        for repetition in range(plan.repeats):
            turn = repetition % len(names)
            for name in names[turn:] + names[:turn]:
                cost[name].append(per_evaluation(chosen[name], plan.engine_seeds, report,
                                                 engine=name, board=board,
                                                 repetition=repetition))
        report.say(f"- board {board}, µs per evaluation: "
                   + "; ".join(f"{name} {spread(values)}" for name, values in cost.items()))
        if "genoxide" in cost:
            ratios = [a / b for a, b in zip(cost[NUMPY], cost["genoxide"])]
            report.say("  - " + report.goal(f"board {board}: {NUMPY} / genoxide, µs per "
                                            "evaluation", ratios, GOAL))
        if C in cost and board == STRETCH[0]:
            ratios = [a / b for a, b in zip(cost[COMPILED], cost[C])]
            report.say("  - " + report.goal(f"board {board}: {COMPILED} / {C}, µs per "
                                            "evaluation (stretch)", ratios, STRETCH[1]))
    report.say()
