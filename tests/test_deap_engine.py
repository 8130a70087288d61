"""engine: deap against DEAP itself.

For the settings that DEAP's eaSimple, eaMuPlusLambda and eaMuCommaLambda implement (no
target), a run with seed s is, generation by generation, DEAP's own function run after
random.seed(s) on a toolbox built here the way DEAP's documentation builds one (with a
plain-Python fitness): the same population, logbook and hall of fame (gaqueens/ga/deap_engine.py
says which settings those are). Then DEAP's own N-Queens example, and the engine's other
promises: its runs are its seed's alone, on any thread, and it counts DEAP's nevals.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np
import pytest
from deap import algorithms, base, creator, tools

from gaqueens import ga
from gaqueens.bench import deap_example
from gaqueens.experiment import load
from gaqueens.problems.nqueens.verifier import attacking_pairs, diagonal_excess, is_solution
from gaqueens.ga import GaSettings, deap_engine
from gaqueens.ga.operators import Operator, make
from runs import same_run

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"

if not hasattr(creator, "TestFitnessMin"):
    creator.create("TestFitnessMin", base.Fitness, weights=(-1.0,))
    creator.create("TestIndividual", list, fitness=creator.TestFitnessMin)


def deaps_toolbox(board: int, *, fitness, select, mutate, mate=None) -> base.Toolbox:
    """A toolbox as DEAP's documentation builds one: random permutations, DEAP's operators
    (each a (function, arguments) pair), and a fitness counted in plain Python."""
    box = base.Toolbox()
    box.register("indices", random.sample, range(board), board)
    box.register("individual", tools.initIterate, creator.TestIndividual, box.indices)
    box.register("population", tools.initRepeat, list, box.individual)
    count = attacking_pairs if fitness == "pairs" else diagonal_excess
    box.register("evaluate", lambda individual: (count(individual),))
    box.register("select", select[0], **select[1])
    box.register("mutate", mutate[0], **mutate[1])
    if mate:
        box.register("mate", mate[0], **mate[1])
    return box


def statistics():
    stats = tools.Statistics(key=lambda individual: individual.fitness.values[0])
    for name, function in (("min", np.min), ("median", np.median), ("max", np.max),
                           ("mean", np.mean)):
        stats.register(name, function)
    return stats


def deaps_run(settings: GaSettings, board: int, seed: int, generations: int):
    """DEAP's own algorithm for the settings, ``generations`` generations, after
    random.seed(seed): its population, logbook and hall of fame."""
    survivors = settings.survivors.function() if settings.scheme != "simple" else None
    box = deaps_toolbox(
        board, fitness=settings.fitness,
        select=settings.select.function() if settings.scheme == "simple" else survivors,
        mutate=settings.mutation.function(),
        mate=settings.crossover.function() if settings.crossover_rate else None)
    state = random.getstate()
    random.seed(seed)
    try:
        population = box.population(n=settings.population)
        hall = tools.HallOfFame(1)
        common = dict(stats=statistics(), halloffame=hall, verbose=False)
        if settings.scheme == "simple":
            population, logbook = algorithms.eaSimple(
                population, box, settings.crossover_rate, settings.mutpb, generations, **common)
        else:
            function = (algorithms.eaMuPlusLambda if settings.scheme == "mu+lambda"
                        else algorithms.eaMuCommaLambda)
            population, logbook = function(population, box, settings.population,
                                           settings.offspring, settings.crossover_rate,
                                           settings.mutpb, generations, **common)
    finally:
        random.setstate(state)
    return population, logbook, hall


def ours(settings: GaSettings, board: int, seed: int, generations: int):
    settings = GaSettings(**{**settings.__dict__, "generations": generations})
    population, logbook, hall, _ = deap_engine.evolve(settings, board, random.Random(seed))
    return population, logbook, hall


EA_SIMPLE = GaSettings(engine="deap", scheme="simple", population=24, variation="and", cxpb=0.5,
                       mutpb=0.2, select=make("select", "tournament", size=3), crossover=make("crossover", "pmx"), mutation=make("mutation", "shuffle", indpb=0.15),
                       fitness="excess", target=None)
EA_MU_PLUS_LAMBDA = GaSettings(engine="deap", scheme="mu+lambda", population=16, offspring=24,
                               variation="or", cxpb=0.3, mutpb=0.5, crossover=make("crossover", "pmx"),
                               mutation=make("mutation", "shuffle", indpb=0.15), survivors=make("survivors", "tournament", size=2),
                               ties="parents-first", target=None)
EA_MU_PLUS_LAMBDA_BEST = GaSettings(**{**EA_MU_PLUS_LAMBDA.__dict__,
                                       "survivors": Operator("survivors", "deap", (), "selBest")})
EA_MU_COMMA_LAMBDA = GaSettings(engine="deap", scheme="mu,lambda", population=12, offspring=30,
                                variation="or", cxpb=0.4, mutpb=0.4, crossover=make("crossover", "pmx"),
                                mutation=make("mutation", "shuffle", indpb=0.1), survivors=make("survivors", "tournament", size=3), target=None)
DEAPS_OWN = {"eaSimple": EA_SIMPLE, "eaMuPlusLambda": EA_MU_PLUS_LAMBDA,
             "eaMuPlusLambda-selBest": EA_MU_PLUS_LAMBDA_BEST,
             "eaMuCommaLambda": EA_MU_COMMA_LAMBDA}


@pytest.mark.parametrize("name", DEAPS_OWN)
@pytest.mark.parametrize("board, seed", [(8, 1), (8, 2), (12, 3)])
def test_each_generation_is_deaps_own(name, board, seed):
    settings = DEAPS_OWN[name]
    for generations in range(0, 7):
        theirs = deaps_run(settings, board, seed, generations)
        mine = ours(settings, board, seed, generations)
        assert [list(i) for i in mine[0]] == [list(i) for i in theirs[0]], generations
        assert [ind.fitness.values for ind in mine[0]] == [ind.fitness.values for ind in theirs[0]]
        assert [dict(r) for r in mine[1]] == [dict(r) for r in theirs[1]]
        assert list(mine[2][0]) == list(theirs[2][0])
        assert mine[2][0].fitness.values == theirs[2][0].fitness.values


# ---- DEAP's own N-Queens example ---------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deaps_nqueens_example_is_run_as_deap_runs_it(seed):
    """Stopped at its first solution (or its 100 generations), the ga of
    experiments/deap-example.yaml on engine: deap is DEAP's own run of the example, built and
    run by DEAP alone (gaqueens/bench/deap_example.py), up to that generation."""
    ga_settings = load(EXPERIMENTS / "deap-example.yaml").entry("ga").settings
    result = ga.run(ga_settings, deap_example.QUEENS, seed)
    assert deap_example.same_as_ours(result, seed) is None
    assert result.conflicts == attacking_pairs(result.solution)


def test_the_example_fitness_is_the_excess_fitness():
    for seed in range(20):
        genome = np.random.default_rng(seed).permutation(20).tolist()
        assert deap_example.evaluate(genome) == (diagonal_excess(genome),)


# ---- the engine's own promises --------------------------------------------------------------------


def test_the_published_ga_on_deap_solves_and_counts_20_plus_20g():
    for seed in range(1, 11):
        result = ga.run(GaSettings(engine="deap"), 8, seed)
        assert result.solved and is_solution(result.solution, 8)
        assert result.work == 20 + 20 * result.generations


def test_a_deap_run_leaves_the_random_module_alone_and_repeats():
    random.seed(3)
    state = random.getstate()
    first = ga.run(EA_SIMPLE.__class__(**{**EA_SIMPLE.__dict__, "generations": 20}), 10, 5)
    assert random.getstate() == state
    random.random()
    again = ga.run(EA_SIMPLE.__class__(**{**EA_SIMPLE.__dict__, "generations": 20}), 10, 5)
    assert same_run(first, again)


def test_deap_runs_stay_their_own_in_threads():
    settings = GaSettings(engine="deap", select=make("select", "uniform"), crossover=make("crossover", "pmx"), cxpb=0.5,
                          mutation=make("mutation", "shuffle", indpb=0.2))
    alone = [ga.run(settings, 10, seed) for seed in range(1, 5)]
    together = [None] * 4

    def work(i):
        together[i] = ga.run(settings, 10, i + 1)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(same_run(a, b) for a, b in zip(alone, together))


def test_the_toolbox_has_what_deaps_algorithms_call():
    box = deap_engine.toolbox(GaSettings(crossover=make("crossover", "pmx")), 8)
    for name in ("population", "evaluate", "map", "select", "mate", "mutate", "survive", "clone"):
        assert hasattr(box, name), name
    population = box.population(n=5)
    assert all(sorted(individual) == list(range(8)) for individual in population)
    scored = box.map(box.evaluate, population)
    assert scored == [(attacking_pairs(individual),) for individual in population]
