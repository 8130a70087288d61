"""The baselines: every answer against the independent verifier, seeds that repeat, the budgets
kept, the construction's published outputs, and the heuristic backtracking's bookkeeping
against brute force (the compiled searches' own: tests/test_kernels.py)."""

import dataclasses
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.core.algorithms import ALGORITHMS
from gaqueens.baselines import backtracking, backtracking_heuristic, construction, local_search
from gaqueens.baselines import min_conflicts
from gaqueens.problems.nqueens.verifier import attacking_pairs, is_solution
from gaqueens.experiment import BadInput, load
from gaqueens.core.ranges import Number, Whole, allowed

BASELINES = sorted(name for name in ALGORITHMS if name != "ga")
SEARCHES = [name for name in BASELINES if not ALGORITHMS[name].deterministic]
BUDGETED = [name for name in BASELINES if "budget" in
            [f.name for f in dataclasses.fields(ALGORITHMS[name].settings)]]
MODULES = {
    "local-search": local_search, "min-conflicts": min_conflicts, "backtracking": backtracking,
    "backtracking-heuristic": backtracking_heuristic, "construction": construction,
}


def run(name, board, seed=1, **changes):
    algorithm = ALGORITHMS[name]
    return algorithm.run(algorithm.settings(**changes), board, seed)


def assert_honest(result, board):
    """What the sweep checks of every run, and the shape of the result."""
    assert isinstance(result.solution, np.ndarray) and result.solution.ndim == 1
    assert np.issubdtype(result.solution.dtype, np.integer) and len(result.solution) == board
    assert result.conflicts == attacking_pairs(result.solution)
    assert result.solved == (result.conflicts == 0)
    assert not result.solved or is_solution(result.solution, board)
    assert result.generations == 0 and result.seconds == 0 and result.trace is None


# ---- the registry -------------------------------------------------------------------------


def test_every_baseline_is_registered_with_its_module_settings_and_unit():
    assert BASELINES == sorted(MODULES)
    for name, module in MODULES.items():
        algorithm = ALGORITHMS[name]
        assert algorithm.run is module.run and algorithm.settings is module.Settings
        assert algorithm.unit == module.UNIT
    assert {name for name in BASELINES if ALGORITHMS[name].deterministic} == {
        "backtracking", "construction"}


@pytest.mark.parametrize("name", BASELINES)
def test_settings_are_frozen_and_every_field_documents_its_range(name):
    cls = ALGORITHMS[name].settings
    defaults = cls()
    with pytest.raises(dataclasses.FrozenInstanceError):
        defaults.budget = 1
    for field in dataclasses.fields(cls):
        assert allowed(field).accepts(getattr(defaults, field.name))
        assert field.name.replace("_", "-") in cls.__doc__


def edges(rule):
    """Values just inside and just outside a range."""
    if isinstance(rule, Whole):
        return [rule.minimum, rule.maximum], [rule.minimum - 1, rule.maximum + 1]
    assert isinstance(rule, Number)
    return [rule.minimum, rule.maximum], [rule.minimum - 0.01, rule.maximum + 0.5]


def experiment_file(tmp_path, text):
    path = tmp_path / "x.yaml"
    path.write_text(f"boards: [8]\nga: none\noutput: {tmp_path / 'out'}\n{text}\n")
    return path


@pytest.mark.parametrize("name", BASELINES)
def test_settings_round_trip_through_an_experiment_file_at_their_range_edges(name, tmp_path):
    cls = ALGORITHMS[name].settings
    assert load(experiment_file(tmp_path, f"baselines: [{name}]")).entry(name).settings == cls()
    for field in dataclasses.fields(cls):
        key = field.name.replace("_", "-")
        inside, outside = edges(allowed(field))
        for value in inside:
            loaded = load(experiment_file(tmp_path, f"baselines: {{{name}: {{{key}: {value}}}}}"))
            assert loaded.entry(name).settings == cls(**{field.name: value})
        for value in outside:
            with pytest.raises(BadInput, match=f"baselines.{name}.{key} must be"):
                load(experiment_file(tmp_path, f"baselines: {{{name}: {{{key}: {value}}}}}"))


# ---- every answer checked ------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(board=st.sampled_from([1, *range(4, 41)]), seed=st.integers(0, 2**63 - 1))
@pytest.mark.parametrize("name", SEARCHES)
def test_a_search_solves_small_boards_and_the_verifier_agrees(name, board, seed):
    result = run(name, board, seed)
    assert_honest(result, board)
    assert result.solved and result.work >= 1


@pytest.mark.parametrize("name", SEARCHES)
def test_a_seeded_run_repeats_exactly(name):
    first, again = run(name, 24, seed=7), run(name, 24, seed=7)
    assert first == again and (first.solution == again.solution).all()
    others = {tuple(run(name, 24, seed=s).solution) for s in range(8)}
    assert len(others) > 1  # and the seed matters


@pytest.mark.parametrize("name", BASELINES)
@pytest.mark.parametrize("board", [2, 3])
def test_boards_without_a_solution_are_refused_with_a_clear_message(name, board):
    with pytest.raises(ValueError, match=f"board {board} has no solution"):
        run(name, board)


@pytest.mark.parametrize("name", BUDGETED)
def test_an_exhausted_budget_is_reported_unsolved_with_an_honest_placement(name):
    result = run(name, 40, seed=3, budget=1)
    assert_honest(result, 40)
    assert not result.solved and result.conflicts > 0


def test_heuristic_backtracking_solves_every_board_to_128():
    for board in [1, *range(4, 129)]:
        result = run("backtracking-heuristic", board, seed=board)
        assert result.solved and is_solution(result.solution, board), board


@pytest.mark.parametrize("name", ["local-search", "min-conflicts"])
def test_the_compiled_searches_solve_a_hundred_thousand_queens(name):
    result = run(name, 100_000, seed=1)
    assert result.solved and is_solution(result.solution, 100_000)


# ---- plain backtracking --------------------------------------------------------------------


def naive_first_solution(n):
    """The first solution in lexicographic order and the queens placed to find it, by a plain
    recursive search over sets."""
    placed, nodes = [], 0

    def extend():
        nonlocal nodes
        r = len(placed)
        if r == n:
            return True
        for c in range(n):
            if all(c != pc and abs(c - pc) != r - pr for pr, pc in enumerate(placed)):
                nodes += 1
                placed.append(c)
                if extend():
                    return True
                placed.pop()
        return False

    extend()
    return placed, nodes


@pytest.mark.parametrize("board", [1, *range(4, 13)])
def test_backtracking_finds_the_first_solution_with_the_nodes_a_naive_search_places(board):
    columns, nodes = naive_first_solution(board)
    result = run("backtracking", board)
    assert result.solved and result.solution.tolist() == columns and result.work == nodes
    assert_honest(result, board)


def test_backtracking_finds_the_well_known_first_solution_of_eight():
    result = run("backtracking", 8)
    assert result.solution.tolist() == [0, 4, 7, 5, 2, 6, 1, 3] and result.work == 113


@settings(max_examples=40, deadline=None)
@given(board=st.sampled_from([6, 8, 10, 12, 16]), data=st.data())
def test_backtracking_spends_exactly_its_budget_or_the_nodes_the_solution_takes(board, data):
    needed = run("backtracking", board).work
    budget = data.draw(st.integers(1, needed + 50))
    result = run("backtracking", board, budget=budget)
    assert_honest(result, board)
    assert result.work == min(budget, needed)
    if budget >= needed:
        assert result.solved
        assert result.solution.tolist() == run("backtracking", board).solution.tolist()
    # short of it, the rows placed with the leftover columns filled in below are reported as
    # they are: unsolved, or (rarely, on small boards) solved by the filling-in


def test_backtracking_stops_at_its_budget_on_a_board_it_cannot_finish():
    result = run("backtracking", 64, budget=20_000)
    assert_honest(result, 64)
    assert not result.solved and result.work == 20_000
    path, nodes = backtracking.search(64, 20_000)
    assert nodes == 20_000 and len(path) < 64 and attacking_pairs(path) == 0
    assert result.solution[:len(path)].tolist() == path  # the rows placed, then the rest


# ---- the construction -----------------------------------------------------------------------


@pytest.mark.parametrize("board, published", [
    (8, "2 4 6 8 3 1 7 5"),
    (14, "2 4 6 8 10 12 14 3 1 7 9 11 13 5"),
    (15, "4 6 8 10 12 14 2 5 7 9 11 13 15 1 3"),
])
def test_construction_gives_the_published_sequences(board, published):
    assert construction.numbers(board) == [int(x) for x in published.split()]
    result = run("construction", board)
    assert result.solution.tolist() == [int(x) - 1 for x in published.split()]


def test_construction_of_eight_is_the_genome_of_spec_section_2():
    assert run("construction", 8).solution.tolist() == [1, 3, 5, 7, 2, 0, 6, 4]


def test_construction_solves_every_board_from_4_to_2000_with_no_work():
    for board in [1, *range(4, 2001)]:
        result = run("construction", board)
        assert result.solved and result.work == 0, board
        assert is_solution(result.solution, board), board


# ---- the bookkeeping of each search, against brute force ------------------------------------


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 14), seed=st.integers(0, 2**32 - 1))
def test_heuristic_backtracking_counts_the_free_squares_of_each_line(n, seed):
    rng = np.random.default_rng(seed)
    attempt = backtracking_heuristic._Attempt(n, rng)
    placed = []
    for _ in range(3 * n):
        choices = attempt.choices()
        if placed and (not choices or rng.random() < 0.3):
            attempt.lift(*placed.pop())
        elif choices:
            placed.append(choices[0])
            attempt.place(*choices[0])
        free = np.array([[attempt.free(np.array([r]), np.array([c]))[0] for c in range(n)]
                         for r in range(n)])
        rows_left = [r for r in range(n) if not any(r == pr for pr, _ in placed)]
        columns_left = [c for c in range(n) if not any(c == pc for _, pc in placed)]
        assert attempt.row_free[rows_left].tolist() == free[rows_left].sum(axis=1).tolist()
        assert (attempt.column_free[columns_left].tolist()
                == free[:, columns_left].sum(axis=0).tolist())
        if attempt.row_free.min() == 0 or attempt.column_free.min() == 0:
            break


# ---- the command ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", BASELINES)
def test_gaqueens_run_runs_each_baseline_on_eight_queens(name):
    done = subprocess.run(
        [sys.executable, "-m", "gaqueens.run", "--board", "8", "--algorithm", name],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 conflicts") and done.stderr == ""


def test_a_processs_one_off_costs_are_paid_before_the_clock_starts(monkeypatch):
    """execute runs an algorithm untimed once a process for each of its settings (its prepare
    first, if any), and only then starts the clock of the run it times."""
    from gaqueens.runtime import execution

    events = []

    def run(settings, board, seed):
        events.append(("run", board, seed))
        return ALGORITHMS["construction"].run(settings, board, seed)

    clock = iter(range(100))
    monkeypatch.setattr(execution.time, "thread_time", lambda: events.append("clock") or next(clock))
    monkeypatch.setattr(execution, "_WARMED", set())
    algorithm = dataclasses.replace(ALGORITHMS["construction"], run=run,
                                    prepare=lambda: events.append("prepare"))
    execution.execute(algorithm, algorithm.settings(), 12, 1)
    execution.execute(algorithm, algorithm.settings(), 12, 2)
    assert events == ["prepare", ("run", execution.WARM_BOARD, 0),
                      "clock", ("run", 12, 1), "clock", "clock", ("run", 12, 2), "clock"]


def test_a_ga_batch_is_preceded_once_by_an_untimed_run_of_its_settings(monkeypatch):
    from gaqueens import ga
    from gaqueens.runtime import execution

    calls = []
    real = ga.run_many

    def recorded(s, b, seeds):
        calls.append((s, b, list(seeds)))
        return real(s, b, seeds)

    monkeypatch.setattr(ga, "run_many", recorded)  # what ga.warm calls
    algorithm = dataclasses.replace(ALGORITHMS["ga"], run_many=recorded)
    monkeypatch.setattr(execution, "_WARMED", set())
    settings = ga.GaSettings(population=10, generations=500)
    for _ in range(2):
        execution.execute_batch(algorithm, settings, 12, [1, 2])
    capped = dataclasses.replace(settings, generations=ga.WARM_GENERATIONS)
    assert calls == [(capped, 8, [0]), (settings, 12, [1, 2]), (settings, 12, [1, 2])]


# ---- the board bound: 10^8 for the solvers that scale, 10^7 for the others -------------------


def test_an_experiment_takes_a_hundred_million_queens_for_the_solvers_that_scale(tmp_path):
    from gaqueens.experiment.baseline_keys import SCALING

    path = tmp_path / "huge.yaml"
    path.write_text("boards: [8, 100000000]\nga: none\nbaselines: [local-search, min-conflicts, "
                    "construction]\n")
    experiment = load(path)
    assert experiment.boards == (8, 100_000_000)
    assert sorted(entry.name for entry in experiment.entries) == sorted(SCALING)
    for name in ("backtracking", "backtracking-heuristic"):
        path.write_text(f"boards: [8, 10000001]\nga: none\nbaselines: [{name}]\n")
        with pytest.raises(BadInput, match=f"boards\\[1\\] is 10,000,001, above 10,000,000, the "
                                           f"largest board {name} takes"):
            load(path)
        path.write_text(f"boards: [8, 10000001]\nga: none\nbaselines: {{{name}: "
                        "{max-board: 10000000}}\n")
        assert load(path).boards == (8, 10_000_001)  # max-board keeps it off the big board


@pytest.mark.parametrize("board, name, said", [
    (100_000_001, "local-search", "--board must be a whole number from 1 to 100,000,000"),
    (10_000_001, "backtracking", "--board is 10,000,001, above 10,000,000, the largest board "
                                 "backtracking takes"),
    (10_000_001, "ga", "the largest board ga takes"),
])
def test_gaqueens_run_refuses_a_board_above_the_algorithms_bound(board, name, said):
    done = subprocess.run(
        [sys.executable, "-m", "gaqueens.run", "--board", str(board), "--algorithm", name],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr and done.stderr.count("\n") == 1
