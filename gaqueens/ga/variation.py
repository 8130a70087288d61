"""The operators applied to a batch of runs' arrays (gaqueens.ga.numpy_engine): populations of
shape (runs, mu, n), their fitness (runs, mu), each run's draws from gaqueens.ga.randomness.

The laws of the tournament, uniform picks and the swap are drawn for every run and child in one
call and applied in a few numpy calls: a tournament's pick is the first drawn of the lowest
fitness among SIZE entrants drawn uniformly with replacement; a swap exchanges the entries of
two distinct positions, the second drawn among the n - 1 others. Every other operator is its
DEAP-style function (gaqueens.ga.operators) applied to one genome, or one run's population, at
a time, drawing from the run's random.Random (``bindings``, a randomness.RandomBinding per
run); what it returns is checked. ``lowest`` keeps each run's best of its pool.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from gaqueens.ga import randomness
from gaqueens.ga.operator_checks import Ranked, checked
from gaqueens.ga.operators import Operator


@cache
def bases(runs: int, width: int) -> np.ndarray:
    """Where each run's rows start in its arrays flattened: width apart, as a column."""
    return width * np.arange(runs)[:, None]


def rows_of(genomes: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """The genomes (runs, k, n) at each run's places ``picks`` (runs, k) in ``genomes``."""
    runs, width, n = genomes.shape
    return genomes.reshape(-1, n).take((picks + bases(runs, width)).reshape(-1),
                                       axis=0).reshape(*picks.shape, n)


def select(operator: Operator, values: np.ndarray, count: int, keys, generation: int,
           bindings) -> np.ndarray:
    """``count`` picks (runs, count) of each run's individuals by the selection ``operator``,
    from their fitness ``values`` (runs, mu)."""
    runs, mu = values.shape
    if operator.name == "uniform":
        return randomness.integers(keys, generation, randomness.PARENTS, mu, (count,))
    if operator.name == "tournament":
        return tournament(values, randomness.integers(keys, generation, randomness.PARENTS, mu,
                                                      (count, operator.get("size"))))
    return np.array([selected(operator, values[r], count, bindings[r]) for r in range(runs)],
                    dtype=np.int64).reshape(runs, count)


def tournament(values: np.ndarray, entrants: np.ndarray) -> np.ndarray:
    """Each tournament's winner: the first drawn of the lowest fitness among its entrants."""
    contest = values.take(entrants + bases(*values.shape)[:, :, None])
    if entrants.shape[2] == 1:
        return entrants[:, :, 0]
    if entrants.shape[2] == 2:
        return np.where(contest[:, :, 1] < contest[:, :, 0], entrants[:, :, 1], entrants[:, :, 0])
    won = contest.argmin(axis=2)[:, :, None]
    return np.take_along_axis(entrants, won, axis=2)[:, :, 0]


def selected(operator: Operator, values: np.ndarray, count: int, bindings) -> list[int]:
    """The places of ``count`` individuals a DEAP-style selection picks from one run's."""
    function, arguments = operator.function()
    individuals = [Ranked(value, place) for place, value in enumerate(values.tolist())]
    chosen = checked(operator, bindings(function), (individuals, count), arguments,
                     individuals=individuals, count=count)
    return [individual.row for individual in chosen]


def swap(children: np.ndarray, positions: np.ndarray, mask: np.ndarray | None = None) -> None:
    """Makes the swaps ``positions`` (runs, k, count, 2: each swap's first position, and its
    second drawn below n - 1) in ``children`` (runs, k, n, C-contiguous) in place, in the
    children of ``mask`` (runs, k) or in all."""
    runs, k, n = children.shape
    if n < 2:  # nothing to swap
        return
    flat = children.reshape(-1)
    starts = bases(runs * k, n).reshape(runs, k)
    for each in range(positions.shape[2]):
        first, second = positions[:, :, each, 0], positions[:, :, each, 1]
        one, two = starts + first, starts + second + (second >= first)
        if mask is not None:
            one, two = one[mask], two[mask]
        flat[one], flat[two] = flat[two], flat[one]


def mutate(operator: Operator, children: np.ndarray, mask: np.ndarray, keys, generation: int,
           bindings) -> None:
    """Mutates the children of ``mask`` (runs, k) in place."""
    runs, k, n = children.shape
    if operator.name == "swap":
        count = operator.get("count")
        if n >= 2:
            positions = randomness.integers(keys, generation, randomness.SWAPS, (n, n - 1),
                                            (k, count, 2))
            swap(children, positions, None if mask.all() else mask)
        return
    function, arguments = operator.function()
    for r, c in zip(*mask.nonzero()):
        (genome,) = checked(operator, bindings[r](function), (children[r, c].tolist(),), arguments,
                            size=n)
        children[r, c] = genome


def cross(operator: Operator, children: np.ndarray, pairs, bindings, partners=None) -> None:
    """Crosses ``pairs`` (run, first child, second child) of ``children`` over, in place; with
    ``partners`` (runs, k), each first child with the genome partners[run, first] instead,
    keeping the first child only (DEAP's varOr)."""
    function, arguments = operator.function()
    n = children.shape[2]
    for r, one, two in pairs:
        other = children[r, two] if partners is None else partners[r, one]
        made = checked(operator, bindings[r](function), (children[r, one].tolist(), other.tolist()),
                       arguments, size=n)
        children[r, one] = made[0]
        if partners is None:
            children[r, two] = made[1]


def lowest(pool: np.ndarray, mu: int) -> tuple[np.ndarray, np.ndarray]:
    """The places of each row's ``mu`` lowest values of ``pool`` (rows, k), ties in their
    order (a stable argsort's first ``mu``), and those values. Whole numbers are sorted as one
    key each, value << shift | place, all distinct and in that order: numpy sorts whole numbers
    with SIMD sorting networks where the processor has them, and argsorts stably with a
    timsort of indices, which costs more."""
    shift = max(1, (pool.shape[1] - 1).bit_length())
    if pool.dtype.kind not in "iu" or int(np.abs(pool).max(initial=0)) >= 2 ** (62 - shift):
        keep = pool.argsort(axis=1, kind="stable")[:, :mu]
        return keep, np.take_along_axis(pool, keep, axis=1)
    keys = pool.astype(np.int64) << shift
    keys |= np.arange(pool.shape[1])
    keys.sort(axis=1)
    keys = keys[:, :mu]
    return keys & ((1 << shift) - 1), keys >> shift


def survivors(operator: Operator, pool: np.ndarray, mu: int, bindings) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """The places (runs, mu) that survive of each run's pool of fitness ``pool`` (runs, k), and
    their fitness: the best, ties in pool order, or any DEAP-style selection."""
    if operator.name == "best":
        return lowest(pool, mu)
    keep = np.array([selected(operator, pool[r], mu, bindings[r]) for r in range(len(pool))],
                    dtype=np.int64).reshape(len(pool), mu)
    return keep, np.take_along_axis(pool, keep, axis=1)
