"""A grid's outputs: each cell's median against the ga's, the best cell per board, and the
plots (gaqueens/reports/sensitivity.py)."""

from __future__ import annotations

import math

import pandas as pd

from gaqueens.experiment.grid import grid_of
from gaqueens.reports import sensitivity
from gaqueens.sweep import main

GRID = grid_of({"population": [5, 20], "select.tournament": [2, 3]})


def summary_of(medians: dict) -> pd.DataFrame:
    """A summary with the given (algorithm, board) -> median, intervals 10% either side."""
    return pd.DataFrame([{"algorithm": name, "board": board, "median": m, "ci_low": m * 0.9,
                          "ci_high": m * 1.1, "solved": 10, "runs": 10}
                         for (name, board), m in medians.items()])


def test_the_ga_values_of_grid_paths_come_from_its_settings():
    settings = {"population": 20, "select": {"tournament": 2}, "crossover": "none"}
    assert sensitivity.ga_values(settings, ["population", "select.tournament", "crossover.pmx"]) \
        == {"population": 20, "select.tournament": 2, "crossover.pmx": None}


def test_each_cell_is_measured_against_the_ga_on_its_board():
    names = [name for name, _ in GRID.cells]
    assert names == ["population=5,select.tournament=2", "population=5,select.tournament=3",
                     "population=20,select.tournament=2", "population=20,select.tournament=3"]
    summary = summary_of({("ga", 8): 100, **{(name, 8): m for name, m in zip(names, [50, 80, 100, 200])},
                          ("ga", 16): math.inf, **{(name, 16): 500 for name in names}})
    table = sensitivity.cells(summary, GRID, "ga")
    eight = table[table["board"] == 8].set_index("algorithm")
    assert eight["ratio"].tolist() == [0.5, 0.8, 1.0, 2.0]
    assert eight["population"].tolist() == [5, 5, 20, 20]
    assert table[table["board"] == 16]["ratio"].isna().all()  # the ga unsolved: no ratio
    best = sensitivity.best_cells(table, summary, None)
    assert best["best cell"].tolist() == ["population=5,select.tournament=2", names[0]]
    assert best["ratio to the ga (95% CI)"].tolist() == ["0.50", ""]


def test_a_setting_varies_with_the_others_held_at_the_gas_values_or_else_the_best_cells():
    """No spaghetti: one line per board in each panel (issue 48). With the ga's values in the
    grid they hold the other settings; without them (a grid with no ga, as sweep-100k's), the
    best cell's on the largest board do."""
    names = [name for name, _ in GRID.cells]
    summary = summary_of({**{(name, 8): m for name, m in zip(names, [50, 80, 100, 200])},
                          **{(name, 16): m for name, m in zip(names, [900, 300, 500, 400])}})
    table = sensitivity.cells(summary, GRID, None)
    assert sensitivity.held(table, GRID, {"population": 20, "select.tournament": 2}) == {
        "population": 20, "select.tournament": 2}
    assert sensitivity.held(table, GRID, {}) == {"population": 5, "select.tournament": 3}
    along = sensitivity._line_rows(table, GRID, "population", {"select.tournament": 3})
    assert set(along["algorithm"]) == {names[1], names[3]}


def test_a_grid_sweep_draws_its_sensitivity_and_names_its_best_cells(tmp_path):
    path = tmp_path / "grid.yaml"
    path.write_text("boards: [8, 10]\nseeds: {first: 1, last: 6}\n"
                    "grid: {population: [5, 20], select.tournament: [2, 3]}\n")
    assert main([str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    for plot in ("sensitivity.png", "sensitivity-heatmap.png"):
        assert (tmp_path / "out" / plot).stat().st_size > 10_000
    text = (tmp_path / "out" / "summary.md").read_text()
    assert "## The grid's best cell per board" in text and "compared with the ga" in text


def test_a_grid_of_one_setting_draws_no_heatmap(tmp_path):
    path = tmp_path / "grid.yaml"
    path.write_text("boards: [8]\nseeds: {first: 1, last: 4}\ngrid: {population: [5, 10]}\n")
    assert main([str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert (tmp_path / "out" / "sensitivity.png").exists()
    assert not (tmp_path / "out" / "sensitivity-heatmap.png").exists()


def test_a_grid_of_operators_and_of_values_with_zero_is_drawn(tmp_path):
    """Operator values are mappings, which cannot index a plot's positions as they are; a
    grid with 0 cannot take a log axis."""
    path = tmp_path / "grid.yaml"
    path.write_text("boards: [8]\nseeds: {first: 1, last: 4}\nga: {crossover: pmx}\n"
                    "grid: {mutation: [{swap: 1}, {swap: 2}], cxpb: [0, 0.5, 1]}\n")
    assert main([str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert (tmp_path / "out" / "sensitivity-heatmap.png").exists()
    table = sensitivity.cells(pd.read_csv(tmp_path / "out" / "summary.csv"),
                              grid_of({"mutation": [{"swap": 1}, {"swap": 2}], "cxpb": [0, 0.5, 1]}),
                              "ga")
    assert len(table) == 6 and table["mutation"].map(sensitivity._key).tolist()[:2] == [
        "{swap: 1}", "{swap: 1}"]
