"""N-Queens' fitness: the conflicts of whole generations of genomes at once, by two measures,
counting the genomes it evaluates.

A placement is a sequence of columns: entry r is the column of the queen in row r, rows and
columns numbered from 0. A genome is a permutation, so rows and columns never clash and only
the diagonals can.
"""

from __future__ import annotations

import numpy as np


FITNESSES = ("pairs", "excess")


class Conflicts:
    """The conflicts of a whole generation of genomes at once, by one of two measures.

    ``Conflicts(n)(genomes)`` takes a 2-D integer array, a permutation of 0..n-1 per row, and
    returns one count per row:

    pairs   pairs of queens sharing a diagonal: a diagonal holding k queens adds k(k-1)/2 (the
            published fitness)
    excess  queens beyond the first on each diagonal: a diagonal holding k > 0 queens adds
            k - 1 (the fitness of DEAP's own N-Queens example, examples/ga/nqueens.py)

    There are 2n-1 diagonals in each direction; both measures are 0 exactly for a solution. One
    ``np.bincount`` counts every diagonal of every row: row i has its own 4n counters, the
    falling diagonals r - c in the first 2n, the rising r + c in the next 2n. As each row's
    counts add up to 2n, the sum of k(k-1)/2 is (sum k^2 - 2n) / 2, and the sum of k - 1 over
    the diagonals in use is 2n less the number in use. The diagonal indices are written into a
    buffer kept per batch size, so one object serves one run (one thread) at a time.
    """

    def __init__(self, n: int, measure: str = "pairs"):
        if measure not in FITNESSES:
            raise ValueError(f"measure must be one of {', '.join(FITNESSES)}, got {measure!r}")
        self.n = n
        self.measure = measure
        self._buffers: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __call__(self, genomes: np.ndarray) -> np.ndarray:
        return self.measured(self.counts(genomes))

    def measured(self, counts: np.ndarray) -> np.ndarray:
        """The measure of each genome from its diagonal counters (a row each, from counts)."""
        n = self.n
        if self.measure == "excess":
            return 2 * n - np.count_nonzero(counts, axis=1)
        return (np.einsum("ij,ij->i", counts, counts) - 2 * n) // 2

    def counts(self, genomes: np.ndarray) -> np.ndarray:
        """The queens on each diagonal, a row of 4n counters per genome (the layout above)."""
        k, n = genomes.shape
        if n != self.n:
            raise ValueError(f"genomes of length {n} on a board of {self.n}")
        falling, rising, diagonals = self._buffers.get(k) or self._make_buffers(k)
        np.subtract(falling, genomes, out=diagonals[:, :n])
        np.add(rising, genomes, out=diagonals[:, n:])
        return np.bincount(diagonals.ravel(), minlength=4 * n * k).reshape(k, 4 * n)

    def _make_buffers(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.n
        rows = np.arange(n) + 4 * n * np.arange(k)[:, None]
        self._buffers[k] = (rows + (n - 1), rows + 2 * n, np.empty((k, 2 * n), dtype=np.int64))
        return self._buffers[k]


class Fitness:
    """The GA's fitness on an n x n board, counting the genomes it evaluates, as
    IOHexperimenter's problems count theirs: ``evaluations`` is what a run reports as its
    work, never a formula. ``Fitness(n, measure)(genomes)`` scores a 2-D array of genomes, a
    row each (see Conflicts for the measures)."""

    def __init__(self, n: int, measure: str = "pairs"):
        self.conflicts = Conflicts(n, measure)
        self.evaluations = 0

    def __call__(self, genomes: np.ndarray) -> np.ndarray:
        self.evaluations += len(genomes)
        return self.conflicts(genomes)
