"""A plug-in's mistakes read as the plug-in's (the README's "Extending"): what it returned or
lacks, what was expected, and which plug-in; refused when it loads where that can be known then
(exit status 2), a fault (exit status 3, one line) where it shows only as it runs or imports.

The plug-ins here are small modules written into each test's folder: a module's name is the
test case's, as a process imports a module once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from gaqueens import problems, sweep
from gaqueens.core.algorithms import Algorithm
from gaqueens.core.registry import PluginError
from gaqueens.core.result import Result
from gaqueens.experiment import BadInput, load
from gaqueens.runtime.execution import execute

PROBLEM = textwrap.dedent("""\
    import numpy as np
    from gaqueens.problems import Problem


    class Mine(Problem):
        name, title = "NAME", "A problem of the tests"
        measures, conflicts_label = ("repeats",), "repeated gaps"

        def evaluate(self, size, genomes, measure):
            gaps = np.sort(np.abs(np.diff(genomes, axis=1)), axis=1)
            return (gaps[:, 1:] == gaps[:, :-1]).sum(axis=1)

        def reject(self, size, solution, conflicts, solved, solved_at, measure):
            return None
    EXTRA

    PROBLEM = Mine()
    """)
SOLVER = textwrap.dedent("""\
    from dataclasses import dataclass

    import numpy as np

    from gaqueens.core.result import Result

    UNIT = "moves"
    EXTRA


    @dataclass(frozen=True)
    class Settings:
        steps: int = 10


    def run(settings, board, seed):
        return Result(solved=True, conflicts=0, work=1, solution=np.arange(board))
    """)


def module(folder: Path, name: str, text: str) -> str:
    (folder / f"{name}.py").write_text(text)
    return name


def unique(request, kind: str) -> str:
    """A module name of this test case's own."""
    case = getattr(request.node, "callspec", None)
    return f"{kind}_{re.sub(r'[^0-9a-zA-Z]+', '_', case.id if case else request.node.name)}".lower()


def problem_file(folder: Path, name: str) -> Path:
    path = folder / "x.yaml"
    path.write_text(f"problem: {{plugin: {name}}}\nboards: [6]\nseeds: {{first: 1, last: 2}}\n")
    return path


# ---- what can be known when a plug-in loads: refused, naming it -----------------------------

BAD_PROBLEMS = {
    "measures-a-string": (("EXTRA", "    measures = 'repeats'"), "has measures 'repeats', expected a tuple"),
    "measures-empty": (("EXTRA", "    measures = ()"), "has measures (), expected a tuple"),
    "measures-twice": (("EXTRA", "    measures = ('a', 'a')"), "expected a tuple of distinct names"),
    "name-empty": (("NAME", ""), "has name '', expected ASCII letters"),
    "name-spaced": (("NAME", "two words"), "has name 'two words'"),
    "title-a-number": (("EXTRA", "    title = 5"), "has title 5, expected text"),
    "label-none": (("EXTRA", "    conflicts_label = None"), "has conflicts_label None, expected text"),
    "no-evaluate": (("def evaluate", "def other"), "lacks evaluate"),
    "no-reject": (("def reject", "def other2"), "lacks reject"),
    "not-a-problem": (("PROBLEM = Mine()", "PROBLEM = 'mine'"), "is not a problem: a str"),
    "no-PROBLEM": (("PROBLEM = Mine()", "ANSWER = Mine()"), "has no PROBLEM"),
    "named-nqueens": (("NAME", "nqueens"), "is named 'nqueens', as gaqueens.problems.nqueens"),
}


@pytest.mark.parametrize("case", BAD_PROBLEMS.values(), ids=BAD_PROBLEMS.keys())
def test_a_problem_that_breaks_the_interface_is_refused_when_it_loads(case, tmp_path, request,
                                                                      monkeypatch):
    (old, new), says = case
    text = PROBLEM.replace(old, new).replace("NAME", "mine").replace("EXTRA", "")
    name = module(tmp_path, unique(request, "problem"), text)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BadInput) as refused:
        load(problem_file(tmp_path, name))
    line = str(refused.value)
    assert "\n" not in line and f"problem.plugin ({name})" in line and says in line, line


BAD_SOLVERS = {
    "unit-a-number": ('UNIT = "moves"', "UNIT = 5", "has UNIT 5, expected its unit of work as text"),
    "problems-a-string": ("EXTRA", "PROBLEMS = 'nqueens'", "has PROBLEMS 'nqueens', expected a tuple"),
    "problems-empty": ("EXTRA", "PROBLEMS = ()", "has PROBLEMS (), expected a tuple"),
    "deterministic-text": ("EXTRA", "DETERMINISTIC = 'no'", "has DETERMINISTIC 'no', expected True"),
    "permutation-number": ("EXTRA", "PERMUTATION = 1", "has PERMUTATION 1, expected True or False"),
    "memory-a-number": ("EXTRA", "memory = 5", "has a memory that is not a function"),
    "run-a-number": ("def run(settings, board, seed):", "run = 5\ndef other(settings, board, seed):",
                     "has a run that is not a function"),
    "settings-without-default": ("steps: int = 10", "steps: int", "Settings fields without a default (steps)"),
    "settings-not-a-dataclass": ("@dataclass(frozen=True)\nclass Settings:", "class Settings:",
                                 "has a Settings that is not a dataclass"),
    "no-unit": ('UNIT = "moves"', "", "lacks UNIT"),
}


@pytest.mark.parametrize("case", BAD_SOLVERS.values(), ids=BAD_SOLVERS.keys())
def test_a_solver_that_breaks_the_interface_is_refused_when_it_loads(case, tmp_path, request,
                                                                     monkeypatch):
    old, new, says = case
    name = module(tmp_path, unique(request, "solver"), SOLVER.replace(old, new).replace("EXTRA", ""))
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "x.yaml"
    path.write_text(f"boards: [6]\nga: none\nbaselines: {{mine: {{plugin: {name}}}}}\n")
    with pytest.raises(BadInput) as refused:
        load(path)
    line = str(refused.value)
    assert "\n" not in line and f"baselines.mine.plugin ({name})" in line and says in line, line


def test_a_problem_given_as_a_class_is_made_once_and_kept(tmp_path, request, monkeypatch):
    name = module(tmp_path, unique(request, "problem"),
                  PROBLEM.replace("NAME", "made-once").replace("EXTRA", "")
                  .replace("PROBLEM = Mine()", ""))
    monkeypatch.syspath_prepend(str(tmp_path))
    made = problems.plugin(f"{name}:Mine")
    assert isinstance(made, problems.Problem) and made.name == "made-once"
    assert problems.get(problems.locator(made)) is made
    assert problems.locator(made) == f"{name}:Mine"


# ---- what shows only as a plug-in runs: a PluginError naming it -------------------------------


class Returns(problems.Problem):
    """A problem whose evaluate returns what it is given to return."""

    name, measures = "returns", ("m",)

    def __init__(self, value):
        self.value = value

    def evaluate(self, size, genomes, measure):
        return self.value(len(genomes))

    def reject(self, *claims):
        return None


WRONG_VALUES = {
    "a column": (lambda n: np.zeros((n, 1), dtype=np.int64), "returned an array of shape (4, 1)"),
    "too few": (lambda n: np.zeros(n - 1, dtype=np.int64), "returned an array of shape (3,)"),
    "a number": (lambda n: 3, "returned an array of shape ()"),
    "floats": (lambda n: np.ones(n), "returned float64 values;"),
    "NaN": (lambda n: np.full(n, np.nan), "returned float64 values with NaN"),
    "negative": (lambda n: -np.arange(n), "returned a negative value (-3)"),
    "text": (lambda n: np.array(["a"] * n), "returned <U1 values"),
}


@pytest.mark.parametrize("case", WRONG_VALUES.values(), ids=WRONG_VALUES.keys())
def test_what_evaluate_returns_is_checked_on_every_call(case):
    value, says = case
    problem = Returns(value)
    genomes = np.array([np.random.default_rng(s).permutation(5) for s in range(4)])
    for call in (problem.fitness(5), lambda g: problem.conflicts(5, g)):
        with pytest.raises(PluginError) as raised:
            call(genomes)
        line = str(raised.value)
        assert line.startswith("the problem returns (test_plugin_mistakes.Returns): evaluate on "
                               "4 genomes of size 5, measure m, ") and says in line, line
        assert "expected shape (4,), whole numbers >= 0" in line


def test_right_values_pass_unchanged_and_are_counted():
    problem = Returns(lambda n: np.arange(n, dtype=np.uint8))
    fitness = problem.fitness(5)
    values = fitness(np.zeros((4, 5), dtype=np.int64))
    assert values.tolist() == [0, 1, 2, 3] and fitness.evaluations == 4
    assert fitness(np.zeros((0, 5), dtype=np.int64)).tolist() == [] and fitness.evaluations == 4


def _returning(value):
    def run(settings, board, seed):
        return value(board)

    return Algorithm(run, Settings, "moves", source="my_solver")


class Settings:
    pass


WRONG_RESULTS = {
    "None": (lambda n: None, "returned NoneType None, expected a gaqueens.core.result.Result"),
    "a dict": (lambda n: {"solved": True}, "returned dict {'solved': True}, expected"),
    "short": (lambda n: Result(False, 1, 1, np.arange(n - 1)), "solution has 7 entries, expected 8"),
    "no solution": (lambda n: Result(False, 1, 1, None), "solution is a NoneType, expected 8 entries"),
    "negative work": (lambda n: Result(True, 0, -1, np.arange(n)), "work -1, expected a whole number"),
    "float conflicts": (lambda n: Result(True, 0.0, 1, np.arange(n)), "conflicts 0.0, expected"),
    "solved as text": (lambda n: Result("yes", 0, 1, np.arange(n)), "solved 'yes', expected True"),
}


@pytest.mark.parametrize("case", WRONG_RESULTS.values(), ids=WRONG_RESULTS.keys())
def test_what_a_solver_returns_is_checked_before_it_is_timed_and_stored(case):
    value, says = case
    with pytest.raises(PluginError) as raised:
        execute(_returning(value), Settings(), 8, 3)
    line = str(raised.value)
    assert line.startswith("the algorithm my_solver: run on board 8, seed 3, returned ")
    assert says in line, line


def test_a_right_result_gets_its_seconds():
    done = execute(_returning(lambda n: Result(np.bool_(True), np.int64(0), 5, np.arange(n))),
                   Settings(), 8, 3)
    assert done.work == 5 and done.seconds >= 0


# ---- end to end: the line a user reads ---------------------------------------------------------


def sweep_in(folder: Path, file: Path, *options) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
           "CI": "true"}
    return subprocess.run([sys.executable, "-m", "gaqueens.sweep", str(file), "--out",
                           str(folder / "out"), "--quiet", *options], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=240)


@pytest.mark.parametrize("how", ["import sys\nsys.exit(0)\n", "raise SystemExit('bye')\n",
                                 "raise KeyboardInterrupt\n"])
@pytest.mark.parametrize("kind", ["problem", "solver"])
def test_a_plugin_that_exits_or_interrupts_as_it_is_imported_is_a_fault_naming_it(how, kind,
                                                                                  tmp_path):
    module(tmp_path, "leaving", how)
    file = problem_file(tmp_path, "leaving") if kind == "problem" else tmp_path / "x.yaml"
    if kind == "solver":
        file.write_text("boards: [6]\nga: none\nbaselines: {mine: {plugin: leaving}}\n")
    done = sweep_in(tmp_path, file)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 3 and len(lines) == 1, done.stderr
    raised = "KeyboardInterrupt()" if "Keyboard" in how else (
        "SystemExit(0)" if "exit(0)" in how else "SystemExit('bye')")
    assert f"the plug-in leaving raised {raised} while it was imported" in lines[0]
    assert not (tmp_path / "out").exists()


def test_a_wrong_evaluate_stops_the_sweep_naming_the_problem(tmp_path):
    """The two seeds' populations are evaluated in one call (engine: numpy's batch)."""
    text = PROBLEM.replace("NAME", "columns").replace("EXTRA", "").replace(
        "return (gaps[:, 1:] == gaps[:, :-1]).sum(axis=1)",
        "return (gaps[:, 1:] == gaps[:, :-1]).sum(axis=1)[:, None]")
    module(tmp_path, "columns", text)
    done = sweep_in(tmp_path, problem_file(tmp_path, "columns"), "--workers", "1")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 3 and len(lines) == 1, done.stderr
    assert ("the problem columns (columns.Mine): evaluate on 40 genomes of size 6, measure "
            "repeats, returned an array of shape (40, 1); expected shape (40,)") in lines[0]
    assert "too many values to unpack" not in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_solver_returning_none_stops_the_sweep_naming_it(workers, tmp_path):
    module(tmp_path, "nothing", SOLVER.replace("EXTRA", "").replace(
        "return Result(solved=True, conflicts=0, work=1, solution=np.arange(board))",
        "return None"))
    file = tmp_path / "x.yaml"
    file.write_text("boards: [6]\nseeds: {first: 1, last: 2}\nga: none\n"
                    "baselines: {mine: {plugin: nothing}}\n")
    done = sweep_in(tmp_path, file, "--workers", workers)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 3 and len(lines) == 1, done.stderr
    assert ("the algorithm nothing: run on board 6, seed 1, returned NoneType None, expected a "
            "gaqueens.core.result.Result") in lines[0]
    assert "replace() should be called" not in done.stderr
