"""Plain backtracking: depth-first, one queen per row, columns tried in order, first solution.

Sources: E. W. Dijkstra, "Notes on structured programming" (1972) and N. Wirth, "Algorithms +
Data Structures = Programs" (1976): place a queen in row 0, 1, ... in the first column that no
queen above attacks, and go back a row when none is left. The used columns and diagonals are
bit masks (bit c for column c), as in Richards' bitwise programs, so the free columns of a row
are one expression and the first is its lowest bit. The search is deterministic: the seed
changes nothing, and it finds the lexicographically first solution.

The unit of work is nodes: queens placed. Past N of about 30 the first solution lies tens of
millions of nodes deep and more, so the search stops after ``budget`` nodes and reports the
board unsolved: its placement is then the rows placed so far (which attack nowhere) with the
columns left over filled in, in increasing order, in the rows below, and its attacking pairs
counted. On small boards with small budgets that filling-in can, by chance, complete a
solution the search had not reached; the run is then reported solved, as the verifier sees
it, with the nodes spent.

Checked by the independent verifier (gaqueens.problems.nqueens.verifier) on every board up to 20 and on every run
of a sweep; the budget is tested to the node (tests/test_baselines.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import has_solution
from gaqueens.problems.nqueens.fitness import Conflicts
from gaqueens.core.ranges import Whole, check, setting
from gaqueens.core.algorithms import algorithm
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


@algorithm("backtracking", settings=Settings, unit=UNIT, deterministic=True)
def run(settings: Settings, board: int, seed: int) -> Result:
    """The first solution in lexicographic order, or the budget spent; ``seed`` is unused."""
    if not has_solution(board):
        raise ValueError(f"backtracking: board {board} has no solution (boards 2 and 3 have none)")
    path, nodes = search(board, settings.budget)
    solution = complete(path, board)
    conflicts = int(Conflicts(board)(solution[None])[0])
    return Result(solved=conflicts == 0, conflicts=conflicts, work=nodes, solution=solution)


def search(n: int, budget: int) -> tuple[list[int], int]:
    """Depth-first search for the first solution; returns the columns of the rows placed (all
    n of them when solved) and the nodes spent, at most ``budget``."""
    full = (1 << n) - 1
    # per row: the untried free columns, and the columns, falling and rising diagonals
    # attacked from above, each as a bit mask seen from that row
    untried, columns = [full] + [0] * n, [0] * (n + 1)
    falling, rising = [0] * (n + 1), [0] * (n + 1)
    placed = [0] * n
    row = nodes = 0
    while row >= 0:
        free = untried[row]
        if not free:
            row -= 1
            continue
        if nodes == budget:
            break
        bit = free & -free  # the lowest free column
        untried[row] = free ^ bit
        placed[row] = bit
        nodes += 1
        if row == n - 1:
            row = n
            break
        c, f, r = columns[row] | bit, ((falling[row] | bit) << 1) & full, (rising[row] | bit) >> 1
        row += 1
        columns[row], falling[row], rising[row] = c, f, r
        untried[row] = full & ~(c | f | r)
    return [bit.bit_length() - 1 for bit in placed[:row]], nodes


def complete(path: list[int], n: int) -> np.ndarray:
    """The rows placed, then the columns left over in increasing order in the rows below."""
    used = set(path)
    return np.array(path + [c for c in range(n) if c not in used], dtype=np.int64)
