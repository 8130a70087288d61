"""python -m gaqueens.bench.agreement (gaqueens/bench/agreement.py's docstring): both engines
over the same seeds, scheme by variation, each row's verdict with the shift it detects, and
DEAP's own example against engine: deap."""

import csv
import math

import numpy as np
import pytest

from gaqueens.bench import agreement, agreement_power, agreement_report
from gaqueens.runtime.executors import starmap
from gaqueens.ga import SCHEMES, VARIATIONS
from gaqueens.ga.operators import make

pytestmark = pytest.mark.bench


def test_a_small_agreement_writes_a_row_per_comparison_and_compares_deaps_example(tmp_path, capsys):
    out = tmp_path / "agreement"
    argv = ["--seeds", "1..8", "--board", "6", "--example-seeds", "2", "--workers", "2",
            "--out", str(out)]
    assert agreement.main(argv) == 0
    with open(out / "agreement.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == len(SCHEMES) * len(VARIATIONS) + 2  # and the two controls
    assert {(r["scheme"], r["variation"]) for r in rows[:-2]} == {
        (s, v) for s in SCHEMES for v in VARIATIONS}
    for row in rows:
        detects = float(row["detects"]) if row["detects"] else math.nan
        assert row["verdict"] == agreement_power.verdict(float(row["p_holm"]), detects)
        assert 0 <= int(row["numpy_solved"]) <= 8 and 0 <= int(row["deap_solved"]) <= 8
        assert row["seeds"] == "1..8"
    text = (out / "agreement.md").read_text()
    assert "2 of 2 seeds equal" in text  # DEAP's example, run by DEAP, is engine: deap's run
    assert "detects" in text
    assert text in capsys.readouterr().out


def test_a_row_agrees_only_where_it_could_have_seen_a_shift_of_15_percent():
    assert agreement_power.verdict(0.5, 0.15) == "agree"
    assert agreement_power.verdict(0.5, 0.16) == "inconclusive"
    assert agreement_power.verdict(0.5, math.nan) == "inconclusive"  # no shift below 100% detected
    assert agreement_power.verdict(agreement_power.ALPHA / 2, 0.05) == "differ"
    assert agreement_power.verdict(agreement_power.ALPHA, 0.05) == "agree"


def test_a_control_that_differs_is_told_apart_and_a_row_without_power_does_not_agree():
    """Board 12, 50 seeds: deap with tournaments of 10 against numpy with uniform parents takes
    about half the evaluations, which these seeds see; the same settings on both engines show
    no difference, but 50 seeds could not have seen a shift of 15%."""
    uniform = agreement.settings("mu+lambda", "each", "numpy", select=make("select", "uniform"))
    rows = [agreement.Comparison("mu+lambda", "each", "control: deap with a tournament of 10",
                                 uniform, agreement.settings("mu+lambda", "each", "deap",
                                                             select=make("select", "tournament", size=10)), 50),
            agreement.Comparison("mu+lambda", "each", "the same settings", uniform,
                                 agreement.settings("mu+lambda", "each", "deap", select=make("select", "uniform")),
                                 50)]
    control, same = agreement.engines(12, None, 2, rows)
    assert control["verdict"] == "differ" and control["p_holm"] < agreement_power.ALPHA
    assert control["deap_median"] < control["numpy_median"]
    assert same["p_holm"] >= agreement_power.ALPHA
    assert same["detects"] > agreement_power.WITHIN and same["verdict"] == "inconclusive"
    assert agreement_report.verdict_text(same).startswith("inconclusive (detects shifts of ")


def test_the_power_is_the_level_without_a_shift_and_grows_with_it():
    rng = np.random.default_rng(1)
    generations = rng.geometric(1 / 30, 300) - 1
    runs = np.stack([np.ones(300), 20 + 20 * generations, generations], axis=1).astype(float)
    runs[:10, 0], runs[:10, 2] = 0, agreement.GENERATIONS  # unsolved: they stay so
    first, second = runs[:150], runs[150:]

    def power(factor):
        return agreement_power.power(first, second, factor, 1, np.random.default_rng(0),
                                     agreement.GENERATIONS)

    none, small, large = power(1.0), power(1.2), power(2.0)
    assert none <= 3 * agreement_power.ALPHA and none < small < large and large >= agreement_power.POWER
    shift = agreement_power.detectable_shift(first, second, 1, 0, agreement.GENERATIONS)
    assert agreement_power.WITHIN < shift < 1
    assert power(1 + shift) >= agreement_power.POWER and power(1 - shift) >= agreement_power.POWER
    assert power(1 + shift - 0.01) < agreement_power.POWER or power(1 - shift + 0.01) < agreement_power.POWER


def test_the_runs_do_not_depend_on_the_number_of_processes():
    tasks = [(agreement.settings("simple", "and", engine), 6, [1, 2, 3]) for engine in ("numpy", "deap")]
    assert starmap(agreement._runs, tasks, 2) == starmap(agreement._runs, tasks, 1)


def test_the_default_seeds_are_each_rows_own_and_the_controls_share_numpy_runs():
    rows = agreement.comparisons()
    assert [row.seeds for row in rows[:-2]] == [agreement.SEEDS[scheme, variation]
                                                for scheme in SCHEMES for variation in VARIATIONS]
    assert {row.numpy for row in rows if row.control} == {rows[0].numpy}  # the published settings


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert agreement.main(["--board", "3", "--out", str(tmp_path / "a")]) == 2
    assert capsys.readouterr().err == "error: --board must be at least 4, got 3\n"
    assert agreement.main(["--seeds", "5..2", "--out", str(tmp_path / "a")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "a").exists()


def test_deaps_example_is_the_ga_of_its_experiment_file():
    from pathlib import Path

    from gaqueens.bench import deap_example
    from gaqueens.experiment import load

    file = Path(__file__).parents[1] / "experiments" / "deap-example.yaml"
    assert load(file).entry("ga").settings == deap_example.settings()
