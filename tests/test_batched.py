"""The batched GA (gaqueens.ga.batched, ga.run_many): each seed's run is the general engine's
(tests/runs.py, same_run: numbers, solution and trace), over many seeds, boards and the
settings of its family; the published table's runs are reproduced; other settings go to the
general engine."""

import csv
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from gaqueens import ga
from gaqueens.core.algorithms import ALGORITHMS
from gaqueens.runtime.execution import execute_batch
from gaqueens.ga import GaSettings, batched
from gaqueens.ga import general, rows
from gaqueens.ga.operators import Operator, make
from gaqueens.ga.randomness import Randomness
from runs import same_run

TABLE = Path(__file__).parents[1] / "results" / "table" / "runs.csv"

FAMILY = {
    "published": (GaSettings(), [8, 16, 32], range(1, 41)),
    "large boards": (GaSettings(), [64, 128], range(1, 5)),
    "parents-first": (GaSettings(ties="parents-first"), [8, 16], range(1, 31)),
    "mu,lambda": (GaSettings(scheme="mu,lambda", offspring=30), [8, 12], range(1, 21)),
    "mu,lambda equal": (GaSettings(scheme="mu,lambda", generations=300), [10], range(1, 11)),
    "target none": (GaSettings(target=None, generations=150), [8, 10], range(1, 11)),
    "unsolved at the limit": (GaSettings(generations=60), [24, 40], range(1, 16)),
    "no generation": (GaSettings(generations=0), [16], range(1, 6)),
    "target above zero": (GaSettings(target=4, population=6, offspring=9), [30], range(1, 21)),
    "tournament of 3": (GaSettings(select=make("select", "tournament", size=3)), [12], range(1, 21)),
    "tournament of 1": (GaSettings(select=make("select", "tournament", size=1), generations=200), [8], range(1, 11)),
    # uniform parents draw (0, mu, lambda), as the swap draws (0, n, lambda) and (0, n - 1,
    # lambda): one block shared when mu = n or mu = n - 1
    "uniform": (GaSettings(select=make("select", "uniform")), [8, 10], range(1, 21)),
    "uniform, mu = n": (GaSettings(select=make("select", "uniform"), population=8), [8], range(1, 21)),
    "uniform, mu = n - 1": (GaSettings(select=make("select", "uniform"), population=9), [10], range(1, 21)),
    "excess": (GaSettings(fitness="excess"), [8, 14], range(1, 21)),
    "excess, mu,lambda": (GaSettings(fitness="excess", scheme="mu,lambda"), [10], range(1, 11)),
    "one parent, one child": (GaSettings(population=1, offspring=1, generations=3000), [8],
                              range(1, 11)),
    "boards of 2 and 3": (GaSettings(generations=30), [2, 3], range(1, 6)),
    # the compiled kernel makes a surviving child in its dropped parent's row, or copies it
    # into another dropped member's row: few children, one parent, and a parent of many
    "fewer children than parents": (GaSettings(population=12, offspring=5), [10], range(1, 21)),
    "fewer children, parents-first": (GaSettings(population=12, offspring=5,
                                                 ties="parents-first"), [10], range(1, 21)),
    "one parent, six children": (GaSettings(population=1, offspring=6, generations=500), [8],
                                 range(1, 11)),
    "mu,lambda, one parent": (GaSettings(scheme="mu,lambda", population=1, offspring=6,
                                         generations=500), [8], range(1, 11)),
    "mu,lambda, one tournament entrant": (GaSettings(scheme="mu,lambda",
                                                     select=make("select", "tournament", size=1),
                                                     offspring=150), [10], range(1, 11)),
}


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
@pytest.mark.parametrize("name", sorted(FAMILY))
def test_each_seeds_run_is_the_general_engines(name, compiled):
    """Each generation in numpy, and in the problem's compiled kernel
    (gaqueens.problems.nqueens.generation_kernel): the same runs either way."""
    settings, boards, seeds = FAMILY[name]
    assert batched.covers(settings, boards[0])
    for board in boards:
        together = ga.run_many(settings, board, seeds, compiled=compiled)
        alone = [general.run(settings, board, seed) for seed in seeds]
        assert [r.generations for r in together] == [r.generations for r in alone]
        assert all(same_run(a, b) for a, b in zip(together, alone)), (name, board)


def test_the_family_ends_runs_both_ways_in_one_batch():
    """The cases above mix solved and unsolved runs in one batch: some seeds end early and
    drop out while the others go on to the limit."""
    results = ga.run_many(GaSettings(generations=40), 16, range(1, 31))
    assert {r.solved for r in results} == {True, False}


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


@pytest.mark.parametrize("settings", [
    GaSettings(engine="deap"), GaSettings(crossover=make("crossover", "pmx"), cxpb=0.5),
    GaSettings(mutation=make("mutation", "shuffle")),
    GaSettings(mutation=make("mutation", "swap", count=2)), GaSettings(variation="and"), GaSettings(scheme="simple"),
    GaSettings(survivors=make("survivors", "tournament", size=2)), GaSettings(select=Operator("select", "deap", (), "selRandom")),
], ids=["deap", "pmx", "shuffle", "two swaps", "and", "simple", "survivors", "deap select"])
def test_other_settings_run_seed_by_seed_on_their_engine(settings):
    assert not batched.covers(settings, 8)
    with pytest.raises(ValueError, match="not of the batched family"):
        batched.run_many(settings, 8, [1])
    together = ga.run_many(settings, 8, [1, 2])
    assert all(same_run(a, ga.run(settings, 8, s)) for a, s in zip(together, [1, 2]))


def test_a_board_of_one_runs_on_the_general_engine():
    assert not batched.covers(GaSettings(), 1)
    (result,) = ga.run_many(GaSettings(), 1, [3])
    assert result.solved and result.work == 20


def test_results_come_in_the_seeds_order_with_their_share_of_the_time():
    """Each run's seconds is its share of the batch's processor time (time.thread_time), so
    the shares add up to no more than the thread spent, and no more than the wall time."""
    seeds = [5, 1, 9, 5]
    start, cpu = time.perf_counter(), time.thread_time()
    results = ga.run_many(GaSettings(), 16, seeds)
    spent, wall = time.thread_time() - cpu, time.perf_counter() - start
    assert [r.work for r in results] == [ga.run(GaSettings(), 16, s).work
                                               for s in seeds]
    assert all(r.seconds > 0 for r in results)
    assert sum(r.seconds for r in results) <= min(spent, wall)
    assert ga.run_many(GaSettings(), 16, []) == []


def test_a_batch_of_the_ga_runs_together():
    algorithm = ALGORITHMS["ga"]
    batch = execute_batch(algorithm, GaSettings(), 12, [3, 4, 5])
    assert [seed for seed, _ in batch] == [3, 4, 5]
    assert all(same_run(r, ga.run(GaSettings(), 12, s)) for s, r in batch)


@given(st.integers(1, 6), st.integers(1, 50), st.data())
def test_the_lowest_are_a_stable_argsorts_first(count, width, data):
    """lowest(): each row's mu lowest and their places, ties in pool order, on keys (any
    width and values up to the bound) and without them (shift None) alike."""
    largest = data.draw(st.sampled_from([0, 3, 2**20, 2**40]))
    pool = np.array(data.draw(st.lists(st.lists(st.integers(0, largest), min_size=width,
                                                max_size=width), min_size=count, max_size=count)),
                    dtype=np.int64)
    mu = data.draw(st.integers(1, width))
    expected = pool.argsort(axis=1, kind="stable")[:, :mu]
    for shift in (rows.key_shift(width, largest), None):
        places, values = rows.lowest(pool, mu, shift)
        assert (places == expected).all()
        assert (values == np.take_along_axis(pool, expected, axis=1)).all()


def test_keys_too_wide_for_int64_fall_back_to_the_argsort():
    assert rows.key_shift(40, 2**55) == 6
    assert rows.key_shift(40, 2**56) is None
    assert rows.key_shift(1, 0) == 1


# ---- the draws taken ahead -------------------------------------------------------------------


def test_a_keys_blocks_grow_from_16_calls_to_256():
    """Randomness (gaqueens/ga/randomness.py): a key's blocks serve 16, 32, 64, 128, then 256
    calls each, every block the numbers of one numpy call of the run's generator; another
    key's blocks are drawn between them where its calls come."""
    randomness, plain = Randomness(7), np.random.default_rng(7)
    served = [randomness.integers(0, 9, 4).copy() for _ in range(16 + 32 + 64 + 128 + 256 + 1)]
    blocks = [plain.integers(0, 9, (calls, 4)) for calls in (16, 32, 64, 128, 256, 256)]
    assert np.array_equal(np.array(served), np.concatenate(blocks)[: len(served)])
    mixed, plain = Randomness(7), np.random.default_rng(7)
    mixed.integers(0, 9, 4)
    mixed.uniform(3)
    expected = [plain.integers(0, 9, (16, 4)), plain.random((16, 3))]
    assert np.array_equal([mixed.integers(0, 9, 4) for _ in range(15)], expected[0][1:])
    assert np.array_equal(mixed.integers(0, 9, 4), plain.integers(0, 9, (32, 4))[0])
    assert np.array_equal(mixed.uniform(3), expected[1][1])


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "compiled"])
def test_draws_are_each_seeds_calls_in_their_order(compiled):
    """gaqueens.ga.draws: the draws served for several seeds together, chunk by chunk and
    window by window, some seeds leaving on the way, are those each seed's own Randomness
    serves call by call: for numpy's generation the entrants as rows of the batch and the
    swap's second position made other than the first; for the compiled one as drawn."""
    calls = [(0, 20, (20, 2)), (0, 8, 20), (0, 7, 20)]
    seeds = [11, 12, 13]
    alone, together = [Randomness(s) for s in seeds], [Randomness(s) for s in seeds]
    for k, (a, b) in enumerate(zip(alone, together)):  # leaves a 32-bit half waiting, or not
        a.numpy.permuted(np.arange(8 + k))
        b.numpy.permuted(np.arange(8 + k))
    expected = [[[r.integers(*key).copy() for key in calls] for r in alone] for _ in range(600)]
    draws, running = batched.Draws(calls, compiled), np.arange(3)
    for generation in range(600):
        if not draws.stacked(generation):
            if generation >= 100:  # the seed 12 has ended: it leaves at a window's start
                running = np.array([0, 2])
            if not draws.drawn(generation):
                draws.draw(generation, running, [together[i] for i in running])
            draws.stack(generation, running, 20)
        if compiled:
            entrants, *positions = draws.take(generation)
        else:
            entrants, positions = draws.take(generation)
        for row, i in enumerate(running.tolist()):
            select, first, second = expected[generation][i]
            if compiled:
                assert np.array_equal(entrants[row], select)
                assert np.array_equal(positions[1][row], second)
            else:
                assert np.array_equal(entrants[row] - 20 * row, select)
                assert np.array_equal(positions[1][row], second + (second >= first))
            assert np.array_equal(positions[0][row], first)
