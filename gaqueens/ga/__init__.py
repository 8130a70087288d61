"""The GA: its settings, its operators, a run's random numbers, and the engine.

    settings.py    GaSettings, the published settings by default
    operators.py   selections, crossovers and mutations, by the names experiment files give them
    randomness.py  a run's own generators, from its seed alone
    engine.py      the (mu+lambda) loop over a numpy matrix of genomes
"""

from gaqueens.ga.engine import run, step
from gaqueens.ga.settings import SCHEMES, TIES, UNIT, GaSettings

__all__ = ["GaSettings", "SCHEMES", "TIES", "UNIT", "run", "step"]
