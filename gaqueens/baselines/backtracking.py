"""Plain backtracking: depth-first, one queen per row, columns tried in order, first solution.

Sources: E. W. Dijkstra, "Notes on structured programming" (1972) and N. Wirth, "Algorithms +
Data Structures = Programs" (1976): place a queen in row 0, 1, ... in the first column that no
queen above attacks, and go back a row when none is left. The used columns and diagonals are
bit sets, as in Richards' bitwise programs, so 64 columns of a row are tested in one
expression and the first free one is a lowest bit. The search is deterministic: the seed
changes nothing, and it finds the lexicographically first solution.

It runs compiled (numba, gaqueens.baselines.backtracking_kernel, imported only inside a run),
in O(N) memory: each row keeps the column its queen took, and its search resumes after it.
The first version kept bit masks per row as Python integers, O(N^2) bits, and passed 20 GB on
a million queens within a minute; it survives as tests/backtracking_reference.py, which the
kernel matches node for node (tests/test_kernels.py: every board from 4 to 20, boards across
64-column words, and budgets drawn by hypothesis).

The unit of work is nodes: queens placed. Past N of about 30 the first solution lies tens of
millions of nodes deep and more, so the search stops after ``budget`` nodes and reports the
board unsolved: its placement is then the rows placed so far (which attack nowhere) with the
columns left over filled in, in increasing order, in the rows below, and its attacking pairs
counted. On small boards with small budgets that filling-in can, by chance, complete a
solution the search had not reached; the run is then reported solved, as the verifier sees
it, with the nodes spent.

Memory (``memory``): MEMORY_FIXED + MEMORY_PER_QUEEN x N bytes beyond the loaded process,
512 KiB + 32 bytes a queen: the placed columns (int32), the bit sets (3/8 of a byte), the
completed placement (int32 and an int64 index of the columns left) and the int32 diagonal
counts of its attacking pairs; 48.8 MB on a million queens. Measured (python -m
gaqueens.bench.memory: the peak a run of budget 10^5 adds to a warmed process):
0.2, 1.8 and 16.2 MB on 10^4, 10^5 and 10^6 queens,
stated 0.8, 3.7 and 32.5 MB. Time is another matter: a node costs up to N/64 word tests, so at the
default budget a million queens take many minutes (10^6 nodes on 10^5 queens took 7.7 s on a
loaded two-core machine, 1.6 s on 10^4 queens, where the mask-per-row search took 4.7 s).

Checked by the independent verifier (gaqueens.problems.nqueens.verifier) on every board up to 20 and on every run
of a sweep; the budget is tested to the node (tests/test_baselines.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import has_solution
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm
from gaqueens.core.result import Result

UNIT = "nodes"
MEMORY_PER_QUEEN = 32  # bytes: see the module's docstring
MEMORY_FIXED = 2**19  # 512 KiB: a small run's scattered allocations


@dataclass(frozen=True)
class Settings:
    """Plain backtracking's settings.

    budget   stop, unsolved, after this many nodes (queens placed), 1 to 10^15 (10^7)
    """

    budget: int = setting(10_000_000, Whole(1, 10**15))

    def __post_init__(self):
        check(self)


def memory(settings: Settings, board: int) -> int:
    """The bytes a run needs beyond the loaded process: MEMORY_PER_QUEEN a queen and
    MEMORY_FIXED (the module's docstring gives the measured peaks)."""
    return MEMORY_FIXED + MEMORY_PER_QUEEN * board


@algorithm("backtracking", settings=Settings, unit=UNIT, deterministic=True, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """The first solution in lexicographic order, or the budget spent; ``seed`` is unused."""
    if not has_solution(board):
        raise ValueError(f"backtracking: board {board} has no solution (boards 2 and 3 have none)")
    from gaqueens.baselines.backtracking_kernel import pairs, search

    placed = np.empty(board, dtype=np.int32)
    rows, nodes = search(board, settings.budget, placed)
    solution = complete(placed[:rows], board)
    conflicts = int(pairs(solution))
    return Result(solved=conflicts == 0, conflicts=conflicts, work=int(nodes), solution=solution)


def search(n: int, budget: int) -> tuple[list[int], int]:
    """Depth-first search for the first solution; returns the columns of the rows placed (all
    n of them when solved) and the nodes spent, at most ``budget``."""
    from gaqueens.baselines.backtracking_kernel import search as compiled

    placed = np.empty(n, dtype=np.int32)
    rows, nodes = compiled(n, budget, placed)
    return placed[:rows].tolist(), int(nodes)


def complete(path: np.ndarray, n: int) -> np.ndarray:
    """The rows placed, then the columns left over in increasing order in the rows below
    (int32)."""
    left = np.ones(n, dtype=bool)
    left[path] = False
    return np.concatenate((path, np.flatnonzero(left).astype(np.int32))).astype(np.int32)
