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
    ``move`` makes the swaps in a flat array of counters. tests/test_swap_conflicts.py checks
    them against Conflicts on random permutations and swaps (hypothesis).
    """

    WEIGHTS = np.array([-1, -1, -1, -1, 1, 1, 1, 1])  # the left counters, then the entered

    def __init__(self, n: int, measure: str = "pairs"):
        if measure not in FITNESSES:
            raise ValueError(f"measure must be one of {', '.join(FITNESSES)}, got {measure!r}")
        self.n, self.measure = n, measure
        self.conflicts = Conflicts(n, measure)

    def diagonals(self, positions: np.ndarray, columns: np.ndarray, offset=0) -> np.ndarray:
        """The eight counters of each swap (8, ...), plus ``offset``. ``positions`` may be
        given as where the two entries are in a flat array, and ``offset`` then says where a
        genome's counters start, relative to its first entry."""
        falling = positions + (offset + self.n - 1)
        rising = falling + (self.n + 1)
        out = np.empty((8, *positions.shape[1:]), dtype=np.int64)
        np.subtract(falling, columns, out=out[0:2])
        np.add(rising, columns, out=out[2:4])
        np.subtract(falling, columns[::-1], out=out[4:6])
        np.add(rising, columns[::-1], out=out[6:8])
        return out

    def change(self, counts: np.ndarray, diagonals: np.ndarray) -> np.ndarray:
        """The change of the measure for swaps whose eight counters (``diagonals``, with any
        offset) hold ``counts`` (8, ...)."""
        attack = diagonals[0] == diagonals[1]  # the left falling counters coincide
        rising = diagonals[2] == diagonals[3]  # or the left rising ones
        if self.measure == "pairs":
            attack |= rising
            change = (self.WEIGHTS @ counts.reshape(8, -1)).reshape(counts.shape[1:])
            change += np.where(attack, 6, 4)
            return change
        counts = counts.astype(np.int64)
        return ((counts[4:] >= 1).sum(axis=0) - (counts[:4] >= 2).sum(axis=0)
                + attack * ((counts[0] == 2).astype(np.int64) + (counts[6] == 0))
                + rising * ((counts[2] == 2).astype(np.int64) + (counts[4] == 0)))

    def move(self, flat: np.ndarray, diagonals: np.ndarray) -> None:
        """Makes the swaps in ``flat``, a 1-D array of counters, ``diagonals`` (8, ...) being
        each swap's counters in it with their offset (no two swaps on one genome)."""
        for left in (diagonals[0:4:2], diagonals[1:4:2]):  # a pair may share a counter
            flat[left] -= 1
        for entered in (diagonals[4::2], diagonals[5::2]):
            flat[entered] += 1


class RunsFitness:
    """The GA's fitness for several runs at once (gaqueens.ga.batched), counting per run as
    Fitness counts for one: ``evaluations[r]`` is the genomes scored for the run in place r.
    ``whole`` scores whole genomes; ``children`` swap children from their parents' counters
    (SwapConflicts); ``keep`` drops the runs that ended, as the runs' arrays drop them."""

    def __init__(self, n: int, measure: str, runs: int):
        self.swaps = SwapConflicts(n, measure)
        self.evaluations = np.zeros(runs, dtype=np.int64)

    def whole(self, genomes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The fitness (runs, k) and the diagonal counters (runs * k, 4n) of genomes of shape
        (runs, k, n)."""
        count, k, n = genomes.shape
        self.evaluations += k
        conflicts = self.swaps.conflicts
        counts = conflicts.counts(genomes.reshape(count * k, n))
        return conflicts.measured(counts).reshape(count, k), counts

    def children(self, parent_values, counts, diagonals) -> np.ndarray:
        """The fitness of swap children (runs, k), from their parents' fitness (runs, k) and
        the counts (8, runs, k) of their swaps' ``diagonals``."""
        self.evaluations += parent_values.shape[1]
        return parent_values + self.swaps.change(counts, diagonals)

    def keep(self, running: np.ndarray) -> None:
        """Keeps the counts of the runs in places ``running`` (a mask), in their order."""
        self.evaluations = self.evaluations[running]


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
