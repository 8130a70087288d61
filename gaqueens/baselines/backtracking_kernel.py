"""Plain backtracking's compiled kernel: the search of gaqueens.baselines.backtracking, node for
node, in O(N) memory (numba, imported only inside a run).

The state is the column of each row's queen (``placed``, int32, N) and three bit sets, a
64-bit word per 64 lines: the columns in use (bit c), the falling diagonals in use (bit
c - r + N - 1, so that the diagonals seen from one row are consecutive bits along its
columns) and the rising ones (bit r + c). The free columns of row r among columns 64w to
64w + 63 are then one word: the complement of the columns' word w or-ed with the 64
diagonal bits that start at 64w - r + N - 1 and 64w + r, read from two neighbouring words
each. A row's search resumes after the column its queen last took (columns are tried in
increasing order), so each row needs one number, not a mask of its untried columns.

``pairs`` counts a placement's attacking pairs in two int32 arrays of 2N - 1 counters, so
that the construction and both backtrackings count the permutations they report without the
fitness's int64 index arrays.
"""

from __future__ import annotations

import numpy as np

from gaqueens.core.jit import kernel

ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
# the index of the lowest set bit of x, by (x & -x) * DE_BRUIJN >> 58 (Leiserson, Prokop and
# Randall, "Using de Bruijn sequences to index a 1 in a computer word", 1998)
LOWEST = np.zeros(64, np.int64)
for _bit in range(64):
    LOWEST[((int(DE_BRUIJN) << _bit) & 0xFFFFFFFFFFFFFFFF) >> 58] = _bit
del _bit


@kernel
def word(bits, offset):
    """The 64 bits of ``bits`` from bit ``offset`` on, bit ``offset`` as bit 0."""
    q = offset >> 6
    s = np.uint64(offset & 63)
    if s == 0:
        return bits[q]
    return (bits[q] >> s) | (bits[q + 1] << (np.uint64(64) - s))


@kernel
def first_free(columns, down, up, n, r, start, lead):
    """The first column from ``start`` on that no queen of the rows above row r attacks, or
    -1; the column words before ``lead`` are full (every column in use), and skipped."""
    words = columns.shape[0]
    w = max(start >> 6, lead)
    while w < words:
        base = w << 6
        free = ~(columns[w] | word(down, base - r + n - 1) | word(up, base + r))
        if w == start >> 6:
            free &= ~((ONE << np.uint64(start & 63)) - ONE)
        if base + 64 > n:
            free &= (ONE << np.uint64(n - base)) - ONE
        if free != 0:
            low = free & (~free + ONE)
            return base + LOWEST[(low * DE_BRUIJN) >> np.uint64(58)]
        w += 1
    return -1


@kernel
def mark(bits, index, used):
    if used:
        bits[index >> 6] |= ONE << np.uint64(index & 63)
    else:
        bits[index >> 6] &= ALL ^ (ONE << np.uint64(index & 63))


@kernel
def search(n, budget, placed):
    """Depth first, a queen a row, columns in increasing order, until the first solution or
    ``budget`` nodes (queens placed). Writes the columns of the rows placed into ``placed``
    and returns how many rows hold a queen (n when solved) and the nodes spent."""
    words = (n + 63) // 64
    columns = np.zeros(words, np.uint64)
    down = np.zeros(words + n // 64 + 3, np.uint64)
    up = np.zeros(words + n // 64 + 3, np.uint64)
    row = 0
    nodes = 0
    start = 0
    lead = 0  # the first column word with a column not in use
    while True:
        c = first_free(columns, down, up, n, row, start, lead)
        if c < 0:  # no column left in this row: back to the row above
            row -= 1
            if row < 0:
                return 0, nodes  # no solution (not reached on boards that have one)
            c = placed[row]
            mark(columns, c, False)
            lead = min(lead, c >> 6)
            mark(down, c - row + n - 1, False)
            mark(up, row + c, False)
            start = c + 1
            continue
        if nodes == budget:
            return row, nodes
        placed[row] = c
        nodes += 1
        if row == n - 1:
            return n, nodes
        mark(columns, c, True)
        while lead < words and columns[lead] == ALL:
            lead += 1
        mark(down, c - row + n - 1, True)
        mark(up, row + c, True)
        row += 1
        start = 0


@kernel
def pairs(placement):
    """The pairs of queens of a permutation that share a diagonal: k(k - 1)/2 for a diagonal
    of k queens, counted in int32 a direction at a time."""
    n = placement.shape[0]
    counts = np.zeros(max(2 * n - 1, 1), np.int32)
    total = 0
    for direction in range(2):
        counts[:] = 0
        for r in range(n):
            index = r + placement[r] if direction else r - placement[r] + n - 1
            total += counts[index]  # the queen joins k earlier ones: k more pairs
            counts[index] += 1
    return total
