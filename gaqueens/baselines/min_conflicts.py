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

Picking a least-conflicted column is exact but cheap on big boards: a column with no conflict
is a free one (no queen in it) whose two diagonals are free too, so up to ``tries`` free
columns are drawn at random, and only when none of them is free of conflicts are all N
columns scanned. Drawing until a hit is uniform over the conflict-free columns, and so is the
scan, so the choice is uniform over the least-conflicted columns either way. Likewise the
conflicted queen is drawn uniformly, from a list that holds every attacked queen once: a row
drawn whose queen is no longer attacked is dropped and the draw made again, and a move lists
the queens it attacks (on each line the moved queen joins that held one queen, that queen,
found from the XOR of the rows kept per line). The list is drawn up whole only after a greedy
start.

The search runs compiled (numba), in gaqueens.baselines.min_conflicts_kernel, which this
module imports only inside a run; its random numbers are SplitMix64's, seeded with the run's
seed. A million queens take under a second, most of it in the greedy start's scattered
memory accesses (``python -m gaqueens.bench`` times it). Boards go up to 10^8
(gaqueens.experiment.baseline_keys), but 10^8 is no practical board for it: measured once,
seed 1, the greedy start alone took 41 minutes of wall time (some 20 CPU minutes, its
scattered reads over 5 GB) on a loaded two-core machine, and spent the default budget (10^8
moves: the start counts N), so the run ended unsolved; its peak was 5.3 GB beside the
process, stated 6.0 GB. Give it budget: 1000000000 and an hour, or use the local search.

Memory (``memory``): MEMORY_FIXED + MEMORY_PER_QUEEN x N bytes beyond the loaded process,
512 KiB + 60 bytes a queen (the kernel's arrays, 57 bytes a queen: min_conflicts_kernel lists
them); 6.0 GB for 10^8 queens. Measured (python -m gaqueens.bench.memory): 0.4, 5.0 and 52.8 MB on 10^4,
10^5 and 10^6 queens, stated 1.1, 6.5 and 60.5 MB.

The unit of work is moves: the greedy start's N placements and every repair move.
Checked by the independent verifier (gaqueens.problems.nqueens.verifier) on small boards over many seeds
(tests/test_baselines.py), and on every run of a sweep; the kernel's choice of column and its
bookkeeping against brute force (tests/test_kernels.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import has_solution
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm
from gaqueens.core.result import Result

MEMORY_PER_QUEEN = 60  # bytes: the kernel's arrays (see the module's docstring)
MEMORY_FIXED = 2**19  # 512 KiB: a small run's scattered allocations
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


def memory(settings: Settings, board: int) -> int:
    """The bytes a run needs beyond the loaded process (the module's docstring)."""
    return MEMORY_FIXED + MEMORY_PER_QUEEN * board


@algorithm("min-conflicts", settings=Settings, unit=UNIT, permutation=False, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """Greedy starts and repairs until a solution or the budget; the final placement is
    returned with its attacking pairs, solved or not."""
    if not has_solution(board):
        raise ValueError(f"min-conflicts: board {board} has no solution "
                         "(boards 2 and 3 have none)")
    from gaqueens.baselines.min_conflicts_kernel import search

    columns, conflicts, moves = search(board, settings.tries, settings.restart_factor,
                                       settings.budget, np.uint64(seed % 2**64))
    return Result(solved=conflicts == 0, conflicts=int(conflicts), work=int(moves),
                  solution=columns)
