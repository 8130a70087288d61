"""The local search's compiled kernel: the algorithm of gaqueens.baselines.local_search, step
for step, in numba (imported only inside a run).

The placement is ``columns`` (int32, the column of each row's queen), and the queens per
falling diagonal (r - c + N - 1) and per rising one (r + c) are counted in ``down`` and ``up``
(int32, 2N - 1 each); ``listed`` (int32, N) holds the attacked rows of a repair round. int32
suffices for boards up to 10^9 (an experiment allows 10^8).

Random numbers: SplitMix64 (G. L. Steele, D. Lea and C. H. Flood, "Fast splittable
pseudorandom number generators", OOPSLA 2014), its state a 64-bit integer that the functions
take and hand back. A draw below ``span`` is int(u * span), u the output's top 53 bits as a
fraction of 1, as Python's ``int(random() * span)``. The C twin (gaqueens/bench/c/) uses the
same generator and steps, so a seed gives the same run in both.
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
def greedy_start(columns, down, up, tries, state):
    """Fills ``columns`` with a permutation built row by row, each row's queen swapped in from
    a random later row until it attacks no queen above it (at most ``tries`` draws), and the
    diagonal counts; returns the draws made and the generator's state."""
    n = columns.shape[0]
    m = n - 1
    for i in range(n):
        columns[i] = i
    down[:] = 0
    up[:] = 0
    draws = 0
    for i in range(n):
        j, c, t = i, columns[i], 0
        while t < tries:
            state, k = draw(state, n - i)
            j = i + k
            c = columns[j]
            t += 1
            if down[i - c + m] == 0 and up[i + c] == 0:
                break
        draws += t
        columns[j] = columns[i]
        columns[i] = c
        down[i - c + m] += 1
        up[i + c] += 1
    return draws, state


@kernel
def pairs(counts):
    """The attacking pairs on the lines counted: k(k - 1)/2 for a line of k queens."""
    total = 0
    for k in counts:
        total += np.int64(k) * (k - 1) // 2
    return total


@kernel
def swap(columns, down, up, i, j):
    """Swaps the columns of rows i and j, updating the diagonal counts; returns the change in
    attacking pairs (a queen leaving a diagonal of k queens removes k - 1 pairs, one joining a
    diagonal of k queens adds k). Swapping again undoes it."""
    m = columns.shape[0] - 1
    a, b = columns[i], columns[j]
    down[i - a + m] -= 1
    up[i + a] -= 1
    change = -(np.int64(down[i - a + m]) + up[i + a])
    down[j - b + m] -= 1
    up[j + b] -= 1
    change -= np.int64(down[j - b + m]) + up[j + b]
    change += np.int64(down[i - b + m]) + up[i + b]
    down[i - b + m] += 1
    up[i + b] += 1
    change += np.int64(down[j - a + m]) + up[j + a]
    down[j - a + m] += 1
    up[j + a] += 1
    columns[i] = b
    columns[j] = a
    return change


@kernel
def attacked(columns, down, up, listed):
    """Writes the rows whose queen shares a diagonal with another into ``listed``, in order;
    returns how many."""
    m = columns.shape[0] - 1
    count = 0
    for i in range(columns.shape[0]):
        c = columns[i]
        if down[i - c + m] > 1 or up[i + c] > 1:
            listed[count] = i
            count += 1
    return count


@kernel
def repair(columns, down, up, listed, patience, budget, state):
    """Rounds over the attacked queens, each trying one swap with a random other row, kept when
    it lowers the attacking pairs; queens no longer attacked drop out of the list, drawn up
    afresh once none is left or, after a round, when N/64 tries have passed since it was. Stops
    at 0 pairs, after ``patience`` tries in a row without a gain, or after ``budget`` tries.
    Returns the pairs left, the tries made and the generator's state."""
    n = columns.shape[0]
    m = n - 1
    conflicts = pairs(down) + pairs(up)
    tries = fruitless = count = since = 0
    while conflicts != 0 and fruitless < patience and tries < budget:
        if count == 0 or since >= n // 64:
            count = attacked(columns, down, up, listed)
            since = 0
        kept = 0
        for k in range(count):
            i = listed[k]
            c = columns[i]
            if down[i - c + m] < 2 and up[i + c] < 2:
                continue  # no longer attacked
            state, j = draw(state, m)
            if j >= i:
                j += 1  # a random row other than i
            tries += 1
            since += 1
            change = swap(columns, down, up, i, j)
            if change < 0:
                conflicts += change
                fruitless = 0
            else:
                swap(columns, down, up, i, j)
                fruitless += 1
            listed[kept] = i
            kept += 1
            if conflicts == 0 or fruitless >= patience or tries >= budget:
                break
        count = kept
    return conflicts, tries, state


@kernel
def solve(columns, listed, down, up, tries, patience, budget, seed):
    """Greedy starts and repairs on the arrays given (``search`` makes them) until a solution
    or ``budget`` swaps tried (a greedy start always finishes); returns the attacking pairs
    left and the swaps tried, the placement in ``columns``."""
    state = seed
    tried = 0
    while True:
        draws, state = greedy_start(columns, down, up, tries, state)
        tried += draws
        conflicts, made, state = repair(columns, down, up, listed, patience, budget - tried,
                                        state)
        tried += made
        if conflicts == 0 or tried >= budget:
            return conflicts, tried


def search(n, tries, patience, budget, seed):
    """The search on N queens; returns the placement (int32), its attacking pairs and the
    swaps tried. The arrays are numpy's, made here rather than in compiled code, so that
    Linux may back large ones with transparent huge pages (numpy asks for them, numba does not)."""
    columns, listed = np.empty(n, np.int32), np.empty(n, np.int32)
    down, up = np.empty(2 * n - 1, np.int32), np.empty(2 * n - 1, np.int32)
    conflicts, tried = solve(columns, listed, down, up, tries, patience, budget, seed)
    return columns, conflicts, tried
