"""Explicit construction: a solution for every board but 2 and 3 by a formula, no search.

Source: B. Bernhardsson, "Explicit solutions to the N-queens problem for all N", ACM SIGART
Bulletin 2(2), 1991, and E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the
solution of the m queens problem", Mathematics Magazine 42(2), 1969. A list of the numbers
1..N, one queen per column from left to right, each number its row:

- N mod 6 not 2 or 3: the even numbers, then the odd ones;
- N mod 6 = 2: the evens, then the odds with 1 and 3 swapped and 5 moved to the end;
- N mod 6 = 3: the evens with 2 moved to the end, then the odds with 1 and 3 moved to the end.

Minus one, the list is a genome (entry r the column of row r's queen): the transpose of a
solution is a solution. N = 8 gives [1, 3, 5, 7, 2, 0, 6, 4]. The unit of work is "none"
(0), and the seed changes nothing; the conflicts are counted, not assumed. Memory: 16 bytes
a queen, the lists (int32) and one direction's diagonal counts (int32).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import refuse_unsolvable
from gaqueens.core.algorithms import algorithm, per_queen
from gaqueens.core.result import Result

UNIT = "none"


@dataclass(frozen=True)
class Settings:
    """The construction has no settings."""


memory = per_queen(16)


def placement(n: int) -> np.ndarray:
    """The published list less one, as int32: the genome (entry r the column of row r)."""
    refuse_unsolvable("construction", n)
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


@algorithm("construction", settings=Settings, unit=UNIT, deterministic=True, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """The constructed placement and its attacking pairs; ``seed`` is unused."""
    from gaqueens.baselines.backtracking_kernel import pairs

    solution = placement(board)
    conflicts = int(pairs(solution))
    return Result(solved=conflicts == 0, conflicts=conflicts, work=0, solution=solution)
