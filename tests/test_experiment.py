"""Experiment files: what loads (defaults, variants, baselines, the shipped files) and what is
refused, always before any run, with one line on stderr naming the file and the key, and exit
status 2 (the README's "Experiment files" and "Commands")."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gaqueens import run, sweep
from gaqueens.core.algorithms import ALGORITHMS, Algorithm
from gaqueens.experiment import (
    BOARDS, MAX_BOARD_KEY, BadInput, Entry, Experiment, load, parse_seeds, settings_to_yaml,
)
from gaqueens.ga import GaSettings
from gaqueens import problems
from gaqueens.ga.operators import BUILTINS, make
from gaqueens.core.ranges import Number, OneOf, Whole, allowed, setting

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"
PUBLISHED = {8: 100, 16: 729, 32: 2450, 64: 7110, 128: 16590}  # median evaluations: README


# ---- stand-in baselines, so that the baseline keys are tested whatever is registered --------


def _never(settings, board, seed):
    raise AssertionError("a test of experiment files ran an algorithm")


@dataclasses.dataclass(frozen=True)
class WalkSettings:
    """A stand-in baseline: budget 1 to 10^9 (1,000); restart_after 0 to 1 (0.5)."""

    budget: int = setting(1000, Whole(1, 10**9))
    restart_after: float = setting(0.5, Number(0, 1))


@dataclasses.dataclass(frozen=True)
class BuildSettings:
    """A stand-in deterministic baseline, without settings."""


FAKES = {
    "test-walk": Algorithm(_never, WalkSettings, "steps"),
    "test-build": Algorithm(_never, BuildSettings, "none", deterministic=True),
}


@pytest.fixture(autouse=True)
def fake_baselines(monkeypatch):
    for name, algorithm in FAKES.items():
        monkeypatch.setitem(ALGORITHMS, name, algorithm)


def write(folder: Path, text: str | bytes, name: str = "x.yaml") -> Path:
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def quoted(path: Path) -> str:
    """A path as a YAML scalar (a JSON string is one)."""
    return json.dumps(str(path))


# ---- what loads --------------------------------------------------------------------------


def test_a_board_alone_gives_the_published_experiment(tmp_path):
    experiment = load(write(tmp_path, "boards: [8]\n", "n8.yaml"))
    (entry,) = experiment.entries
    ga = entry.settings
    assert (entry.name, entry.algorithm, entry.max_board) == ("ga", "ga", None)
    assert (ga.population, ga.offspring, ga.scheme, ga.ties) == (20, 20, "mu+lambda", "offspring-first")
    assert (ga.select, ga.crossover, ga.mutation) == (make("select", "tournament", size=2), make("crossover", "none"), make("mutation", "swap", count=1))
    assert (ga.target, ga.generations) == (0, 50_000)
    assert experiment.name == "n8"
    assert experiment.boards == (8,)
    assert experiment.seeds == (1, 100)
    assert experiment.reference == {}
    assert experiment.output == Path("results/n8")


def test_every_key_written_out_gives_the_same_as_the_defaults(tmp_path):
    spelled = textwrap.dedent("""\
        name: n8
        boards: [8]
        seeds: {first: 1, last: 100}
        ga:
          population: 20
          offspring: 20
          scheme: mu+lambda
          select: {tournament: 2}
          crossover: none
          mutation: {swap: 1}
          ties: offspring-first
          stop: {target: 0, generations: 50000}
        baselines: []
        variants: {}
        reference: {}
        output: results/n8
        """)
    assert load(write(tmp_path, spelled, "n8.yaml")) == load(write(tmp_path, "boards: [8]\n", "n8.yaml"))


def test_command_line_overrides_replace_output_and_seeds(tmp_path):
    (tmp_path / "taken").write_text("a file where the file's output would go\n")
    text = f"boards: [8]\nseeds: {{first: 1, last: 5}}\noutput: {quoted(tmp_path / 'taken')}\n"
    path = write(tmp_path, text)
    experiment = load(path, output=tmp_path / "out", seeds=(7, 9))
    assert experiment.output == tmp_path / "out"
    assert experiment.seeds == (7, 9)


def test_variants_change_the_ga_settings_they_name(tmp_path):
    path = write(tmp_path, textwrap.dedent("""\
        boards: [8]
        ga: {population: 30, stop: {target: 1, generations: 100}}
        variants:
          uniform: {select: uniform}
          short: {stop: {generations: 5}}
          same: {}
          bare:
        """))
    experiment = load(path)
    ga = GaSettings(population=30, target=1, generations=100)
    assert [e.name for e in experiment.entries] == ["ga", "uniform", "short", "same", "bare"]
    assert experiment.entry("ga").settings == ga
    assert experiment.entry("uniform").settings == dataclasses.replace(ga, select=make("select", "uniform"))
    assert experiment.entry("short").settings == dataclasses.replace(ga, generations=5)
    assert experiment.entry("same").settings == ga == experiment.entry("bare").settings
    assert {e.algorithm for e in experiment.entries} == {"ga"}


def test_variants_of_no_ga_start_from_the_published_settings(tmp_path):
    experiment = load(write(tmp_path, "boards: [8]\nga: none\nvariants: {u: {select: uniform}}\n"))
    assert experiment.entries == (Entry("u", "ga", GaSettings(select=make("select", "uniform"))),)


def test_baselines_as_a_list_or_a_mapping(tmp_path):
    listed = load(write(tmp_path, "boards: [8]\nbaselines: [test-walk, test-build]\n"))
    mapped = load(write(tmp_path, textwrap.dedent("""\
        boards: [8, 16]
        baselines:
          test-walk: {budget: 7, restart-after: 0.25, max-board: 8}
          test-build:
        """)))
    assert listed.entries[1:] == (
        Entry("test-walk", "test-walk", WalkSettings()),
        Entry("test-build", "test-build", BuildSettings()),
    )
    walk = mapped.entry("test-walk")
    assert walk == Entry("test-walk", "test-walk", WalkSettings(budget=7, restart_after=0.25), 8)
    assert (walk.runs_on(8), walk.runs_on(16)) == (True, False)
    assert mapped.entry("test-build").max_board is None


def test_boards_without_a_solution_load_when_no_target_is_asked_for(tmp_path):
    experiment = load(write(tmp_path, "boards: [2, 3]\nga: {stop: {target: none, generations: 5}}\n"))
    assert experiment.boards == (2, 3)


def test_no_ga_runs_the_baselines_alone(tmp_path):
    experiment = load(write(tmp_path, "boards: [8]\nga: none\nbaselines: [test-walk]\n"))
    assert [e.name for e in experiment.entries] == ["test-walk"]


def test_a_baseline_limited_to_small_boards_may_skip_unsolvable_ones(tmp_path):
    text = "boards: [1, 2, 8]\nga: none\nbaselines: {test-walk: {max-board: 1}}\n"
    assert load(write(tmp_path, text)).tasks() == [("test-walk", 1, s) for s in range(1, 101)]


def test_tasks_count_each_algorithm_board_and_seed(tmp_path):
    path = write(tmp_path, textwrap.dedent("""\
        boards: [8, 16, 32]
        seeds: {first: 1, last: 10}
        variants: {u: {select: uniform}}
        baselines: {test-walk: {max-board: 16}, test-build: {}}
        """))
    tasks = load(path).tasks()
    assert len(tasks) == len(set(tasks)) == 30 + 30 + 2 * 10 + 3 * 1
    assert ("test-walk", 32, 1) not in tasks
    assert [t for t in tasks if t[0] == "test-build"] == [("test-build", b, 1) for b in (8, 16, 32)]
    assert {seed for _, _, seed in tasks} == set(range(1, 11))


def test_resolved_settings_written_back_load_to_the_same_experiment(tmp_path):
    path = write(tmp_path, textwrap.dedent(f"""\
        name: round-trip
        boards: [8, 12]
        seeds: {{first: 3, last: 7}}
        ga:
          engine: deap
          population: 30
          offspring: 40
          scheme: mu+lambda
          variation: and
          cxpb: 0.25
          mutpb: 0.5
          select: {{tournament: 3}}
          crossover: pmx
          mutation: {{shuffle: 0.2}}
          survivors: {{deap: selTournament, tournsize: 2}}
          ties: parents-first
          fitness: excess
          stop: {{target: none, generations: 999}}
        variants:
          v: {{select: uniform, crossover: {{ordered: 0.5}}, mutation: {{swap: 3}}, scheme: 'mu,lambda'}}
          w: {{crossover: none, variation: or, mutpb: 0.9, engine: numpy}}
          x: {{scheme: simple, mutation: {{deap: mutShuffleIndexes, indpb: 0.1}}}}
        baselines: {{test-walk: {{budget: 7, restart-after: 0.25, max-board: 8}}, test-build: }}
        reference: {{8: 100.5, 12: 300}}
        output: {quoted(tmp_path / "out")}
        """))
    experiment = load(path)
    ga = experiment.entry("ga").settings
    assert (ga.crossover, ga.cxpb, ga.target) == (make("crossover", "pmx"), 0.25, None)
    assert experiment.entry("v").settings.crossover == make("crossover", "ordered")
    assert experiment.entry("v").settings.cxpb == 0.5
    assert experiment.entry("w").settings.cxpb == GaSettings().cxpb  # no crossover: left out
    assert experiment.entry("x").settings.offspring == GaSettings().offspring  # simple: left out
    assert ga.mutation == make("mutation", "shuffle", indpb=0.2)
    resolved = experiment.resolved()
    algorithms = resolved.pop("algorithms")
    for entry in experiment.entries:
        assert algorithms[entry.name] == settings_to_yaml(entry)
    assert "cxpb" not in algorithms["w"] and "ties" not in algorithms["v"]
    gas = [e.name for e in experiment.entries if e.algorithm == "ga"]
    resolved |= {
        "ga": algorithms["ga"],
        "variants": {name: algorithms[name] for name in gas if name != "ga"},
        "baselines": {name: algorithms[name] for name in algorithms if name not in gas},
    }
    again = load(write(tmp_path, yaml.safe_dump(resolved, sort_keys=False), "again.yaml"))
    assert again == dataclasses.replace(experiment, source=again.source)


@pytest.mark.parametrize("path", sorted(EXPERIMENTS.glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_experiment_file_loads(path):
    experiment = load(path)
    assert experiment.name and experiment.boards and experiment.entries
    assert set(experiment.reference) <= set(experiment.boards)


@pytest.mark.parametrize("name", ["n8", "n16", "n32", "n64", "n128", "table"])
def test_the_published_experiments_run_the_published_ga_beside_its_medians(name):
    experiment = load(EXPERIMENTS / f"{name}.yaml")
    assert experiment.entries == (Entry("ga", "ga", GaSettings()),)
    assert experiment.seeds == (1, 100)
    assert experiment.reference == {board: PUBLISHED[board] for board in experiment.boards}


# ---- what is refused: one line, exit 2, nothing written ----------------------------------


def refused(capsys, main, args) -> str:
    """Runs a command's main in-process; returns its one line on stderr, having checked that
    it refused the input (exit 2) and printed nothing else."""
    try:
        status = main(args)
    except SystemExit as exit:  # argparse's usage errors
        status = exit.code
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    assert err.endswith("\n") and len(err.splitlines()) == 1 and err.strip(), repr(err)
    assert "Traceback" not in err
    return err.rstrip("\n")


def _output_is_a_file(tmp):
    (tmp / "taken").write_text("not a folder\n")
    return write(tmp, f"boards: [8]\noutput: {quoted(tmp / 'taken')}\n"), []


def _output_under_a_file(tmp):
    (tmp / "taken").write_text("not a folder\n")
    return write(tmp, f"boards: [8]\noutput: {quoted(tmp / 'taken' / 'out')}\n"), []


def _out_is_a_file(tmp):
    (tmp / "taken").write_text("not a folder\n")
    return write(tmp, "boards: [8]\n"), ["--out", str(tmp / "taken")]


def _output_path_too_long(tmp):
    return write(tmp, f"boards: [8]\noutput: {quoted(tmp / ('x' * 5000))}\n"), []


def _missing_file(tmp):
    return tmp / "no-such.yaml", ["--out", str(tmp / "out")]


def _a_folder(tmp):
    (tmp / "folder.yaml").mkdir()
    return tmp / "folder.yaml", ["--out", str(tmp / "out")]


def _stem_is_not_a_name(tmp):
    return write(tmp, "boards: [8]\n", "my experiment.yaml"), ["--out", str(tmp / "out")]


def _alias_bomb(tmp):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    return write(tmp, "\n".join(lines) + "\nboards: [8]\n"), ["--out", str(tmp / "out")]


def _too_large(tmp):
    return write(tmp, "boards: [8]\n" + "# padding\n" * 200_000), ["--out", str(tmp / "out")]


# (file text, or a function of the test's folder giving (file, more arguments)), then what the
# line must say besides the file's name: the key path, or the line and column of broken YAML.
BAD_INPUTS = {
    # the file itself
    "empty": ("", ["is empty"]),
    "only-a-comment": ("# boards: [8]\n", ["is empty"]),
    "missing": (_missing_file, ["no such file"]),
    "a-folder": (_a_folder, ["is a folder"]),
    "not-utf8": (b"boards: [8]\nname: caf\xe9\n", ["not UTF-8 text at line 2"]),
    "utf16": ("boards: [8]\n".encode("utf-16"), ["not UTF-8"]),
    "too-large": (_too_large, ["too large"]),
    "broken-flow": ("boards: [8\n", ["not valid YAML", "line 2, column 1"]),
    "bad-indent": ("boards: [8]\n  seeds: 1\n", ["not valid YAML", "line 2"]),
    "two-documents": ("boards: [8]\n---\nboards: [16]\n", ["line 2, column 1", "single document"]),
    "control-character": ("boards: [8]\nname: a\x07b\n", ["line 2", "#x0007"]),
    "tab-indent": ("boards: [8]\nga:\n\tpopulation: 20\n", ["line 3, column 1", "tab"]),
    "tab-in-value": ("boards:\t[8]\n", ["line 1, column 8", "tab"]),
    "a-list": ("- boards: [8]\n", ["the file must be a mapping"]),
    "a-scalar": ("boards\n", ["the file must be a mapping, got 'boards'"]),
    # YAML that must build nothing
    "alias-bomb": (_alias_bomb, ["line 2", "alias"]),
    "an-alias": ("boards: [8]\nga: &g {population: 20}\nvariants: {v: *g}\n", ["line 3", "alias (*g)"]),
    "python-name": ("boards: [8]\nga: !!python/name:os.system\n", ["line 2", "python/name"]),
    "python-tuple": ("boards: !!python/tuple [8]\n", ["line 1", "python/tuple"]),
    "merge-key": ("boards: [8]\nga: {<<: {population: 20}}\n", ["line 2"]),
    "5000-digits": ("boards: [8]\nga: {population: 1" + "0" * 5000 + "}\n", ["line 2", "!!int"]),
    "bad-float-tag": ("boards: [!!float eight]\n", ["line 1", "!!float"]),
    "bad-bool-tag": ("boards: [8]\nga: {population: !!bool maybe}\n", ["line 2", "!!bool"]),
    # keys
    "unknown-key": ("bords: [8]\n", ["bords is not a known key (did you mean boards?)"]),
    "unknown-ga-key": ("boards: [8]\nga: {populaton: 20}\n",
                       ["ga.populaton", "did you mean population?"]),
    "unknown-stop-key": ("boards: [8]\nga: {stop: {generation: 5}}\n",
                         ["ga.stop.generation", "did you mean generations?"]),
    "int-key": ("boards: [8]\n8: 1\n", ["8 is not a known key"]),
    "bool-key": ("boards: [8]\ntrue: 1\n", ["true is not a known key"]),
    "null-key": ("boards: [8]\nga: {~: 1}\n", ["ga.null is not a known key"]),
    "list-key": ("boards: [8]\n? [a]\n: 1\n", ["the file has a list or mapping as a key", "line 2"]),
    "newline-key": ('boards: [8]\n"a\\nb": 1\n', ["'a\\nb' is not a known key"]),
    "repeated-key": ("boards: [8]\nboards: [16]\n", ["boards is given twice", "line 2"]),
    "repeated-ga-key": ("boards: [8]\nga:\n  population: 20\n  population: 30\n",
                        ["ga.population is given twice", "line 4"]),
    # name, boards, seeds
    "name-with-slash": ("name: a/b\nboards: [8]\n", ["name must be a name of ASCII letters", "'a/b'"]),
    "name-not-ascii": ("name: ñandú\nboards: [8]\n", ["name must be a name of ASCII letters (a to z",
                                                       "'ñandú'"]),
    "name-a-number": ("name: 5\nboards: [8]\n", ["name must be", "got 5"]),
    "stem-not-a-name": (_stem_is_not_a_name, ["name is missing", "'my experiment'"]),
    "no-boards": ("seeds: {first: 1, last: 2}\n", ["boards is missing"]),
    "boards-scalar": ("boards: 8\n", ["boards must be a list", "got 8"]),
    "boards-mapping": ("boards: {8: 1}\n", ["boards must be a list", "got {8: 1}"]),
    "boards-empty": ("boards: []\n", ["boards must be a list", "got []"]),
    "board-0": ("boards: [0]\n", ["boards[0] must be a whole number from 1 to 100,000,000, got 0"]),
    "board-10^9": ("boards: [1000000000]\n", ["boards[0] must be", "got 1000000000"]),
    "board-10^8-ga": ("boards: [100000000]\n", ["boards[0] is 100,000,000, above 10,000,000, the "
                                               "largest board ga takes"]),
    "board-float": ("boards: [8, 16.0]\n", ["boards[1] must be a whole number", "got 16.0"]),
    "board-bool": ("boards: [true]\n", ["boards[0] must be a whole number", "got true"]),
    "board-twice": ("boards: [8, 8]\n", ["boards lists a board twice"]),
    "board-2": ("boards: [2]\n", ["boards[0] is 2, which has no solution"]),
    "board-3": ("boards: [8, 3]\nga: {stop: {target: 0}}\n", ["boards[1] is 3, which has no solution"]),
    "variant-on-board-3": ("boards: [3]\nga: {stop: {target: 1}}\nvariants: {v: {stop: {target: 0}}}\n",
                           ["boards[0] is 3", "v cannot reach 0 attacking pairs"]),
    "seeds-reversed": ("boards: [8]\nseeds: {first: 5, last: 1}\n", ["seeds run from first to last",
                                                                     "first 5 is after last 1"]),
    "seeds-negative": ("boards: [8]\nseeds: {first: -1, last: 5}\n", ["seeds.first must be", "got -1"]),
    "seeds-float": ("boards: [8]\nseeds: {first: 1, last: 100.0}\n", ["seeds.last must be", "got 100.0"]),
    "seeds-extra-key": ("boards: [8]\nseeds: {first: 1, last: 5, step: 2}\n",
                        ["seeds.step is not a known key"]),
    "seeds-a-list": ("boards: [8]\nseeds: [1, 100]\n", ["seeds must be a mapping", "got [1, 100]"]),
    "seeds-too-many": ("boards: [8]\nseeds: {first: 0, last: 1000000000000}\n",
                       ["seeds must be at most 1,000,000 seeds"]),
    "file-seeds-bad-despite---seeds": ("boards: [8]\nseeds: {first: 1, last: -2}\n",
                                       ["seeds.last must be", "got -2"], ["--seeds", "1..2"]),
    "file-output-bad-despite---out": ("boards: [8]\noutput: [a]\n", ["output must be a folder path"]),
    # the GA
    "ga-null": ("boards: [8]\nga:\n", ["ga must be a mapping of GA settings, or none, got null"]),
    "ga-a-list": ("boards: [8]\nga: [20, 20]\n", ["ga must be a mapping"]),
    "nothing-to-run": ("boards: [8]\nga: none\n", ["ga is none and there are no baselines"]),
    "population-0": ("boards: [8]\nga: {population: 0}\n",
                     ["ga.population must be a whole number from 1 to 100,000, got 0"]),
    "population-20.0": ("boards: [8]\nga: {population: 20.0}\n", ["ga.population must be", "got 20.0"]),
    "population-bool": ("boards: [8]\nga: {population: true}\n", ["ga.population must be", "got true"]),
    "population-string": ("boards: [8]\nga: {population: '20'}\n", ["ga.population must be", "got '20'"]),
    "offspring-10^30": ("boards: [8]\nga: {offspring: 1000000000000000000000000000000}\n",
                        ["ga.offspring must be a whole number from 1 to 100,000"]),
    "mu,lambda-too-few-children": ("boards: [8]\nga: {scheme: 'mu,lambda', offspring: 10}\n",
                                   ["ga.offspring must be at least population (20) with scheme mu,lambda", "got 10"]),
    "scheme-unknown": ("boards: [8]\nga: {scheme: mu-lambda}\n",
                       ["ga.scheme must be one of mu+lambda, mu,lambda, simple, got 'mu-lambda'"]),
    "ties-unknown": ("boards: [8]\nga: {ties: children-first}\n", ["ga.ties must be one of"]),
    "stop-a-list": ("boards: [8]\nga: {stop: [0, 100]}\n", ["ga.stop must be a mapping"]),
    "target-negative": ("boards: [8]\nga: {stop: {target: -1}}\n", ["ga.stop.target must be", "got -1"]),
    "generations-over": ("boards: [8]\nga: {stop: {generations: 1000000001}}\n",
                         ["ga.stop.generations must be a whole number from 0 to 1,000,000,000"]),
    "tournament-0": ("boards: [8]\nga: {select: {tournament: 0}}\n",
                     ["ga.select.tournament must be a whole number from 1 to 1,000, got 0"]),
    "tournament-2.0": ("boards: [8]\nga: {select: {tournament: 2.0}}\n",
                       ["ga.select.tournament must be", "got 2.0"]),
    "tournament-unnamed": ("boards: [8]\nga: {select: tournament}\n",
                           ["ga.select must be {tournament: SIZE} or uniform or {deap: NAME, ...} or "
                            "{function: PATH, ...}, got 'tournament'"]),
    "tournament-misspelt": ("boards: [8]\nga: {select: {tournamnt: 2}}\n",
                            ["ga.select.tournamnt is not a known key (did you mean tournament?)"]),
    "uniform-with-size": ("boards: [8]\nga: {select: {uniform: 2}}\n", ["ga.select must be"]),
    "two-crossovers": ("boards: [8]\nga: {crossover: {pmx: 0.5, ordered: 0.5}}\n",
                       ["ga.crossover must be none or pmx or ordered or {pmx: CXPB} or "
                        "{ordered: CXPB} or {deap: NAME, ...}"]),
    "pmx-1.5": ("boards: [8]\nga: {crossover: {pmx: 1.5}}\n",
                ["ga.crossover.pmx must be a number from 0 to 1, got 1.5"]),
    "pmx-10^400": ("boards: [8]\nga: {crossover: {pmx: 1" + "0" * 400 + "}}\n",
                   ["ga.crossover.pmx must be a number from 0 to 1, got a number of 401 digits"]),
    "pmx-nan": ("boards: [8]\nga: {crossover: {pmx: .nan}}\n", ["ga.crossover.pmx must be", "got nan"]),
    "mutation-unknown": ("boards: [8]\nga: {mutation: flip}\n",
                         ["ga.mutation must be {swap: COUNT} or {shuffle: INDPB} or "
                          "{deap: NAME, ...} or {function: PATH, ...}, got 'flip'"]),
    "swap-string": ("boards: [8]\nga: {mutation: {swap: '1'}}\n",
                    ["ga.mutation.swap must be", "got '1'"]),
    "shuffle-0": ("boards: [8]\nga: {mutation: {shuffle: 0}}\n",
                  ["ga.mutation.shuffle must be a number above 0 to 1, got 0"]),
    # DEAP's operators, a user's, and settings that do not apply
    "engine-unknown": ("boards: [8]\nga: {engine: torch}\n", ["ga.engine must be one of numpy, deap"]),
    "fitness-unknown": ("boards: [8]\nga: {fitness: queens}\n", ["ga.fitness must be one of pairs, excess"]),
    "deap-misspelt": ("boards: [8]\nga: {mutation: {deap: mutShuffleIndex, indpb: 0.1}}\n",
                      ["ga.mutation.deap 'mutShuffleIndex' names no mutation function",
                       "did you mean mutShuffleIndexes?"]),
    "deap-wrong-kind": ("boards: [8]\nga: {mutation: {deap: cxOrdered}}\n",
                        ["ga.mutation.deap 'cxOrdered' names no mutation function of deap.tools"]),
    "deap-missing-argument": ("boards: [8]\nga: {mutation: {deap: mutShuffleIndexes}}\n",
                              ["ga.mutation.deap", "missing a required argument: 'indpb'"]),
    "deap-unexpected-argument": ("boards: [8]\nga: {select: {deap: selTournament, tournsize: 3, size: 2}}\n",
                                 ["ga.select.deap", "unexpected keyword argument 'size'"]),
    "deap-name-a-number": ("boards: [8]\nga: {select: {deap: 5}}\n",
                           ["ga.select.deap must be the name of a function of deap.tools, got 5"]),
    "deap-argument-not-a-name": ("boards: [8]\nga: {survivors: {deap: selBest, 1: 2}}\n",
                                 ["ga.survivors.1 is not an argument name"]),
    "deap-and-function": ("boards: [8]\nga: {mutation: {deap: mutShuffleIndexes, function: 'a:b'}}\n",
                          ["ga.mutation gives both deap and function"]),
    "function-not-a-path": ("boards: [8]\nga: {mutation: {function: os.system}}\n",
                            ["ga.mutation.function 'os.system' must be an import path"]),
    "function-not-importable": ("boards: [8]\nga: {mutation: {function: 'no_such_module_x:f'}}\n",
                                ["ga.mutation.function", "cannot import no_such_module_x:f",
                                 "ModuleNotFoundError"]),
    "deap-operator-breaks-permutations": ("boards: [8]\nga: {mutation: {deap: mutFlipBit, indpb: 0.1}}\n",
                                          ["ga.mutation.deap 'mutFlipBit', tried once, does not keep "
                                           "a genome a permutation"]),
    "deap-argument-of-a-wrong-type": ("boards: [8]\nga: {select: {deap: selTournament, tournsize: a}}\n",
                                      ["ga.select.deap 'selTournament', tried once, raises TypeError"]),
    "cxpb-without-crossover": ("boards: [8]\nga: {cxpb: 0.5}\n",
                               ["ga.cxpb does not apply: there is no crossover"]),
    "mutpb-under-each": ("boards: [8]\nga: {mutpb: 0.5}\n",
                         ["ga.mutpb does not apply: variation each mutates every child"]),
    "ties-under-simple": ("boards: [8]\nga: {scheme: simple, ties: parents-first}\n",
                          ["ga.ties does not apply"]),
    "select-under-or": ("boards: [8]\nga: {variation: or, select: uniform}\n",
                        ["ga.select does not apply: variation or picks its parents uniformly"]),
    "variant-gives-what-does-not-apply": ("boards: [8]\nvariants: {v: {scheme: simple, offspring: 10}}\n",
                                          ["variants.v.offspring does not apply"]),
    "or-over-1": ("boards: [8]\nga: {variation: or, crossover: pmx, cxpb: 0.6, mutpb: 0.6}\n",
                  ["ga.mutpb must be at most 1 - cxpb (0.4) with variation or, got 0.6"]),
    "rate-twice": ("boards: [8]\nga: {crossover: {pmx: 0.5}, cxpb: 0.6}\n", ["ga.cxpb is given twice"]),
    "target-null": ("boards: [8]\nga: {stop: {target: ~}}\n",
                    ["ga.stop.target must be a whole number >= 0, or none, got null"]),
    "target-None": ("boards: [8]\nga: {stop: {target: None}}\n", ["ga.stop.target must be", "got 'None'"]),
    "survivors-best-sized": ("boards: [8]\nga: {survivors: {best: 2}}\n", ["ga.survivors must be best or"]),
    "baseline-ga": ("boards: [8]\nbaselines: [ga]\n",
                    ["baselines.ga is not a known baseline: the GA is set by ga: and variants:"]),
    "plugin-not-importable": ("boards: [8]\nbaselines: {mine: {plugin: no_such_module_x.solver}}\n",
                              ["baselines.mine.plugin cannot be imported", "ModuleNotFoundError"]),
    "plugin-not-an-algorithm": ("boards: [8]\nbaselines: {mine: {plugin: json}}\n",
                                ["baselines.mine.plugin (json) lacks run, Settings, UNIT"]),
    "plugin-path-a-number": ("boards: [8]\nbaselines: {mine: {plugin: 5}}\n",
                             ["baselines.mine.plugin must be an import path"]),
    "variant-and-baseline-same-name": ("boards: [8]\nvariants: {mine: {}}\n"
                                       "baselines: {mine: {plugin: gaqueens.baselines.construction}}\n",
                                       ["baselines.mine is also the name of a GA variant"]),
    "board-1-target-none": ("boards: [1]\nga: {stop: {target: none, generations: 5}}\n",
                            ["boards[0] is 1 and ga has stop.target none"]),
    "too-many-runs": ("boards: [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]\n"
                      "seeds: {first: 1, last: 1000000}\n",
                      ["seeds with its 1 algorithms and 11 boards make 11,000,000 runs, more than "
                       "10,000,000"]),
    # variants
    "variants-a-list": ("boards: [8]\nvariants: [uniform]\n", ["variants must be a mapping"]),
    "variant-named-ga": ("boards: [8]\nvariants: {ga: {}}\n", ["variants.ga is not a variant name"]),
    "variant-named-1": ("boards: [8]\nvariants: {1: {}}\n", ["variants.1 is not a variant name"]),
    "variant-a-scalar": ("boards: [8]\nvariants: {v: 5}\n", ["variants.v must be a mapping of GA settings, got 5"]),
    "variant-unknown-key": ("boards: [8]\nvariants: {v: {populaton: 3}}\n",
                            ["variants.v.populaton", "did you mean population?"]),
    "variant-bad-value": ("boards: [8]\nvariants: {v: {select: {tournament: 0}}}\n",
                          ["variants.v.select.tournament must be"]),
    "variant-mu,lambda": ("boards: [8]\nga: {scheme: 'mu,lambda', offspring: 40}\n"
                          "variants: {v: {offspring: 10}}\n",
                          ["variants.v.offspring must be at least population (20) with scheme mu,lambda, got 10"]),
    # baselines
    "baselines-a-scalar": ("boards: [8]\nbaselines: test-walk\n",
                           ["baselines must be a list of baselines, or a mapping", "'test-walk'"]),
    "baseline-unknown": ("boards: [8]\nbaselines: [test-wlak]\n",
                         ["baselines.test-wlak is not a known baseline (did you mean test-walk?)"]),
    "baseline-a-number": ("boards: [8]\nbaselines: [1]\n", ["baselines[0] must be a baseline's name"]),
    "baseline-twice": ("boards: [8]\nbaselines: [test-walk, test-walk]\n",
                       ["baselines lists a baseline twice"]),
    "baseline-settings-a-list": ("boards: [8]\nbaselines: {test-walk: [1]}\n",
                                 ["baselines.test-walk must be a mapping"]),
    "baseline-unknown-key": ("boards: [8]\nbaselines: {test-walk: {budgit: 5}}\n",
                             ["baselines.test-walk.budgit", "did you mean budget?"]),
    "baseline-budget-0": ("boards: [8]\nbaselines: {test-walk: {budget: 0}}\n",
                          ["baselines.test-walk.budget must be a whole number from 1 to", "got 0"]),
    "baseline-max-board-0": ("boards: [8]\nbaselines: {test-walk: {max-board: 0}}\n",
                             ["baselines.test-walk.max-board must be a whole number"]),
    "baseline-on-board-2": ("boards: [2]\nga: none\nbaselines: [test-walk]\n",
                            ["boards[0] is 2", "test-walk cannot reach 0 attacking pairs"]),
    # reference
    "reference-board-not-run": ("boards: [8]\nreference: {16: 729}\n",
                                ["reference.16 must name one of boards [8]"]),
    "reference-board-a-word": ("boards: [8]\nreference: {eight: 100}\n", ["reference.eight must name"]),
    "reference-board-bool": ("boards: [1]\nreference: {true: 100}\n", ["reference.true must name"]),
    "reference-board-float": ("boards: [8]\nreference: {8.0: 100}\n", ["reference.8.0 must name"]),
    "reference-0": ("boards: [8]\nreference: {8: 0}\n", ["reference.8 must be a median", "got 0"]),
    "reference-inf": ("boards: [8]\nreference: {8: .inf}\n", ["reference.8 must be", "got inf"]),
    "reference-a-list": ("boards: [8]\nreference: [100]\n", ["reference must be a mapping"]),
    "reference-without-ga": ("boards: [8]\nga: none\nbaselines: [test-walk]\nreference: {8: 100}\n",
                             ["reference gives published GA medians, but ga is none"]),
    # output
    "output-a-number": ("boards: [8]\noutput: 5\n", ["output must be a folder path, got 5"]),
    "output-blank": ("boards: [8]\noutput: ' '\n", ["output must be a folder path"]),
    "output-nul": ('boards: [8]\noutput: "a\\0b"\n', ["output must be a folder path"]),
    "output-a-file": (_output_is_a_file, ["output", "is a file, expected a folder"]),
    "output-under-a-file": (_output_under_a_file, ["output", "cannot be written"]),
    "output-too-long": (_output_path_too_long, ["output", "cannot be a folder"]),
    "--out-a-file": (_out_is_a_file, ["--out", "is a file, expected a folder"]),
}


@pytest.mark.parametrize("case", BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_bad_input_is_refused_in_one_line_before_any_run(case, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a default output, results/<name>, would land here
    given_input, says, *more = case
    if callable(given_input):
        path, args = given_input(tmp_path)
    else:
        path, args = write(tmp_path, given_input), ["--out", str(tmp_path / "out")]
    before = sorted(tmp_path.rglob("*"))
    line = refused(capsys, sweep.main, [str(path), *args, *(more[0] if more else []), "--quiet"])
    assert line.startswith(f"error: {path}: ")
    for words in says:
        assert words in line
    assert sorted(tmp_path.rglob("*")) == before, "nothing is written"


def test_at_least_thirty_distinct_bad_inputs():
    assert len(BAD_INPUTS) >= 30
    assert len({repr(case[0]) for case in BAD_INPUTS.values()}) == len(BAD_INPUTS), "each is distinct"


def test_an_output_folder_that_cannot_be_written_is_refused(tmp_path, capsys, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.geteuid() == 0:  # root may write anywhere: deny it this folder
        access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: (
            not (Path(path) == locked and mode & os.W_OK) and access(path, mode, **kw)))
    try:
        path = write(tmp_path, f"boards: [8]\noutput: {quoted(locked / 'out')}\n")
        line = refused(capsys, sweep.main, [str(path), "--quiet"])
        assert f"{path}: output" in line and "cannot be written" in line
        assert not (locked / "out").exists()
    finally:
        locked.chmod(0o700)


def test_a_file_name_with_a_line_break_still_gives_one_line(tmp_path, capsys):
    path = write(tmp_path, "bords: [8]\n", "two\nlines.yaml")
    line = refused(capsys, sweep.main, [str(path), "--out", str(tmp_path / "out")])
    assert "two\\nlines.yaml" in line and "bords is not a known key" in line


def test_the_alias_bomb_is_refused_without_expanding(tmp_path, capsys):
    path, args = _alias_bomb(tmp_path)
    line = refused(capsys, sweep.main, [str(path), *args])  # expanded, it would fill memory
    assert "alias" in line


@pytest.mark.parametrize("where", ["{}", "boards: [8]\nga: {}", "boards: [8]\nname: {}"])
def test_a_python_tag_executes_nothing(where, tmp_path, capsys):
    marker = tmp_path / "SOMEFILE"
    tag = f'!!python/object/apply:os.system ["touch {marker}"]'
    path = write(tmp_path, where.format(tag) + "\n")
    line = refused(capsys, sweep.main, [str(path), "--out", str(tmp_path / "out")])
    assert "python/object/apply:os.system" in line
    assert not marker.exists()


def test_load_raises_bad_input_naming_the_key_path(tmp_path):
    with pytest.raises(BadInput, match=r"ga\.select\.tournament must be .*, got 0$"):
        load(write(tmp_path, "boards: [8]\nga: {select: {tournament: 0}}\n"))


# ---- the command lines ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, says",
    [
        (["--seeds", "5..1"], "--seeds run from first to last"),
        (["--seeds", "x"], "--seeds must be FIRST..LAST"),
        (["--seeds", "-1..5"], "--seeds: expected one argument"),
        (["--seeds=-1..5"], "--seeds must be FIRST..LAST"),
        (["--seeds", "1..99999999999999999999999"], "--seeds must be FIRST..LAST"),
        (["--seeds", "1..9999999999999999999"], "--seeds must end at a whole number"),
        (["--seeds", "0..1000000"], "--seeds must be at most 1,000,000 seeds"),
        (["--workers", "0"], "--workers must be a whole number >= 1"),
        (["--workers", "x"], "--workers"),
        (["--no-such-option"], "unrecognized arguments"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_bad_sweep_options_are_refused_in_one_line(args, says, tmp_path, capsys):
    path = write(tmp_path, "boards: [8]\n")
    line = refused(capsys, sweep.main, [str(path), "--out", str(tmp_path / "out"), *args])
    assert says in line
    assert not (tmp_path / "out").exists()


def test_no_file_is_a_usage_error(capsys):
    assert "file" in refused(capsys, sweep.main, [])


def test_good_seeds_parse():
    assert parse_seeds("1..100") == (1, 100)
    assert parse_seeds(" 7 .. 7 ") == (7, 7)


@pytest.mark.parametrize(
    "args, says",
    [
        (["--board", "2"], "--board 2 has no solution"),
        (["--board", "0"], "--board must be a whole number from 1 to"),
        (["--board", "8", "--seed", "-1"], "--seed must be"),
        (["--board", "8", "--algorithm", "no-such"], "--algorithm"),
        (["--board", "x"], "--board"),
    ],
)
def test_bad_run_options_are_refused_in_one_line(args, says, capsys):
    assert says in refused(capsys, run.main, args)


def test_run_refuses_a_bad_file_in_one_line(tmp_path, capsys):
    path = write(tmp_path, "boards: [8]\nga: {population: 0}\n")
    line = refused(capsys, run.main, ["--board", "8", str(path)])
    assert f"{path}: ga.population must be" in line


@pytest.mark.parametrize(
    "text, args",
    [
        ("boards: [8\n", []),
        (None, []),
        ("boards: [8]\n", ["--workers", "x"]),
    ],
    ids=["broken-yaml", "missing-file", "bad-option"],
)
def test_no_traceback_reaches_the_user(text, args, tmp_path):
    path = tmp_path / "x.yaml"
    if text is not None:
        path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "gaqueens.sweep", str(path), *args], cwd=tmp_path,
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert sorted(tmp_path.iterdir()) == ([path] if text is not None else [])


# ---- every documented range, at its edges --------------------------------------------------


# what makes a setting apply (GaSettings: a setting that does not apply is refused)
CONTEXT = {"cxpb": {"crossover": "pmx"}, "mutpb": {"variation": "and"}}


def _ga(field: str, value):
    if field in ("target", "generations"):
        return {"ga": {"stop": {field: value}}}, f"ga.stop.{field}"
    return {"ga": {**CONTEXT.get(field, {}), field: value}}, f"ga.{field}"


def _ranged_settings():
    """(id, the owner's docstring, field name, allowed values, place) for every setting with a
    recorded range: ``place(value)`` gives the file's data and the key path."""
    cases = []
    for f in dataclasses.fields(GaSettings):
        if f.name == "problem":
            continue  # the file's, not the ga's: problem: at the top
        rule = OneOf(problems.get("nqueens").measures) if f.name == "fitness" else allowed(f)
        if rule:
            cases.append((_ga(f.name, None)[1], _setting_doc(GaSettings, f.name), f.name, rule,
                          lambda value, name=f.name: _ga(name, value)))
        kind = f.metadata.get("operator")
        for name, builtin in BUILTINS[kind].items() if kind else ():
            for p in builtin.parameters:
                key = f"ga.{f.name}.{name}"
                cases.append((key, _parameter_doc(builtin, p.name), p.name, p.allowed,
                              lambda value, f=f.name, name=name, key=key: (
                                  _ga(f, {name: value})[0], key)))
    for name, algorithm in {**ALGORITHMS, **FAKES}.items():
        if algorithm.settings is GaSettings:
            continue
        for f in dataclasses.fields(algorithm.settings):
            key = f.name.replace("_", "-")
            cases.append((f"baselines.{name}.{key}", _setting_doc(algorithm.settings, f.name), f.name,
                          allowed(f), lambda value, name=name, key=key: (
                              {"ga": "none", "baselines": {name: {key: value}}},
                              f"baselines.{name}.{key}")))
    cases.append((f"baselines.test-walk.{MAX_BOARD_KEY}", None, MAX_BOARD_KEY, BOARDS,
                  lambda value: ({"boards": [1, 8], "baselines": {"test-walk": {MAX_BOARD_KEY: value}}},
                                 f"baselines.test-walk.{MAX_BOARD_KEY}")))
    return cases


def _parameter_doc(builtin, name: str) -> str:
    """What a built-in operator's doc says of its parameter ``name``."""
    lines = builtin.doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split(" ", 1)[0] == name)
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


def _setting_doc(cls, name: str) -> str:
    """What the docstring of the class declaring the field ``name`` says of it: the lines that
    start with its name (as a field or a key) and those indented under them, if any; else the
    whole docstring."""
    owner = next(c for c in cls.__mro__ if name in vars(c).get("__annotations__", {}))
    lines = (inspect.getdoc(owner) or "").splitlines()
    names = (name, name.replace("_", "-"))
    start = next((i for i, line in enumerate(lines) if line.split(" ", 1)[0] in names), None)
    if start is None:
        return "\n".join(lines)
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


RANGED = _ranged_settings()


def _written(value) -> str:
    """A value as a refusal quotes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else repr(value)


def _edges(range_) -> list[tuple[object, bool]]:
    """(value, whether it loads) at and beyond the edges of an allowed range."""
    if isinstance(range_, Whole):
        edges = [(range_.minimum, True), (range_.minimum - 1, False), (True, False), (False, False),
                 (float(max(range_.minimum, 1)), False), (str(max(range_.minimum, 1)), False)]
        if range_.maximum is not None:
            edges += [(range_.maximum, True), (range_.maximum + 1, False), (float(range_.maximum), False)]
        return edges
    if isinstance(range_, Number):
        low, high = range_.minimum, range_.maximum
        edges = [(high, True), (high + 1e-9, False), (low - 1e-9, False), (math.nan, False),
                 (math.inf, False), (True, False), (str(high), False)]
        if range_.open_minimum:
            return edges + [(low, False), (low + 1e-9, True)]
        return edges + [(low, True)]
    if isinstance(range_, OneOf):
        return [(choice, True) for choice in range_.choices] + [
            (range_.choices[0].upper(), False), ("", False), (None, False), (1, False)]
    raise AssertionError(f"no edges known for {range_!r}")


def test_every_setting_records_its_allowed_values():
    missing = [case[0] for case in RANGED if case[3] is None]
    assert not missing, f"settings without ranges.setting(default, allowed): {missing}"


@pytest.mark.parametrize("case", RANGED, ids=[case[0] for case in RANGED])
def test_each_range_is_enforced_at_its_edges(case, tmp_path):
    _, _, _, range_, place = case
    for value, loads in _edges(range_):
        data, key = place(value)
        path = write(tmp_path, yaml.safe_dump({"boards": [8], **data}, sort_keys=False))
        if loads:
            assert isinstance(load(path, output=tmp_path / "out"), Experiment), value
        else:
            with pytest.raises(BadInput) as refusal:
                load(path, output=tmp_path / "out")
            assert str(refusal.value) == f"{path}: {key} must be {range_.expected}, got {_written(value)}"


def _number_forms(number) -> set[str]:
    forms = {f"{number:g}", str(number)}
    if isinstance(number, int):
        forms.add(f"{number:,}")
        if number >= 1000 and str(number).strip("0") == "1":
            forms.add(f"10^{len(str(number)) - 1}")
    return forms


@pytest.mark.parametrize("case", [c for c in RANGED if c[1] is not None], ids=lambda c: c[0])
def test_each_docstring_gives_the_range_it_checks(case):
    label, doc, name, range_, _ = case
    if isinstance(range_, OneOf):
        needed = [{choice} for choice in range_.choices]
    elif isinstance(range_, Whole):
        needed = [_number_forms(range_.minimum)] + ([_number_forms(range_.maximum)]
                                                    if range_.maximum is not None else [])
    else:
        needed = [_number_forms(range_.minimum), _number_forms(range_.maximum)]
    for forms in needed:
        assert any(form in doc for form in forms), f"{label}: the docstring names none of {forms}"


# ---- random damage never gives a traceback -------------------------------------------------

VALID = textwrap.dedent("""\
    name: fuzz
    boards: [8, 16]
    seeds: {first: 1, last: 10}
    ga:
      population: 20
      offspring: 20
      scheme: mu+lambda
      select: {tournament: 2}
      crossover: none
      mutation: {swap: 1}
      ties: offspring-first
      stop: {target: 0, generations: 50000}
    variants:
      uniform: {select: uniform}
      pmx: {crossover: {pmx: 0.5}, mutation: {shuffle: 0.1}}
    baselines: {test-walk: {budget: 100, max-board: 8}, test-build: }
    reference: {8: 100, 16: 729}
    output: OUT
    """)
TOKENS = [
    "9" * 5000, "!!python/object/apply:os.system ['true']", "&a ", "*a", "\t", "---", "{", "}",
    "[", "]", ": ", "- ", "? [a]\n: b", "!!float x", "!!int x", "<<: {a: 1}", "\x00", "\u2028",
    "\ufeff", "~", ".nan", "-.inf", "0x1F", "1_000", "2001-12-14", "!!binary aGk=", "'", '"', "#",
    "%YAML 1.1\n", "|\n", ">\n", "\n  ", "\xe9", "-1", "1e400", "none", "true",
]
KEYS = ["name", "boards", "seeds", "first", "last", "ga", "population", "stop", "select",
        "tournament", "variants", "baselines", "max-board", "reference", "output", "test-walk"]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**40), 10**40), st.floats(), st.text(max_size=12),
    st.sampled_from(["none", "uniform", "mu,lambda", "parents-first", "test-walk", ""]),
)
YAML_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(KEYS) | SCALARS.filter(lambda k: not isinstance(k, float)), inner, max_size=4),
    max_leaves=8,
)


def _text_edit(draw, text: str) -> str:
    where = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["delete", "insert", "token", "replace", "swap-lines", "repeat-line"]))
    if kind == "delete":
        return text[:where] + text[where + draw(st.integers(1, 20)):]
    if kind == "insert":
        return text[:where] + draw(st.text(min_size=1, max_size=8)) + text[where:]
    if kind == "token":
        return text[:where] + draw(st.sampled_from(TOKENS)) + text[where:]
    if kind == "replace":
        return text[:where] + draw(st.characters()) + text[where + 1:]
    lines = text.split("\n")
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    if kind == "swap-lines":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines[i])
    return "\n".join(lines)


def _places(data, path=()):
    """Every (container, key) in nested data."""
    places = []
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = list(enumerate(data))
    else:
        return places
    for key, value in items:
        places.append((data, key))
        places += _places(value, (*path, key))
    return places


@st.composite
def damaged(draw, output: str) -> str:
    text = VALID.replace("OUT", output)
    if draw(st.booleans()):  # change the structure, then write it back as YAML
        data = yaml.safe_load(text)
        for _ in range(draw(st.integers(1, 3))):
            container, key = draw(st.sampled_from(_places(data)))
            action = draw(st.sampled_from(["replace", "add-key", "delete"]))
            if action == "replace":
                container[key] = draw(YAML_VALUES)
            elif action == "add-key" and isinstance(container[key], dict):
                container[key][draw(st.sampled_from(KEYS) | st.text(max_size=8))] = draw(YAML_VALUES)
            elif action == "delete" and len(_places(data)) > 1:
                del container[key]
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=draw(st.booleans()))
    for _ in range(draw(st.integers(0 if text != VALID else 1, 4))):
        text = _text_edit(draw, text)
    return text


@settings(max_examples=400, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_damage_loads_or_is_refused_in_one_line(data, tmp_path):
    path = tmp_path / "fuzz.yaml"
    text = data.draw(damaged(str(tmp_path / "out")))
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        experiment = load(path, output=tmp_path / "out")
    except BadInput as refusal:
        message = str(refusal)
        assert message.startswith(f"{path}: ") and len(message.splitlines()) == 1, message
    else:
        assert isinstance(experiment, Experiment)
        tasks = experiment.tasks()  # what loads has work to do, on its own boards and entries
        assert tasks and {name for name, _, _ in tasks} <= {e.name for e in experiment.entries}
        assert {board for _, board, _ in tasks} <= set(experiment.boards)
