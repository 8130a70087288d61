"""The GA's operators, by the names experiment files give them.

Each is a small frozen value, checked when an experiment file is loaded, that works on a whole
generation: a population is a 2-D array with a genome per row. Selection and the published swap
mutation are written with numpy over the generation, as DEAP's per-individual versions would
cost more than the batched fitness itself; the other permutation operators are DEAP's own,
applied row by row. Every operator draws from the run's ``Randomness``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from deap import tools

from gaqueens.ga.randomness import Randomness
from gaqueens.ranges import Number, Whole, check, setting


# ---- parent selection: (conflicts of the population, how many, randomness) -> row indices --


@dataclass(frozen=True)
class Tournament:
    """Each parent is the best of ``size`` individuals drawn uniformly with replacement; on a
    tie the first drawn wins, as in DEAP's tools.selTournament. size 1 to 1,000; 2 is published."""

    size: int = setting(2, Whole(1, 1000))

    def __post_init__(self):
        check(self)

    def __call__(self, conflicts: np.ndarray, count: int, randomness: Randomness) -> np.ndarray:
        drawn = randomness.integers(0, len(conflicts), (count, self.size))
        return drawn[_range(count), conflicts[drawn].argmin(axis=1)]


@dataclass(frozen=True)
class Uniform:
    """Parents drawn uniformly with replacement, fitness ignored, as DEAP's algorithms.varOr
    picks them."""

    def __call__(self, conflicts: np.ndarray, count: int, randomness: Randomness) -> np.ndarray:
        return randomness.integers(0, len(conflicts), count)


# ---- crossover: children in place, in pairs (rows 0-1, 2-3, ...) ----------------------------


@dataclass(frozen=True)
class NoCrossover:
    """Children are copies of their parents until mutated (the published setting)."""

    def __call__(self, children: np.ndarray, randomness: Randomness) -> None:
        pass


@dataclass(frozen=True)
class _DeapCrossover:
    """Each pair of children is crossed over with probability ``rate`` (0 to 1, 0.9 by default) by a DEAP
    permutation crossover, as DEAP's algorithms.varAnd pairs them."""

    rate: float = setting(0.9, Number(0, 1))

    def __post_init__(self):
        check(self)

    def __call__(self, children: np.ndarray, randomness: Randomness) -> None:
        operator = randomness.deap(self.operator)
        for i in range(0, len(children) - 1, 2):
            if randomness.random.random() < self.rate:
                first, second = children[i].tolist(), children[i + 1].tolist()
                operator(first, second)
                children[i], children[i + 1] = first, second


@dataclass(frozen=True)
class Pmx(_DeapCrossover):
    """Partially matched crossover (Goldberg and Lingle 1985): DEAP's tools.cxPartialyMatched."""

    operator = staticmethod(tools.cxPartialyMatched)


@dataclass(frozen=True)
class Ordered(_DeapCrossover):
    """Ordered crossover (Davis 1985): DEAP's tools.cxOrdered."""

    operator = staticmethod(tools.cxOrdered)


# ---- mutation: every child in place ---------------------------------------------------------


@dataclass(frozen=True)
class Swap:
    """Swaps the entries of two distinct positions, drawn uniformly, ``count`` times in each
    child; count 1 to 1,000, and 1 is the published mutation. Two queens trade columns, so the genome
    stays a permutation."""

    count: int = setting(1, Whole(1, 1000))

    def __post_init__(self):
        check(self)

    def __call__(self, children: np.ndarray, randomness: Randomness) -> None:
        if not children.flags.c_contiguous:
            raise ValueError("Swap works on a C-contiguous array of genomes, as the GA makes")
        k, n = children.shape
        starts = _row_starts(k, n)
        flat = children.reshape(-1)  # a view, as the array is contiguous
        for _ in range(self.count):
            i = randomness.integers(0, n, k)
            j = randomness.integers(0, n - 1, k)
            first, second = starts + i, starts + j + (j >= i)  # j: a position other than i
            flat[first], flat[second] = flat[second], flat[first]


@dataclass(frozen=True)
class Shuffle:
    """DEAP's tools.mutShuffleIndexes: each position is swapped with another, drawn uniformly,
    with probability ``indpb`` (above 0, at most 1; 0.05 by default)."""

    indpb: float = setting(0.05, Number(0, 1, open_minimum=True))

    def __post_init__(self):
        check(self)

    def __call__(self, children: np.ndarray, randomness: Randomness) -> None:
        shuffle = randomness.deap(tools.mutShuffleIndexes)
        for i, row in enumerate(children):
            genome = row.tolist()
            shuffle(genome, self.indpb)
            children[i] = genome


@cache
def _range(count: int) -> np.ndarray:
    return np.arange(count)


@cache
def _row_starts(rows: int, length: int) -> np.ndarray:
    """Where each row of a (rows, length) array starts in the flat array."""
    return np.arange(0, rows * length, length)


# ---- the registries: YAML name -> operator class ---------------------------------------------

SELECT = {"tournament": Tournament, "uniform": Uniform}
CROSSOVER = {"none": NoCrossover, "pmx": Pmx, "ordered": Ordered}
MUTATION = {"swap": Swap, "shuffle": Shuffle}
Selection = Tournament | Uniform
Crossover = NoCrossover | Pmx | Ordered
Mutation = Swap | Shuffle
