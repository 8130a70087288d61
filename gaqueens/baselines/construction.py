"""Explicit construction: a solution for every board but 2 and 3 by a formula, no search.

Source: B. Bernhardsson, "Explicit solutions to the N-queens problem for all N", ACM SIGART
Bulletin 2(2), 1991, and E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the
solution of the m queens problem", Mathematics Magazine 42(2), 1969. A list of the numbers
1..N, one queen per column from left to right, each number its row:

- N mod 6 not 2 or 3: the even numbers, then the odd ones;
- N mod 6 = 2: the evens, then the odds with 1 and 3 swapped and 5 moved to the end;
- N mod 6 = 3: the evens with 2 moved to the end, then the odds with 1 and 3 moved to the end.

Minus one, the list is a genome (entry r the column of row r's queen): the transpose of a
solution is a solution. N = 8 gives [1, 3, 5, 7, 2, 0, 6, 4].

The unit of work is "none" (0): nothing is searched, and the seed changes nothing. The
conflicts are counted, not assumed (in int32 per diagonal, by
gaqueens.baselines.backtracking_kernel.pairs). The list is built in numpy int32, so boards go
up to 10^8 (gaqueens.experiment.baseline_keys): 10^8 queens take 3.8 s
(the count included) and add 1.2 GB to the process, on a loaded two-core machine.

Memory (``memory``): MEMORY_FIXED + MEMORY_PER_QUEEN x N bytes beyond the loaded process,
512 KiB + 16 bytes a queen: the evens, the odds and the list (int32, N in all twice) and the
diagonal counts (int32, 2N - 1, one direction at a time); 1.62 GB for 10^8 queens. Measured
(python -m gaqueens.bench.memory): 0.1, 1.3 and 11.8 MB on 10^4, 10^5 and 10^6 queens, stated
0.7, 2.1 and 16.5 MB. Checked against the published outputs for N = 8, 14 and
15, and by the independent verifier (gaqueens.problems.nqueens.verifier) on every board from 4 to 2,000
(tests/test_baselines.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import has_solution
from gaqueens.core.algorithms import algorithm
from gaqueens.core.result import Result

UNIT = "none"


@dataclass(frozen=True)
class Settings:
    """The construction has no settings."""


MEMORY_PER_QUEEN = 16  # bytes: the placement and the int32 diagonal counters (see above)
MEMORY_FIXED = 2**19  # 512 KiB: a small run's scattered allocations


def placement(n: int) -> np.ndarray:
    """The published list less one, as int32: the genome (entry r the column of row r)."""
    if not has_solution(n):
        raise ValueError(f"construction: board {n} has no solution (boards 2 and 3 have none)")
    evens, odds = np.arange(2, n + 1, 2, dtype=np.int32), np.arange(1, n + 1, 2, dtype=np.int32)
    if n % 6 == 2:  # the odds with 1 and 3 swapped and 5 moved to the end
        odds = np.concatenate((np.array([3, 1], np.int32), odds[3:], np.array([5], np.int32)))
    elif n % 6 == 3:  # the evens with 2 moved to the end, the odds with 1 and 3 moved there
        evens = np.concatenate((evens[1:], evens[:1]))
        odds = np.concatenate((odds[2:], odds[:2]))
    out = np.concatenate((evens, odds))
    out -= 1
    return out


def numbers(n: int) -> list[int]:
    """The published list: the row (1..N) of the queen in each column, left to right."""
    return (placement(n) + 1).tolist()


def memory(settings: Settings, board: int) -> int:
    """The bytes a run needs beyond the loaded process (the module's docstring)."""
    return MEMORY_FIXED + MEMORY_PER_QUEEN * board


@algorithm("construction", settings=Settings, unit=UNIT, deterministic=True, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """The constructed placement and its attacking pairs; ``seed`` is unused."""
    from gaqueens.baselines.backtracking_kernel import pairs

    solution = placement(board)
    conflicts = int(pairs(solution))
    return Result(solved=conflicts == 0, conflicts=conflicts, work=0, solution=solution)
