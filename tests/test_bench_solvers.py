"""Section (e) of the benchmark (gaqueens.bench.solvers): the C local search is the same
algorithm as gaqueens' (the same run for a seed, swap for swap), the programs it times report
what they ran, and the section states each figure beside its goal, or why C is skipped; and
python -m gaqueens.bench.memory, which sets each algorithm's stated need beside a run's peak."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gaqueens.baselines import local_search
from gaqueens.bench import c_twin, common, memory, solver_runs, solvers

pytestmark = pytest.mark.bench
HAS_CC = c_twin.compiler() is not None


@pytest.fixture(scope="module")
def c_program(tmp_path_factory):
    if not HAS_CC:
        pytest.skip("no C compiler")
    binary, name = c_twin.build("local_search", tmp_path_factory.mktemp("c"))
    assert binary is not None, name
    return binary


def checksum(columns) -> int:
    weights = 2 * np.arange(len(columns), dtype=np.uint64) + np.uint64(1)
    return int((weights * np.asarray(columns).astype(np.uint64)).sum(dtype=np.uint64))


@pytest.mark.parametrize("n, tries, factor, budget", [
    (4, 50, 32, 10**9), (30, 1, 1, 10**9), (64, 2, 1, 500), (1000, 3, 1, 4000),
    (5000, 50, 32, 10**9)])
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
    assert run["conflicts"] == 0 and run["seconds"] > 0
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
    assert solvers._line(report, "ratio", 10**6, [1.4], "") == (
        "local search / its C twin, seconds, board 1,000,000: 1.4; goal at most 2: met")
    assert solvers._line(report, "ratio", 10**6, [2.5], "").endswith("goal at most 2: not met")
    assert solvers._line(report, "count", 16, [61, 59, 62]) == (
        "counting every solution, seconds, board 16: median 61 (59..62) s; at most 60 in 1 of 3 "
        "runs, sign test p = 1; goal at most 60 s: not met")
    assert solvers._line(report, "ratio", 10**4, [9.0], "") == (
        "local search / its C twin, seconds, board 10,000: 9")
    assert [goal["met"] for goal in report.goals] == ["met", "not met", "not met"]
    report.write(tmp_path)
    assert (tmp_path / "goals.csv").read_text().splitlines()[1] == (
        "\"local search / its C twin, seconds, board 1,000,000\",1.4,at most 2,met")


def test_the_section_on_tiny_boards_without_a_compiler(monkeypatch, tmp_path):
    """Without C the section says so and times the rest (tests/test_bench.py's smoke run
    times it with C)."""
    monkeypatch.setattr(c_twin, "compiler", lambda: None)
    monkeypatch.setattr(solvers, "QUICK", solvers.Work(
        compared=((200, 2),), min_conflicts=(200, 1), construction=(200, 1), count=(6, 1)))
    report = common.Report()
    solvers.classic_solvers(common.QUICK, report, tmp_path)
    text = "\n".join(report.lines)
    assert text.startswith("### (e) The classic solvers")
    assert "local search, seconds, board 200: median " in text and "goal" not in text
    assert "4 solutions, 1 fundamental, as the shipped table" in text
    assert "construction, seconds, board 200: " in text and "1 of 1 valid" in text
    assert "C comparison skipped: no C compiler found" in text and "C twin" not in text
    assert {row["engine"] for row in report.rows} == {"local-search (gaqueens)", "min-conflicts",
                                                      "construction", "count"}


@pytest.mark.parametrize("name, board, fields", [
    ("construction", 10**5, []), ("ga", 10_000, ["generations=2", "runs=3"]),
    ("ga", 2_000, ["generations=2", "engine=deap"]),
])
def test_a_measured_run_states_its_need_and_the_peak_it_adds(name, board, fields):
    """The figures python -m gaqueens.bench.memory sets side by side, from a process of its
    own (whether the need bounds the peak is that command's verdict, not this test's)."""
    found = memory.need_and_peak(name, board, fields)
    assert found["need"] > 0 and found["solved"] in (True, False) and found["seconds"] > 0
    assert found["peak"] is not None or not sys.platform.startswith("linux")


def test_the_memory_table_prints_need_measure_and_ratio(monkeypatch, capsys):
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


def test_peak_memory_is_stated_in_the_units_of_its_goal():
    """The kernel's KiB as MB of 10^6 bytes, the unit of the goals' GB (10^9 bytes): by hand,
    2,000,000 KiB are 2,048 MB, the largest of the runs given."""
    runs = [{"peak_kb": 1_000}, {"peak_kb": 2_000_000}, {"peak_kb": None}]
    assert solvers._mb(runs) == "2,048 MB" and solvers._gb(runs) == [2.048]
    assert solvers._mb([{"peak_kb": None}]) == "not measured here"
