"""The GA: its settings, its operators, a run's random numbers, and its engines, registered as
the algorithm "ga" (gaqueens.core.algorithms).

    settings.py      GaSettings, the published settings by default
    operators.py     selections, crossovers and mutations, each one DEAP-style function,
                     registered under the names experiment files give them
    rows.py          the operators applied to engine: numpy's arrays of genomes
    randomness.py    a run's own generators, from its seed alone
    batched.py       engine: numpy for the published family, many seeds advanced together (a
                     one-seed run is a batch of one)
    draws.py         the batched runs' random numbers, each seed's own
    bounded.py       numpy's bounded integers made for many generators at once, and
    bounded_kernel.py  their numbers in numba's one pass, for the compiled generation
    seeding.py       the seeds' generators, seeded together
    history.py       the batched runs' traces
    general.py       engine: numpy for every other setting, one seed at a time
    deap_engine.py   engine: deap, the run made of DEAP's own objects and algorithms
    deap_types.py    DEAP's creator types, made once
"""

import time
from dataclasses import replace

from gaqueens.core.algorithms import ALGORITHMS, Algorithm
from gaqueens.core.result import Result
from gaqueens.ga import batched, deap_engine, general
from gaqueens.ga.settings import ENGINES, SCHEMES, TIES, UNIT, VARIATIONS, GaSettings

__all__ = ["ENGINES", "GaSettings", "SCHEMES", "TIES", "UNIT", "VARIATIONS", "replay",
           "replay_many", "run", "run_many"]


def run(settings: GaSettings, board: int, seed: int) -> Result:
    """One run of the GA on a board of its problem, on the settings' engine; its result depends
    on the settings and the seed alone. A run of the batched family is a batch of one."""
    if batched.covers(settings, board):
        return batched.run_many(settings, board, [seed])[0]
    engine = deap_engine if settings.engine == "deap" else general
    return engine.run(settings, board, seed)


def replay(settings: GaSettings, board: int, seed: int, observe) -> Result:
    """The run ``run`` gives for this seed, made again while ``observe(generation,
    evaluations, best, best_fitness, median_fitness)`` sees, after each generation from
    generation 0, the best placement found so far (a copy to keep), its fitness and the
    population's median fitness: what a player or a trace of the run records."""
    return replay_many(settings, board, [seed], [observe])[0]


def replay_many(settings: GaSettings, board: int, seeds, observers) -> list[Result]:
    """``replay`` of each seed, ``observers`` holding a callable per seed: advanced together
    when the settings are of the batched family, as ``run_many`` does."""
    seeds, observers = list(seeds), list(observers)
    if batched.covers(settings, board):
        return batched.run_many(settings, board, seeds, observers)
    engine = deap_engine if settings.engine == "deap" else general
    return [engine.run(settings, board, seed, observe)
            for seed, observe in zip(seeds, observers, strict=True)]


def run_many(settings: GaSettings, board: int, seeds, compiled: bool = False) -> list[Result]:
    """The runs of several seeds on an n x n board, each the run ``run`` gives for its seed:
    advanced together in one array when the settings are of the batched family
    (gaqueens.ga.batched: the published settings and their neighbours), else one after the
    other. Each result's ``seconds`` is its share of the batch's processor time (batched.py
    says how it is shared), or its own run's processor time (time.thread_time).
    ``compiled``: the batched family's generations in the problem's compiled kernel (N-Queens:
    gaqueens.problems.nqueens.generation_kernel), the same runs at less cost once numba is
    loaded (gaqueens.runtime.batches says when a sweep asks for it)."""
    seeds = list(seeds)
    if batched.covers(settings, board):
        return batched.run_many(settings, board, seeds, compiled=compiled)
    results = []
    for seed in seeds:
        start = time.thread_time()
        result = run(settings, board, seed)
        results.append(replace(result, seconds=time.thread_time() - start))
    return results


WARM_GENERATIONS = 10  # at most this many generations in the untimed run before a batch


def warm(settings: GaSettings) -> None:
    """An untimed run of these settings on board 8, seed 0, capped at WARM_GENERATIONS
    generations: what a process pays once for them (gaqueens.runtime.execution.warm)."""
    run_many(replace(settings, generations=min(settings.generations, WARM_GENERATIONS)), 8, [0])


# bytes of a run's peak beyond the loaded process, per queen of each genome: measured by
# python -m gaqueens.bench.memory (5 generations), 3.4, 35.4 and 376.7 MB on 10^3, 10^4 and
# 10^5 queens for one run of the published settings (stated 5.3, 48.5 and 480.5 MB), about 188
# bytes per queen of the population's genomes in the batched engine, where setting up the
# first population (in int64) is the peak; about 65 per queen of the population and the
# children on the deap engine (tests/test_bench_solvers.py checks both, and three runs
# advanced together); and each run's trace, per generation. The published settings on a
# million queens: 4.8 GB stated.
MEMORY_BATCHED, MEMORY_GENOME, MEMORY_GENERATION, MEMORY_FIXED = 240, 120, 64, 2**19


def memory(settings: GaSettings, board: int, runs: int = 1) -> int:
    """The bytes ``runs`` runs on this board need beyond the loaded process: advanced together
    (the batched family), MEMORY_BATCHED per queen of each run's population; else (one run
    at a time) MEMORY_GENOME per queen of the population and the children; and each run's
    trace, MEMORY_GENERATION a generation."""
    if batched.covers(settings, board):
        per_run = MEMORY_BATCHED * settings.population * board
    else:
        per_run, runs = MEMORY_GENOME * (settings.population + settings.children) * board, 1
    return MEMORY_FIXED + runs * (per_run + MEMORY_GENERATION * settings.generations)


ALGORITHMS.register("ga", Algorithm(run, GaSettings, UNIT, run_many=run_many,
                                    together=batched.covers, warm=warm, problems=None,
                                    memory=memory),
                    place="gaqueens.ga.run")
