"""engine: numpy (gaqueens/ga/numpy_engine.py, generation.py): a batch of seeds gives each
seed's one-seed run (tests/runs.py, same_run: numbers, solution and trace), for any settings;
the compiled generation of the published family (gaqueens.problems.nqueens.generation_kernel)
makes the numpy step's runs; results come in the seeds' order with their share of the time."""

import csv
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from gaqueens import ga
from gaqueens.core.algorithms import ALGORITHMS
from gaqueens.ga import GaSettings, generation, numpy_engine
from gaqueens.ga.operators import Operator, make
from gaqueens.ga.variation import lowest
from gaqueens.runtime.execution import execute_batch
from runs import same_run

TABLE = Path(__file__).parents[1] / "results" / "table" / "runs.csv"


@st.composite
def family_settings(draw):
    """Settings of the published family (generation.family), small enough to run quickly."""
    scheme = draw(st.sampled_from(["mu+lambda", "mu,lambda"]))
    population = draw(st.integers(1, 12))
    offspring = draw(st.integers(population if scheme == "mu,lambda" else 1, 16))
    select = draw(st.sampled_from([make("select", "uniform"),
                                   *(make("select", "tournament", size=k) for k in (1, 2, 3, 5))]))
    return GaSettings(population=population, offspring=offspring, scheme=scheme, select=select,
                      ties=draw(st.sampled_from(["offspring-first", "parents-first"]))
                      if scheme == "mu+lambda" else "offspring-first",
                      fitness=draw(st.sampled_from(["pairs", "excess"])),
                      target=draw(st.sampled_from([0, 2, None])),
                      generations=draw(st.integers(0, 60)))


@hypothesis_settings(max_examples=40, deadline=None)
@given(settings=family_settings(), board=st.integers(2, 40),
       seeds=st.lists(st.integers(0, 2**40), min_size=1, max_size=5))
def test_a_batch_gives_each_seeds_one_seed_run(settings, board, seeds):
    """And the swap fitness and the compiled generation make the same runs as the numpy step
    evaluating every child in full, their reference."""
    together = ga.run_many(settings, board, seeds)
    assert all(same_run(r, ga.run(settings, board, s)) for r, s in zip(together, seeds))
    assert generation.family(settings, board)
    reference = numpy_engine.run_many(settings, board, seeds, incremental=False)
    compiled = ga.run_many(settings, board, seeds, compiled=True)
    assert all(same_run(a, b) and same_run(a, c)
               for a, b, c in zip(reference, together, compiled))


OTHERS = [GaSettings(crossover=make("crossover", "pmx"), cxpb=0.9),
          GaSettings(crossover=make("crossover", "ordered"), cxpb=0.5, variation="and"),
          GaSettings(mutation=make("mutation", "shuffle", indpb=0.2)),
          GaSettings(mutation=make("mutation", "swap", count=3)),
          GaSettings(variation="or", crossover=make("crossover", "pmx"), cxpb=0.3, mutpb=0.4),
          GaSettings(variation="or", mutpb=0.5, ties="parents-first"),
          GaSettings(scheme="simple"),
          GaSettings(survivors=make("survivors", "tournament", size=2), target=None),
          GaSettings(select=Operator("select", "deap", (("tournsize", 3),), "selTournament"))]


@hypothesis_settings(max_examples=25, deadline=None)
@given(settings=st.sampled_from(OTHERS), board=st.integers(2, 40),
       generations=st.integers(0, 30),
       seeds=st.lists(st.integers(0, 2**40), min_size=1, max_size=4))
def test_a_batch_gives_each_seeds_one_seed_run_with_any_operator(settings, board, generations,
                                                                seeds):
    """Operators written DEAP's way draw from each run's own random.Random, in its own order."""
    from dataclasses import replace

    settings = replace(settings, generations=generations)
    together = ga.run_many(settings, board, seeds)
    assert all(same_run(r, ga.run(settings, board, s)) for r, s in zip(together, seeds))
    assert not generation.family(settings, board)
    assert all(same_run(a, b) for a, b in zip(ga.run_many(settings, board, seeds, compiled=True),
                                                together))


@pytest.mark.parametrize("settings, board", [
    (GaSettings(generations=300, target=None), 16),  # many windows of draws
    (GaSettings(), 64), (GaSettings(), 128),
    (GaSettings(population=1, offspring=6, generations=500), 8),  # a parent of many
    (GaSettings(population=12, offspring=5, ties="parents-first"), 10),  # few children
    (GaSettings(scheme="mu,lambda", population=1, offspring=6, generations=500), 8),
    (GaSettings(scheme="mu,lambda", select=make("select", "tournament", size=1),
                offspring=150), 10),
], ids=["windows", "64", "128", "one parent", "fewer children", "mu,lambda one parent", "mu,lambda 150"])
def test_the_faster_ways_make_the_numpy_steps_runs(settings, board):
    """The swap fitness and the kernel make a surviving child in its new row, the kernel in a
    dropped member's row or aside first when its parent is dropped: few children, one parent,
    a parent of many; and the larger boards."""
    seeds = range(1, 9)
    reference = numpy_engine.run_many(settings, board, seeds, incremental=False)
    for made in (ga.run_many(settings, board, seeds),
                 ga.run_many(settings, board, seeds, compiled=True)):
        assert all(same_run(a, b) for a, b in zip(made, reference))


def test_the_faster_ways_on_a_board_of_int16_counters():
    settings = GaSettings(generations=30)
    reference = numpy_engine.run_many(settings, 300, [1, 2], incremental=False)
    for made in (ga.run_many(settings, 300, [1, 2]),
                 ga.run_many(settings, 300, [1, 2], compiled=True)):
        assert all(same_run(a, b) for a, b in zip(made, reference))


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
def test_the_published_tables_runs_are_reproduced(compiled):
    """results/table/runs.csv: every run's generations, evaluations, conflicts and solution."""
    with open(TABLE, encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["algorithm"] == "ga"]
    assert len(rows) == 500
    for board in sorted({int(row["board"]) for row in rows}):
        mine = sorted((r for r in rows if int(r["board"]) == board), key=lambda r: int(r["seed"]))
        results = ga.run_many(GaSettings(), board, [int(r["seed"]) for r in mine],
                              compiled=compiled)
        for row, result in zip(mine, results):
            assert (int(row["generations"]), int(row["work"]), int(row["conflicts"])) == (
                result.generations, result.work, result.conflicts)
            assert row["solution"] == " ".join(map(str, result.solution.tolist()))


def test_runs_end_both_ways_in_one_batch_and_leave_it():
    """Some seeds solve early and leave the arrays while the others go on to the limit."""
    results = ga.run_many(GaSettings(generations=40), 16, range(1, 31))
    assert {r.solved for r in results} == {True, False}
    assert {r.generations for r in results if not r.solved} == {40}
    assert all(len(r.trace) == r.generations + 1 for r in results)


def test_results_come_in_the_seeds_order_with_their_share_of_the_time():
    """Each run's seconds is its share of the batch's processor time (time.thread_time), so
    the shares add up to no more than the thread spent."""
    seeds = [5, 1, 9, 5]
    cpu = time.thread_time()
    results = ga.run_many(GaSettings(), 16, seeds)
    spent = time.thread_time() - cpu
    assert [r.work for r in results] == [ga.run(GaSettings(), 16, s).work for s in seeds]
    assert all(r.seconds > 0 for r in results)
    assert sum(r.seconds for r in results) <= spent
    assert ga.run_many(GaSettings(), 16, []) == []


def test_the_deap_engine_runs_seed_by_seed():
    settings = GaSettings(engine="deap")
    together = ga.run_many(settings, 8, [1, 2])
    assert all(same_run(a, ga.run(settings, 8, s)) for a, s in zip(together, [1, 2]))


def test_a_board_of_one_is_solved_by_the_first_population():
    (result,) = ga.run_many(GaSettings(), 1, [3])
    assert result.solved and result.work == 20 and result.generations == 0


def test_a_batch_of_the_ga_runs_together():
    algorithm = ALGORITHMS["ga"]
    batch = execute_batch(algorithm, GaSettings(), 12, [3, 4, 5])
    assert [seed for seed, _ in batch] == [3, 4, 5]
    assert all(same_run(r, ga.run(GaSettings(), 12, s)) for s, r in batch)


@hypothesis_settings(deadline=None)
@given(st.integers(1, 6), st.integers(1, 50), st.data())
def test_the_lowest_are_a_stable_argsorts_first(count, width, data):
    """lowest(): each row's mu lowest and their places, ties in pool order, whole numbers of
    any size (sorted as keys, or argsorted where keys would not fit) and floats."""
    largest = data.draw(st.sampled_from([0, 3, 2**20, 2**60]))
    pool = np.array(data.draw(st.lists(st.lists(st.integers(-largest, largest), min_size=width,
                                                max_size=width), min_size=count, max_size=count)),
                    dtype=np.int64)
    mu = data.draw(st.integers(1, width))
    for values in (pool, pool.astype(float)):
        expected = values.argsort(axis=1, kind="stable")[:, :mu]
        places, kept = lowest(values, mu)
        assert (places == expected).all()
        assert (kept == np.take_along_axis(values, expected, axis=1)).all()
