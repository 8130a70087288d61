"""A hill climber for the all-interval series (problem.py): from a random permutation, a swap of
two entries is kept when it repeats no more gaps than before, until no gap repeats or the
budget of swaps is spent; a run that spends it reports the repeated gaps left, unsolved."""

from dataclasses import dataclass

import numpy as np

from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.result import Result
from gaqueens_example_plugin.problem import PROBLEM

UNIT = "swaps"
PROBLEMS = ("all-interval",)


@dataclass(frozen=True)
class Settings:
    """budget  swaps to try, 1 to 10^6 (200)"""

    budget: int = setting(200, Whole(1, 1_000_000))

    def __post_init__(self):
        check(self)


def run(settings: Settings, board: int, seed: int) -> Result:
    rng = np.random.default_rng(seed)
    series = rng.permutation(board)
    best = int(PROBLEM.conflicts(board, series[None])[0])
    tried = 0
    while best and tried < settings.budget:
        tried += 1
        i, j = rng.choice(board, size=2, replace=False)
        series[[i, j]] = series[[j, i]]
        repeats = int(PROBLEM.conflicts(board, series[None])[0])
        if repeats <= best:
            best = repeats
        else:
            series[[i, j]] = series[[j, i]]
    return Result(solved=best == 0, conflicts=best, work=tried, solution=series)
