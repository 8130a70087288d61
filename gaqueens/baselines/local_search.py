"""Local search with conflict minimisation: Sosic and Gu's swaps from a greedy randomised start.

Source: R. Sosic and J. Gu, "Efficient local search with conflict minimization: a case study
of the n-queens problem", IEEE Transactions on Knowledge and Data Engineering 6(5), 1994,
in the min-conflicts line of Minton, Johnston, Philips and Laird (AAAI 1990, Artificial
Intelligence 1992). As gaqueens implements it:

- The placement is a permutation (a queen per row and per column), so only diagonals clash;
  the queens on each diagonal are counted in two counter arrays of 2N-1 entries.
- Greedy randomised start: for row i = 0, 1, ..., swap row i's column with that of a random
  row j >= i until row i's queen attacks none of the queens above it. Sosic and Gu place the
  first N - c queens so and the last c at random; here each row stops after ``start_tries``
  draws instead, which leaves a few attacked queens near the end without choosing c.
- Repair: rounds over a list of the attacked queens; each tries a swap of its column with
  that of a random other row, kept only if it lowers the attacking pairs.
- Restart from a new greedy start after ``restart_factor`` x N tries in a row without a gain.

The unit of work is swaps tried: the start's draws (each a candidate swap of row i with row
j) and the repair's tries. The search runs compiled (local_search_kernel), seeded with the
run's seed; gaqueens/bench/c/local_search.c is its C twin, run for run. Memory: 24 bytes a
queen, the placement and the list of attacked rows (int32, N each) and the two diagonal
counts (int32, 2N - 1 each).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import refuse_unsolvable
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm, per_queen
from gaqueens.core.result import Result

UNIT = "swaps"


@dataclass(frozen=True)
class Settings:
    """The local search's settings.

    start-tries     random rows drawn per row in the greedy start before settling for an
                    attacked queen, 1 to 10^6 (50)
    restart-factor  restart after this many times N tries in a row without a gain,
                    1 to 10^6 (32: a restart after about 32N fruitless tries)
    budget          stop, unsolved, once this many swaps have been tried; checked at every
                    repair try (a greedy start always finishes), 1 to 10^15 (10^9)
    """

    start_tries: int = setting(50, Whole(1, 1_000_000))
    restart_factor: int = setting(32, Whole(1, 1_000_000))
    budget: int = setting(1_000_000_000, Whole(1, 10**15))

    def __post_init__(self):
        check(self)


memory = per_queen(24)


@algorithm("local-search", settings=Settings, unit=UNIT, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """Greedy starts and repairs until a solution or the budget; the final placement is
    returned with its attacking pairs, solved or not."""
    refuse_unsolvable("local search", board)
    from gaqueens.baselines.local_search_kernel import search

    columns, conflicts, tried = search(board, settings.start_tries,
                                       settings.restart_factor * board, settings.budget,
                                       np.uint64(seed % 2**64))
    return Result(solved=conflicts == 0, conflicts=int(conflicts), work=int(tried),
                  solution=columns)
