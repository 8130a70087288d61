"""Min-conflicts' compiled kernel: the algorithm of gaqueens.baselines.min_conflicts in numba
(imported only inside a run; see gaqueens.core.jit for the cache).

A board is a tuple of arrays:

    columns  int32, N      the column of each row's queen
    on       int32, 5N-2   the queens on each line: column c at c, falling diagonal r - c at
                           2N - 1 + r - c, rising diagonal r + c at 3N - 1 + r + c
    rows     int32, 5N-2   the XOR of the rows of the queens on each line: the row of its queen
                           when a line holds exactly one
    free     int32, N      the columns without a queen, in any order, in free[:tally[0]]
    slot     int32, N      where each free column stands in ``free``
    tally    int64, 3      the free columns, the attacking pairs, the rows in ``listed``

with ``listed`` (int32, N) and ``flagged`` (bool, N) beside it: every attacked queen's row is
listed once (and flagged), and some listed rows may no longer be attacked. About 57 bytes a
queen.

Random numbers: SplitMix64 (Steele, Lea and Flood, OOPSLA 2014), as in
gaqueens.baselines.local_search_kernel: numba caches a kernel by the source of its own file
only, so the generator is repeated here rather than imported (tests/test_kernels.py checks that
both give SplitMix64's reference outputs).
"""

from __future__ import annotations

import numpy as np

from gaqueens.core.jit import kernel

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
FRACTION = 2.0 ** -53


@kernel
def draw(state, span):
    """The next state, and a whole number from 0 to span - 1 (a state handed back from Python
    is an int: taken as unsigned 64 bits, never mixed with GAMMA as a signed one)."""
    state = np.uint64(state) + GAMMA
    z = state
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z = z ^ (z >> np.uint64(31))
    return state, np.int64(np.float64(z >> np.uint64(11)) * FRACTION * span)


@kernel
def new_board(n):
    """An empty board: every column free."""
    free = np.arange(n).astype(np.int32)
    return (np.zeros(n, np.int32), np.zeros(5 * n - 2, np.int32),
            np.zeros(5 * n - 2, np.int32), free, free.copy(), np.array([n, 0, 0], np.int64))


@kernel
def lines(n, r, c):
    """The indices in ``on`` and ``rows`` of the column and the two diagonals of (r, c)."""
    return np.int64(c), 2 * n - 1 + r - c, 3 * n - 1 + r + c


@kernel
def place(board, r, c):
    """Puts row r's queen in column c; returns the conflicts it has there."""
    columns, on, rows, free, slot, tally = board
    a, b, d = lines(columns.shape[0], r, c)
    added = np.int64(on[a]) + on[b] + on[d]
    if on[a] == 0:
        tally[0] -= 1
        last = free[tally[0]]
        if last != c:
            free[slot[c]] = last
            slot[last] = slot[c]
    for line in (a, b, d):
        on[line] += 1
        rows[line] ^= r
    columns[r] = c
    tally[1] += added
    return added


@kernel
def lift(board, r):
    """Takes row r's queen off the board."""
    columns, on, rows, free, slot, tally = board
    c = columns[r]
    a, b, d = lines(columns.shape[0], r, c)
    for line in (a, b, d):
        on[line] -= 1
        rows[line] ^= r
    tally[1] -= np.int64(on[a]) + on[b] + on[d]
    if on[a] == 0:
        slot[c] = tally[0]
        free[tally[0]] = c
        tally[0] += 1


@kernel
def best_column(board, r, tries, state):
    """A column of row r with the fewest conflicts with the queens on the board, uniformly
    among the ties: up to ``tries`` free columns drawn at random, the first free of conflicts
    taken, else every column scanned and one of the least conflicted drawn. Returns it and the
    generator's state."""
    columns, on, rows, free, slot, tally = board
    n = columns.shape[0]
    if tally[0] > 0:
        for _ in range(tries):
            state, k = draw(state, tally[0])
            c = free[k]
            if on[2 * n - 1 + r - c] == 0 and on[3 * n - 1 + r + c] == 0:
                return np.int64(c), state
    fewest, ties = np.int64(3 * n), 0
    for c in range(n):
        conflicts = np.int64(on[c]) + on[2 * n - 1 + r - c] + on[3 * n - 1 + r + c]
        if conflicts < fewest:
            fewest, ties = conflicts, 1
        elif conflicts == fewest:
            ties += 1
    state, k = draw(state, ties)
    for c in range(n):
        if np.int64(on[c]) + on[2 * n - 1 + r - c] + on[3 * n - 1 + r + c] == fewest:
            if k == 0:
                return np.int64(c), state
            k -= 1
    return np.int64(-1), state  # not reached: the scan found ``ties`` columns


@kernel
def attacked(board, r):
    """Whether row r's queen shares a line with another."""
    columns, on = board[0], board[1]
    a, b, d = lines(columns.shape[0], r, columns[r])
    return on[a] > 1 or on[b] > 1 or on[d] > 1


@kernel
def enlist(board, listed, flagged, r):
    """Adds row r to the listed rows unless it is there."""
    tally = board[5]
    if not flagged[r]:
        flagged[r] = True
        listed[tally[2]] = r
        tally[2] += 1


@kernel
def greedy_start(board, listed, flagged, tries, state):
    """Rows 0, 1, ... each placed in a least-conflicted column; then the attacked rows listed.
    Returns the generator's state."""
    n = board[0].shape[0]
    for r in range(n):
        c, state = best_column(board, r, tries, state)
        place(board, r, c)
    flagged[:] = False
    board[5][2] = 0
    for r in range(n):
        if attacked(board, r):
            enlist(board, listed, flagged, r)
    return state


@kernel
def repair(board, listed, flagged, tries, limit, state):
    """Moves a conflicted queen, drawn uniformly, to a least-conflicted column of its row until
    no conflict is left or ``limit`` moves are made. A listed row drawn whose queen is no
    longer attacked is dropped, and the draw made again; a queen that a move attacks is
    listed: the row of the one queen on a line that the moved queen joins. Returns the moves
    made and the generator's state."""
    columns, on, rows, free, slot, tally = board
    n = columns.shape[0]
    moves = 0
    while tally[1] != 0 and moves < limit:
        state, k = draw(state, tally[2])
        r = listed[k]
        if not attacked(board, r):
            tally[2] -= 1
            listed[k] = listed[tally[2]]
            flagged[r] = False
            continue
        lift(board, r)
        c, state = best_column(board, r, tries, state)
        for line in lines(n, r, c):
            if on[line] == 1:
                enlist(board, listed, flagged, rows[line])
        place(board, r, c)
        moves += 1
    return moves, state


@kernel
def search(n, tries, restart_factor, budget, seed):
    """Greedy starts and repairs of at most ``restart_factor`` x N moves until a solution or
    ``budget`` moves (a greedy start always finishes; it counts N); returns the placement
    (int32), its attacking pairs and the moves made."""
    listed = np.empty(n, np.int32)
    flagged = np.zeros(n, np.bool_)
    state = seed
    moves = 0
    while True:
        board = new_board(n)
        state = greedy_start(board, listed, flagged, tries, state)
        moves += n
        limit = min(restart_factor * n, max(budget - moves, 0))
        made, state = repair(board, listed, flagged, tries, limit, state)
        moves += made
        if board[5][1] == 0 or moves >= budget:
            return board[0], board[5][1], moves
