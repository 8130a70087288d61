"""The N-Queens board: the GA's batched fitness, an independent verifier, and the facts of the
published table.

A placement is a sequence of columns: entry r is the column of the queen in row r, rows and
columns numbered from 0. A genome is a permutation, so rows and columns never clash and only
the diagonals can; the verifier assumes nothing and checks columns as well.
"""

from __future__ import annotations

import csv
from collections import Counter
from functools import cache
from importlib import resources

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


def attacking_pairs(columns) -> int:
    """The pairs of queens that attack each other along a column or a diagonal, counted in
    plain Python (a Counter per line), independently of :class:`Conflicts`."""
    columns = [int(c) for c in columns]
    lines = (
        Counter(columns),
        Counter(r - c for r, c in enumerate(columns)),
        Counter(r + c for r, c in enumerate(columns)),
    )
    return sum(k * (k - 1) // 2 for line in lines for k in line.values())


def diagonal_excess(columns) -> int:
    """The queens beyond the first on each line (column, falling and rising diagonal), counted
    in plain Python, independently of :class:`Conflicts`; for a permutation, the ``excess``
    fitness."""
    columns = [int(c) for c in columns]
    lines = (
        Counter(columns),
        Counter(r - c for r, c in enumerate(columns)),
        Counter(r + c for r, c in enumerate(columns)),
    )
    return sum(k - 1 for line in lines for k in line.values())


def is_solution(columns, n: int) -> bool:
    """True when ``columns`` places n queens, one per row, that attack nowhere: every column,
    every falling and every rising diagonal used once, checked with sets."""
    columns = [int(c) for c in columns]
    return (
        len(columns) == n
        and set(columns) == set(range(n))
        and len({r - c for r, c in enumerate(columns)}) == n
        and len({r + c for r, c in enumerate(columns)}) == n
    )


def rejection(columns, n: int, conflicts: int, solved: bool, target: int = 0,
              fitness: str = "pairs") -> str | None:
    """What the verifier finds wrong with a run's claims about its final placement, or None
    when it confirms them: n columns, each from 0 to n-1 (min-conflicts lets columns clash
    until it solves the board; for a GA genome that is not a permutation the recount of the
    pairs, columns included, disagrees), ``conflicts`` attacking pairs, and ``solved`` exactly
    when its ``fitness`` (pairs, or excess) is at most ``target``."""
    if len(columns) != n:
        return f"it reports {len(columns)} columns on a board of {n}"
    if any(not 0 <= int(c) < n for c in columns):
        return f"its placement has a column outside 0..{n - 1}"
    pairs = attacking_pairs(columns)
    measured = pairs if fitness == "pairs" else diagonal_excess(columns)
    if pairs != conflicts or bool(solved) != (measured <= target):
        return (f"it reports {conflicts} conflicts (solved: {solved}), the verifier counts {pairs}"
                + ("" if fitness == "pairs" else f" ({measured} by the {fitness} fitness)"))
    if solved and target == 0 and not is_solution(columns, n):
        return "it reports a solution that the verifier rejects"
    return None


def mean_attacking_pairs(n: int) -> float:
    """The mean attacking pairs of a uniformly random permutation, (2n-1)/3 for n >= 2.

    Rows i < j at distance d clash when their columns differ by exactly d, with probability
    2(n-d) / (n(n-1)); summing (n-d) such pairs over d = 1..n-1 gives (2n-1)/3.
    """
    return (2 * n - 1) / 3 if n >= 2 else 0.0


@cache
def _known_counts() -> dict[int, tuple[int, int]]:
    text = resources.files("gaqueens").joinpath("data/solution-counts.csv").read_text("utf-8")
    return {
        int(row["board"]): (int(row["all"]), int(row["fundamental"]))
        for row in csv.DictReader(text.splitlines())
    }


def known_solutions(n: int) -> tuple[int, int] | None:
    """(all, fundamental) solutions of the n x n board from the shipped table (OEIS A000170
    and A002562, n = 1..27), or None where nobody has counted them."""
    return _known_counts().get(n)


def has_solution(n: int) -> bool:
    """Every board but 2 and 3 has a solution (1 trivially, 4 and up by construction)."""
    return n not in (2, 3)


def drawing(columns) -> str:
    """The board in text, a line per row from row 0, Q for a queen and . for an empty square."""
    n = len(columns)
    return "\n".join(" ".join("Q" if c == col else "." for c in range(n)) for col in columns)
