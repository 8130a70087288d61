"""The GA engine: the published (mu+lambda) loop, with DEAP's operators where they fit.

The settings are the published ones by default; ``GaSettings`` documents each. The loop is
written here rather than taken from DEAP's algorithms.eaMuPlusLambda, whose varOr picks parents
uniformly (the registered selection only picks survivors) and whose survivor selection keeps
parents on equal fitness.
"""

from __future__ import annotations

import numpy as np

from gaqueens.board import Conflicts
from gaqueens.ga.randomness import Randomness
from gaqueens.ga.settings import GaSettings
from gaqueens.result import Result


def run(settings: GaSettings, board: int, seed: int) -> Result:
    """One run of the GA on an n x n board; its result depends on the settings and the seed
    alone. The loop, with mu = population and lambda = offspring::

        population <- mu random permutations, evaluated, sorted by conflicts
        while best > target and generation < generations:
            parents  <- select lambda rows of the population
            children <- copies of the parents, crossed over in pairs, each mutated
            evaluate the children
            pool     <- children then population (mu+lambda), or children alone (mu,lambda)
            population <- the mu best of pool, a stable sort keeping pool order on ties
                          (parents first in the pool for ties: parents-first)

    The population is kept sorted by conflicts, so its first row is the best. Evaluations are
    mu for the first population and lambda per generation: solved at generation g, a
    published run used 20 + 20 g.
    """
    randomness = Randomness(seed)
    evaluate = Conflicts(board)
    population = randomness.numpy.permuted(np.tile(np.arange(board), (settings.population, 1)),
                                           axis=1)
    conflicts = evaluate(population)
    order = np.argsort(conflicts, kind="stable")
    population, conflicts = population[order], conflicts[order]
    history = [conflicts]  # the survivors' conflicts, sorted, per generation
    generation = 0
    while conflicts[0] > settings.target and generation < settings.generations:
        generation += 1
        population, conflicts = step(population, conflicts, settings, evaluate, randomness)
        history.append(conflicts)
    best = int(conflicts[0])
    return Result(
        solved=best <= settings.target,
        conflicts=best,
        evaluations=settings.population + settings.offspring * generation,
        solution=population[0].copy(),
        generations=generation,
        trace=_trace(np.array(history), settings.population, settings.offspring),
    )


def step(population: np.ndarray, conflicts: np.ndarray, settings: GaSettings, evaluate,
         randomness: Randomness):
    """One generation: the next population and its conflicts, sorted by conflicts."""
    children = population[settings.select(conflicts, settings.offspring, randomness)]
    settings.crossover(children, randomness)
    settings.mutation(children, randomness)
    children_conflicts = evaluate(children)
    if settings.scheme == "mu,lambda":
        pool, pool_conflicts = children, children_conflicts
    elif settings.ties == "offspring-first":
        pool = np.concatenate((children, population))
        pool_conflicts = np.concatenate((children_conflicts, conflicts))
    else:
        pool = np.concatenate((population, children))
        pool_conflicts = np.concatenate((conflicts, children_conflicts))
    survivors = np.argsort(pool_conflicts, kind="stable")[: settings.population]
    return pool[survivors], pool_conflicts[survivors]


def _trace(history: np.ndarray, mu: int, lam: int) -> np.ndarray:
    """Per generation: generation, evaluations, best, median, worst and mean conflicts of the
    population, from the sorted conflicts of each generation's survivors."""
    generations = np.arange(len(history))
    return np.column_stack(
        (
            generations,
            mu + lam * generations,
            history[:, 0],
            np.median(history, axis=1),
            history[:, -1],
            history.mean(axis=1),
        )
    )
