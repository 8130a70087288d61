"""The GA's operators, by the names experiment files give them.

Each is a small frozen value, checked when an experiment file is loaded, that works on a whole
generation: a population is a 2-D array with a genome per row. Selection and the published swap
mutation are written with numpy over the generation, as DEAP's per-individual versions would
cost more than the batched fitness itself; the other permutation operators are DEAP's own,
applied row by row. DEAP's operators draw from the ``random`` module, which a run seeds
itself (see ``ga.run``), so they are marked ``uses_random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from deap import tools

from gaqueens.ranges import Number, Whole, setting


# ---- parent selection: (conflicts of the population, how many, rng) -> row indices ---------


@dataclass(frozen=True)
class Tournament:
    """Each parent is the best of ``size`` individuals drawn uniformly with replacement; on a
    tie the first drawn wins, as in DEAP's tools.selTournament. size 1 to 1,000; 2 is published."""

    size: int = setting(2, Whole(1, 1000))
    uses_random: ClassVar[bool] = False

    def __call__(self, conflicts: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
        drawn = rng.integers(0, len(conflicts), (count, self.size))
        return drawn[np.arange(count), conflicts[drawn].argmin(axis=1)]


@dataclass(frozen=True)
class Uniform:
    """Parents drawn uniformly with replacement, fitness ignored, as DEAP's algorithms.varOr
    picks them."""

    uses_random: ClassVar[bool] = False

    def __call__(self, conflicts: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(0, len(conflicts), count)


# ---- crossover: children in place, in pairs (rows 0-1, 2-3, ...) ----------------------------


@dataclass(frozen=True)
class NoCrossover:
    """Children are copies of their parents until mutated (the published setting)."""

    uses_random: ClassVar[bool] = False

    def __call__(self, children: np.ndarray) -> None:
        pass


@dataclass(frozen=True)
class _DeapCrossover:
    """Each pair of children is crossed over with probability ``rate`` (0 to 1, 0.9 by default) by a DEAP
    permutation crossover, as DEAP's algorithms.varAnd pairs them."""

    rate: float = setting(0.9, Number(0, 1))
    uses_random: ClassVar[bool] = True

    def __call__(self, children: np.ndarray) -> None:
        for i in range(0, len(children) - 1, 2):
            if random.random() < self.rate:
                first, second = children[i].tolist(), children[i + 1].tolist()
                self.operator(first, second)
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
    uses_random: ClassVar[bool] = False

    def __call__(self, children: np.ndarray, rng: np.random.Generator) -> None:
        k, n = children.shape
        rows = np.arange(k)
        for _ in range(self.count):
            i = rng.integers(0, n, k)
            j = rng.integers(0, n - 1, k)
            j += j >= i  # a position other than i, uniformly
            children[rows, i], children[rows, j] = children[rows, j], children[rows, i]


@dataclass(frozen=True)
class Shuffle:
    """DEAP's tools.mutShuffleIndexes: each position is swapped with another, drawn uniformly,
    with probability ``indpb`` (above 0, at most 1; 0.05 by default)."""

    indpb: float = setting(0.05, Number(0, 1, open_minimum=True))
    uses_random: ClassVar[bool] = True

    def __call__(self, children: np.ndarray, rng: np.random.Generator) -> None:
        for i, row in enumerate(children):
            genome = row.tolist()
            tools.mutShuffleIndexes(genome, self.indpb)
            children[i] = genome


# ---- the registries: YAML name -> operator class ---------------------------------------------

SELECT = {"tournament": Tournament, "uniform": Uniform}
CROSSOVER = {"none": NoCrossover, "pmx": Pmx, "ordered": Ordered}
MUTATION = {"swap": Swap, "shuffle": Shuffle}
