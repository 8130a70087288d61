"""The benchmark (gaqueens/bench/__init__.py's docstring): its smoke run, how its sections
alternate what they compare and judge a goal, and the programs it times."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest

from gaqueens.bench import boards, c_twin, command, common, engine, genoxide_runs, sweeps
from gaqueens.ga import GaSettings

pytestmark = pytest.mark.bench
HAS_GENOXIDE = common.genoxide_module() is not None


def test_quick_bench_prints_its_sections_and_writes_its_files(tmp_path):
    """The smoke run; its scratch files go under tmp_path."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "gaqueens.bench", "--quick", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    for section in ("### (a) Engine cost", "### (b) The whole table", "### (c) The main job",
                    "### (d) Per board", "### (e) The classic solvers"):
        assert section in done.stdout
    assert "skipped" not in done.stdout  # every section found what it measures
    assert "the same run in both (swaps tried, attacking pairs, placement): 2 of 2" in done.stdout
    assert "724 solutions, 92 fundamental, as the shipped table" in done.stdout
    assert (out / "bench.md").read_text(encoding="utf-8") == done.stdout
    with open(out / "bench.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert list(rows[0]) == list(common.CSV_COLUMNS)
    assert {row["section"] for row in rows} == {"engine", "table", "n8", "per-board", "solvers"}
    with open(out / "goals.csv", encoding="utf-8") as file:
        goals = list(csv.DictReader(file))
    assert list(goals[0]) == list(common.GOAL_COLUMNS)
    assert {goal["met"] for goal in goals} <= {"met", "not met", "met at the median"}
    if HAS_GENOXIDE:  # the quick run states the goals of (a), (b) and (c), none of (e)
        assert {goal["figure"] for goal in goals} == {
            *(f"board {board}: engine: numpy / genoxide, µs per evaluation" for board in (8, 32)),
            *(f"{name}: gaqueens.sweep / genoxide, wall time{reach}"
              for name in ("the whole table", "the main job") for reach in ("", ", reaching"))}


def test_a_goal_line_gives_the_spread_the_sign_test_and_the_verdict():
    """Hand-worked: ratios 0.3 and 0.5 against at most 0.4: median 0.40, one of two within,
    p = 1 (two-sided binomial, 1 of 2); every value within is met, a median within met at the
    median. One value has no sign test."""
    report = common.Report()
    assert report.goal("x", [0.3, 0.5], 0.4) == (
        "x: median 0.40 (0.30..0.50); at most 0.4 in 1 of 2 pairs, sign test p = 1; goal at "
        "most 0.4: met at the median")
    assert report.goal("y", [2.16], 4, " GB") == "y: 2.16 GB; goal at most 4 GB: met"
    assert report.goal("z", [0.5, 0.6, 0.3], 0.4).endswith(": not met")
    assert [goal["met"] for goal in report.goals] == ["met at the median", "met", "not met"]
    assert report.goals[1] == {"figure": "y", "measured": "2.16 GB", "goal": "at most 4 GB",
                               "met": "met"}


@pytest.mark.parametrize("values, text", [
    ([0.3] * 5, "at most 0.4 in 5 of 5 pairs, sign test p = 0.062"),  # 2 / 2^5: five never tell
    ([0.3] * 9, "at most 0.4 in 9 of 9 pairs, sign test p = 0.0039"),  # 2 / 2^9
    ([0.3] * 8 + [0.5], "at most 0.4 in 8 of 9 pairs, sign test p = 0.039"),  # 2 * 10 / 2^9
    ([0.5] * 8 + [0.3], "at most 0.4 in 1 of 9 pairs, sign test p = 0.039"),
    ([0.3] * 12 + [0.5] * 13, "at most 0.4 in 12 of 25 pairs, sign test p = 1"),
])
def test_the_sign_test_counts_the_pairs_within_the_goal_and_tests_their_median(values, text):
    """Hand-worked two-sided binomial p-values: k of n pairs on one side, p = 2 P(X <= min(k,
    n - k)) for X ~ Binomial(n, 1/2), at most 1."""
    assert common.sign_test(values, 0.4) == text


def test_an_engines_warm_up_is_the_first_quarter_of_its_seeds_and_never_empty():
    assert engine.warm_up(range(1, 101)) == range(1, 26)
    assert engine.warm_up(range(1, 8)) == range(1, 2)
    assert engine.warm_up([7]) == [7]


def test_the_engines_take_turns_first_each_after_its_warm_up(monkeypatch, tmp_path):
    """Three repetitions of three engines: the order turns a step each time; every timed call
    follows its own engine's warm-up on the first quarter of the seeds; the goal's ratio is
    taken pair by pair (4 and 2 evaluations in a second each, as engines that time themselves
    report them: 0.5 each time)."""
    calls = []

    def engine_of(name, evaluations):
        return lambda seeds: calls.append((name, seeds)) or (evaluations, 1.0)

    monkeypatch.setattr(engine, "engines", lambda board, gx, binary: {
        engine.NUMPY: engine_of(engine.NUMPY, 4), engine.COMPILED: engine_of(engine.COMPILED, 4),
        "genoxide": engine_of("genoxide", 2)})
    report = common.Report()
    plan = common.Plan(repeats=3, engine_boards=(8,), engine_seeds=range(1, 9))
    engine.engine_cost(plan, report, object(), tmp_path)
    assert calls[::2] == [(name, range(1, 3)) for name, _ in calls[1::2]]  # the warm-ups
    order = [name for name, _ in calls[1::2]]
    assert order == [engine.NUMPY, engine.COMPILED, "genoxide", engine.COMPILED, "genoxide",
                     engine.NUMPY, "genoxide", engine.NUMPY, engine.COMPILED]
    assert report.goals[0]["measured"].startswith("median 0.50 (0.50..0.50); at most 0.4 in 0")
    assert [row["repetition"] for row in report.rows] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_a_sweep_and_genoxide_alternate_and_their_ratio_is_judged(monkeypatch, tmp_path):
    """Hand-worked, two repetitions: ours 2.0 and 1.5 s against genoxide's 5.0, in turn first;
    ratios 0.40 and 0.30: at most 0.4 met, reaching 0.25 in neither pair, not met."""
    ran = []
    seconds = {sweeps.OURS: iter([2.0, 1.5]), "genoxide": iter([5.0, 5.0])}

    def timed(command):
        who = "genoxide" if command[1].endswith("genoxide_runs.py") else sweeps.OURS
        ran.append(who)
        return next(seconds[who]), '{"8": 100}' if who == "genoxide" else ""

    monkeypatch.setattr(sweeps, "timed", timed)
    report = common.Report()
    folder, medians = sweeps.against_genoxide(report, object(), tmp_path, "n8", [8], "1..100", 2,
                                              (0.4, 0.25))
    assert ran == [sweeps.OURS, "genoxide", "genoxide", sweeps.OURS]
    assert folder == tmp_path / "n8-1" and medians == {"8": 100}
    assert [(goal["figure"], goal["goal"], goal["met"]) for goal in report.goals] == [
        ("the main job: gaqueens.sweep / genoxide, wall time", "at most 0.4", "met"),
        ("the main job: gaqueens.sweep / genoxide, wall time, reaching", "at most 0.25",
         "not met")]
    assert report.goals[0]["measured"] == ("median 0.35 (0.30..0.40); at most 0.4 in 2 of 2 "
                                           "pairs, sign test p = 0.5")


def test_without_genoxide_the_sections_say_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(sweeps, "timed", lambda command: (1.0, ""))
    report = common.Report()
    sweeps.against_genoxide(report, None, tmp_path, "n8", [8], "1..5", 1, (3, 2))
    assert report.lines[-1] == f"- genoxide is not installed: {common.INSTALL}"
    assert not report.goals
    assert set(engine.engines(8, None, None)) == {engine.NUMPY, engine.COMPILED}


@pytest.mark.skipif(not HAS_GENOXIDE, reason="needs genoxide")
def test_genoxides_program_imports_nothing_of_gaqueens_and_makes_the_published_runs():
    """Run as a program of its own, it pays for no start-up of gaqueens; its medians are those
    of the same runs made in this process."""
    from gaqueens.problems.nqueens.fitness import Conflicts

    command = common.genoxide_command([8, 10], "1..5")
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], capture_output=True,
                          text=True, check=True)
    imported = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()]
    assert "genoxide" in imported and not [name for name in imported
                                           if name.split(".")[0] == "gaqueens"]
    gx = common.genoxide_module()
    for board, median in json.loads(done.stdout).items():
        runs = [genoxide_runs.run(gx, Conflicts(int(board)), int(board), seed,
                                  *common.published()) for seed in range(1, 6)]
        assert sorted(run.evaluations for run in runs)[2] == median


def test_per_board_compares_the_local_search_and_both_engines():
    report = common.Report()
    boards.per_board(common.Plan(boards=(8,), board_seeds=range(1, 3)), report)
    header = next(line for line in report.lines if line.startswith("| board"))
    assert "engine: numpy / local-search" in header and "engine: deap / engine: numpy" in header
    assert {row["engine"] for row in report.rows} == {"local-search", "engine: numpy",
                                                      "engine: deap"}


def test_a_timed_command_gives_its_output_or_says_why_it_failed():
    seconds, output = common.timed([sys.executable, "-c", "print('done')"])
    assert output == "done\n" and seconds > 0
    with pytest.raises(RuntimeError, match=r"failed \(3\): no board$"):
        common.timed([sys.executable, "-c", "import sys; print('no board', file=sys.stderr); "
                                            "sys.exit(3)"])


@pytest.fixture(scope="module")
def ga_c(tmp_path_factory):
    binary, why = c_twin.build("ga", tmp_path_factory.mktemp("c"))
    if binary is None:
        pytest.skip(why)
    return binary


def test_the_c_twin_counts_evaluations_as_the_ga_does(ga_c):
    """mu at the start and lambda a generation: no generation leaves mu per run; every run on
    a board of 8 reaches the target within the limit."""
    settings = GaSettings(population=7, offspring=5, generations=0)
    assert c_twin.ga_runs(ga_c, settings, 8, range(1, 4))[0] == 3 * 7
    settings = GaSettings(population=7, offspring=5)
    evaluations, seconds = c_twin.ga_runs(ga_c, settings, 8, range(1, 31))
    assert (evaluations - 30 * 7) % 5 == 0 and evaluations > 30 * 7 and seconds >= 0


def test_the_c_twin_solves_as_the_ga_does(ga_c):
    """Its runs on boards 4, 8 and 10 end solved (the target 0 is reached) and, with another
    target, stop there: a run stopped at 3 attacking pairs costs at most one that solves."""
    for board in (4, 8, 10):
        done = subprocess.run([str(ga_c), str(board), "1", "20"], capture_output=True, text=True)
        runs, solved, _, _ = done.stdout.split()
        assert runs == solved == "20"
    solve = c_twin.ga_runs(ga_c, GaSettings(), 16, range(1, 11))[0]
    near = c_twin.ga_runs(ga_c, GaSettings(target=3), 16, range(1, 11))[0]
    assert near <= solve


def test_the_c_twin_refuses_other_operators(tmp_path):
    with pytest.raises(ValueError):
        c_twin.ga_runs(tmp_path / "none", GaSettings(scheme="mu,lambda"), 8, range(1, 2))
    with pytest.raises(ValueError):
        c_twin.ga_runs(tmp_path / "none", GaSettings(), 8, range(3, 1))


def test_the_header_warns_where_pyarrow_is_installed(monkeypatch):
    """results/bench is made without pyarrow (README, Performance); where it is installed, the
    header says so, and says nothing where it is not."""
    import importlib.util

    real = importlib.util.find_spec
    for installed in (True, False):
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: (
            (object() if installed else None) if name == "pyarrow" else real(name, *rest)))
        report = common.Report()
        command._header(report, common.QUICK, None)
        said = [line for line in report.lines if "pyarrow" in line]
        assert said == ([common.pyarrow_warning()] if installed else [])
