"""The GA: its settings, its operators, a run's random numbers, and two engines.

    settings.py      GaSettings, the published settings by default
    operators.py     selections, crossovers and mutations, by the names experiment files give
    randomness.py    a run's own generators, from its seed alone
    numpy_engine.py  engine: numpy, the GA over a numpy matrix of genomes
    batched.py       engine: numpy for many seeds at once, for the published family
    draws.py         the batched runs' random numbers, each seed's own
    swap_conflicts.py  the batched runs' fitness, from the parents' diagonal counts
    history.py       the batched runs' traces
    deap_engine.py   engine: deap, the run made of DEAP's own objects and algorithms
    deap_types.py    DEAP's creator types, made once
"""

import time
from dataclasses import replace

from gaqueens.ga import batched, deap_engine, numpy_engine
from gaqueens.ga.settings import ENGINES, SCHEMES, TIES, UNIT, VARIATIONS, GaSettings
from gaqueens.result import Result

__all__ = ["ENGINES", "GaSettings", "SCHEMES", "TIES", "UNIT", "VARIATIONS", "run", "run_many"]


def run(settings: GaSettings, board: int, seed: int) -> Result:
    """One run of the GA on an n x n board, on the settings' engine; its result depends on the
    settings and the seed alone."""
    engine = deap_engine if settings.engine == "deap" else numpy_engine
    return engine.run(settings, board, seed)


def run_many(settings: GaSettings, board: int, seeds) -> list[Result]:
    """The runs of several seeds on an n x n board, each the run ``run`` gives for its seed:
    advanced together in one array when the settings are of the batched family
    (gaqueens.ga.batched: the published settings and their neighbours), else one after the
    other. Each result's ``seconds`` is its share of the batch's wall time (batched.py says
    how it is shared), or its own run's wall time."""
    seeds = list(seeds)
    if batched.covers(settings, board):
        return batched.run_many(settings, board, seeds)
    results = []
    for seed in seeds:
        start = time.perf_counter()
        result = run(settings, board, seed)
        results.append(replace(result, seconds=time.perf_counter() - start))
    return results
