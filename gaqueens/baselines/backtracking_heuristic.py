"""Backtracking with a good ordering: the most constrained line first, random tie-breaks and
restarts with a growing budget.

Sources: the most-constrained-variable ordering with forward checking (Bitner and Reingold,
"Backtrack programming techniques", CACM 1975; Haralick and Elliott, "Increasing tree search
efficiency for constraint satisfaction problems", Artificial Intelligence 1980), studied on
N-Queens by H. S. Stone and J. M. Stone ("Efficient search techniques: an empirical study of
the N-Queens problem", IBM Journal of Research and Development 1987); restarts with
a growing budget after Gomes, Selman and Kautz ("Boosting combinatorial search through
randomization", AAAI 1998).

Depth first, with every free square (one that no queen attacks, in a row and a column without
a queen) counted per row and per column as queens come and go:

- the next queen goes into the most constrained line: a row with the fewest free squares, or a
  column when one has fewer still (every column needs a queen as much as every row does),
  ties broken at random;
- the free squares of that line are tried in random order;
- the search goes back as soon as a row or a column without a queen has no free square left;
- an attempt gives up after ``restart_factor`` x N nodes and a new one starts, with ``growth``
  times the nodes of the last, until ``budget`` nodes in all.

Each placement updates the counts along the four lines through the queen with numpy, O(N),
so a solution costs O(N^2). The unit of work is nodes: queens placed. Memory: O(N), 400
bytes a queen stated (the lines' flags and counts, a few numbers per depth, and the index
arrays of a placement's update), as _Attempt replays a depth's shuffle rather than keeping
its squares; tests/backtracking_reference.py keeps them, and matches it node for node.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gaqueens.problems.nqueens.facts import refuse_unsolvable
from gaqueens.problems.nqueens.fitness import Conflicts
from gaqueens.core.ranges import Number, Whole, check, setting
from gaqueens.core.algorithms import algorithm, per_queen
from gaqueens.core.result import Result

UNIT = "nodes"


@dataclass(frozen=True)
class Settings:
    """Heuristic backtracking's settings.

    restart-factor  the first attempt's nodes, as a multiple of N, 1 to 10^6 (2)
    growth          each attempt has this many times the nodes of the last, 1 to 100 (2)
    budget          stop, unsolved, after this many nodes in all, 1 to 10^15 (10^8)
    """

    restart_factor: int = setting(2, Whole(1, 1_000_000))
    growth: float = setting(2.0, Number(1, 100))
    budget: int = setting(100_000_000, Whole(1, 10**15))

    def __post_init__(self):
        check(self)


memory = per_queen(400)


@algorithm("backtracking-heuristic", settings=Settings, unit=UNIT, memory=memory)
def run(settings: Settings, board: int, seed: int) -> Result:
    """Attempts with growing node limits until a solution or the budget; the placement of the
    last attempt is returned with its attacking pairs, solved or not."""
    refuse_unsolvable("backtracking-heuristic", board)
    rng = np.random.default_rng(seed)
    nodes, limit = 0, settings.restart_factor * board
    while True:
        attempt = _Attempt(board, rng)
        solved = attempt.search(min(limit, settings.budget - nodes))
        nodes += attempt.nodes
        if solved or nodes >= settings.budget:
            break
        limit = math.ceil(limit * settings.growth)
    solution = attempt.placement()
    conflicts = int(Conflicts(board)(solution[None])[0])
    return Result(solved=conflicts == 0, conflicts=conflicts, work=nodes, solution=solution)


class _Attempt:
    """One depth-first attempt: the queens, the lines they use, and the free squares counted
    per row and per column without a queen (a row or column with a queen counts N + 1, so it
    is never the most constrained).

    Each depth keeps O(1) numbers, not its list of squares left to try: its line, the state of
    the random generator just before it shuffled that line's free squares, and how many it has
    tried. Back at a depth, the board is again the one it shuffled, so the same shuffle is made
    again from the saved state on a generator of its own; the squares, their order and the
    run's random stream are those of a list-per-depth search, draw for draw."""

    def __init__(self, n: int, rng: np.random.Generator):
        self.n, self.rng, self.nodes = n, rng, 0
        self.columns = np.full(n, -1)  # the column of each row's queen, -1 for none
        self.row_used = np.zeros(n, dtype=bool)
        self.column_used = np.zeros(n, dtype=bool)
        self.down_used = np.zeros(2 * n - 1, dtype=bool)  # falling diagonals, r - c + n - 1
        self.up_used = np.zeros(2 * n - 1, dtype=bool)  # rising diagonals, r + c
        self.row_free = np.full(n, n)
        self.column_free = np.full(n, n)
        self.lines = np.arange(n)
        # per depth: its line (a row: 0, a column: 1, and which), the generator's state
        # before its shuffle, and its squares (their number, those tried)
        self.kind, self.line = np.zeros(n, dtype=np.int8), np.zeros(n, dtype=np.int64)
        self.state = np.zeros((n, 2), dtype=np.uint64)  # PCG64's 128-bit state, high and low
        self.spare = np.zeros((n, 2), dtype=np.uint64)  # its buffered 32 bits, and whether any
        self.size, self.tried = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        self.replay = np.random.Generator(type(rng.bit_generator)())
        self.shown: tuple[int, np.ndarray, np.ndarray] | None = None  # a depth's squares

    def search(self, limit: int) -> bool:
        """Depth first until a solution (True) or ``limit`` nodes (False)."""
        n = self.n
        rows, columns = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        self.open(0)
        depths, placed = 1, 0  # depths on the stack; queens placed, one per depth below
        while depths:
            if placed == depths:
                placed -= 1
                self.lift(int(rows[placed]), int(columns[placed]))
            depth = depths - 1
            left = self.size[depth] - self.tried[depth]
            if not left or self.nodes >= limit:
                depths -= 1
                if self.nodes >= limit:
                    return False
                continue
            square_rows, square_columns = self.squares(depth)
            r, c = int(square_rows[left - 1]), int(square_columns[left - 1])  # the last first
            self.tried[depth] += 1
            self.place(r, c)
            rows[placed], columns[placed] = r, c
            placed += 1
            self.nodes += 1
            if placed == n:
                return True
            if self.row_free.min() > 0 and self.column_free.min() > 0:
                self.open(depths)
                depths += 1
        return False

    def chosen_line(self) -> tuple[int, int]:
        """The most constrained row (0, its index) or column (1, its index), a tie drawn at
        random."""
        fewest = min(self.row_free.min(), self.column_free.min())
        kind = 0 if self.row_free.min() == fewest else 1
        ties = np.flatnonzero((self.row_free if kind == 0 else self.column_free) == fewest)
        return kind, int(ties[self.rng.integers(len(ties))])

    def line_squares(self, kind: int, line: int) -> tuple[np.ndarray, np.ndarray]:
        """The free squares of a row (kind 0) or a column (kind 1), in order."""
        n, lines = self.n, self.lines
        rows, columns = (np.full(n, line), lines) if kind == 0 else (lines, np.full(n, line))
        free = np.flatnonzero(self.free(rows, columns))
        return rows[free], columns[free]

    def open(self, depth: int) -> None:
        """A new depth: its line, the generator's state, its free squares shuffled."""
        kind, line = self.chosen_line()
        state = self.rng.bit_generator.state
        value = state["state"]["state"]
        self.kind[depth], self.line[depth] = kind, line
        self.state[depth] = value >> 64, value & (2**64 - 1)
        self.spare[depth] = state["uinteger"], state["has_uint32"]
        rows, columns = self.line_squares(kind, line)
        order = self.rng.permutation(len(rows))
        self.size[depth], self.tried[depth] = len(rows), 0
        self.shown = depth, rows[order], columns[order]

    def squares(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """A depth's free squares in their shuffled order, shuffled again where they are not
        at hand (the board is then the one they were shuffled on)."""
        if self.shown is None or self.shown[0] != depth:
            state = self.rng.bit_generator.state
            high, low = (int(x) for x in self.state[depth])
            state["state"]["state"] = (high << 64) | low
            state["uinteger"], state["has_uint32"] = (int(x) for x in self.spare[depth])
            self.replay.bit_generator.state = state
            rows, columns = self.line_squares(int(self.kind[depth]), int(self.line[depth]))
            order = self.replay.permutation(len(rows))
            self.shown = depth, rows[order], columns[order]
        return self.shown[1], self.shown[2]

    def choices(self) -> list[tuple[int, int]]:
        """The free squares of the most constrained row or column, in random order."""
        rows, columns = self.line_squares(*self.chosen_line())
        order = self.rng.permutation(len(rows))
        return list(zip(rows[order].tolist(), columns[order].tolist()))

    def free(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """Whether each square (rows[i], columns[i]) is on the board and free."""
        n = self.n
        inside = (columns >= 0) & (columns < n)
        c = np.where(inside, columns, 0)
        return (inside & ~self.row_used[rows] & ~self.column_used[c]
                & ~self.down_used[rows - c + n - 1] & ~self.up_used[rows + c])

    def count(self, r: int, c: int, sign: int) -> None:
        """Adds ``sign`` per free square on the row, column and diagonals through (r, c), but
        (r, c) itself, to the counts of its row and column."""
        n, lines = self.n, self.lines
        others = lines[lines != r]
        rows = np.concatenate((np.full(n - 1, r), others, others, others))
        columns = np.concatenate(
            (lines[lines != c], np.full(n - 1, c), others - r + c, r + c - others))
        free = self.free(rows, columns)
        self.row_free += sign * np.bincount(rows[free], minlength=n)
        self.column_free += sign * np.bincount(columns[free], minlength=n)

    def mark(self, r: int, c: int, used: bool) -> None:
        self.row_used[r] = self.column_used[c] = used
        self.down_used[r - c + self.n - 1] = self.up_used[r + c] = used
        self.columns[r] = c if used else -1

    def place(self, r: int, c: int) -> None:
        self.count(r, c, -1)
        self.mark(r, c, True)
        self.row_free[r] = self.column_free[c] = self.n + 1

    def lift(self, r: int, c: int) -> None:
        n, lines = self.n, self.lines
        self.mark(r, c, False)
        self.count(r, c, +1)
        self.row_free[r] = self.free(np.full(n, r), lines).sum()
        self.column_free[c] = self.free(lines, np.full(n, c)).sum()

    def placement(self) -> np.ndarray:
        """The queens placed, and the columns without a queen, in increasing order, in the
        rows without one, from the top."""
        out = self.columns.copy()
        out[out < 0] = np.flatnonzero(~self.column_used)
        return out
