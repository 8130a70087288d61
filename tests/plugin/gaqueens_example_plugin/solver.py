"""Random restarts: random permutations until one is a solution, or the budget is spent.

A gaqueens algorithm is a module like this one: run(settings, board, seed) -> Result,
Settings (a frozen dataclass) and UNIT.
"""

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.fitness import Conflicts
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.result import Result

UNIT = "placements"


@dataclass(frozen=True)
class Settings:
    """budget  random placements to try, 1 to 10^6 (1,000)"""

    budget: int = setting(1000, Whole(1, 1_000_000))

    def __post_init__(self):
        check(self)


def run(settings: Settings, board: int, seed: int) -> Result:
    rng = np.random.default_rng(seed)
    count = Conflicts(board)
    for tried in range(1, settings.budget + 1):
        columns = rng.permutation(board)
        conflicts = int(count(columns[None])[0])
        if conflicts == 0:
            break
    return Result(solved=conflicts == 0, conflicts=conflicts, work=tried, solution=columns)
