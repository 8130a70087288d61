"""The published GA written the straightforward way DEAP's documentation teaches it.

What it is for: the yardstick of ``gaqueens.bench`` ("the naive DEAP
approach"), and a second, independent implementation of the GA that the tests compare the fast engine
(``gaqueens.ga``) with. It is not registered in ``gaqueens.registry``: sweeps run the engine.

An individual is a ``creator.Individual``, a list of columns with a ``FitnessMin``; every child
is a ``toolbox.clone`` (a deepcopy) of the parent that ``tools.selTournament`` (or
``tools.selRandom``) picked, mutated by swapping two positions, and evaluated on its own, its
list turned into a one-row array for ``board.Conflicts``. ``tools.selBest`` keeps the best of
the pool; it sorts stably, so the order of the pool is the tie rule. Randomness comes from the
global ``random`` module, as DEAP's selection needs: a run seeds it, holding the engine's lock,
and puts the previous state back when it ends.

Supported settings: Tournament or Uniform parents, Swap mutation, no crossover, both tie rules,
mu+lambda or mu,lambda; any other operator is refused with a ValueError.
"""

from __future__ import annotations

import random
import threading

import numpy as np
from deap import base, creator, tools

from gaqueens.board import Conflicts
from gaqueens.ga import GaSettings
from gaqueens.ga.operators import NoCrossover, Swap, Tournament, Uniform
from gaqueens.result import Result

# DEAP's selection draws from the random module, shared by every thread of the process: a run
# holds this lock while it seeds and uses it.
_RANDOM_MODULE = threading.Lock()

# DEAP's types, made once, here and nowhere else in gaqueens.
if not hasattr(creator, "FitnessMin"):
    creator.create("FitnessMin", base.Fitness, weights=(-1.0,))
if not hasattr(creator, "Individual"):
    creator.create("Individual", list, fitness=creator.FitnessMin)


def run(settings: GaSettings, board: int, seed: int) -> Result:
    """One run of the GA on an n x n board, DEAP style::

        population <- mu Individuals, each random.sample(range(n), n), each evaluated
        while best > target and generation < generations:
            offspring <- [clone(p) for p in select(population, lambda)]
            for child in offspring: swap two positions, evaluate it
            pool <- offspring + population (offspring-first) or population + offspring
                    (parents-first); offspring alone for mu,lambda
            population <- selBest(pool, mu)

    Evaluations are counted as the engine counts them: mu, then lambda per generation. The
    result depends on the settings and the seed alone; ``trace`` is None.
    """
    _check(settings)
    with _RANDOM_MODULE:
        state = random.getstate()
        random.seed(seed)
        try:
            return _evolve(settings, board)
        finally:
            random.setstate(state)


def _check(settings: GaSettings) -> None:
    for name, value, supported in (
        ("select", settings.select, (Tournament, Uniform)),
        ("crossover", settings.crossover, (NoCrossover,)),
        ("mutation", settings.mutation, (Swap,)),
    ):
        if type(value) not in supported:
            raise ValueError(f"deap_ga does not support {name} {value!r}")


def _evaluate(individual, conflicts: Conflicts) -> tuple[int]:
    return (int(conflicts(np.array([individual]))[0]),)


def _swap(individual, count: int):
    for _ in range(count):
        i, j = random.sample(range(len(individual)), 2)
        individual[i], individual[j] = individual[j], individual[i]
    return (individual,)


def _toolbox(settings: GaSettings, n: int) -> base.Toolbox:
    toolbox = base.Toolbox()  # toolbox.clone is copy.deepcopy
    toolbox.register("indices", random.sample, range(n), n)
    toolbox.register("individual", tools.initIterate, creator.Individual, toolbox.indices)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", _evaluate, conflicts=Conflicts(n))
    toolbox.register("mutate", _swap, count=settings.mutation.count)
    if isinstance(settings.select, Tournament):
        toolbox.register("select", tools.selTournament, tournsize=settings.select.size)
    else:
        toolbox.register("select", tools.selRandom)
    return toolbox


def _evolve(settings: GaSettings, n: int) -> Result:
    toolbox = _toolbox(settings, n)
    mu, lam = settings.population, settings.offspring
    population = toolbox.population(n=mu)
    for individual in population:
        individual.fitness.values = toolbox.evaluate(individual)
    population = tools.selBest(population, mu)
    generation = 0
    while population[0].fitness.values[0] > settings.target and generation < settings.generations:
        generation += 1
        offspring = [toolbox.clone(parent) for parent in toolbox.select(population, lam)]
        for child in offspring:
            toolbox.mutate(child)
            del child.fitness.values
            child.fitness.values = toolbox.evaluate(child)
        if settings.scheme == "mu,lambda":
            pool = offspring
        elif settings.ties == "offspring-first":
            pool = offspring + population
        else:
            pool = population + offspring
        population = tools.selBest(pool, mu)
    best = population[0]
    conflicts = int(best.fitness.values[0])
    return Result(
        solved=conflicts <= settings.target,
        conflicts=conflicts,
        evaluations=mu + lam * generation,
        solution=np.array(best),
        generations=generation,
    )
