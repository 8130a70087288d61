"""The naive DEAP GA (gaqueens.deap_ga) beside the engine, and the benchmark's smoke run.

deap_ga is a second, independent implementation of the published GA: its distribution of
evaluations must be the engine's (scipy.stats.ks_2samp, two-sample Kolmogorov-Smirnov test at
alpha 0.001), every answer a solution, and its runs its seed's alone.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import ks_2samp

from gaqueens import deap_ga, ga
from gaqueens.bench import boards, command, common, engine
from gaqueens.board import is_solution
from gaqueens.ga.operators import Pmx, Uniform

SEEDS = {8: 400, 12: 200}
PUBLISHED = ga.GaSettings()
ALPHA = 0.001


@pytest.fixture(scope="module")
def naive_runs():
    return {board: [deap_ga.run(PUBLISHED, board, seed) for seed in range(1, count + 1)]
            for board, count in SEEDS.items()}


@pytest.mark.parametrize("board", sorted(SEEDS))
def test_deap_ga_evaluations_are_distributed_as_the_engines(board, naive_runs):
    naive = [result.evaluations for result in naive_runs[board]]
    engine = [ga.run(PUBLISHED, board, seed).evaluations for seed in range(1, SEEDS[board] + 1)]
    test = ks_2samp(naive, engine)
    assert test.pvalue >= ALPHA, (
        f"board {board}: KS statistic {test.statistic:.3f}, p {test.pvalue:.2g}, medians "
        f"{np.median(naive)} (deap_ga) and {np.median(engine)} (ga)")


def test_every_deap_ga_answer_is_a_solution(naive_runs):
    for board, results in naive_runs.items():
        for result in results:
            assert result.solved and result.conflicts == 0
            assert is_solution(result.solution, board)
            assert result.evaluations == 20 + 20 * result.generations


@pytest.mark.parametrize("settings", [ga.GaSettings(ties="parents-first", generations=1000),
                                      ga.GaSettings(select=Uniform(), generations=1000)],
                         ids=["parents-first", "uniform"])
def test_deap_ga_variants_are_distributed_as_the_engines(settings):
    """Stopped at 1,000 generations: with parents-first ties about 0.3% of the runs on board 8
    end with a population that no swap improves and no tie can move, and stay there."""
    seeds = range(1, 201)
    naive = [deap_ga.run(settings, 8, seed).evaluations for seed in seeds]
    engine = [ga.run(settings, 8, seed).evaluations for seed in seeds]
    assert ks_2samp(naive, engine).pvalue >= ALPHA


def test_deap_ga_repeats_with_its_seed():
    first, second = deap_ga.run(PUBLISHED, 10, 7), deap_ga.run(PUBLISHED, 10, 7)
    assert first.evaluations == second.evaluations
    assert first.solution.tolist() == second.solution.tolist()


def test_deap_ga_leaves_the_random_module_as_it_found_it():
    random.seed(12345)
    state = random.getstate()
    deap_ga.run(PUBLISHED, 8, 3)
    assert random.getstate() == state


def test_deap_ga_does_not_depend_on_the_random_module():
    random.seed(1)
    first = deap_ga.run(PUBLISHED, 10, 4)
    random.seed(2)
    random.random()
    second = deap_ga.run(PUBLISHED, 10, 4)
    assert first.solution.tolist() == second.solution.tolist()


def test_deap_ga_refuses_operators_it_does_not_have():
    with pytest.raises(ValueError, match="crossover"):
        deap_ga.run(ga.GaSettings(crossover=Pmx()), 8, 1)


def test_quick_bench_prints_its_sections(tmp_path):
    """The smoke run, with genoxide or without it; its scratch files go under tmp_path."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "gaqueens.bench", "--quick", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    for section in ("### (a) Engine cost", "### (b) The whole table", "### (c) The main job",
                    "### (d) Per board"):
        assert section in done.stdout
    assert (out / "bench.md").read_text(encoding="utf-8").startswith("**gaqueens benchmark**")
    header = (out / "bench.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == ",".join(common.CSV_COLUMNS)


def test_without_genoxide_the_bench_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(command, "_genoxide", lambda: None)
    report = common.Report()
    plan = common.Plan(repeats=1, engine_board=8, engine_seeds=range(1, 3), naive_seeds=range(1, 2))
    engine.engine_cost(plan, report, None)
    assert any(common.INSTALL in line for line in report.lines)
    assert {row["engine"] for row in report.rows} == {"gaqueens.ga", "deap_ga (naive)"}
    assert command.main(["--genoxide-table", "8", "--seeds", "1..3"]) == 2


def test_per_board_compares_the_local_search_the_ga_and_the_naive_ga():
    report = common.Report()
    boards.per_board(common.Plan(boards=(8,), board_seeds=range(1, 3)), report)
    header = next(line for line in report.lines if line.startswith("| board"))
    assert "ga / local-search" in header and "deap_ga (naive) / local-search" in header
    assert {row["engine"] for row in report.rows} == {"local-search", "ga", "deap_ga (naive)"}
