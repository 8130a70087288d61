"""Section (e) of the benchmark (gaqueens.bench.solvers): the C local search is the same
algorithm as gaqueens' (the same run for a seed, swap for swap), the programs it times report
what they ran, and the section states each figure beside its goal, or why C is skipped."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gaqueens.baselines import local_search
from gaqueens.bench import common, solver_runs, solvers

HAS_CC = solvers._compiler() is not None


@pytest.fixture(scope="module")
def c_program(tmp_path_factory):
    if not HAS_CC:
        pytest.skip("no C compiler")
    binary, name = solvers._build_c(tmp_path_factory.mktemp("c"))
    assert binary is not None, name
    return binary


def checksum(columns) -> int:
    weights = 2 * np.arange(len(columns), dtype=np.uint64) + np.uint64(1)
    return int((weights * np.asarray(columns).astype(np.uint64)).sum(dtype=np.uint64))


@pytest.mark.parametrize("n, tries, factor, budget", [
    (4, 50, 32, 10**9), (8, 50, 32, 10**9), (30, 1, 1, 10**9), (64, 2, 1, 500),
    (100, 50, 32, 10**9), (1000, 50, 32, 10**9), (1000, 3, 1, 4000), (5000, 50, 32, 10**9)])
def test_the_c_program_makes_the_same_run_as_gaqueens(c_program, n, tries, factor, budget):
    for seed in (0, 1, 2, 3, 2**64 - 1):
        done = subprocess.run([str(c_program), str(n), str(seed), str(tries), str(factor),
                               str(budget)], capture_output=True, text=True, check=True)
        solved, conflicts, swaps, seconds, total, peak, cpu = done.stdout.split()
        ours = local_search.run(local_search.Settings(start_tries=tries, restart_factor=factor,
                                                      budget=budget), n, seed)
        assert (int(solved), int(conflicts), int(swaps)) == (
            ours.solved, ours.conflicts, ours.work)
        assert int(total) == checksum(ours.solution)
        assert float(seconds) >= 0 and int(peak) >= 0 and float(cpu) >= 0


def test_the_c_program_refuses_bad_arguments_with_exit_2(c_program):
    for args in ([], ["8"], ["3", "1"], ["8", "1", "0", "1", "1"]):
        done = subprocess.run([str(c_program), *args], capture_output=True, text=True)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1


@pytest.mark.parametrize("name", ["local-search", "min-conflicts"])
def test_a_measured_run_reports_the_run_it_made(name):
    done = subprocess.run([sys.executable, "-m", "gaqueens.bench.solver_runs", "search", name,
                           "500", "4"], capture_output=True, text=True, check=True)
    run = json.loads(done.stdout)
    module = {"local-search": local_search}.get(name)
    if module is not None:
        result = module.run(module.Settings(), 500, 4)
        assert run["swaps"] == result.work and run["checksum"] == checksum(
            result.solution)
    assert run["conflicts"] == 0 and run["seconds"] > 0 and run["first"] > 0
    if sys.platform.startswith("linux"):
        assert 0 < run["before_kb"] <= run["peak_kb"]


def test_a_measured_construction_is_checked_by_the_verifier():
    run = solver_runs.construct(1000)
    assert run["valid"] and run["seconds"] > 0 and run["verifier_seconds"] > 0


def test_a_measured_count_reports_the_commands_line():
    run = solver_runs.count(8)
    assert run["line"].startswith("8 x 8: 92 solutions, 12 fundamental, ") and run["match"]


def test_the_goals_are_stated_with_their_verdict_only_on_their_boards(tmp_path):
    report = common.Report()
    assert solvers._goal(report, "ratio", 10**6, 1.4, "1.4") == "; goal at most 2: met"
    assert solvers._goal(report, "ratio", 10**6, 2.5, "2.5") == "; goal at most 2: not met"
    assert solvers._goal(report, "count", 16, 61, "61 s") == "; goal under 60 s: not met"
    assert solvers._goal(report, "ratio", 10**4, 9.0, "9") == ""
    assert [(g["measured"], g["met"]) for g in report.goals] == [
        ("1.4", "met"), ("2.5", "not met"), ("61 s", "not met")]
    report.write(tmp_path)
    assert (tmp_path / "goals.csv").read_text().splitlines()[1] == (
        "\"local search / its C twin, seconds, board 1,000,000\",1.4,at most 2,met")


@pytest.mark.parametrize("compiler", [True, False], ids=["with C", "without C"])
def test_the_section_on_tiny_boards(monkeypatch, tmp_path, compiler):
    if compiler and not HAS_CC:
        pytest.skip("no C compiler")
    if not compiler:
        monkeypatch.setattr(solvers, "_compiler", lambda: None)
    monkeypatch.setattr(solvers, "QUICK", solvers.Work(
        compared=((200, 2),), min_conflicts=(200, 1), construction=(200, 1), counts=((6, 1),),
        first_calls=False))
    report = common.Report()
    solvers.classic_solvers(common.QUICK, report, tmp_path)
    text = "\n".join(report.lines)
    assert text.startswith("### (e) The classic solvers")
    assert "local search, 200 queens, seeds 1..2" in text and "goal" not in text
    assert "4 solutions, 1 fundamental, as the shipped table" in text
    assert "construction, 200 queens: " in text and "1 of 1 valid" in text
    if compiler:
        assert "the same run in both (swaps tried, attacking pairs, placement): 2 of 2" in text
    else:
        assert "C comparison skipped: no C compiler found" in text and "ratio" not in text
    engines = {row["engine"] for row in report.rows}
    assert engines == {"local-search (gaqueens)", "min-conflicts", "construction", "count"} | (
        {"local-search (C)"} if compiler else set())


# ---- each algorithm's stated memory need, against a measured run ----------------------------


def test_every_built_in_algorithm_states_a_need_that_grows_with_the_board():
    from gaqueens.core.algorithms import ALGORITHMS
    from gaqueens.runtime.execution import need

    for name, algorithm in ALGORITHMS.items():
        small, large = (need(algorithm, algorithm.settings(), board) for board in (10**3, 10**5))
        assert small is not None and 0 < small < large, name


@pytest.mark.parametrize("name, board, fields", [
    ("local-search", 10**6, []), ("min-conflicts", 10**6, []), ("construction", 10**6, []),
    ("backtracking", 10**6, ["budget=1000"]), ("backtracking-heuristic", 10**5, ["budget=20"]),
    ("ga", 20_000, ["generations=2"]), ("ga", 10_000, ["generations=2", "runs=3"]),
    ("ga", 5_000, ["generations=2", "engine=deap"]),
])
def test_a_stated_need_bounds_the_peak_a_run_adds_to_its_process(name, board, fields):
    from gaqueens.bench.memory import need_and_peak

    if not sys.platform.startswith("linux"):
        pytest.skip("the peak is read from /proc")
    found = need_and_peak(name, board, fields)
    assert found["peak"] is not None and 0 < found["peak"] <= found["need"], found


def test_the_memory_table_prints_need_measure_and_ratio(monkeypatch, capsys):
    from gaqueens.bench import memory

    monkeypatch.setattr(memory, "QUICK_NEEDS", {"construction": ((1000,), [])})
    monkeypatch.setattr(memory, "need_and_peak", lambda name, board, fields: {
        "need": 2_000_000, "peak": 3_000_000 if board > 500 else 1_000_000, "reset": True})
    assert memory.main(["--quick"]) == 1  # a need below the peak is said, and fails
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:5] == ["construction", "1,000", "2.0MB", "3.0MB", "1.50"]
    assert lines[1].endswith("NOT an upper bound")
    monkeypatch.setattr(memory, "QUICK_NEEDS", {"construction": ((100,), [])})
    assert memory.main(["--quick"]) == 0
    assert "0.50  defaults" in capsys.readouterr().out
    assert memory.main(["--bad"]) == 2


def test_the_constructions_bounds_are_one_goal_met_only_by_all(monkeypatch):
    monkeypatch.setattr(solvers, "CONSTRUCTION_BOUNDS", (300, 60, 60, 4))
    report = common.Report()
    solvers.construction(300, 1, report)
    assert [(g["figure"], g["met"]) for g in report.goals] == [
        ("construction and the verifier on its placement, board 300", "met")]
    monkeypatch.setattr(solvers, "CONSTRUCTION_BOUNDS", (300, 60, 0, 4))  # no verifier that fast
    report = common.Report()
    solvers.construction(300, 1, report)
    assert report.goals[0]["met"] == "not met"


def test_peak_memory_is_stated_in_the_units_of_its_goal():
    """The kernel's KiB as MB of 10^6 bytes, the unit of the goals' GB (10^9 bytes): by hand,
    2,000,000 KiB are 2,048 MB, the largest of the runs given."""
    runs = [{"peak_kb": 1_000}, {"peak_kb": 2_000_000}, {"peak_kb": None}]
    assert solvers._mb(runs) == "2,048 MB"
    assert solvers._mb([{"peak_kb": None}]) == "not measured here"
