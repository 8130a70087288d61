"""Counting every solution of small boards, and the fundamental ones, bitwise, on every core.

Source: M. Richards, "Backtracking algorithms in MCPL using bit patterns and recursion" (1997):
a queen per row, the columns and the two diagonals attacked from above kept as bit masks
(bit c for column c), shifted a place per row, so a row's free columns are one expression
and each is taken as the lowest set bit. The search is compiled (numba, in
gaqueens.problems.nqueens.counting_kernel, imported only when counting).

Halving by the mirror: reflecting a solution left to right gives another, with its first
queen on the other side, so only solutions whose first queen lies in the left half are
enumerated, each standing for two; with N odd and the first queen in the middle column, the
second queen is kept to the left half instead.

Spread over the cores by placements of the first rows: every way of placing the first
queen in the left half (or the middle) and the next two rows' queens so that none attacks
another is a task, about N^3/4 of them, small enough to share the cores evenly and to stop
soon after Ctrl-C. Threads take the tasks in turn and run the kernel without the GIL; the
counts are summed, so they do not depend on the order or the number of threads.

Fundamental solutions (classes under the 8 symmetries of the square): no solution with N > 1
is its own reflection in a vertical, horizontal or diagonal axis, so the class of a solution
has 8 members, or 4 when a half turn leaves it unchanged, or 2 when a quarter turn does; the
fundamental count is the sum of 1/8, 1/4 or 1/2 over all solutions.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def tasks(n: int, depth: int) -> list[list[int]]:
    """The placements of the first ``depth`` rows (the bit of each queen's column) that attack
    nowhere, the first queen in the left half, or in the middle with the second left of it."""
    full, half = (1 << n) - 1, n // 2
    found = []

    def extend(prefix, taken, falling, rising):
        if len(prefix) == depth:
            found.append(prefix)
            return
        free = full & ~(taken | falling | rising)
        if not prefix:
            free &= (1 << (half + n % 2)) - 1  # the left half, and the middle when N is odd
        elif len(prefix) == 1 and prefix[0] == 1 << half and n % 2:
            free &= (1 << half) - 1
        while free:
            bit = free & -free
            free ^= bit
            extend(prefix + [bit], taken | bit, ((falling | bit) << 1) & full,
                   (rising | bit) >> 1)

    extend([], 0, 0, 0)
    return found


def count(n: int, workers: int | None = None) -> tuple[int, int]:
    """(all, fundamental) solutions of the n x n board, 1 <= n <= 18, on ``workers`` threads
    (default: every core). Ctrl-C stops it within a task's time: KeyboardInterrupt."""
    if n < 1:
        raise ValueError(f"a board has at least one row, got {n}")
    if n > 18:
        raise ValueError(f"boards up to 18 are counted (64-bit masks), got {n}")
    if n == 1:
        return 1, 1
    if n <= 3:
        return 0, 0
    import numpy as np

    from gaqueens.problems.nqueens.counting_kernel import DEPTH, count_below

    prefixes = [np.array(prefix, dtype=np.int64) for prefix in tasks(n, DEPTH)]
    pool = ThreadPoolExecutor(max_workers=workers or cores())
    try:
        by_class = sum(pool.map(lambda prefix: count_below(n, prefix), prefixes))
    finally:  # on Ctrl-C too: drop the tasks not started, let the running ones end
        pool.shutdown(wait=False, cancel_futures=True)
    # enumerated solutions unchanged by: no turn, a half turn, a quarter turn
    turnless, half_turn, quarter_turn = (int(k) for k in by_class)
    every = 2 * (turnless + half_turn + quarter_turn)  # each one and its mirror image
    fundamental = 2 * (turnless + 2 * half_turn + 4 * quarter_turn) // 8
    return every, fundamental
