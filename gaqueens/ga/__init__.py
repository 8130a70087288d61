"""The GA: its settings, its operators, a run's random numbers, and its engines, registered as
the algorithm "ga" (gaqueens.core.algorithms).

    settings.py      GaSettings, the published settings by default
    operators.py     selections, crossovers and mutations, each one DEAP-style function,
                     registered under the names experiment files give them; what a plug-in
                     operator returns, checked
    randomness.py    every random number of a run, from its seed alone
    numpy_engine.py  engine: numpy, many seeds advanced together (a one-seed run is a batch
                     of one)
    generation.py    its generation of every run of a batch, and the compiled generation a
                     problem may offer for the published family
    variation.py     the operators applied to a batch's arrays
    deap_engine.py   engine: deap, the run made of DEAP's own objects and algorithms
    deap_types.py    DEAP's creator types, made once
"""

import time
from dataclasses import replace

from gaqueens.core.algorithms import ALGORITHMS, Algorithm
from gaqueens.core.result import Result
from gaqueens.ga import deap_engine, generation, numpy_engine
from gaqueens.ga.settings import ENGINES, SCHEMES, TIES, UNIT, VARIATIONS, GaSettings

__all__ = ["ENGINES", "GaSettings", "SCHEMES", "TIES", "UNIT", "VARIATIONS", "replay",
           "replay_many", "run", "run_many"]


def run(settings: GaSettings, board: int, seed: int) -> Result:
    """One run of the GA on a board of its problem, on the settings' engine; its result depends
    on the settings and the seed alone. On engine: numpy, a batch of one."""
    return run_many(settings, board, [seed])[0]


def replay(settings: GaSettings, board: int, seed: int, observe) -> Result:
    """The run ``run`` gives for this seed, made again while ``observe(generation,
    evaluations, best, best_fitness, median_fitness)`` sees, after each generation from
    generation 0, the best placement found so far (a copy to keep), its fitness and the
    population's median fitness: what a player or a trace of the run records."""
    return replay_many(settings, board, [seed], [observe])[0]


def replay_many(settings: GaSettings, board: int, seeds, observers) -> list[Result]:
    """``replay`` of each seed, ``observers`` holding a callable per seed: advanced together on
    engine: numpy, as ``run_many`` does."""
    seeds, observers = list(seeds), list(observers)
    if settings.engine == "numpy":
        return numpy_engine.run_many(settings, board, seeds, observers)
    return [deap_engine.run(settings, board, seed, observe)
            for seed, observe in zip(seeds, observers, strict=True)]


def run_many(settings: GaSettings, board: int, seeds, compiled: bool = False) -> list[Result]:
    """The runs of several seeds, each the run ``run`` gives for its seed: on engine: numpy
    advanced together in one array, each result's ``seconds`` its share of the batch's
    processor time; on engine: deap one after the other. ``compiled``: the published
    family's generations in the problem's compiled generation, the same runs."""
    seeds = list(seeds)
    if settings.engine == "numpy":
        return numpy_engine.run_many(settings, board, seeds, compiled=compiled)
    results = []
    for seed in seeds:
        start = time.thread_time()
        result = deap_engine.run(settings, board, seed)
        results.append(replace(result, seconds=time.thread_time() - start))
    return results


def together(settings: GaSettings, board: int) -> bool:
    """Whether a batch's runs advance together in one array: engine: numpy's."""
    return settings.engine == "numpy"


WARM_GENERATIONS = 10  # at most this many generations in the untimed run before a batch


def warm(settings: GaSettings) -> None:
    """An untimed run of these settings on board 8, seed 0, capped at WARM_GENERATIONS
    generations: what a process pays once for them (gaqueens.runtime.execution.warm)."""
    run_many(replace(settings, generations=min(settings.generations, WARM_GENERATIONS)), 8, [0])


# bytes of a run's peak beyond the loaded process (python -m gaqueens.bench.memory checks
# them): per queen of the population (published family), of the population and children
# (any other), per generation of the trace, and fixed
MEMORY_BATCHED, MEMORY_GENOME, MEMORY_GENERATION, MEMORY_FIXED = 240, 120, 64, 2**19


def memory(settings: GaSettings, board: int, runs: int = 1) -> int:
    """The bytes ``runs`` runs on this board need beyond the loaded process: advanced
    together on engine: numpy, one at a time on engine: deap."""
    if generation.family(settings, board):
        per_run = MEMORY_BATCHED * settings.population * board
    else:
        per_run = MEMORY_GENOME * (settings.population + settings.children) * board
    runs = runs if together(settings, board) else 1
    return MEMORY_FIXED + runs * (per_run + MEMORY_GENERATION * settings.generations)


def compiles(settings: GaSettings, board: int) -> bool:
    """Whether ``run_many(..., compiled=True)`` runs these settings' generations compiled: the
    published family on a problem with a compiled generation (gaqueens.ga.generation)."""
    from gaqueens import problems

    return (generation.family(settings, board)
            and hasattr(problems.get(settings.problem), "ga_compiled"))


ALGORITHMS.register("ga", Algorithm(run, GaSettings, UNIT, run_many=run_many,
                                    together=together, compiles=compiles, warm=warm,
                                    problems=None, memory=memory),
                    place="gaqueens.ga.run")
