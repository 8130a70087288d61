"""engine: numpy, the GA over a numpy matrix of genomes, a row each, one seed at a time.

gaqueens.ga.run sends here every setting but the batched family (gaqueens.ga.batched), whose
runs, one seed or many, are made there. This loop can run the family's settings too, drawing
the very numbers the batched path draws for each seed: tests/test_batched.py uses it as the
batched path's reference, run by run. The loop, with mu = population and lambda = the
children per generation::

    population <- mu random permutations, evaluated (sorted by fitness for best survivors)
    best <- the first of the population with the lowest fitness
    while best > target and generation < generations:
        children <- vary(population)       # each, and (varAnd) or or (varOr): see GaSettings
        evaluate the children a variation operator touched; the others keep their fitness
        best <- the first child with a lower fitness than best, if any
        pool <- children, then population (ties offspring-first; parents first for
                parents-first); children alone for mu,lambda
        population <- survivors(pool): the mu best in pool order (a stable sort), or any
                      selection; the children themselves for scheme simple

``best`` is DEAP's HallOfFame of one: the first individual found with the lowest fitness. The
evaluations are what the fitness counted: for the published settings mu, then lambda a
generation, so a run solved at generation g used 20 + 20 g.
"""

from __future__ import annotations

import numpy as np

from gaqueens import problems
from gaqueens.ga.rows import cross_pair, mutate_rows, select_rows
from gaqueens.ga.randomness import Randomness
from gaqueens.ga.settings import GaSettings
from gaqueens.core.result import Result


def run(settings: GaSettings, board: int, seed: int, observe=None) -> Result:
    """One run on an n x n board; its result depends on the settings and the seed alone.
    ``observe(generation, evaluations, best, best_fitness, median_fitness)``, if given, sees
    the best found so far after each generation, from generation 0 (gaqueens.ga.replay)."""
    randomness = Randomness(seed)
    problem = problems.get(settings.problem)
    fitness = problem.fitness(board, settings.fitness)
    population = randomness.numpy.permuted(np.tile(np.arange(board), (settings.population, 1)),
                                           axis=1)
    values = fitness(population)
    if settings.sorted:
        order = np.argsort(values, kind="stable")
        population, values = population[order], values[order]
    first = int(values.argmin())
    best, best_value = population[first].copy(), values[first]
    history, counted = [values], [fitness.evaluations]
    target = settings.target
    generation = 0
    if observe is not None:
        observe(0, fitness.evaluations, best, best_value, np.median(values))
    while (target is None or best_value > target) and generation < settings.generations:
        generation += 1
        population, values, children, child_values = step(population, values, settings, fitness,
                                                          randomness)
        first = int(child_values.argmin())
        if child_values[first] < best_value:
            best, best_value = children[first].copy(), child_values[first]
        history.append(values)
        counted.append(fitness.evaluations)
        if observe is not None:
            observe(generation, fitness.evaluations, best, best_value, np.median(values))
    conflicts = (int(best_value) if settings.fitness == problem.measures[0]
                 else int(problem.conflicts(board, best[None])[0]))
    return Result(
        solved=bool(best_value <= settings.solved_at),
        conflicts=conflicts,
        work=fitness.evaluations,
        solution=best,
        generations=generation,
        trace=trace(np.array(history), np.array(counted)),
    )


def step(population: np.ndarray, values: np.ndarray, settings: GaSettings, fitness,
         randomness: Randomness):
    """One generation: the next population and its fitness (sorted by fitness when survivors
    are the best), and the generation's children and their fitness."""
    children, child_values = vary(population, values, settings, fitness, randomness)
    if settings.scheme == "simple":
        return children, child_values, children, child_values
    if settings.scheme == "mu,lambda":
        pool, pool_values = children, child_values
    elif settings.ties == "offspring-first":
        pool = np.concatenate((children, population))
        pool_values = np.concatenate((child_values, values))
    else:
        pool = np.concatenate((population, children))
        pool_values = np.concatenate((values, child_values))
    if settings.sorted:
        keep = np.argsort(pool_values, kind="stable")[: settings.population]
    else:
        keep = select_rows(settings.survivors, pool_values, settings.population, randomness)
    return pool[keep], pool_values[keep], children, child_values


def vary(population, values, settings: GaSettings, fitness, randomness: Randomness):
    """The generation's children and their fitness; only the children that a crossover or a
    mutation touched are evaluated (DEAP invalidates their fitness, changed or not)."""
    count = settings.children
    if settings.variation == "or":
        return _vary_or(population, values, settings, fitness, randomness)
    parents = select_rows(settings.select, values, count, randomness)
    children = population[parents]
    crossed = _cross_pairs(children, settings, randomness)
    if settings.variation == "each":
        mutate_rows(settings.mutation, children, randomness)
        return children, fitness(children)
    mutated = randomness.uniform(count) < settings.mutpb
    if mutated.any():
        some = children[mutated]
        mutate_rows(settings.mutation, some, randomness)
        children[mutated] = some
    return children, _evaluated(fitness, children, values[parents], crossed | mutated)


def _vary_or(population, values, settings: GaSettings, fitness, randomness: Randomness):
    """DEAP's varOr: each child by crossover of two distinct random parents (the first child
    kept) with probability cxpb, else by mutation of one random parent with probability mutpb,
    else a copy of one random parent."""
    count, mu = settings.children, len(population)
    choice = randomness.uniform(count)
    crossed = choice < settings.crossover_rate
    mutated = ~crossed & (choice < settings.crossover_rate + settings.mutpb)
    parents = randomness.integers(0, mu, count)
    children = population[parents]
    if crossed.any():
        others = randomness.integers(0, mu - 1, count)
        others = others + (others >= parents)  # a parent other than the first
        for i in np.flatnonzero(crossed):
            cross_pair(settings.crossover, children, i, i, randomness, partner=population[others[i]])
    if mutated.any():
        some = children[mutated]
        mutate_rows(settings.mutation, some, randomness)
        children[mutated] = some
    return children, _evaluated(fitness, children, values[parents], crossed | mutated)


def _cross_pairs(children: np.ndarray, settings: GaSettings, randomness: Randomness) -> np.ndarray:
    """Crosses children 0-1, 2-3, ... over, each pair with probability cxpb, as DEAP's varAnd
    pairs them; returns which children were crossed."""
    crossed = np.zeros(len(children), dtype=bool)
    if settings.crossover.name == "none":
        return crossed
    for i in range(1, len(children), 2):
        if randomness.random.random() < settings.cxpb:
            cross_pair(settings.crossover, children, i - 1, i, randomness)
            crossed[i - 1: i + 1] = True
    return crossed


def _evaluated(fitness, children: np.ndarray, inherited: np.ndarray, touched: np.ndarray):
    """The children's fitness: evaluated where ``touched``, else their parent's."""
    if touched.all():
        return fitness(children)
    if touched.any():
        inherited[touched] = fitness(children[touched])
    return inherited


def trace(history: np.ndarray, evaluations: np.ndarray) -> np.ndarray:
    """Per generation: generation, evaluations so far, best, median, worst and mean fitness of
    the population, from each generation's population fitness (a row each)."""
    return np.column_stack((
        np.arange(len(history)),
        evaluations,
        history.min(axis=1),
        np.median(history, axis=1),
        history.max(axis=1),
        history.mean(axis=1),
    ))
