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


class Conflicts:
    """Pairs of queens sharing a diagonal, for a whole generation of genomes at once.

    ``Conflicts(n)(genomes)`` takes a 2-D integer array, a permutation of 0..n-1 per row, and
    returns one count per row. A diagonal holding k queens adds k(k-1)/2; there are 2n-1
    diagonals in each direction. One ``np.bincount`` counts every diagonal of every row: row i
    has its own 4n counters, the falling diagonals r - c in the first 2n, the rising r + c in
    the next 2n. As each row's counts add up to 2n, the sum of k(k-1)/2 is (sum k^2 - 2n) / 2.
    The diagonal indices are written into a buffer kept per batch size, so one object serves
    one run (one thread) at a time.
    """

    def __init__(self, n: int):
        self.n = n
        self._buffers: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __call__(self, genomes: np.ndarray) -> np.ndarray:
        k, n = genomes.shape
        if n != self.n:
            raise ValueError(f"genomes of length {n} on a board of {self.n}")
        falling, rising, diagonals = self._buffers.get(k) or self._make_buffers(k)
        np.subtract(falling, genomes, out=diagonals[:, :n])
        np.add(rising, genomes, out=diagonals[:, n:])
        counts = np.bincount(diagonals.ravel(), minlength=4 * n * k).reshape(k, 4 * n)
        return (np.einsum("ij,ij->i", counts, counts) - 2 * n) // 2

    def _make_buffers(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.n
        rows = np.arange(n) + 4 * n * np.arange(k)[:, None]
        self._buffers[k] = (rows + (n - 1), rows + 2 * n, np.empty((k, 2 * n), dtype=np.int64))
        return self._buffers[k]


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


def rejection(columns, n: int, conflicts: int, solved: bool, target: int = 0) -> str | None:
    """What the verifier finds wrong with a run's claims about its final placement (n
    columns, ``conflicts`` attacking pairs, ``solved`` when they are at most ``target``), or
    None when it confirms them."""
    if len(columns) != n:
        return f"it reports {len(columns)} columns on a board of {n}"
    pairs = attacking_pairs(columns)
    if pairs != conflicts or bool(solved) != (pairs <= target):
        return f"it reports {conflicts} conflicts (solved: {solved}), the verifier counts {pairs}"
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
