"""The counter's compiled kernel: the solutions below a placement of the first rows, sorted by
the turns that leave them unchanged (gaqueens.problems.nqueens.counting says how they are spread and summed).

Bitwise, after Richards: bit c stands for column c; the columns taken and the diagonals
attacked from the rows above are masks, shifted a place per row, so a row's free columns are
one expression and each is taken as the lowest set bit. Depth first without recursion: a
stack of those masks, one entry per row. Compiled by numba without the GIL (gaqueens.core.jit), so
threads count different placements at once; boards up to 18 keep every mask within 64 bits.
"""

from __future__ import annotations

import numpy as np

from gaqueens.core.jit import kernel

DEPTH = 3  # the rows placed before the kernel starts: the tasks spread over the threads


@kernel(nogil=True)
def column(bit):
    """The column of a queen's bit."""
    c = 0
    while bit > 1:
        bit >>= 1
        c += 1
    return c


@kernel(nogil=True)
def symmetry(placed, last):
    """0 for a solution that no turn leaves unchanged, 1 for a half turn only, 2 for a quarter
    turn (and so a half turn too); ``placed`` holds the bit of each row's queen, rows and
    columns run 0..last. A half turn takes the queen (r, c) to (last - r, last - c), a quarter
    turn takes it to (c, last - r)."""
    columns = np.empty(last + 1, np.int64)
    for r in range(last + 1):
        columns[r] = column(placed[r])
    for r in range(last + 1):
        if columns[last - r] != last - columns[r]:
            return 0
    for r in range(last + 1):
        if columns[columns[r]] != last - r:
            return 1
    return 2


@kernel(nogil=True)
def count_below(n, prefix):
    """The solutions of the n x n board (n > DEPTH) whose first DEPTH rows hold the queens of
    ``prefix`` (the bit of each one's column, attacking nowhere), as three counts: unchanged by
    no turn, by a half turn only, by a quarter turn."""
    last, full = n - 1, (np.int64(1) << n) - 1
    placed = np.zeros(n, np.int64)
    free = np.zeros(n, np.int64)
    taken = np.zeros(n, np.int64)
    falling = np.zeros(n, np.int64)
    rising = np.zeros(n, np.int64)
    classes = np.zeros(3, np.int64)
    t, f, r = np.int64(0), np.int64(0), np.int64(0)
    for row in range(DEPTH):
        bit = prefix[row]
        placed[row] = bit
        t, f, r = t | bit, ((f | bit) << 1) & full, (r | bit) >> 1
    taken[DEPTH], falling[DEPTH], rising[DEPTH] = t, f, r
    free[DEPTH] = full & ~(t | f | r)
    # a half turn takes row 0's queen to the last row, mirrored: most solutions fail this
    turned = np.int64(1) << (last - column(prefix[0]))
    row = DEPTH
    while row >= DEPTH:  # a constant bound: numba then drops its checks for negative indices
        options = free[row]
        if options == 0:
            row -= 1
            continue
        bit = options & -options
        free[row] = options ^ bit
        placed[row] = bit
        if row == last:
            if bit != turned:
                classes[0] += 1
            else:
                classes[symmetry(placed, last)] += 1
            continue
        t = taken[row] | bit
        f = ((falling[row] | bit) << 1) & full
        r = (rising[row] | bit) >> 1
        row += 1
        taken[row] = t
        falling[row] = f
        rising[row] = r
        free[row] = full & ~(t | f | r)
    return classes
