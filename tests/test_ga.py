"""The GA engine: its operators, one generation worked by hand, and whole runs."""

import random
import re
import subprocess
import sys
import threading

import numpy as np
import pytest
from deap import tools
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens import ga
from gaqueens.core.errors import Fault
from gaqueens.problems.nqueens.fitness import Conflicts
from gaqueens.problems.nqueens.verifier import is_solution
from gaqueens.ga import GaSettings, generation, randomness
from gaqueens.ga.numpy_engine import Runs
from gaqueens.ga.operators import BUILTINS, Operator, make
from gaqueens.ga.randomness import RandomBinding
from gaqueens.ga.variation import cross, mutate, select, swap, tournament
from runs import same_run


def random_population(n, k, seed):
    """k permutations of 0..n-1, a batch of one run (1, k, n)."""
    return randomness.permutations(randomness.keys([seed]), k, n)


def bound(seed):
    return [RandomBinding(randomness.python(seed))]


# ---- operators ------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 60), k=st.integers(1, 30), seed=st.integers(0, 2**32 - 1))
def test_swap_child_is_still_a_permutation_with_exactly_two_positions_changed(n, k, seed):
    parents = random_population(n, k, seed)
    children = parents.copy()
    swap(children, randomness.integers(randomness.keys([seed]), 1, randomness.SWAPS,
                                       (n, n - 1), (k, 1, 2)))
    assert (np.sort(children, axis=2) == np.arange(n)).all()
    assert ((children != parents).sum(axis=2) == 2).all()


def test_a_swap_exchanges_its_first_position_with_the_second_drawn_among_the_others():
    """The second position is drawn below n - 1 and skips the first: (2, 2) swaps 2 and 3."""
    children = np.array([[[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]])
    swap(children, np.array([[[[2, 2]], [[0, 0]], [[4, 1]]]]), np.array([[True, True, False]]))
    assert children[0].tolist() == [[0, 1, 3, 2, 4], [1, 0, 2, 3, 4], [0, 1, 2, 3, 4]]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(BUILTINS["mutation"])), n=st.integers(2, 40),
       seed=st.integers(0, 2**32 - 1))
def test_every_mutation_keeps_permutations(name, n, seed):
    children = random_population(n, 12, seed)
    mutate(make("mutation", name), children, np.ones((1, 12), dtype=bool),
           randomness.keys([seed]), 1, bound(seed))
    assert (np.sort(children, axis=2) == np.arange(n)).all()


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(set(BUILTINS["crossover"]) - {"none"})), n=st.integers(2, 40),
       seed=st.integers(0, 2**32 - 1))
def test_every_crossover_keeps_permutations(name, n, seed):
    children = random_population(n, 2, seed)
    cross(make("crossover", name), children, [(0, 0, 1)], bound(seed))
    assert (np.sort(children, axis=2) == np.arange(n)).all()


def test_swap_written_deaps_way_swaps_two_positions_of_a_list():
    function, arguments = make("mutation", "swap", count=3).function()
    genome = list(range(10))
    (changed,) = bound(5)[0](function)(genome, **arguments)
    assert changed is genome and sorted(genome) == list(range(10)) and genome != list(range(10))


def test_tournament_picks_the_better_of_two():
    conflicts = np.array([[0, 5]])
    assert tournament(conflicts, np.array([[[0, 1], [1, 0], [1, 1], [0, 0]]])).tolist() == [
        [0, 0, 1, 0]]


def test_tournament_tie_goes_to_the_first_drawn_as_in_deap():
    assert tournament(np.array([[3, 3]]), np.array([[[1, 0], [0, 1]]])).tolist() == [[1, 0]]
    three = np.array([[4, 2, 2, 9]])
    assert tournament(three, np.array([[[3, 2, 1], [0, 3, 0]]])).tolist() == [[2, 0]]


@pytest.mark.parametrize("operator", [*(make("select", name) for name in BUILTINS["select"]),
                                      Operator("select", "deap", (("tournsize", 3),), "selTournament"),
                                      Operator("select", "deap", (), "selRandom")], ids=repr)
def test_every_selection_returns_places_in_the_population(operator):
    picked = select(operator, np.arange(7)[None], 50, randomness.keys([1]), 1, bound(1))
    assert picked.shape == (1, 50) and ((0 <= picked) & (picked < 7)).all()


def test_a_deap_selection_on_arrays_minimises_the_fitness():
    picked = select(Operator("select", "deap", (), "selBest"), np.array([[3, 1, 2, 1]]), 3,
                    randomness.keys([1]), 1, bound(1))
    assert picked.tolist() == [[1, 3, 2]]  # the lowest first, ties in order, as selBest sorts


def test_a_deap_tournament_draws_from_the_runs_generator_all_the_way_down():
    """selTournament calls selRandom: both must draw from the run's generator."""
    values = np.arange(50)[None]
    operator = Operator("select", "deap", (("tournsize", 2),), "selTournament")
    random.seed(7)
    state = random.getstate()
    first = select(operator, values, 30, randomness.keys([3]), 1, bound(3))
    assert random.getstate() == state
    assert first.tolist() == select(operator, values, 30, randomness.keys([3]), 1, bound(3)).tolist()


# ---- one generation, by hand ------------------------------------------------------------------
#
# On the 4x4 board: P0 = [2,0,1,3] has 1 attacking pair ((1,0)-(2,1)), P1 = [1,0,2,3] has 2.
# Tournaments [0,1] -> P0 and [1,1] -> P1. Swaps of positions (0,1) in both children (the
# second drawn 0 among the others than 0, so 1): C0 = [0,2,1,3], 2 pairs ((0,0)-(3,3),
# (1,2)-(2,1)); C1 = [0,1,2,3], 6 pairs (one diagonal). C0 ties with P1 for the second place.

P0, P1 = [2, 0, 1, 3], [1, 0, 2, 3]
C0, C1 = [0, 2, 1, 3], [0, 1, 2, 3]


@pytest.fixture
def scripted(monkeypatch):
    """The first population P0, P1 and one generation's draws, in place of the hash's: for a
    window of generations from 1 (the family's faster ways draw so), generation 1's first."""
    draws = {randomness.PARENTS: np.array([[[0, 1], [1, 1]]]),
             randomness.SWAPS: np.array([[[[0, 0]], [[0, 0]]]])}

    def integers(keys, generation, stream, high, shape):
        made = draws.pop(stream)
        assert made.shape == (1, *shape)
        assert (made < np.broadcast_to(np.asarray(high), made.shape)).all()
        if isinstance(generation, range):
            assert generation.start == 1
            window = np.zeros((1, len(generation), *shape), dtype=np.int64)
            window[:, 0] = made
            return window
        assert generation == 1
        return made

    monkeypatch.setattr(randomness, "permutations", lambda keys, count, n: np.array([[P0, P1]]))
    monkeypatch.setattr(randomness, "integers", integers)
    return draws


WAYS = ["numpy", "swaps", "compiled"]  # generation.step, with ga_swaps, with ga_compiled


def one_generation(way="numpy", **changes):
    """The population and its fitness after generation 1, and the run's evaluations."""
    sizes = {"population": 2} if changes.get("scheme") == "simple" else {"population": 2,
                                                                          "offspring": 2}
    settings_ = GaSettings(**sizes, **changes)
    runs = Runs(settings_, 4, [1], generation.hook(settings_, 4, "ga_swaps") if way == "swaps"
                else None, generation.hook(settings_, 4, "ga_compiled") if way == "compiled"
                else None)
    assert runs.values.tolist() == [[1, 2]] and runs.evaluations.tolist() == [2]
    generation.step(runs, 1)
    if way == "compiled":
        cells, slots = runs.state
        genomes = cells[slots[0], :4]
    elif way == "swaps":  # each genome beside its diagonal counters
        genomes = runs.cells[0, :, :4]
        assert (runs.cells[0, :, 4:] == Conflicts(4).counts(genomes)).all()
    else:
        genomes = runs.genomes[0]
    return genomes.tolist(), runs.values[0].tolist(), int(runs.evaluations[0])


@pytest.mark.parametrize("way", WAYS)
def test_ties_prefer_offspring(scripted, way):
    assert one_generation(way) == ([P0, C0], [1, 2], 4)
    assert not scripted  # every draw was taken


@pytest.mark.parametrize("way", WAYS)
def test_parents_first_ties_keep_the_parent(scripted, way):
    assert one_generation(way, ties="parents-first") == ([P0, P1], [1, 2], 4)


@pytest.mark.parametrize("way", WAYS)
def test_mu_comma_lambda_keeps_only_children(scripted, way):
    assert one_generation(way, scheme="mu,lambda") == ([C0, C1], [2, 6], 4)


def test_simple_scheme_replaces_the_population_by_its_children(scripted):
    assert one_generation(scheme="simple") == ([C0, C1], [2, 6], 4)


@pytest.mark.parametrize("way", WAYS[:2])
def test_the_best_found_is_the_first_child_strictly_better(scripted, way):
    """Both children of P0: swapping positions (0, 1) gives C0 (2 pairs), (2, 3) the solution
    [2, 0, 3, 1]: the best found becomes it, and it leads the population."""
    scripted[randomness.PARENTS] = np.array([[[0, 0], [0, 1]]])
    scripted[randomness.SWAPS] = np.array([[[[0, 0]], [[2, 2]]]])
    settings_ = GaSettings(population=2, offspring=2)
    runs = Runs(settings_, 4, [1], generation.hook(settings_, 4, "ga_swaps") if way == "swaps"
                else None)
    assert runs.best[0].tolist() == P0 and runs.best_value.tolist() == [1]
    generation.step(runs, 1)
    assert runs.best[0].tolist() == [2, 0, 3, 1] and runs.best_value.tolist() == [0]
    genomes = runs.genomes if way == "numpy" else runs.cells[:, :, :4]
    assert genomes[0].tolist() == [[2, 0, 3, 1], P0]


# ---- whole runs -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 21))
def test_solved_at_generation_g_used_20_plus_20g_evaluations(seed):
    result = ga.run(GaSettings(), 8, seed)
    assert result.solved and result.conflicts == 0 and is_solution(result.solution, 8)
    assert result.work == 20 + 20 * result.generations
    trace = result.trace
    assert trace[:, 0].tolist() == list(range(result.generations + 1))
    assert trace[-1, 1] == result.work and trace[-1, 2] == 0


@settings(max_examples=25, deadline=None)
@given(n=st.integers(4, 24), seed=st.integers(0, 10**9), mu=st.integers(1, 8), lam=st.integers(1, 8))
def test_best_never_gets_worse_under_mu_plus_lambda(n, seed, mu, lam):
    result = ga.run(GaSettings(population=mu, offspring=lam, generations=200), n, seed)
    best = result.trace[:, 2]
    assert (np.diff(best) <= 0).all()
    assert (result.trace[:, 2] <= result.trace[:, 3]).all() and (result.trace[:, 3] <= result.trace[:, 4]).all()
    assert result.work == mu + lam * result.generations


def test_a_seeded_run_is_identical_twice():
    assert same_run(ga.run(GaSettings(), 32, 7), ga.run(GaSettings(), 32, 7))


def test_other_seeds_give_other_runs():
    assert len({ga.run(GaSettings(), 16, seed).work for seed in range(1, 11)}) > 1


def test_stops_at_the_generation_limit_unsolved():
    result = ga.run(GaSettings(generations=0), 64, 1)
    assert result.generations == 0 and result.work == 20 and not result.solved
    assert result.conflicts > 0 and len(result.trace) == 1


def test_stops_at_a_target_above_zero():
    result = ga.run(GaSettings(target=5), 64, 1)
    assert result.solved and 0 < result.conflicts <= 5


def test_board_of_one_is_solved_by_the_first_population():
    result = ga.run(GaSettings(), 1, 1)
    assert result.solved and result.work == 20 and result.solution.tolist() == [0]


DEAP_SETTINGS = [
    GaSettings(crossover=make("crossover", "pmx"), cxpb=0.9),
    GaSettings(crossover=make("crossover", "ordered"), cxpb=0.5),
    GaSettings(mutation=make("mutation", "shuffle", indpb=0.2)),
]


@pytest.mark.parametrize("settings_", DEAP_SETTINGS, ids=["pmx", "ordered", "shuffle"])
def test_deap_operators_solve_and_repeat_exactly(settings_):
    first = ga.run(settings_, 8, 3)
    assert first.solved and is_solution(first.solution, 8)
    assert same_run(first, ga.run(settings_, 8, 3))


def test_deap_operators_do_not_touch_the_random_module():
    import random

    random.seed(99)
    expected = random.random()
    random.seed(99)
    ga.run(GaSettings(crossover=make("crossover", "pmx"), cxpb=0.9, mutation=make("mutation", "shuffle", indpb=0.2)), 8, 1)
    assert random.random() == expected


def test_runs_with_deap_operators_stay_their_own_in_threads():
    alone = [ga.run(s, 10, seed) for s in DEAP_SETTINGS for seed in (1, 2)]
    together = [None] * len(alone)

    def work(i, s, seed):
        together[i] = ga.run(s, 10, seed)

    threads = [threading.Thread(target=work, args=(i, s, seed))
               for i, (s, seed) in enumerate((s, seed) for s in DEAP_SETTINGS for seed in (1, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(same_run(a, b) for a, b in zip(alone, together))


# ---- the settings model: DEAP's variations, survivors, fitness and stops ------------------------


def test_children_no_operator_touched_keep_their_fitness_and_cost_nothing():
    """DEAP counts an evaluation when a variation operator invalidated a fitness: with varAnd
    and no crossover nor mutation, no child is ever evaluated."""
    settings_ = GaSettings(variation="and", mutpb=0.0, generations=30)
    result = ga.run(settings_, 8, 1)
    assert result.generations == 30 and result.work == 20
    assert (np.diff(result.trace[:, 1]) == 0).all()


@pytest.mark.parametrize("variation", ["and", "or"])
def test_evaluations_are_what_the_fitness_counted(variation):
    settings_ = GaSettings(variation=variation, crossover=make("crossover", "pmx"), cxpb=0.3, mutpb=0.4,
                           generations=40, target=None)
    result = ga.run(settings_, 10, 2)
    per_generation = np.diff(result.trace[:, 1])
    assert result.work == result.trace[-1, 1] == 20 + per_generation.sum()
    assert 0 < per_generation.mean() < 20  # some children are copies, evaluated never


def test_target_none_runs_every_generation():
    result = ga.run(GaSettings(target=None, generations=300), 8, 1)
    assert result.generations == 300 and result.solved and result.conflicts == 0


def test_the_best_found_is_kept_when_survivors_can_lose_it():
    """Survivors by tournament can drop the best; the result is the first best found, as
    DEAP's HallOfFame(1) keeps it."""
    settings_ = GaSettings(survivors=make("survivors", "tournament", size=2), target=None, generations=200)
    result = ga.run(settings_, 12, 3)
    best_by_generation = result.trace[:, 2]
    assert (np.diff(best_by_generation) > 0).any()  # the population did lose its best
    assert result.conflicts == best_by_generation.min()


@pytest.mark.parametrize("engine", ["numpy", "deap"])
def test_the_excess_fitness_reports_attacking_pairs_and_solves(engine):
    result = ga.run(GaSettings(engine=engine, fitness="excess"), 10, 4)
    assert result.solved and result.conflicts == 0 and is_solution(result.solution, 10)
    unsolved = ga.run(GaSettings(engine=engine, fitness="excess", generations=0), 30, 4)
    assert unsolved.conflicts == Conflicts(30)(unsolved.solution[None])[0]  # pairs, not excess


@pytest.mark.parametrize("changes, says", [
    ({"variation": "each", "mutpb": 0.5}, "mutpb does not apply: variation each"),
    ({"cxpb": 0.7}, "cxpb does not apply: there is no crossover"),
    ({"scheme": "simple", "offspring": 30}, "offspring does not apply"),
    ({"scheme": "mu,lambda", "ties": "parents-first"}, "ties does not apply"),
    ({"variation": "or", "select": make("select", "uniform")}, "select does not apply: variation or"),
    ({"scheme": "simple", "survivors": make("survivors", "tournament", size=3)}, "survivors does not apply"),
    ({"variation": "or", "crossover": make("crossover", "pmx"), "cxpb": 0.6, "mutpb": 0.5}, "mutpb must be at most 1 - cxpb (0.4) with variation or"),
    ({"select": make("survivors", "best")}, "select must be an operator of kind select"),
])
def test_settings_that_do_not_apply_or_do_not_fit_are_refused(changes, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        GaSettings(**changes)


def shuffle_everything(individual, lengthen=False):
    """A user's mutation written DEAP's way; lengthen breaks the permutation."""
    random.shuffle(individual)
    if lengthen:
        individual.append(0)
    return (individual,)


def test_a_users_operator_runs_and_one_that_breaks_permutations_is_refused():
    good = Operator("mutation", "function", (), f"{__name__}:shuffle_everything")
    result = ga.run(GaSettings(mutation=good, generations=50, target=None), 8, 1)
    assert result.work == 20 + 50 * 20
    bad = Operator("mutation", "function", (("lengthen", True),), f"{__name__}:shuffle_everything")
    for engine in ("numpy", "deap"):
        with pytest.raises(Fault, match=f"the mutation {__name__}:shuffle_everything returned a "
                                        "genome of 9 entries on a board of 8, expected a 1-tuple"):
            ga.run(GaSettings(engine=engine, mutation=bad), 8, 1)


@pytest.mark.parametrize("settings", [
    GaSettings(), GaSettings(variation="and", mutpb=0.5), GaSettings(engine="deap"),
    GaSettings(fitness="excess"),
], ids=["batched", "general", "deap", "excess"])
def test_a_replay_is_the_run_and_sees_its_best_improve_to_its_answer(settings):
    seen = []
    replayed = ga.replay(settings, 10, 4, lambda *frame: seen.append(
        (frame[0], frame[1], np.array(frame[2]).tolist(), float(frame[3]), float(frame[4]))))
    result = ga.run(settings, 10, 4)
    assert same_run(replayed, result)
    assert [g for g, *_ in seen] == list(range(result.generations + 1))
    assert seen[-1][1] == result.work and seen[-1][2] == result.solution.tolist()
    bests = [value for *_, value, _ in seen]
    assert bests == sorted(bests, reverse=True)  # the best so far never gets worse
    trace = result.trace
    assert [evaluations for _, evaluations, *_ in seen] == trace[:, 1].tolist()
    assert [median for *_, median in seen] == trace[:, 3].tolist()


def test_the_published_ga_loads_a_file_and_runs_without_importing_deap_tools(tmp_path):
    """deap.tools imports moocore (some 75 ms of processor time and a thread of its own):
    gaqueens imports it only where one of DEAP's functions is first called (operators.deap_tools),
    never for the published GA on engine: numpy; a DEAP operator's function is still DEAP's."""
    file = tmp_path / "n8.yaml"
    file.write_text("boards: [8]\nseeds: {first: 1, last: 3}\n", encoding="utf-8")
    script = ("import sys; from gaqueens import ga, sweep; from gaqueens.experiment import load; "
              "entry = load(sys.argv[1]).entries[0]; ga.run_many(entry.settings, 8, [1, 2, 3]); "
              "print('deap.tools' in sys.modules, 'moocore' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script, str(file)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["False", "False"]
    function, arguments = make("select", "tournament", size=3).function()
    assert function is tools.selTournament and arguments == {"tournsize": 3}
