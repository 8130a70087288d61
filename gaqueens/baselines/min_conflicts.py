"""Min-conflicts repair: Minton, Johnston, Philips and Laird's heuristic for N-Queens.

Source: S. Minton, M. D. Johnston, A. B. Philips and P. Laird, "Minimizing conflicts: a
heuristic repair method for constraint satisfaction and scheduling problems", Artificial
Intelligence 58, 1992 (first at AAAI 1990).

A queen per row, each free to take any column, so columns clash as well as diagonals:

- Greedy start: rows 0, 1, ... in turn, each queen placed in a column with the fewest
  conflicts with the queens above it, ties broken at random.
- Repair: pick a conflicted queen at random and move it to a column of its row with the fewest
  conflicts with the other queens (ties at random, its own column included); repeat.
- Restart from a new greedy start after ``restart_factor`` x N repair moves without a
  solution.

A column without conflicts is a free one whose two diagonals are free too, so up to ``tries``
free columns are drawn at random before all N are scanned: either way the choice is uniform
over the least-conflicted columns, only cheaper on big boards. The conflicted queen is drawn
uniformly from a list of the attacked queens, a row no longer attacked dropped and drawn
again. The search runs compiled (min_conflicts_kernel, which lists its arrays: 60 bytes a
queen), seeded with the run's seed. The unit of work is moves: the greedy start's N
placements and every repair move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import refuse_unsolvable
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm, per_queen
from gaqueens.core.result import Result

UNIT = "moves"


@dataclass(frozen=True)
class Settings:
    """Min-conflicts' settings.

    tries           free columns drawn at random, looking for one without conflicts, before
                    the whole row is scanned, 1 to 10^6 (50); changes the speed, not the law
                    of the choice
    restart-factor  restart from a new greedy start after this many times N repair moves,
                    1 to 10^6 (4)
    budget          stop, unsolved, once this many moves are made; checked at every repair
                    move (a greedy start always finishes), 1 to 10^15 (10^8)
    """

    tries: int = setting(50, Whole(1, 1_000_000))
    restart_factor: int = setting(4, Whole(1, 1_000_000))
    budget: int = setting(100_000_000, Whole(1, 10**15))

    def __post_init__(self):
        check(self)


memory = per_queen(60)


@algorithm("min-conflicts", settings=Settings, unit=UNIT, permutation=False, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """Greedy starts and repairs until a solution or the budget; the final placement is
    returned with its attacking pairs, solved or not."""
    refuse_unsolvable("min-conflicts", board)
    from gaqueens.baselines.min_conflicts_kernel import search

    columns, conflicts, moves = search(board, settings.tries, settings.restart_factor,
                                       settings.budget, np.uint64(seed % 2**64))
    return Result(solved=conflicts == 0, conflicts=int(conflicts), work=int(moves),
                  solution=columns)
