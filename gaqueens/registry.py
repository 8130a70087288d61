"""Every algorithm a sweep can run, by the name that experiment files and runs.csv use.

Each has the same signature: ``run(settings, board, seed) -> Result``, its settings a frozen
dataclass whose defaults are the documented ones, and its work counted in its own unit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

from gaqueens import ga
from gaqueens.baselines import (backtracking, backtracking_heuristic, construction, local_search,
                                min_conflicts)
from gaqueens.result import Result


@dataclass(frozen=True)
class Algorithm:
    run: Callable[[object, int, int], Result]
    settings: type
    unit: str
    deterministic: bool = False  # the seed changes nothing: one run per board is enough


ALGORITHMS: dict[str, Algorithm] = {
    "ga": Algorithm(ga.run, ga.GaSettings, ga.UNIT),
    "local-search": Algorithm(local_search.run, local_search.Settings, local_search.UNIT),
    "min-conflicts": Algorithm(min_conflicts.run, min_conflicts.Settings, min_conflicts.UNIT),
    "backtracking": Algorithm(backtracking.run, backtracking.Settings, backtracking.UNIT,
                              deterministic=True),
    "backtracking-heuristic": Algorithm(backtracking_heuristic.run, backtracking_heuristic.Settings,
                                        backtracking_heuristic.UNIT),
    "construction": Algorithm(construction.run, construction.Settings, construction.UNIT,
                              deterministic=True),
}


def execute(name: str, settings, board: int, seed: int) -> Result:
    """Runs one algorithm once, with ``seconds`` the wall time around the whole run."""
    start = time.perf_counter()
    result = ALGORITHMS[name].run(settings, board, seed)
    return replace(result, seconds=time.perf_counter() - start)


def execute_batch(name: str, settings, board: int, seeds: list[int]) -> list[tuple[int, Result]]:
    """Runs one algorithm on one board for several seeds: the unit of work sent to a worker."""
    return [(seed, execute(name, settings, board, seed)) for seed in seeds]
