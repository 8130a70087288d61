"""The GA's operators, by the names experiment files give them.

Each operator is a small frozen value, checked when it is built, with two faces:

- ``deap()`` gives (function, keyword arguments) to register in a DEAP toolbox: DEAP's own
  function, or one written DEAP's way (a selection takes individuals and k; a crossover two
  individuals, a mutation one, changed in place and returned in a tuple), drawing from the
  module ``random``, which a run binds to its own generator (gaqueens.ga.randomness).
  ``engine: deap`` runs these.
- On ``engine: numpy``, a population is a 2-D array with a genome per row. Tournament,
  Uniform and Swap have batched numpy versions (DEAP's per-individual ones would cost more
  than the batched fitness itself); every other operator is its DEAP face applied row by row
  (``select_rows``, ``cross_pair``, ``mutate_rows``).

The kinds: ``select`` picks each child's parent, ``survivors`` picks the next population from
the pool (``best`` is the truncation of the published GA), ``crossover`` works on a pair,
``mutation`` on one genome. A genome must stay a permutation of 0..N-1: what an operator that
is not built in returns is checked before it is used.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from functools import cache

import numpy as np
from deap import tools

import gaqueens.ga.deap_types as deap_types
from gaqueens.ga.randomness import Randomness
from gaqueens.ranges import Number, Whole, check, setting


class Operator:
    """What every operator has: ``deap()``, its function and keyword arguments for a DEAP
    toolbox."""

    def deap(self) -> tuple:
        raise NotImplementedError


# ---- selections: parents, or survivors from the pool -----------------------------------------


@dataclass(frozen=True)
class Tournament(Operator):
    """Each pick is the best of ``size`` individuals drawn uniformly with replacement; on a
    tie the first drawn wins, as in DEAP's tools.selTournament. size 1 to 1,000; 2 is published."""

    size: int = setting(2, Whole(1, 1000))

    def __post_init__(self):
        check(self)

    def indices(self, values: np.ndarray, count: int, randomness: Randomness) -> np.ndarray:
        drawn = randomness.integers(0, len(values), (count, self.size))
        return drawn[_range(count), values[drawn].argmin(axis=1)]

    def deap(self):
        return tools.selTournament, {"tournsize": self.size}


@dataclass(frozen=True)
class Uniform(Operator):
    """Picks drawn uniformly with replacement, fitness ignored: DEAP's tools.selRandom."""

    def indices(self, values: np.ndarray, count: int, randomness: Randomness) -> np.ndarray:
        return randomness.integers(0, len(values), count)

    def deap(self):
        return tools.selRandom, {}


@dataclass(frozen=True)
class Best(Operator):
    """Survivors only: the best of the pool, ties in the pool's order (see the GA's ``ties``):
    the published truncation, and DEAP's tools.selBest, which sorts stably."""

    def deap(self):
        return tools.selBest, {}


# ---- crossovers: a pair of genomes ------------------------------------------------------------


@dataclass(frozen=True)
class NoCrossover(Operator):
    """Children are copies of their parents until mutated (the published setting)."""

    def deap(self):
        raise ValueError("no crossover has no DEAP function")


@dataclass(frozen=True)
class Pmx(Operator):
    """Partially matched crossover (Goldberg and Lingle 1985): DEAP's tools.cxPartialyMatched."""

    def deap(self):
        return tools.cxPartialyMatched, {}


@dataclass(frozen=True)
class Ordered(Operator):
    """Ordered crossover (Davis 1985): DEAP's tools.cxOrdered."""

    def deap(self):
        return tools.cxOrdered, {}


# ---- mutations: one genome --------------------------------------------------------------------


@dataclass(frozen=True)
class Swap(Operator):
    """Swaps the entries of two distinct positions, drawn uniformly, ``count`` times in each
    child; count 1 to 1,000, and 1 is the published mutation. Two queens trade columns, so the
    genome stays a permutation. A genome of one entry has nothing to swap."""

    count: int = setting(1, Whole(1, 1000))

    def __post_init__(self):
        check(self)

    def __call__(self, children: np.ndarray, randomness: Randomness) -> None:
        """Every row of ``children`` in place (a C-contiguous array, as the engine makes)."""
        if not children.flags.c_contiguous:
            raise ValueError("Swap works on a C-contiguous array of genomes, as the GA makes")
        k, n = children.shape
        if n < 2:
            return
        starts = _row_starts(k, n)
        flat = children.reshape(-1)  # a view, as the array is contiguous
        for _ in range(self.count):
            i = randomness.integers(0, n, k)
            j = randomness.integers(0, n - 1, k)
            first, second = starts + i, starts + j + (j >= i)  # j: a position other than i
            flat[first], flat[second] = flat[second], flat[first]

    def deap(self):
        return swap_positions, {"count": self.count}


def swap_positions(individual, count: int = 1):
    """Swap written DEAP's way, for engine: deap: ``count`` times, two distinct positions drawn
    by random.sample swap their entries; the individual is changed in place and returned in a
    tuple."""
    if len(individual) >= 2:
        for _ in range(count):
            i, j = random.sample(range(len(individual)), 2)
            individual[i], individual[j] = individual[j], individual[i]
    return (individual,)


@dataclass(frozen=True)
class Shuffle(Operator):
    """DEAP's tools.mutShuffleIndexes: each position is swapped with another, drawn uniformly,
    with probability ``indpb`` (above 0, at most 1; 0.05 by default)."""

    indpb: float = setting(0.05, Number(0, 1, open_minimum=True))

    def __post_init__(self):
        check(self)

    def deap(self):
        return tools.mutShuffleIndexes, {"indpb": self.indpb}


# ---- any DEAP operator, or a user's own, by name ----------------------------------------------


@dataclass(frozen=True)
class DeapOperator(Operator):
    """One of DEAP's own operators (a function of deap.tools) by its name, with its keyword
    arguments as (name, value) pairs: ``{deap: mutShuffleIndexes, indpb: 0.05}``. The names and
    arguments are checked against the function's signature when an experiment file is read
    (gaqueens.registry)."""

    name: str
    arguments: tuple = ()

    def deap(self):
        return getattr(tools, self.name), dict(self.arguments)


@dataclass(frozen=True)
class FunctionOperator(Operator):
    """A user's own operator, written DEAP's way, by its import path
    ``package.module:function``, with its keyword arguments as (name, value) pairs. Workers
    import it by that path, so it must be importable where the runs execute."""

    path: str
    arguments: tuple = ()

    def deap(self):
        return imported(self.path), dict(self.arguments)


@cache
def imported(path: str):
    """The object at the import path ``package.module:name``."""
    module, _, name = path.partition(":")
    target = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part)
    return target


# ---- operators on arrays of genomes: the numpy engine's side ------------------------------------


class _Ranked:
    """An individual as DEAP's selections see it: a fitness to compare and the row it stands for."""

    __slots__ = ("fitness", "row")

    def __init__(self, value, row: int):
        self.fitness = deap_types.Fitness((value,))
        self.row = row


def select_rows(operator: Operator, values: np.ndarray, count: int,
                randomness: Randomness) -> np.ndarray:
    """``count`` rows picked by a selection from individuals of fitness ``values``."""
    if hasattr(operator, "indices"):
        return operator.indices(values, count, randomness)
    function, arguments = operator.deap()
    individuals = [_Ranked(value, row) for row, value in enumerate(values.tolist())]
    chosen = randomness.deap(function)(individuals, count, **arguments)
    return np.fromiter((individual.row for individual in chosen), dtype=np.int64, count=count)


def cross_pair(operator: Operator, genomes: np.ndarray, first: int, second: int,
               randomness: Randomness, partner: np.ndarray | None = None) -> None:
    """Crosses rows ``first`` and ``second`` of ``genomes`` over, in place; with ``partner``,
    row ``first`` with that genome, keeping only the first child (as DEAP's varOr does)."""
    function, arguments = operator.deap()
    one = genomes[first].tolist()
    two = (genomes[second] if partner is None else partner).tolist()
    one, two = randomness.deap(function)(one, two, **arguments)
    _write(genomes, first, one, operator)
    if partner is None:
        _write(genomes, second, two, operator)


def mutate_rows(operator: Operator, genomes: np.ndarray, randomness: Randomness) -> None:
    """Mutates every row of ``genomes`` in place."""
    if isinstance(operator, Swap):
        operator(genomes, randomness)
        return
    function, arguments = operator.deap()
    mutate = randomness.deap(function)
    for i, row in enumerate(genomes):
        _write(genomes, i, mutate(row.tolist(), **arguments)[0], operator)


def _write(genomes: np.ndarray, row: int, genome, operator: Operator) -> None:
    """Writes a genome an operator returned into its row, refusing one that is not a
    permutation of 0..N-1 when the operator is not built in."""
    n = genomes.shape[1]
    if not built_in(operator) and (len(genome) != n or sorted(genome) != list(range(n))):
        raise ValueError(f"{operator} returned a genome that is not a permutation of 0..{n - 1}")
    genomes[row] = genome


def try_out(kind: str, operator: Operator, size: int = 8) -> str | None:
    """What goes wrong when an operator of ``kind`` (select, survivors, crossover, mutation) is
    applied once, DEAP's way, to permutations of 0..size-1 with a fixed generator, or None: a
    wrong argument, or a genome that is no longer a permutation, found when a file loads."""
    from gaqueens.ga.randomness import Bound

    generator = random.Random(0)
    function, arguments = operator.deap()
    function = Bound(generator)(function)
    genomes = [generator.sample(range(size), size) for _ in range(2)]
    try:
        if kind in ("select", "survivors"):
            individuals = [_Ranked(value, row) for row, value in enumerate([3, 1, 4, 1, 5, 9, 2, 6])]
            chosen = function(individuals, 4, **arguments)
            if len(chosen) != 4 or any(not isinstance(c, _Ranked) for c in chosen):
                return "does not return k of the individuals it is given"
            return None
        out = function(*genomes[:2 if kind == "crossover" else 1], **arguments)
    except Exception as error:
        return f"raises {type(error).__name__}: {error}"
    for genome in (out if isinstance(out, tuple) else [None]):
        if genome is None or sorted(genome) != list(range(size)):
            return (f"does not keep a genome a permutation of 0..N-1 (a {kind} returns the "
                    f"{'two genomes' if kind == 'crossover' else 'genome'} in a tuple)")
    return None


def built_in(operator: Operator) -> bool:
    """Whether gaqueens wrote the operator (so it keeps permutations by construction)."""
    return not isinstance(operator, (DeapOperator, FunctionOperator))


@cache
def _range(count: int) -> np.ndarray:
    return np.arange(count)


@cache
def _row_starts(rows: int, length: int) -> np.ndarray:
    """Where each row of a (rows, length) array starts in the flat array."""
    return np.arange(0, rows * length, length)


# ---- the built-in names: YAML name -> operator class -------------------------------------------

SELECT = {"tournament": Tournament, "uniform": Uniform}
SURVIVORS = {"best": Best, **SELECT}
CROSSOVER = {"none": NoCrossover, "pmx": Pmx, "ordered": Ordered}
MUTATION = {"swap": Swap, "shuffle": Shuffle}
