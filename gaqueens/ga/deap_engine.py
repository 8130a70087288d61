"""engine: deap, the run made of DEAP's own objects.

Individuals are ``creator`` lists with a fitness to minimise (gaqueens.ga.deap_types); a
``base.Toolbox`` has indices, individual, population, evaluate, a batched map, select, mate,
mutate and survive registered from the settings; children are ``toolbox.clone``s made by DEAP's
``algorithms.varAnd`` or ``algorithms.varOr``; ``tools.Statistics`` and ``tools.Logbook``
record the trace and ``tools.HallOfFame(1)`` the best found. Each generation's invalidated
individuals are evaluated in one numpy call (``toolbox.map``). Every DEAP function runs with
the name ``random`` bound to the run's own random.Random(seed) (gaqueens.ga.randomness), which
draws the numbers random.seed(seed) would: so with the settings that DEAP's algorithms
implement and no target, a run is DEAP's own, generation by generation:

    eaSimple        scheme simple, variation and
    eaMuPlusLambda  scheme mu+lambda, variation or, ties parents-first, survivors as select
    eaMuCommaLambda scheme mu,lambda, variation or, survivors as select

The loop (``evolve``) is theirs, with a stop at the target and the other variations::

    population <- toolbox.population(mu), evaluated; hall of fame and logbook updated
    while the hall of fame's best > target and generation < generations:
        offspring <- varOr(population, lambda, cxpb, mutpb)               # variation or
                     varAnd(select(population, lambda), cxpb, mutpb)      # variation and
                     varAnd(select(population, lambda), cxpb, 1)          # variation each
        evaluate the invalid offspring; hall of fame updated with the offspring
        population <- offspring (simple), survive(offspring, mu) (mu,lambda), or
                      survive(offspring + population, mu) (mu+lambda, offspring-first;
                      population + offspring for parents-first)
        logbook records gen, nevals and the population's min, median, max and mean
"""

from __future__ import annotations

import random
from functools import partial

import numpy as np
from deap import base

from gaqueens import problems
import gaqueens.ga.deap_types as deap_types
from gaqueens.ga import randomness
from gaqueens.ga.operator_checks import checked
from gaqueens.ga.randomness import RandomBinding
from gaqueens.ga.settings import GaSettings
from gaqueens.core.result import Result

STATISTICS = {"min": np.min, "median": np.median, "max": np.max, "mean": np.mean}


class Evaluate:
    """toolbox.evaluate: an individual's fitness as a 1-tuple, through the run's counting
    fitness; ``batch`` scores a list of individuals in one numpy call, refusing any that is
    not a permutation of 0..n-1 (an operator that does not keep permutations)."""

    def __init__(self, fitness, n: int):
        self.fitness, self.n = fitness, n

    def __call__(self, individual) -> tuple:
        return self.batch([individual])[0]

    def batch(self, individuals) -> list[tuple]:
        if not individuals:
            return []
        genomes = np.array(individuals, dtype=np.int64)
        if genomes.shape != (len(individuals), self.n) or not (
                np.sort(genomes, axis=1) == np.arange(self.n)).all():
            raise ValueError(f"an individual is not a permutation of 0..{self.n - 1} after "
                             "variation")
        return [(value,) for value in self.fitness(genomes).tolist()]


def batched_map(function, individuals):
    """toolbox.map: the whole generation in one call when ``function`` is the toolbox's
    evaluate, else the built-in map."""
    target = function.func if isinstance(function, partial) else function
    if isinstance(target, Evaluate):
        return target.batch(list(individuals))
    return list(map(function, individuals))


def toolbox(settings: GaSettings, board: int, generator=random, fitness=None) -> base.Toolbox:
    """A DEAP toolbox of the settings on an n x n board, its functions drawing from
    ``generator`` (the random module: DEAP's own functions as they are)."""
    from deap import tools  # here, not at import: see gaqueens.ga.operators.deap_tools

    bind = RandomBinding(generator)
    box = base.Toolbox()  # box.clone is copy.deepcopy
    box.register("indices", generator.sample, range(board), board)
    box.register("individual", tools.initIterate, deap_types.Individual, box.indices)
    box.register("population", tools.initRepeat, list, box.individual)
    fitness = fitness or problems.get(settings.problem).fitness(board, settings.fitness)
    box.register("evaluate", Evaluate(fitness, board))
    box.register("map", batched_map)
    tools_ = [("select", settings.select), ("mutate", settings.mutation),
              ("survive", settings.survivors)]
    if settings.crossover_rate:
        tools_.append(("mate", settings.crossover))
    for name, operator in tools_:
        function, arguments = operator.function()
        box.register(name, bind(function) if operator.built_in
                     else partial(_checked, operator, bind(function), board), **arguments)
    return box


def _checked(operator, function, board: int, *given, **arguments):
    """A plug-in operator's call, what it returns checked (gaqueens.ga.operators.checked)."""
    if operator.kind in ("select", "survivors"):
        return checked(operator, function, given, arguments, individuals=given[0],
                       count=given[1])
    return checked(operator, function, given, arguments, size=board)


def statistics():
    """A tools.Statistics of the population's fitness: its min, median, max and mean."""
    from deap import tools

    stats = tools.Statistics(key=lambda individual: individual.fitness.values[0])
    for name, function in STATISTICS.items():
        stats.register(name, function)
    return stats


def _evaluate_invalid(individuals, box: base.Toolbox) -> int:
    invalid = [individual for individual in individuals if not individual.fitness.valid]
    for individual, value in zip(invalid, box.map(box.evaluate, invalid)):
        individual.fitness.values = value
    return len(invalid)


def evolve(settings: GaSettings, board: int, generator, observe=None):
    """The run's loop (see the module's docstring); returns the final population, the
    logbook, the hall of fame and the counting fitness. ``observe``, if given, sees the hall
    of fame after each generation (gaqueens.ga.replay)."""
    from deap import algorithms, tools

    fitness = problems.get(settings.problem).fitness(board, settings.fitness)
    box = toolbox(settings, board, generator, fitness)
    bind = RandomBinding(generator)
    var_and, var_or = bind(algorithms.varAnd), bind(algorithms.varOr)
    stats = statistics()
    logbook = tools.Logbook()
    logbook.header = ["gen", "nevals", *stats.fields]
    hall = tools.HallOfFame(1)
    population = box.population(n=settings.population)
    nevals = _evaluate_invalid(population, box)
    hall.update(population)
    logbook.record(gen=0, nevals=nevals, **stats.compile(population))
    _observe(observe, 0, fitness, hall, logbook)
    target, count = settings.target, settings.children
    mutpb = 1.0 if settings.variation == "each" else settings.mutpb
    generation = 0
    while (target is None or hall[0].fitness.values[0] > target) \
            and generation < settings.generations:
        generation += 1
        if settings.variation == "or":
            offspring = var_or(population, box, count, settings.crossover_rate, mutpb)
        else:
            offspring = var_and(box.select(population, count), box, settings.crossover_rate, mutpb)
        nevals = _evaluate_invalid(offspring, box)
        hall.update(offspring)
        if settings.scheme == "simple":
            population[:] = offspring
        elif settings.scheme == "mu,lambda":
            population[:] = box.survive(offspring, settings.population)
        elif settings.ties == "offspring-first":
            population[:] = box.survive(offspring + population, settings.population)
        else:
            population[:] = box.survive(population + offspring, settings.population)
        logbook.record(gen=generation, nevals=nevals, **stats.compile(population))
        _observe(observe, generation, fitness, hall, logbook)
    return population, logbook, hall, fitness


def _observe(observe, generation: int, fitness, hall, logbook) -> None:
    if observe is not None:
        observe(generation, fitness.evaluations, np.array(hall[0], dtype=np.int64),
                hall[0].fitness.values[0], logbook[-1]["median"])


def run(settings: GaSettings, board: int, seed: int, observe=None) -> Result:
    """One run on an n x n board, drawing from random.Random(seed) alone."""
    _, logbook, hall, fitness = evolve(settings, board, randomness.python(seed), observe)
    best = np.array(hall[0], dtype=np.int64)
    value = hall[0].fitness.values[0]
    problem = problems.get(settings.problem)
    conflicts = (int(value) if settings.fitness == problem.measures[0]
                 else int(problem.conflicts(board, best[None])[0]))
    columns = logbook.select("gen", "nevals", *STATISTICS)
    table = np.array(columns, dtype=float).T
    trace = np.column_stack((table[:, 0], np.cumsum(table[:, 1]), table[:, 2:]))
    return Result(
        solved=bool(value <= settings.solved_at),
        conflicts=conflicts,
        work=fitness.evaluations,
        solution=best,
        generations=len(logbook) - 1,
        trace=trace,
    )
