"""A swap child's conflicts from its parent's diagonal counts (a swap touches at most eight
diagonals) instead of a recount: what NQueens.ga_swaps gives the GA's numpy step for the
published family (gaqueens.ga.generation says what it is). tests/test_swap_conflicts.py checks
it against the N-Queens Conflicts, the full count."""

from __future__ import annotations

from functools import cache

import numpy as np

from gaqueens.problems.nqueens.fitness import FITNESSES, Conflicts


class SwapConflicts:
    """The conflicts of swap children from their parents' diagonal counts, not recounted.

    A genome's diagonal counters are the queens on each diagonal, 4n of them in the layout of
    Conflicts.counts (falling diagonal r - c at r - c + n - 1, rising r + c at r + c + 2n).
    Swapping the entries ci, cj of rows i and j moves two queens: off the falling diagonals
    i - ci, j - cj and the rising i + ci, j + cj, onto i - cj, j - ci and i + cj, j + ci. Only
    these eight counters change, and no diagonal is both left and entered (that would need
    i = j or ci = cj). The two left falling diagonals coincide exactly when the two entered
    rising ones do (i - ci = j - cj), and the two left rising exactly when the two entered
    falling do (i + ci = j + cj): when the two queens attack each other diagonally. Leaving a
    diagonal of k queens loses k - 1 attacking pairs, entering one of k gains k, one queen at a
    time, so the change of the pairs is

        (the 4 entered counts) - (the 4 left counts) + 4 + 2 [the two queens attack]

    and of the excess (queens beyond the first on each diagonal): +1 per entered diagonal
    holding a queen, -1 per left diagonal holding two or more, and for a coinciding pair +1
    where the left diagonal holds exactly two and +1 where the entered one is empty.

    Arrays of many swaps are planes, the first axis naming the part: ``positions`` [i, j] and
    ``columns`` [ci, cj] of shape (2, ...); ``diagonals`` gives the eight counters (8, ...):
    the falling left by the queens of rows i and j, the rising left, the falling entered and
    the rising entered; ``change`` the change of the measure from those counters' counts;
    ``move`` makes the swaps in a flat array of counters; ``counts`` gives a genome's.
    """

    def __init__(self, n: int, measure: str = "pairs"):
        if measure not in FITNESSES:
            raise ValueError(f"measure must be one of {', '.join(FITNESSES)}, got {measure!r}")
        self.n, self.measure = n, measure
        self.conflicts = Conflicts(n, measure)
        # four counts of at most n each, summed in the smallest type holding them
        self.sum_type = np.int16 if 4 * n < 2**15 else np.int64
        # the change's 4, and 6 for two queens that attack each other: looked up by ``attack``,
        # one call instead of np.where(attack, 6, 4)
        self.constant = np.array([4, 6], dtype=self.sum_type)

    def counts(self, genomes: np.ndarray) -> np.ndarray:
        """Each genome's diagonal counters, a row of 4n each (Conflicts.counts)."""
        return self.conflicts.counts(genomes)

    def diagonals(self, positions: np.ndarray, columns: np.ndarray, offset=0) -> np.ndarray:
        """The eight counters of each swap (8, ...), plus ``offset``: where each genome's
        counters start in a flat array of them."""
        falling = positions + (offset + self.n - 1)
        rising = falling + (self.n + 1)
        columns = columns.astype(falling.dtype)  # one cast: a ufunc mixing types costs more
        out = np.empty((8, *positions.shape[1:]), dtype=np.int64)
        np.subtract(falling, columns, out=out[0:2])
        np.add(rising, columns, out=out[2:4])
        columns = columns[::-1]
        np.subtract(falling, columns, out=out[4:6])
        np.add(rising, columns, out=out[6:8])
        return out

    def change(self, counts: np.ndarray, diagonals: np.ndarray) -> np.ndarray:
        """The change of the measure for swaps whose eight counters (``diagonals``, with any
        offset) hold ``counts`` (8, ...)."""
        attack = diagonals[0] == diagonals[1]  # the left falling counters coincide
        rising = diagonals[2] == diagonals[3]  # or the left rising ones
        if self.measure == "pairs":
            attack |= rising
            sums = counts.reshape(2, 4, *counts.shape[1:]).sum(axis=1, dtype=self.sum_type)
            change = self.constant.take(attack.view(np.uint8))  # 4, or 6 where they attack
            change += sums[1]  # plus the entered counts, less the left ones
            change -= sums[0]
            return change
        counts = counts.astype(np.int64)
        return ((counts[4:] >= 1).sum(axis=0) - (counts[:4] >= 2).sum(axis=0)
                + attack * ((counts[0] == 2).astype(np.int64) + (counts[6] == 0))
                + rising * ((counts[2] == 2).astype(np.int64) + (counts[4] == 0)))

    def move(self, flat: np.ndarray, diagonals: np.ndarray) -> None:
        """Makes the swaps in ``flat``, a 1-D array of counters, ``diagonals`` (8, ...) being
        each swap's counters in it with their offset (no two swaps on one genome), -1 where
        left (the type's wrap-around for unsigned counters) and +1 where entered. The counters
        of row i (the even ones) are four different counters, and so are those of row j (the
        odd ones): only the two rows' may coincide. Fewer than FEW_SWAPS swaps change in one
        np.add.at, which adds as often as a counter is named; more, each row's four at once
        (a fancy-indexed sum adds once however often a counter is named)."""
        if diagonals[0].size < FEW_SWAPS:
            np.add.at(flat, diagonals, _signs(flat.dtype, diagonals.ndim, 2))
            return
        signs = _signs(flat.dtype, diagonals.ndim)
        flat[diagonals[0::2]] += signs
        flat[diagonals[1::2]] += signs


FEW_SWAPS = 80  # below this, move's one np.add.at costs less than its two fancy-indexed sums


@cache
def _signs(dtype: np.dtype, ndim: int, rows: int = 1) -> np.ndarray:
    """-1, -1, +1, +1 in ``dtype`` (wrapping round for unsigned types), as a column of ``ndim``
    axes: a row's left counters and its entered ones; with ``rows`` 2, each twice in turn, for
    the eight counters of both rows."""
    return np.repeat(np.array([-1, -1, 1, 1]), rows).astype(dtype).reshape(
        4 * rows, *[1] * (ndim - 1))
