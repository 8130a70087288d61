"""Section (a): the engines' cost per evaluation on every board of the table, side by side in
one process, beside issue 17's goals: engine: numpy (ga.run_many) at most 0.4x genoxide's on
every board, and the engine's ratio to the GA's C twin (gaqueens/bench/c/ga.c; stretch: within
2.5x on 128), judged on its compiled generation (ga.run_many(compiled=True)), which the numpy
path is shown beside."""

from __future__ import annotations

import time
from pathlib import Path

from gaqueens.bench import c_twin
from gaqueens.bench.common import (
    DEAP, INSTALL, NUMPY, Plan, Report, genoxide_run, published_settings, seeds_text, spread,
    tested, times_text, verdict,
)
from gaqueens.problems.nqueens.fitness import Conflicts

GOAL = 0.4  # issue 17: engine: numpy at most 0.4x genoxide's time per evaluation, every board
C_STRETCH = (128, 2.5)  # issue 17's stretch: within 2.5x of the C twin on board 128
ALONE = f"{NUMPY}, one seed at a time"  # ga.run, seed after seed: what a single run costs
COMPILED = f"{NUMPY}, compiled"  # ga.run_many(compiled=True): what a large sweep's batches use
C = "C twin"  # gaqueens/bench/c/ga.c, the same GA in plain C


def _engines(plan: Plan, board: int, gx, binary: Path | None) -> dict:
    """Each engine's seeds and a function running them all, returning their evaluations (and
    for the C twin the seconds it timed itself)."""
    from gaqueens import ga
    from gaqueens.ga import GaSettings

    published, on_deap, fitness = published_settings(), GaSettings(engine="deap"), Conflicts(board)
    ga.run_many(published, 8, [0], compiled=True)  # numba and the kernel loaded, untimed
    engines = {NUMPY: (plan.engine_seeds, lambda seeds: sum(
        r.work for r in ga.run_many(published, board, seeds))),
               COMPILED: (plan.engine_seeds, lambda seeds: sum(
                   r.work for r in ga.run_many(published, board, seeds, compiled=True)))}
    if gx is not None:
        engines["genoxide"] = (plan.engine_seeds, lambda seeds: sum(
            genoxide_run(gx, board, seed, fitness).evaluations for seed in seeds))
    if binary is not None:
        engines[C] = (plan.engine_seeds, lambda seeds: c_twin.runs(binary, published, board, seeds))
    engines[ALONE] = (plan.alone_seeds, lambda seeds: sum(
        ga.run(published, board, seed).work for seed in seeds))
    engines[DEAP] = (plan.deap_seeds, lambda seeds: sum(
        ga.run(on_deap, board, seed).work for seed in seeds))
    return engines


def _ratios(by_engine: dict, ours: str, theirs: str) -> list[float]:
    """Each repetition's (or pair's) ratio of two engines' costs."""
    return [a / b for a, b in zip(by_engine[ours], by_engine[theirs])]


def warm_up(seeds):
    """The seeds an engine runs untimed right before each timed call: the first quarter of its
    own (at least one). Timed right after another engine, an engine ran slower per evaluation
    than right after itself, whichever came before (two probes of 20 rotations on board 8:
    engine: numpy 8% and 3% slower, genoxide 5% and 1%); after a quarter of its seeds, no
    slower than after itself within these probes' noise. So every timed call, of the
    repetitions as of the further pairs, starts warm alike."""
    return seeds[:max(1, len(seeds) // 4)]  # a range stays a range (the C twin takes one)


def _timed(engines: dict, name: str, board: int, repetition: int, report: Report) -> float:
    """One engine's microseconds per evaluation on its seeds, after its warm-up (untimed),
    its row written for bench.csv."""
    seeds, run = engines[name]
    run(warm_up(seeds))
    start = time.perf_counter()
    evaluations = run(seeds)
    seconds = time.perf_counter() - start
    if isinstance(evaluations, tuple):  # the C twin timed itself
        evaluations, seconds = evaluations
    report.row(section="engine", engine=name, board=board, seeds=seeds_text(seeds),
               repetition=repetition, seconds=seconds, evaluations=evaluations)
    return seconds / evaluations * 1e6


def kinds(ratios: list[float], repeats: int) -> str:
    """The goal's ratios of the repetitions (with one to three of the rotation's other engines
    between the two) beside those of the further pairs (back to back, after the repetitions),
    and whether the two kinds differ: the two-sided Mann-Whitney test
    (scipy.stats.mannwhitneyu); a p-value of 0.05 or more says these ratios cannot tell them
    apart. The kinds also differ in when they run, so a difference may be either's."""
    from scipy.stats import mannwhitneyu

    first, more = ratios[:repeats], ratios[repeats:]
    p = mannwhitneyu(first, more).pvalue
    return (f"the {repeats} repetitions' ratio {spread(first)}, the {len(more)} further pairs' "
            f"{spread(more)}; Mann-Whitney p = {p:.2g}")


def more_pairs(plan: Plan, engines: dict, by_engine: dict, board: int, report: Report) -> None:
    """The goal's two engines, engine: numpy and genoxide, alternate on after the repetitions,
    in turn first, until they have ``plan.pairs`` pairs or these further pairs have taken
    ``plan.pair_seconds``: a pair takes a few hundredths of a second on board 8 and seconds on
    128, and a median of 25 pairs stands firmer against a shared machine's noise than one of
    5 (sign_test says what the pairs can tell)."""
    start = time.perf_counter()
    repetition = len(by_engine[NUMPY])
    while repetition < plan.pairs and time.perf_counter() - start < plan.pair_seconds:
        for name in (NUMPY, "genoxide")[:: 1 if repetition % 2 else -1]:
            by_engine[name].append(_timed(engines, name, board, repetition, report))
        repetition += 1


def engine_cost(plan: Plan, report: Report, gx, scratch: Path | None = None) -> dict:
    """Microseconds per evaluation of each engine on each board, engines alternating within
    each repetition: engine: numpy runs its seeds together (ga.run_many, as the sweep's
    batches do), genoxide the same seeds one after the other on the same N-Queens Conflicts
    object, the C twin (built in ``scratch`` where a C compiler is found) the same number of
    seeds, timing itself; for context, ga.run one seed at a time and engine: deap on fewer
    seeds; then engine: numpy and genoxide in further pairs (more_pairs). Returns each board's
    microseconds per evaluation, per engine and repetition (or pair). Every timed call follows
    its engine's warm-up (warm_up), untimed."""
    binary, compiler = c_twin.build(scratch) if scratch is not None else (None, "no scratch folder")
    cost: dict[int, dict[str, list[float]]] = {}
    for board in plan.engine_boards:
        engines = _engines(plan, board, gx, binary)
        names = list(engines)
        cost[board] = {name: [] for name in names}
        for repetition in range(plan.repeats):
            shift = repetition % len(names)
            for name in names[shift:] + names[:shift]:
                cost[board][name].append(_timed(engines, name, board, repetition, report))
        if "genoxide" in engines:
            more_pairs(plan, engines, cost[board], board, report)
    boards = ", ".join(map(str, plan.engine_boards))
    report.say(f"### (a) Engine cost per evaluation: boards {boards}, one process, "
               f"{times_text(plan.repeats)}, engines alternating; then {NUMPY} and genoxide "
               f"alternate on, up to {plan.pairs} pairs a board while these further pairs take "
               f"under {plan.pair_seconds:g} s; each timed call right after its engine ran "
               "the first quarter of its seeds, untimed")
    report.say()
    report.say(f"{NUMPY} runs seeds {seeds_text(plan.engine_seeds)} together (ga.run_many), "
               f"{COMPILED} the same with each generation in numba's kernel (compiled=True, as "
               "a large sweep's batches run: gaqueens.runtime.batches), genoxide "
               f"the same seeds one after the other, the {C} (gaqueens/bench/c/ga.c: the same "
               f"operators and settings, its own random numbers) as many seeds in one process, "
               f"timing itself; {ALONE} (ga.run) seeds {seeds_text(plan.alone_seeds)}, {DEAP} "
               f"seeds {seeds_text(plan.deap_seeds)}. Goals (issue 17): {NUMPY} / genoxide at "
               f"most {GOAL} on every board; stretch: the engine / {C} within {C_STRETCH[1]}x "
               f"on {C_STRETCH[0]}, judged on {COMPILED}.")
    report.say(f"- {C}: {compiler}" if binary else f"- {C} skipped: {compiler}")
    report.say()
    board_verdicts = {}
    for board, by_engine in cost.items():
        parts = [f"{name} {spread(values)}" for name, values in by_engine.items()]
        report.say(f"- board {board}, µs per evaluation: " + "; ".join(parts))
        if "genoxide" in by_engine:
            ratios = _ratios(by_engine, NUMPY, "genoxide")
            measured = tested(ratios, GOAL)
            board_verdicts[board] = report.goal(
                f"board {board}: {NUMPY} / genoxide, µs per evaluation", measured,
                f"at most {GOAL}", verdict(ratios, GOAL))
            report.say(f"  - ratio {NUMPY} / genoxide: {measured}; goal at most {GOAL}: "
                       f"{board_verdicts[board]}; {COMPILED} / genoxide: "
                       f"{spread(_ratios(by_engine, COMPILED, 'genoxide'))}")
            if len(ratios) > plan.repeats:
                report.say("  - " + kinds(ratios, plan.repeats))
        if C in by_engine:
            ratios = _ratios(by_engine, COMPILED, C)
            stretch = (f"; stretch goal within {C_STRETCH[1]}x: " + report.goal(
                f"board {board}: {COMPILED} / {C}, µs per evaluation (stretch)", spread(ratios),
                f"within {C_STRETCH[1]}x", verdict(ratios, C_STRETCH[1]))
                if board == C_STRETCH[0] else "")
            report.say(f"  - ratio {NUMPY} / {C}: {spread(_ratios(by_engine, NUMPY, C))}; "
                       f"{COMPILED} / {C}: {spread(ratios)}{stretch}")
    if gx is None:
        report.say(f"- genoxide is not installed: {INSTALL}")
    else:
        missed = [board for board, said in board_verdicts.items() if said == "not met"]
        report.say(f"- goal: {NUMPY} at most {GOAL}x genoxide per evaluation on every board (at the median): "
                   + ("met" if not missed else "not met (boards " + ", ".join(map(str, missed))
                      + ")"))
    report.say()
    return cost
