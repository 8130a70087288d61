"""DEAP's own N-Queens example (examples/ga/nqueens.py in DEAP's repository), built the way its
file builds it and run by DEAP alone: the yardstick that engine: deap is held to.

Its settings: 20 queens; individuals are random permutations (random.sample); the fitness
counts the queens beyond the first on each diagonal; PMX crossover (cxPartialyMatched),
mutShuffleIndexes with indpb 2/N, selTournament of 3; eaSimple with 300 individuals, cxpb 0.5,
mutpb 0.2 and 100 generations, after random.seed(seed), with a HallOfFame(1) and statistics.
Nothing of gaqueens is used here: the toolbox and the fitness are DEAP's and plain Python.
"""

from __future__ import annotations

import random

import numpy as np
from deap import algorithms, base, creator, tools

QUEENS, POPULATION, CXPB, MUTPB, GENERATIONS = 20, 300, 0.5, 0.2, 100

if not hasattr(creator, "ExampleFitnessMin"):
    creator.create("ExampleFitnessMin", base.Fitness, weights=(-1.0,))
    creator.create("ExampleIndividual", list, fitness=creator.ExampleFitnessMin)


def evaluate(individual) -> tuple[int]:
    """The example's fitness: on each of the 2N-1 diagonals of both directions, the queens
    beyond the first."""
    size = len(individual)
    falling, rising = [0] * (2 * size - 1), [0] * (2 * size - 1)
    for row, column in enumerate(individual):
        falling[row + column] += 1
        rising[size - 1 - row + column] += 1
    return (sum(k - 1 for k in falling + rising if k > 1),)


def toolbox(queens: int = QUEENS) -> base.Toolbox:
    box = base.Toolbox()
    box.register("permutation", random.sample, range(queens), queens)
    box.register("individual", tools.initIterate, creator.ExampleIndividual, box.permutation)
    box.register("population", tools.initRepeat, list, box.individual)
    box.register("evaluate", evaluate)
    box.register("mate", tools.cxPartialyMatched)
    box.register("mutate", tools.mutShuffleIndexes, indpb=2.0 / queens)
    box.register("select", tools.selTournament, tournsize=3)
    return box


def statistics() -> tools.Statistics:
    stats = tools.Statistics(lambda individual: individual.fitness.values[0])
    for name, function in (("min", np.min), ("median", np.median), ("max", np.max),
                           ("mean", np.mean)):
        stats.register(name, function)
    return stats


def run(seed: int, generations: int = GENERATIONS):
    """The example's run: (population, logbook, hall of fame). The random module's state is
    put back as it was."""
    state = random.getstate()
    random.seed(seed)
    try:
        box = toolbox()
        population = box.population(n=POPULATION)
        hall = tools.HallOfFame(1)
        population, logbook = algorithms.eaSimple(population, box, cxpb=CXPB, mutpb=MUTPB,
                                                  ngen=generations, stats=statistics(),
                                                  halloffame=hall, verbose=False)
    finally:
        random.setstate(state)
    return population, logbook, hall


def settings():
    """The example as gaqueens' GA on engine: deap, each run stopping at its first solution (the
    ga of experiments/deap-example.yaml, which tests/test_agreement.py checks is this)."""
    from gaqueens.ga import GaSettings
    from gaqueens.ga.operators import deap_operator

    return GaSettings(
        engine="deap", scheme="simple", population=POPULATION, variation="and", cxpb=CXPB,
        mutpb=MUTPB, select=deap_operator("select", "selTournament", {"tournsize": 3}),
        crossover=deap_operator("crossover", "cxPartialyMatched", {}),
        mutation=deap_operator("mutation", "mutShuffleIndexes", {"indpb": 2.0 / QUEENS}),
        fitness="excess", generations=GENERATIONS)


def same_as_ours(result, seed: int) -> str | None:
    """What differs between a gaqueens Result of the example's settings (stopped at its first
    solution) and DEAP's own run of the example up to that generation, or None."""
    _, logbook, hall = run(seed, result.generations)
    if list(hall[0]) != result.solution.tolist():
        return f"seed {seed}: the best found differs"
    if result.work != sum(logbook.select("nevals")):
        return f"seed {seed}: {result.work} evaluations, DEAP's nevals add up to " \
               f"{sum(logbook.select('nevals'))}"
    if result.trace[:, 2].tolist() != logbook.select("min") or \
            result.trace[:, 4].tolist() != logbook.select("max"):
        return f"seed {seed}: the logbook's min or max differs"
    if result.solved != (hall[0].fitness.values[0] == 0):
        return f"seed {seed}: solved {result.solved}, DEAP's best has fitness {hall[0].fitness.values[0]}"
    return None
