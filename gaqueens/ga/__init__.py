"""The GA: its settings, its operators, a run's random numbers, and two engines.

    settings.py      GaSettings, the published settings by default
    operators.py     selections, crossovers and mutations, by the names experiment files give
    randomness.py    a run's own generators, from its seed alone
    numpy_engine.py  engine: numpy, the GA over a numpy matrix of genomes
    deap_engine.py   engine: deap, the run made of DEAP's own objects and algorithms
    deap_types.py    DEAP's creator types, made once
"""

from gaqueens.ga import deap_engine, numpy_engine
from gaqueens.ga.settings import ENGINES, SCHEMES, TIES, UNIT, VARIATIONS, GaSettings
from gaqueens.result import Result

__all__ = ["ENGINES", "GaSettings", "SCHEMES", "TIES", "UNIT", "VARIATIONS", "run"]


def run(settings: GaSettings, board: int, seed: int) -> Result:
    """One run of the GA on an n x n board, on the settings' engine; its result depends on the
    settings and the seed alone."""
    engine = deap_engine if settings.engine == "deap" else numpy_engine
    return engine.run(settings, board, seed)
