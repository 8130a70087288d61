"""Plain backtracking: depth-first, one queen per row, columns tried in order, first solution.

Sources: E. W. Dijkstra, "Notes on structured programming" (1972) and N. Wirth, "Algorithms +
Data Structures = Programs" (1976): place a queen in row 0, 1, ... in the first column that no
queen above attacks, and go back a row when none is left. The used columns and diagonals are
bit sets, as in Richards' bitwise programs, so 64 columns of a row are tested in one
expression and the first free one is a lowest bit. The search is deterministic: the seed
changes nothing, and it finds the lexicographically first solution.

It runs compiled (backtracking_kernel) in O(N) memory: each row keeps the column its queen
took, and its search resumes after it; tests/backtracking_reference.py is the plain Python
search it matches node for node. The unit of work is nodes: queens placed. Past N of about
30 the first solution lies tens of millions of nodes deep, so the search stops after
``budget`` nodes and reports the board unsolved: its placement is then the rows placed so
far with the columns left over filled in, in increasing order, in the rows below, and its
attacking pairs counted (on small boards that filling-in can complete a solution by chance:
the run is then reported solved, as the verifier sees it). Memory: 32 bytes a queen, the
placed and completed columns, the bit sets and the diagonal counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import refuse_unsolvable
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm, per_queen
from gaqueens.core.result import Result

UNIT = "nodes"


@dataclass(frozen=True)
class Settings:
    """Plain backtracking's settings.

    budget   stop, unsolved, after this many nodes (queens placed), 1 to 10^15 (10^7)
    """

    budget: int = setting(10_000_000, Whole(1, 10**15))

    def __post_init__(self):
        check(self)


memory = per_queen(32)


@algorithm("backtracking", settings=Settings, unit=UNIT, deterministic=True, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """The first solution in lexicographic order, or the budget spent; ``seed`` is unused."""
    refuse_unsolvable("backtracking", board)
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
