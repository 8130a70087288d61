"""Every algorithm a sweep can run, by the name that experiment files and runs.csv use.

Each has the same signature: ``run(settings, board, seed) -> Result``, its settings a frozen
dataclass whose defaults are the documented ones, and its work counted in its own unit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

from gaqueens import ga
from gaqueens.result import Result


@dataclass(frozen=True)
class Algorithm:
    run: Callable[[object, int, int], Result]
    settings: type
    unit: str
    deterministic: bool = False  # the seed changes nothing: one run per board is enough


ALGORITHMS: dict[str, Algorithm] = {
    "ga": Algorithm(ga.run, ga.GaSettings, ga.UNIT),
}


def execute(name: str, settings, board: int, seed: int) -> Result:
    """Runs one algorithm once, with ``seconds`` the wall time around the whole run."""
    start = time.perf_counter()
    result = ALGORITHMS[name].run(settings, board, seed)
    return replace(result, seconds=time.perf_counter() - start)


def execute_batch(name: str, settings, board: int, seeds: list[int]) -> list[tuple[int, Result]]:
    """Runs one algorithm on one board for several seeds: the unit of work sent to a worker."""
    return [(seed, execute(name, settings, board, seed)) for seed in seeds]
