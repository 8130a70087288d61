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
attacked queens, so a million queens take seconds in pure Python. The unit of work is swaps
tried: the start's draws (each a candidate swap of row i with row j) and the repair's tries.

Checked by the independent verifier (gaqueens.board) on small boards over many seeds
(tests/test_baselines.py) and on every run of a sweep, up to a million queens.
"""

from __future__ import annotations

import random
from array import array
from dataclasses import dataclass

import numpy as np

from gaqueens.board import has_solution
from gaqueens.ranges import Whole, check, setting
from gaqueens.result import Result

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


def run(settings: Settings, board: int, seed: int) -> Result:
    """Greedy starts and repairs until a solution or the budget; the final placement is
    returned with its attacking pairs, solved or not."""
    if not has_solution(board):
        raise ValueError(f"local search: board {board} has no solution (boards 2 and 3 have none)")
    rand = random.Random(seed).random
    tried = 0
    while True:
        columns, down, up, draws = _greedy_start(board, settings.start_tries, rand)
        tried += draws
        conflicts, tries = _repair(columns, down, up, rand, settings.restart_factor * board,
                                   settings.budget - tried)
        tried += tries
        if conflicts == 0 or tried >= settings.budget:
            break
    return Result(solved=conflicts == 0, conflicts=conflicts, evaluations=tried,
                  solution=np.frombuffer(columns, dtype=np.int64).copy())


def _greedy_start(n: int, tries: int, rand):
    """A permutation built row by row, each row's queen swapped in from a random later row
    until it attacks no queen above it (at most ``tries`` draws); returns the columns, the
    queens per falling (r - c + N - 1) and rising (r + c) diagonal, and the draws made."""
    columns = array("q", range(n))
    down = array("q", [0]) * (2 * n - 1)
    up = array("q", [0]) * (2 * n - 1)
    m = n - 1
    draws = 0
    for i in range(n):
        span = n - i
        for t in range(tries):
            j = i + int(rand() * span)
            c = columns[j]
            if not down[i - c + m] and not up[i + c]:
                break
        draws += t + 1
        columns[i], columns[j] = c, columns[i]
        down[i - c + m] += 1
        up[i + c] += 1
    return columns, down, up, draws


def _pairs(counts) -> int:
    k = np.frombuffer(counts, dtype=np.int64)
    return int((k * (k - 1)).sum() // 2)


def _attacked(columns, down, up) -> list[int]:
    """The rows whose queen shares a diagonal with another, in order."""
    m = len(columns) - 1
    return [i for i, c in enumerate(columns) if down[i - c + m] > 1 or up[i + c] > 1]


def _repair(columns, down, up, rand, patience: int, budget: int) -> tuple[int, int]:
    """Goes round a list of the attacked queens, each trying one swap with a random other row,
    kept when it lowers the attacking pairs; queens no longer attacked drop out, and the list
    is drawn up afresh (taking in queens that kept swaps have attacked) once none is left, or
    after a round when N/64 tries have passed since it was drawn. Stops at 0 pairs, after
    ``patience`` tries in a row without a gain, or after ``budget`` tries. Returns the pairs
    left and the tries made."""
    n = len(columns)
    m = n - 1
    conflicts = _pairs(down) + _pairs(up)
    tries = fruitless = 0
    listed = []
    since_listed = 0
    while conflicts and fruitless < patience and tries < budget:
        if not listed or since_listed >= n // 64:
            listed, since_listed = _attacked(columns, down, up), 0
        still = []
        for i in listed:
            if down[i - columns[i] + m] < 2 and up[i + columns[i]] < 2:
                continue  # no longer attacked
            j = int(rand() * m)
            j += j >= i  # a random row other than i
            tries += 1
            since_listed += 1
            change = _swap(columns, down, up, i, j)
            if change < 0:
                conflicts += change
                fruitless = 0
            else:
                _swap(columns, down, up, i, j)
                fruitless += 1
            still.append(i)
            if not conflicts or fruitless >= patience or tries >= budget:
                break
        listed = still
    return conflicts, tries


def _swap(columns, down, up, i: int, j: int) -> int:
    """Swaps the columns of rows i and j, updating the diagonal counts; returns the change in
    attacking pairs (a queen leaving a diagonal of k queens removes k - 1 pairs, one joining
    a diagonal of k queens adds k). Swapping again undoes it."""
    m = len(columns) - 1
    a, b = columns[i], columns[j]
    change = 0
    for row, col in ((i, a), (j, b)):
        down[row - col + m] -= 1
        up[row + col] -= 1
        change -= down[row - col + m] + up[row + col]
    for row, col in ((i, b), (j, a)):
        change += down[row - col + m] + up[row + col]
        down[row - col + m] += 1
        up[row + col] += 1
    columns[i], columns[j] = b, a
    return change
