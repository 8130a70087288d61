"""Counting every solution of small boards, and the fundamental ones, bitwise.

Source: M. Richards, "Backtracking algorithms in MCPL using bit patterns and recursion" (1997):
a queen per row, the columns and the two diagonals attacked from above kept as bit masks
(bit c for column c), shifted a place per row, so a row's free columns are one expression
and each is taken as the lowest set bit.

Halving by the mirror: reflecting a solution left to right gives another, with its first
queen on the other side, so only solutions whose first queen lies in the left half are
enumerated, each standing for two; with N odd and the first queen in the middle column, the
second queen is kept to the left half instead.

Fundamental solutions (classes under the 8 symmetries of the square): no solution with N > 1
is its own reflection in a vertical, horizontal or diagonal axis, so the class of a solution
has 8 members, or 4 when a half turn leaves it unchanged, or 2 when a quarter turn does; the
fundamental count is the sum of 1/8, 1/4 or 1/2 over all solutions. The claim about
reflections is checked by brute force on small boards in tests/test_counting.py, and both
counts against the shipped table (OEIS A000170, A002562) for N = 1 to 11 in the tests and to
14 by running ``python -m gaqueens.count``.
"""

from __future__ import annotations


def count(n: int) -> tuple[int, int]:
    """(all, fundamental) solutions of the n x n board, n >= 1."""
    if n < 1:
        raise ValueError(f"a board has at least one row, got {n}")
    if n == 1:
        return 1, 1
    full, last, half = (1 << n) - 1, n - 1, n // 2
    placed = [0] * n  # the bit of each row's queen on the current path
    by_class = [0, 0, 0]  # enumerated solutions unchanged by: no turn, a half turn, a quarter turn

    def place(row: int, taken: int, falling: int, rising: int) -> None:
        free = full & ~(taken | falling | rising)
        while free:
            bit = free & -free
            free ^= bit
            placed[row] = bit
            if row == last:
                by_class[_symmetry(placed, last)] += 1
            else:
                place(row + 1, taken | bit, (falling | bit) << 1, (rising | bit) >> 1)

    for column in range(half):
        bit = placed[0] = 1 << column
        place(1, bit, bit << 1, bit >> 1)
    if n % 2:
        middle = placed[0] = 1 << half
        second = full & ~(middle | middle << 1 | middle >> 1) & (middle - 1)
        while second:
            bit = second & -second
            second ^= bit
            placed[1] = bit
            place(2, middle | bit, (middle << 1 | bit) << 1, (middle >> 1 | bit) >> 1)
    turnless, half_turn, quarter_turn = by_class
    every = 2 * sum(by_class)  # each enumerated solution and its mirror image
    fundamental = 2 * (turnless + 2 * half_turn + 4 * quarter_turn) // 8
    return every, fundamental


def _symmetry(placed: list[int], last: int) -> int:
    """0 for a solution that no turn leaves unchanged, 1 for a half turn only, 2 for a
    quarter turn (and so a half turn too). Rows and columns run 0..last; a half turn takes
    the queen (r, c) to (last - r, last - c), a quarter turn takes it to (c, last - r)."""
    if placed[last].bit_length() + placed[0].bit_length() != last + 2:
        return 0  # refuses almost every solution at once: the first and last rows disagree
    columns = [bit.bit_length() - 1 for bit in placed]
    if any(columns[last - r] != last - c for r, c in enumerate(columns)):
        return 0
    return 2 if all(columns[c] == last - r for r, c in enumerate(columns)) else 1
