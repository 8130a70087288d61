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
columns scanned (with numpy). Drawing until a hit is uniform over the conflict-free columns,
and so is the scan, so the choice is uniform over the least-conflicted columns either way.
Likewise the conflicted queen is drawn uniformly: from a list of rows drawn up with numpy,
dropping rows found no longer conflicted, and drawn up afresh whenever a move lands on a
column with conflicts (which may conflict other queens).

The unit of work is moves: the greedy start's N placements and every repair move.
Checked by the independent verifier (gaqueens.board) on small boards over many seeds
(tests/test_baselines.py), and on every run of a sweep.
"""

from __future__ import annotations

import random
from array import array
from dataclasses import dataclass

import numpy as np

from gaqueens.board import has_solution
from gaqueens.ranges import Whole, check, setting
from gaqueens.result import Result

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


def run(settings: Settings, board: int, seed: int) -> Result:
    """Greedy starts and repairs until a solution or the budget; the final placement is
    returned with its attacking pairs, solved or not."""
    if not has_solution(board):
        raise ValueError(f"min-conflicts: board {board} has no solution "
                         "(boards 2 and 3 have none)")
    rand = random.Random(seed).random
    moves = 0
    while True:
        queens = _Queens(board, settings.tries, rand)
        moves += board
        limit = min(settings.restart_factor * board, max(settings.budget - moves, 0))
        moves += queens.repair(limit)
        if queens.conflicts == 0 or moves >= settings.budget:
            break
    return Result(solved=queens.conflicts == 0, conflicts=queens.conflicts, evaluations=moves,
                  solution=np.frombuffer(queens.columns, dtype=np.int64).copy())


class _Queens:
    """A queen per row with the queens counted per column and per falling (r - c + N - 1) and
    rising (r + c) diagonal, the free columns listed, and the attacking pairs kept up to date;
    built by the greedy start."""

    def __init__(self, n: int, tries: int, rand):
        self.n, self.tries, self.rand = n, tries, rand
        self.columns = array("q", [0]) * n
        self.per_column = array("q", [0]) * n
        self.down = array("q", [0]) * (2 * n - 1)
        self.up = array("q", [0]) * (2 * n - 1)
        self.free = list(range(n))  # the columns without a queen, in any order
        self.slot = list(range(n))  # where each free column stands in self.free
        self.conflicts = 0
        for r in range(n):
            self.place(r, self.best_column(r))

    def place(self, r: int, c: int) -> int:
        """Puts row r's queen in column c; returns the conflicts it has there."""
        m = self.n - 1
        added = self.per_column[c] + self.down[r - c + m] + self.up[r + c]
        if not self.per_column[c]:
            last = self.free.pop()
            if last != c:
                self.free[self.slot[c]] = last
                self.slot[last] = self.slot[c]
        self.per_column[c] += 1
        self.down[r - c + m] += 1
        self.up[r + c] += 1
        self.columns[r] = c
        self.conflicts += added
        return added

    def lift(self, r: int) -> None:
        """Takes row r's queen off the board."""
        m, c = self.n - 1, self.columns[r]
        self.per_column[c] -= 1
        self.down[r - c + m] -= 1
        self.up[r + c] -= 1
        self.conflicts -= self.per_column[c] + self.down[r - c + m] + self.up[r + c]
        if not self.per_column[c]:
            self.slot[c] = len(self.free)
            self.free.append(c)

    def best_column(self, r: int) -> int:
        """A column of row r with the fewest conflicts with the queens on the board, uniformly
        among the ties (see the module's docstring)."""
        m, free, rand, down, up = self.n - 1, self.free, self.rand, self.down, self.up
        if free:
            k = len(free)
            for _ in range(self.tries):
                c = free[int(rand() * k)]
                if not down[r - c + m] and not up[r + c]:
                    return c
        n = self.n
        conflicts = (np.frombuffer(self.per_column, dtype=np.int64)
                     + np.frombuffer(self.down, dtype=np.int64)[r:r + n][::-1]
                     + np.frombuffer(self.up, dtype=np.int64)[r:r + n])
        ties = np.flatnonzero(conflicts == conflicts.min())
        return int(ties[int(rand() * len(ties))])

    def attacked(self, r: int) -> bool:
        c = self.columns[r]
        return self.per_column[c] > 1 or self.down[r - c + self.n - 1] > 1 or self.up[r + c] > 1

    def conflicted(self) -> list[int]:
        """The rows whose queen is attacked, by numpy."""
        n = self.n
        c = np.frombuffer(self.columns, dtype=np.int64)
        rows = np.arange(n)
        on_column = np.frombuffer(self.per_column, dtype=np.int64)[c]
        on_down = np.frombuffer(self.down, dtype=np.int64)[rows - c + n - 1]
        on_up = np.frombuffer(self.up, dtype=np.int64)[rows + c]
        return np.flatnonzero((on_column > 1) | (on_down > 1) | (on_up > 1)).tolist()

    def repair(self, limit: int) -> int:
        """Moves a random conflicted queen to a least-conflicted column of its row until no
        conflict is left or ``limit`` moves are made; returns the moves made."""
        moves = 0
        listed: list[int] = []
        while self.conflicts and moves < limit:
            if not listed:
                listed = self.conflicted()
            k = int(self.rand() * len(listed))
            r = listed[k]
            if not self.attacked(r):
                listed[k] = listed[-1]
                listed.pop()
                continue
            self.lift(r)
            if self.place(r, self.best_column(r)):
                listed = []  # the move may conflict queens that are not listed
            moves += 1
        return moves
