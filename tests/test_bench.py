"""The benchmark's smoke run and its sections' behaviour without genoxide."""

from __future__ import annotations

import os
import queue
import subprocess
import sys

import pytest

from gaqueens.bench import boards, c_twin, command, common, engine, in_sweep, table
from gaqueens.ga import GaSettings


def test_quick_bench_prints_its_sections(tmp_path):
    """The smoke run, with genoxide or without it; its scratch files go under tmp_path."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "gaqueens.bench", "--quick", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    for section in ("### (a) Engine cost", "### (b) The whole table", "### (c) The main job",
                    "### (d) Per board"):
        assert section in done.stdout
    assert "skipped" not in done.stdout  # every section found what it measures
    assert (out / "bench.md").read_text(encoding="utf-8").startswith("**gaqueens benchmark**")
    header = (out / "bench.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == ",".join(common.CSV_COLUMNS)
    goals = (out / "goals.csv").read_text(encoding="utf-8").splitlines()
    assert goals[0] == "figure,measured,goal,met" and len(goals) > 1
    assert all(line.endswith((",met", ",not met", ",met at the median")) for line in goals[1:])


def test_without_genoxide_the_bench_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(command, "genoxide_module", lambda: None)
    report = common.Report()
    plan = common.Plan(repeats=1, engine_boards=(8,), engine_seeds=range(1, 3),
                       alone_seeds=range(1, 2), deap_seeds=range(1, 2))
    engine.engine_cost(plan, report, None)
    assert any(common.INSTALL in line for line in report.lines)
    assert {row["engine"] for row in report.rows} == {common.NUMPY, engine.COMPILED, engine.ALONE,
                                                      common.DEAP}
    assert command.main(["--genoxide-table", "8", "--seeds", "1..3"]) == 2


def test_per_board_compares_the_local_search_and_both_engines():
    report = common.Report()
    boards.per_board(common.Plan(boards=(8,), board_seeds=range(1, 3)), report)
    header = next(line for line in report.lines if line.startswith("| board"))
    assert f"{common.NUMPY} / local-search" in header and f"{common.DEAP} / {common.NUMPY}" in header
    assert {row["engine"] for row in report.rows} == {"local-search", common.NUMPY, common.DEAP}


@pytest.fixture(scope="module")
def ga_c(tmp_path_factory):
    binary, why = c_twin.build(tmp_path_factory.mktemp("c"))
    if binary is None:
        pytest.skip(why)
    return binary


def test_the_c_twin_counts_evaluations_as_the_ga_does(ga_c):
    """mu at the start and lambda a generation: no generation leaves mu per run; every run on
    a board of 8 reaches the target within the limit."""
    settings = GaSettings(population=7, offspring=5, generations=0)
    assert c_twin.runs(ga_c, settings, 8, range(1, 4))[0] == 3 * 7
    settings = GaSettings(population=7, offspring=5)
    evaluations, seconds = c_twin.runs(ga_c, settings, 8, range(1, 31))
    assert (evaluations - 30 * 7) % 5 == 0 and evaluations > 30 * 7 and seconds >= 0


def test_the_c_twin_solves_as_the_ga_does(ga_c):
    """Its runs on boards 4, 8 and 10 end solved (the target 0 is reached) and, with another target,
    stop there: a run stopped at 3 attacking pairs costs at most one that solves."""
    for board in (4, 8, 10):
        done = subprocess.run([str(ga_c), str(board), "1", "20"], capture_output=True, text=True)
        runs, solved, _, _ = done.stdout.split()
        assert runs == solved == "20"
    solve = c_twin.runs(ga_c, GaSettings(), 16, range(1, 11))[0]
    near = c_twin.runs(ga_c, GaSettings(target=3), 16, range(1, 11))[0]
    assert near <= solve


def test_the_c_twin_refuses_other_operators(tmp_path):
    with pytest.raises(ValueError):
        c_twin.runs(tmp_path / "none", GaSettings(scheme="mu,lambda"), 8, range(1, 2))
    with pytest.raises(ValueError):
        c_twin.runs(tmp_path / "none", GaSettings(), 8, range(3, 1))


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_bench_cuts_the_table_into_the_sweeps_batches(tmp_path, workers):
    """ga.run_many's figures in (b) are measured on the very batches a sweep of the table
    makes (README: a run's seconds against ga.run_many's on the same seeds and batches)."""
    from gaqueens.experiment import load
    from gaqueens.runtime.batches import batches

    experiment = load(common.published_experiment(tmp_path, "table", boards=[8]))
    made = [list(batch.seeds) for batch in batches(experiment, experiment.tasks(), workers)]
    assert in_sweep.sweep_batches(range(1, 101), workers) == made
    assert sorted(seed for batch in made for seed in batch) == list(range(1, 101))


def test_the_control_runs_each_board_in_processes_at_once_and_reports_a_failure():
    """The control of (b): a figure per board; a process that fails (there is no board of -1)
    is raised in the parent, the other process released, nothing left waiting."""
    cost = in_sweep.run_many_at_once([8, 10], range(1, 5), 2)
    assert set(cost) == {8, 10} and all(0 < value < float("inf") for value in cost.values())
    with pytest.raises(RuntimeError, match="2 processes at once failed: ValueError"):
        in_sweep.run_many_at_once([-1], range(1, 5), 2)


class _Ended:
    """A process of the control that has ended, with its exit code."""

    def __init__(self, exitcode):
        self.exitcode = exitcode

    def is_alive(self):
        return False


def _queue_of(*messages):
    done = queue.Queue()
    for message in messages:
        done.put(message)
    return done


def test_the_control_reports_the_failure_not_the_barrier_it_broke_for_the_others():
    """The failure raised is the one a process reported, after what the others reported (a
    process that the failure's broken barrier released says nothing)."""
    done = _queue_of((8, 0.5, 100), (None, "ValueError: no board of -1", 0))
    with pytest.raises(RuntimeError, match="^ValueError: no board of -1$"):
        list(in_sweep._messages(done, [_Ended(0), _Ended(0)], 4))


def test_the_control_does_not_wait_for_processes_that_ended_without_a_word():
    """A process killed before it reports leaves the parent a clear failure, not a hang."""
    done = _queue_of((8, 0.5, 100))
    with pytest.raises(RuntimeError, match=r"without reporting \(exit codes \[0, -9\]\)"):
        list(in_sweep._messages(done, [_Ended(0), _Ended(-9)], 2))
    assert list(in_sweep._messages(_queue_of((8, 0.5, 100), (10, 1.0, 300)), [], 2)) == [
        (8, 0.5, 100), (10, 1.0, 300)]


def test_the_in_sweep_lines_set_the_sweep_beside_its_control_and_genoxide(capsys):
    """Hand-worked: a run's seconds 1.1 and 1.32 against ga.run_many's alone 1.0 and 1.2 and at
    once 1.21 and 1.1: in-sweep / alone 1.10 both times (within 1.1x: met), the control 1.21
    and 0.92, in-sweep / the control 0.91 and 1.20; against genoxide's median 4.4 in (a), 0.25
    and 0.30 (at most 0.5: met). Without a control, no control on the line."""
    report = common.Report()
    in_sweep.lines(report, "sweep", {32: [(1.1, 1.0, 1.21), (1.32, 1.2, 1.1)]},
                   {32: {"genoxide": [4.0, 4.4, 9.0]}})
    line = report.lines[-1]
    assert ("in-sweep / ga.run_many median 1.10 (1.10..1.10); at most 1.1 in 2 of 2 pairs, sign "
            "test p = 0.5; goal within 1.1x: met") in line
    assert "the control, ga.run_many at once / alone median 1.06 (0.92..1.21)" in line
    assert "in-sweep / the control median 1.05 (0.91..1.20)" in line
    assert "in-sweep / genoxide (its median in (a)) median 0.28 (0.25..0.30)" in line
    assert [goal["met"] for goal in report.goals] == ["met", "met"]
    in_sweep.lines(report, "alone", {8: [(1.0, 2.0, None)]}, None)
    assert report.lines[-1] == ("  - board 8: in-sweep / ga.run_many median 0.50 (0.50..0.50); "
                                "at most 1.1 in 1 of 1 pairs, sign test p = 1; goal within 1.1x: "
                                "met")
    capsys.readouterr()


def test_a_commands_processor_time_counts_the_processes_it_waited_for():
    """A command that starts a process spending 0.3 s of processor time (a loop on its own
    clock, whatever else the machine does), waits for it and prints: wall_time gives its
    output, and processor time of at least the 0.3 s its child spent."""
    child = ("import time\nstart = time.process_time()\n"
             "while time.process_time() - start < 0.3:\n    pass")
    parent = (f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}]); "
              "print('done')")
    timed = table.wall_time([sys.executable, "-c", parent])
    assert timed.output == "done\n"
    assert timed.processor >= 0.3
    with pytest.raises(RuntimeError, match="failed \\(3\\)"):
        table.wall_time([sys.executable, "-c", "raise SystemExit(3)"])


def _table_lines(walls: dict, processor: dict) -> common.Report:
    report = common.Report()
    table._whole_table(report, walls, processor, 2)
    return report


def test_the_whole_tables_lines_set_the_goal_the_reach_and_the_least_ratio(capsys):
    """Hand-worked, two pairs on two cores: ours 2.0 and 1.5 s against genoxide's 5.0, ratios
    0.40 and 0.30 (at most 0.4: met; at most 0.25 in neither pair: not met); ours' processor
    time 3.6 and 3.2 s, over 2 cores and genoxide's wall, 0.36 and 0.32; with every run stored,
    2.4 and 2.0 s, 0.24 and 0.20; --workers 1, 3.0 and 2.5 s, ratios 0.60 and 0.50."""
    walls = {table.OURS: [2.0, 1.5], table.STORED: [1.8, 1.6], table.ALONE: [3.0, 2.5],
             "genoxide": [5.0, 5.0]}
    processor = {table.OURS: [3.6, 3.2], table.STORED: [2.4, 2.0], table.ALONE: [3.1, 2.6],
                 "genoxide": [5.1, 5.1]}
    report = _table_lines(walls, processor)
    assert report.lines[0] == ("- gaqueens.sweep, 2 workers (the default), tables and plots: wall "
                               "median 1.75 (1.50..2.00) s, processor time median 3.40 "
                               "(3.20..3.60) s")
    assert report.lines[1].startswith("- gaqueens.sweep, every run stored, run again right after "
                                      "over its own folder (no run left to compute): wall")
    assert report.lines[4] == ("- ratio gaqueens.sweep / genoxide: median 0.35 (0.30..0.40); at "
                               "most 0.4 in 2 of 2 pairs, sign test p = 0.5; goal at most 0.4: "
                               "met; reaching 0.25: at most 0.25 in 0 of 2 pairs, sign test "
                               "p = 0.5: not met")
    assert report.lines[5] == ("- ratio gaqueens.sweep --workers 1 / genoxide: median 0.55 "
                               "(0.50..0.60)")
    assert report.lines[6].endswith("pair by pair): gaqueens.sweep median 0.34 (0.32..0.36); "
                                    "gaqueens.sweep, every run stored median 0.22 (0.20..0.24)")
    assert [(goal["goal"], goal["met"]) for goal in report.goals] == [
        ("at most 0.4", "met"), ("at most 0.25", "not met")]
    del walls["genoxide"], processor["genoxide"]
    report = _table_lines(walls, processor)
    assert report.lines[-1] == f"- genoxide is not installed: {common.INSTALL}"
    assert len(report.lines) == 4 and not report.goals
    capsys.readouterr()


@pytest.mark.parametrize("ratios, text", [
    ([0.3] * 5, "at most 0.4 in 5 of 5 pairs, sign test p = 0.062"),  # 2 / 2^5: five never tell
    ([0.3] * 9, "at most 0.4 in 9 of 9 pairs, sign test p = 0.0039"),  # 2 / 2^9
    ([0.3] * 8 + [0.5], "at most 0.4 in 8 of 9 pairs, sign test p = 0.039"),  # 2 * 10 / 2^9
    ([0.5] * 8 + [0.3], "at most 0.4 in 1 of 9 pairs, sign test p = 0.039"),
    ([0.3] * 12 + [0.5] * 13, "at most 0.4 in 12 of 25 pairs, sign test p = 1"),
])
def test_the_sign_test_counts_the_pairs_within_the_goal_and_tests_their_median(ratios, text):
    """Hand-worked two-sided binomial p-values: k of n pairs on one side, p = 2 P(X <= min(k,
    n - k)) for X ~ Binomial(n, 1/2), at most 1."""
    assert common.sign_test(ratios, 0.4) == text


@pytest.mark.parametrize("ratios, text", [
    ([1.0] * 9, "within 0.9 to 1.1 in 9 of 9 sweeps, sign tests p = 0.0039 against 1.1 and "
                "0.0039 against 0.9"),
    ([1.0] * 7 + [1.2, 0.8], "within 0.9 to 1.1 in 7 of 9 sweeps, sign tests p = 0.039 against "
                             "1.1 and 0.039 against 0.9"),
    ([1.2] * 9, "within 0.9 to 1.1 in 0 of 9 sweeps, sign tests p = 0.0039 against 1.1 and "
                "0.0039 against 0.9"),  # told apart from 1.1, on the wrong side
    ([1.0] * 4 + [1.2] * 5, "within 0.9 to 1.1 in 4 of 9 sweeps, sign tests p = 1 against 1.1 "
                            "and 0.0039 against 0.9"),
])
def test_a_goal_of_two_bounds_has_a_sign_test_against_each(ratios, text):
    """The same hand-worked binomial p-values, counted against each bound: at most the upper,
    at least the lower."""
    assert common.sign_test(ratios, 1.1, 0.9, "sweeps") == text


def test_the_repetitions_and_the_further_pairs_are_set_side_by_side():
    """Three ratios below three others: U = 0, and the exact two-sided p is 2 / C(6, 3) = 0.1
    (no two orders of 3 and 3 are further apart); the same ratios mixed tell nothing."""
    assert engine.kinds([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], 3) == (
        "the 3 repetitions' ratio median 0.20 (0.10..0.30), the 3 further pairs' median 0.50 "
        "(0.40..0.60); Mann-Whitney p = 0.1")
    assert engine.kinds([0.1, 0.4, 0.5, 0.2, 0.3, 0.6], 3).endswith("Mann-Whitney p = 1")


def test_an_engines_warm_up_is_the_first_quarter_of_its_seeds_and_never_empty():
    assert engine.warm_up(range(1, 101)) == range(1, 26)
    assert engine.warm_up(range(1, 8)) == range(1, 2)
    assert engine.warm_up([7]) == [7]


def test_the_goals_engines_alternate_on_in_further_pairs_up_to_the_plans_count():
    """After the repetitions, engine: numpy and genoxide run in further pairs, each pair in
    turn first, up to plan.pairs; no further pair once pair_seconds is spent. Each timed call
    follows its own engine's warm-up on the first quarter of its seeds."""
    calls = []
    engines = {name: (range(1, 9), lambda seeds, name=name: calls.append((name, seeds)) or 10)
               for name in (common.NUMPY, "genoxide")}
    by_engine = {common.NUMPY: [1.0, 1.0], "genoxide": [2.0, 2.0]}  # two repetitions before
    report = common.Report()
    engine.more_pairs(common.Plan(pairs=5), engines, by_engine, 8, report)
    assert calls[::2] == [(name, range(1, 3)) for name, _ in calls[1::2]]  # the warm-ups
    assert {tuple(seeds) for _, seeds in calls[1::2]} == {tuple(range(1, 9))}
    order = [name for name, _ in calls[1::2]]
    assert order == ["genoxide", common.NUMPY, common.NUMPY, "genoxide", "genoxide", common.NUMPY]
    assert len(by_engine[common.NUMPY]) == len(by_engine["genoxide"]) == 5
    assert [row["repetition"] for row in report.rows] == [2, 2, 3, 3, 4, 4]
    engine.more_pairs(common.Plan(pairs=9, pair_seconds=0), engines, by_engine, 8, report)
    assert len(by_engine["genoxide"]) == 5


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
        assert (common.pyarrow_warning() is not None) == installed
