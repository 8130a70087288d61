"""Grids of GA settings, command-line overrides, and what counts as a run's setting (the
README's "Experiment files" and "Commands")."""

from __future__ import annotations

import json
import textwrap

import pandas as pd
import pytest

from gaqueens import run
from gaqueens.experiment import BadInput, load
from gaqueens.experiment.grid import MAX_CELLS
from gaqueens.ga import GaSettings
from gaqueens.ga.operators import Operator, make
from gaqueens.sweep import main

GRID = textwrap.dedent("""\
    boards: [8, 10]
    seeds: {first: 1, last: 5}
    grid:
      population: [10, 20]
      select.tournament: [2, 3]
    """)


def write(tmp_path, text, name="grid.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def rows(folder):
    return pd.read_csv(folder / "runs.csv").drop(columns="seconds")


def test_a_grid_runs_every_combination_named_from_its_values(tmp_path):
    experiment = load(write(tmp_path, GRID))
    names = [entry.name for entry in experiment.entries]
    assert names == ["ga", "population=10,select.tournament=2", "population=10,select.tournament=3",
                     "population=20,select.tournament=2", "population=20,select.tournament=3"]
    assert experiment.entry("population=10,select.tournament=3").settings == GaSettings(
        population=10, select=make("select", "tournament", size=3))
    assert experiment.entry("population=20,select.tournament=2").settings == GaSettings()


def test_a_cell_with_the_published_settings_gives_the_published_rows(tmp_path):
    assert main([str(write(tmp_path, GRID)), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    runs = rows(tmp_path / "out").set_index(["board", "seed"])
    published = runs[runs["algorithm"] == "ga"].drop(columns="algorithm")
    cell = runs[runs["algorithm"] == "population=20,select.tournament=2"].drop(columns="algorithm")
    pd.testing.assert_frame_equal(published, cell)
    assert len(runs) == 5 * 2 * 5


@pytest.mark.parametrize("path, values, field, expected", [
    ("mutation.swap", [1, 3], "mutation", make("mutation", "swap", count=3)),
    ("survivors.tournament", [2, 4], "survivors", make("survivors", "tournament", size=4)),
    ("stop.generations", [10, 20], "generations", 20),
])
def test_any_setting_path_can_be_a_grid_key(tmp_path, path, values, field, expected):
    experiment = load(write(tmp_path, f"boards: [8]\ngrid: {{{path}: {values}}}\n"))
    assert getattr(experiment.entries[-1].settings, field) == expected


def test_a_path_into_a_deap_operators_arguments_keeps_the_others(tmp_path):
    text = ("boards: [8]\nga: {select: {deap: selTournament, tournsize: 2, fit_attr: fitness}}\n"
            "grid: {select.tournsize: [3, 5]}\n")
    experiment = load(write(tmp_path, text))
    assert experiment.entries[-1].settings.select == Operator(
        "select", "deap", (("fit_attr", "fitness"), ("tournsize", 5)), "selTournament")


def test_the_crossover_rate_and_its_crossover(tmp_path):
    text = "boards: [8]\nga: {crossover: pmx}\ngrid: {cxpb: [0.2, 0.9], variation: [each, and]}\n"
    experiment = load(write(tmp_path, text))
    assert len(experiment.entries) == 5
    assert {entry.settings.cxpb for entry in experiment.entries[1:]} == {0.2, 0.9}


@pytest.mark.parametrize("grid, says", [
    ("{population: [10, 0]}", "grid[population=0].population must be a whole number from 1"),
    ("{select.tournament: [2, 0]}", "grid[select.tournament=0].select.tournament must be"),
    ("{cxpb: [0.5]}", "grid[cxpb=0.5].cxpb does not apply: there is no crossover"),
    ("{populaton: [10]}", "grid.populaton is not a path into the ga's settings (did you mean "
                          "population?)"),
    ("{population: 10}", "grid.population must be a list of values to try, got 10"),
    ("{population: []}", "grid.population must be a list of values to try, got []"),
    ("{population: [10, 10]}", "grid.population lists a value twice"),
    ("[population]", "grid must be a mapping from a GA setting path to a list of values"),
    ("{population: " + str(list(range(1, 101))) + ", offspring: " + str(list(range(1, 102))) + "}",
     f"grid makes 10,100 cells, more than {MAX_CELLS:,}"),
])
def test_a_bad_grid_is_refused_in_one_line_naming_its_cell(tmp_path, capsys, grid, says):
    path = write(tmp_path, f"boards: [8]\ngrid: {grid}\n")
    assert main([str(path), "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1 and says in error, error
    assert not (tmp_path / "out").exists()


# ---- --set -------------------------------------------------------------------------------------


def test_an_override_gives_the_rows_of_the_same_change_in_the_file(tmp_path):
    plain = write(tmp_path, "boards: [8, 10]\nseeds: {first: 1, last: 6}\n")
    changed = write(tmp_path, "boards: [8, 10]\nseeds: {first: 1, last: 6}\n"
                              "ga: {population: 30, mutation: {swap: 2}}\n", "changed.yaml")
    assert main([str(plain), "--out", str(tmp_path / "set"), "--quiet",
                 "--set", "ga.population=30", "--set", "ga.mutation={swap: 2}"]) == 0
    assert main([str(changed), "--out", str(tmp_path / "file"), "--quiet"]) == 0
    pd.testing.assert_frame_equal(rows(tmp_path / "set"), rows(tmp_path / "file"))
    manifest = json.loads((tmp_path / "set" / "manifest.json").read_text())
    assert manifest["settings"]["overrides"] == ["ga.population=30", "ga.mutation={swap: 2}"]
    assert "--set ga.population=30" in manifest["command"]


def test_overrides_reach_every_key_the_file_has(tmp_path):
    path = write(tmp_path, GRID)
    experiment = load(path, overrides=["boards=[8]", "grid.population=[5]", "reference.8=100",
                                       "seeds.last=2", "grid.select.tournament=[4]"])
    assert experiment.boards == (8,) and experiment.seeds == (1, 2)
    assert experiment.reference == {8: 100}
    assert [entry.name for entry in experiment.entries] == ["ga", "population=5,select.tournament=4"]


@pytest.mark.parametrize("override, says", [
    ("ga.population", "--set must be PATH=VALUE"),
    ("=5", "--set must be PATH=VALUE"),
    ("ga..population=5", "--set must be PATH=VALUE"),
    ("ga.population=[1", "--set ga.population: not valid YAML"),
    ("ga.population=0", "ga.population must be a whole number from 1 to 100,000, got 0 "
                        "(with --set ga.population=0)"),
    ("ga.populaton=20", "ga.populaton is not a known key (did you mean population?)"),
    ("boards=8", "boards must be a list"),
])
def test_a_bad_override_is_refused_in_one_line(tmp_path, capsys, override, says):
    assert main([str(write(tmp_path, GRID)), "--out", str(tmp_path / "out"), "--set", override]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1 and says in error, error


def test_one_run_takes_overrides_too(capsys, tmp_path):
    path = write(tmp_path, "boards: [8]\n")
    assert run.main(["--board", "8", "--seed", "3", str(path), "--set", "ga.engine=deap"]) == 0
    on_deap = capsys.readouterr().out
    assert run.main(["--board", "8", "--seed", "3", "--algorithm", "ga", str(write(
        tmp_path, "boards: [8]\nga: {engine: deap}\n", "deap.yaml"))]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == on_deap.splitlines()[:2]
    assert run.main(["--board", "8", "--set", "ga.population=5"]) == 2
    assert "give the FILE too" in capsys.readouterr().err


def test_load_raises_bad_input_for_an_override(tmp_path):
    with pytest.raises(BadInput, match="with --set ga.scheme=simple"):
        load(write(tmp_path, "boards: [8]\nga: {offspring: 30}\n"), overrides=["ga.scheme=simple"])


# ---- what is a run's setting ------------------------------------------------------------------------


def test_changing_max_board_adds_runs_without_asking_for_fresh(tmp_path, capsys):
    text = "boards: [8, 10]\nseeds: {first: 1, last: 3}\nga: none\nbaselines: {local-search: {max-board: 8}}\n"
    path = write(tmp_path, text)
    assert main([str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert main([str(path), "--out", str(tmp_path / "out"), "--set",
                 "baselines.local-search.max-board=10"]) == 0
    assert "3 of 6 runs stored, 3 to compute" in capsys.readouterr().err


# ---- runs know their code --------------------------------------------------------------------


@pytest.fixture
def code_of(monkeypatch):
    """Makes the sweep believe it runs the code named by the returned setter."""
    from gaqueens.runtime import manifest

    def use(name):
        monkeypatch.setattr(manifest, "code_identity", lambda: name)
    return use


def test_every_stored_run_records_the_code_that_made_it(tmp_path):
    from gaqueens.runtime import manifest
    from gaqueens.runtime.store import Store

    assert main([str(write(tmp_path, "boards: [8]\nseeds: {first: 1, last: 3}\n")),
                 "--out", str(tmp_path / "out"), "--quiet"]) == 0
    with Store(tmp_path / "out") as store:
        assert store.codes() == {"ga": {manifest.code_identity(): 3}}
    assert manifest.code_identity().startswith("gaqueens ")
    recorded = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert recorded["code"] == {"ga": manifest.code_identity()} and "mixed_code" not in recorded


def test_resuming_runs_of_other_code_is_refused_unless_fresh_or_mixed(tmp_path, capsys, code_of):
    path = write(tmp_path, "boards: [8]\nseeds: {first: 1, last: 6}\n")
    out = ["--out", str(tmp_path / "out")]
    code_of("gaqueens 0.1.0, commit aaaa")
    assert main([str(path), *out, "--quiet", "--seeds", "1..3"]) == 0
    code_of("gaqueens 0.1.0, commit bbbb")
    assert main([str(path), *out]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert "3 of its stored runs of ga were made by other code than this sweep's" in error
    assert "gaqueens 0.1.0, commit aaaa, now gaqueens 0.1.0, commit bbbb" in error
    assert "--mixed-code" in error
    assert main([str(path), *out, "--quiet", "--mixed-code"]) == 0
    recorded = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert recorded["mixed_code"] == {"ga": {"gaqueens 0.1.0, commit aaaa": 3}}
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "made by different code" in summary
    assert "ga: 3 runs by gaqueens 0.1.0, commit aaaa" in summary
    code_of("gaqueens 0.1.0, commit cccc")
    assert main([str(path), *out, "--quiet", "--fresh"]) == 0
    from gaqueens.runtime.store import Store

    with Store(tmp_path / "out") as store:
        assert store.codes() == {"ga": {"gaqueens 0.1.0, commit cccc": 6}}


def test_a_store_from_before_runs_recorded_their_code_is_not_mixed_silently(tmp_path, capsys):
    import sqlite3

    path = write(tmp_path, "boards: [8]\nseeds: {first: 1, last: 4}\n")
    assert main([str(path), "--out", str(tmp_path / "out"), "--quiet", "--seeds", "1..2"]) == 0
    with sqlite3.connect(tmp_path / "out" / "runs.sqlite") as db:  # as an older gaqueens left it
        db.execute("ALTER TABLE runs DROP COLUMN code")
    assert main([str(path), "--out", str(tmp_path / "out")]) == 2
    assert "code not recorded" in capsys.readouterr().err


@pytest.mark.parametrize("grid, says", [
    ("{select: [uniform, {tournament: 3}], select.tournament: [2, 5]}",
     "grid.select.tournament is inside grid.select: give the whole setting or a path into it"),
    ("{cxpb: [1, 1.0]}", "grid[cxpb=1.0] makes the same settings as grid[cxpb=1]"),
    ("{crossover: [pmx, {pmx: 0.5}]}", "makes the same settings as grid[crossover=pmx]"),
])
def test_a_grid_whose_cells_would_be_mislabelled_or_the_same_is_refused(tmp_path, capsys, grid, says):
    path = write(tmp_path, f"boards: [8]\nga: {{crossover: pmx}}\ngrid: {grid}\n")
    assert main([str(path), "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1 and says in error, error


def test_an_override_does_not_replace_a_file_that_is_not_a_mapping(tmp_path, capsys):
    path = write(tmp_path, "- boards: [8]\n")
    assert main([str(path), "--out", str(tmp_path / "out"), "--set", "boards=[8]"]) == 2
    assert "the file must be a mapping" in capsys.readouterr().err
