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

The start takes about 3N draws (3.06N measured on a million queens) and leaves a handful of
attacked queens. The unit of work is swaps tried: the start's draws (each a candidate swap of
row i with row j) and the repair's tries.

The search runs compiled (numba), in gaqueens.baselines.local_search_kernel, which this module
imports only inside a run; its random numbers are SplitMix64's, seeded with the run's seed.
A million queens take about 0.2 s and ten million about 4 s, 1.1 and 1.2 times the time of the
same algorithm in C compiled with -O2 as measured on a shared two-core machine (its source is
gaqueens/bench/c/local_search.c; ``python -m gaqueens.bench`` times both, side by side, and
checks that a seed gives the same run, swap for swap, in both, on 10^6, 10^7 and 10^8 queens).
Its arrays are numpy's, on transparent huge pages where Linux gives them (local_search_kernel
says why). Boards go up to 10^8 (gaqueens.experiment.baseline_keys): on 10^8 queens, seed 1, the search
took 45.4 s (45.0 CPU seconds) and a peak of 2.11 GB resident, the process included, and its
C twin made the same run (306,324,858 swaps, the same placement) in 41.4 s and 1.96 GB, one
after the other on a shared two-core machine at a load of about 1 (ratio 1.10); at a load of
6 to 8 the same search took 403 s of wall time for 58.8 CPU seconds. ``python -m gaqueens.run
--board 100000000 --algorithm local-search`` took 68 s in all (the answer verified) and a
peak of 3.4 GB.

Memory (``memory``): MEMORY_FIXED + MEMORY_PER_QUEEN x N bytes beyond the loaded process (the
140 MB or so that Python, numpy and numba take), 512 KiB + 24 bytes a queen: the placement and
the list of attacked rows (int32, N each) and the two diagonal counts (int32, 2N - 1 each);
2.42 GB for 10^8 queens. Measured (python -m gaqueens.bench.memory): 0.2, 1.9 and 19.8 MB on 10^4, 10^5 and
10^6 queens, stated 0.8, 2.9 and 24.5 MB (the list
of attacked rows is touched only as far as it fills).

Checked by the independent verifier (gaqueens.problems.nqueens.verifier) on small boards over many seeds
(tests/test_baselines.py) and on every run of a sweep, up to a million queens; the kernel's
swap bookkeeping and greedy start against brute force (tests/test_kernels.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import has_solution
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm
from gaqueens.core.result import Result

MEMORY_PER_QUEEN = 24  # bytes: the kernel's arrays (see the module's docstring)
MEMORY_FIXED = 2**19  # 512 KiB: a small run's scattered allocations
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


def memory(settings: Settings, board: int) -> int:
    """The bytes a run needs beyond the loaded process (the module's docstring)."""
    return MEMORY_FIXED + MEMORY_PER_QUEEN * board


@algorithm("local-search", settings=Settings, unit=UNIT, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """Greedy starts and repairs until a solution or the budget; the final placement is
    returned with its attacking pairs, solved or not."""
    if not has_solution(board):
        raise ValueError(f"local search: board {board} has no solution (boards 2 and 3 have none)")
    from gaqueens.baselines.local_search_kernel import search

    columns, conflicts, tried = search(board, settings.start_tries,
                                       settings.restart_factor * board, settings.budget,
                                       np.uint64(seed % 2**64))
    return Result(solved=conflicts == 0, conflicts=int(conflicts), work=int(tried),
                  solution=columns)
