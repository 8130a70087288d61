"""Experiment files: YAML in, validated settings out, before any run starts.

The keys, each optional but ``boards``:

    name: n8                     # default: the file's stem; ASCII letters, digits, - _ .
    problem: nqueens             # the default; or a plug-in's name, or {plugin: package.module}
    boards: [8]                  # one or more board sizes, 1 to 10^7
    seeds: {first: 1, last: 100} # inclusive, >= 0, at most 10^6 of them; the default
    ga: {...}                    # GaSettings, the published ones by default; or none
    variants: {name: {...}}      # more GAs beside it, each the ga's settings with these changed
    grid: {path: [values]}       # every combination of these ga settings, each a variant
    baselines: [local-search]    # or {backtracking: {budget: 10000000}}; default: none
    reference: {8: 100}          # published medians of the GA, per board; default: none
    output: results/n8           # default: results/<name>

Anything wrong is a ``BadInput`` whose message is one line naming the file, the key path and
what is expected (the YAML itself is read by ``yaml_file``).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

from gaqueens import problems
from gaqueens.core.registry import Unknown
from gaqueens.core.files import folder_problem
from gaqueens.experiment.baseline_keys import BOARDS, board_problem, read_baselines
from gaqueens.experiment.checker import Checker
from gaqueens.experiment.ga_keys import NAME, NAME_CHARS, read_ga, read_variants
from gaqueens.experiment.grid import read_grid
from gaqueens.experiment.model import Entry, Experiment
from gaqueens.experiment.overrides import apply
from gaqueens.experiment.settings_yaml import MAX_BOARD_KEY
from gaqueens.experiment.yaml_file import BadInput, join, read_yaml, shown
from gaqueens.core.ranges import Whole

TOP_KEYS = ("name", "problem", "boards", "seeds", "ga", "variants", "grid", "baselines",
            "reference", "output")
SEED = Whole(0, 2**63 - 1)
MAX_SEEDS = 1_000_000  # seeds in one sweep: every run is listed before the sweep starts
MAX_RUNS = 10_000_000  # runs in one sweep, all entries, boards and seeds together


def load(path, *, output=None, seeds: tuple[int, int] | None = None,
         overrides: list[str] = ()) -> Experiment:
    """Reads and validates an experiment file; ``output`` and ``seeds`` override the file's
    (which must still be well formed), and ``overrides`` (PATH=VALUE, as --set gives them)
    change its document before it is read."""
    path = Path(path)
    data = apply(read_yaml(path), list(overrides))
    try:
        experiment = _Reader(str(path)).experiment(data, path.stem, output, seeds)
    except BadInput as error:
        if overrides:
            raise BadInput(f"{error} (with --set {' --set '.join(overrides)})") from None
        raise
    return replace(experiment, overrides=tuple(overrides))


def parse_seeds(text: str) -> tuple[int, int]:
    """--seeds FIRST..LAST, inclusive."""
    match = re.fullmatch(r"\s*([0-9]{1,19})\s*\.\.\s*([0-9]{1,19})\s*", text)
    if not match:
        raise BadInput(f"--seeds must be FIRST..LAST with whole numbers >= 0, e.g. 1..100, "
                       f"got {shown(text)}")
    first, last = int(match[1]), int(match[2])
    problem = seeds_problem(first, last)
    if problem:
        raise BadInput(f"--seeds {problem}")
    return first, last


def seeds_problem(first: int, last: int) -> str | None:
    """What is wrong with running seeds first to last, or None."""
    if not SEED.accepts(last):
        return f"must end at {SEED.expected}, got {last}"
    if last < first:
        return f"run from first to last, inclusive: first {first} is after last {last}"
    if last - first >= MAX_SEEDS:
        return f"must be at most {MAX_SEEDS:,} seeds, got {last - first + 1:,}"
    return None


# ---- validation --------------------------------------------------------------------------


class _Reader(Checker):
    # ---- the top level ----

    def experiment(self, data, stem: str, output, seeds) -> Experiment:
        if data is None:
            self.fail("", "is empty, expected a mapping of settings (boards: [8], ...)")
        data = self.mapping("", data, TOP_KEYS)
        name = self.name(data, stem)
        problem = self.problem(data.get("problem", problems.DEFAULT))
        if "boards" not in data:
            self.fail("boards", "is missing: give the board sizes, e.g. boards: [8]")
        boards = self.boards(data["boards"])
        entries = []
        ga = data.get("ga", {})
        if ga != "none":
            entries.append(Entry("ga", "ga", read_ga(self, ga, problem=problem)))
        entries += read_variants(self, data.get("variants", {}), ga, problem)
        cells, grid = read_grid(self, data.get("grid", {}), ga, entries, problem)
        entries += cells
        baselines = read_baselines(self, data.get("baselines", []))
        for entry in baselines:
            if any(entry.name == other.name for other in entries):
                self.fail(f"baselines.{entry.name}", "is also the name of a GA variant: give each "
                          "its own name")
            solves = entry.runner.problems
            if not problems.solves(solves, problem):
                self.fail(f"baselines.{entry.name}", f"solves {', '.join(solves)}, not the "
                          f"problem {problems.get(problem).name}")
        entries = [replace(entry, problem=problem) for entry in entries + baselines]
        if not entries:
            self.fail("ga", "is none and there are no baselines: nothing to run")
        for entry in entries:
            self.solvable(entry, boards, problem)
        reference = self.reference(data.get("reference", {}), boards, entries)
        file_seeds = self.seeds(data.get("seeds", {}))
        first, last = file_seeds if seeds is None else seeds
        runs = sum(sum(entry.runs_on(board) for board in boards)
                   * (1 if entry.runner.deterministic else last - first + 1) for entry in entries)
        if runs > MAX_RUNS:
            self.fail("seeds" if seeds is None else "", f"with its {len(entries)} algorithms and "
                      f"{len(boards)} boards make {runs:,} runs, more than {MAX_RUNS:,}: split the "
                      "experiment")
        file_output = self.output("output", data.get("output", f"results/{name}"), used=output is None)
        return Experiment(
            name=name,
            source=self.file,
            boards=boards,
            seeds=file_seeds if seeds is None else seeds,
            entries=tuple(entries),
            reference=reference,
            output=file_output if output is None else self.output("--out", str(output)),
            grid=grid,
            problem=problem,
        )

    def problem(self, value) -> str:
        """The problem every run solves (gaqueens.problems): a name, an import path, or
        {plugin: PATH}; its locator, which the settings record."""
        if isinstance(value, dict):
            value = self.mapping("problem", value, ("plugin",), "a problem's name or {plugin: PATH}")
            key, value = "problem.plugin", value.get("plugin")
        else:
            key = "problem"
        if not isinstance(value, str) or not value:
            self.expect(key, "a problem's name (nqueens) or {plugin: package.module}", value)
        try:
            found = problems.plugin(value) if key == "problem.plugin" else problems.get(value)
        except Unknown as error:  # a plug-in's shape names it already: "(PATH) lacks ..."
            said = str(error)
            self.fail(key, said if said.startswith(f"({value})") else f"{shown(value)} {said}")
        return problems.locator(found)

    def name(self, data: dict, stem: str) -> str:
        if "name" not in data:
            if not re.fullmatch(NAME, stem):
                self.fail("name", f"is missing and the file's stem {shown(stem)} is not a name "
                          f"of {NAME_CHARS}: add name: to the file")
            return stem
        if not isinstance(data["name"], str) or not re.fullmatch(NAME, data["name"]):
            self.expect("name", f"a name of {NAME_CHARS}", data["name"])
        return data["name"]

    def boards(self, value) -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            self.expect("boards", "a list of board sizes, e.g. [8, 16]", value)
        for i, board in enumerate(value):
            self.check(f"boards[{i}]", BOARDS, board)
        if len(set(value)) != len(value):
            self.fail("boards", f"lists a board twice: {shown(value)}")
        return tuple(value)

    def seeds(self, value) -> tuple[int, int]:
        value = self.mapping("seeds", value, ("first", "last"), "a mapping {first: F, last: L}")
        first = self.check("seeds.first", SEED, value.get("first", 1))
        last = self.check("seeds.last", SEED, value.get("last", 100))
        problem = seeds_problem(first, last)
        if problem:
            self.fail("seeds", problem)
        return first, last

    def output(self, key: str, value, used: bool = True) -> Path:
        """The output folder; the one ``used`` must be, or be able to become, a writable folder."""
        if not isinstance(value, str) or not value.strip() or "\0" in value:
            self.expect(key, "a folder path", value)
        path = Path(value)
        problem = folder_problem(path) if used else None
        if problem:
            self.fail(key, f"{shown(value) if 'cannot be a folder' in problem else value} {problem}")
        return path

    def reference(self, value, boards, entries) -> dict:
        if not isinstance(value, dict):
            self.expect("reference", "a mapping from board to published median, e.g. {8: 100}", value)
        if value and entries[0].name != "ga":
            self.fail("reference", "gives published GA medians, but ga is none")
        for board, median in value.items():
            key = join("reference", board)
            if type(board) is not int or board not in boards:
                self.fail(key, f"must name one of boards {list(boards)}")
            number = isinstance(median, (int, float)) and not isinstance(median, bool)
            if not (number and 0 < median < math.inf):
                self.expect(key, "a median number of evaluations above 0", median)
        return dict(value)

    def solvable(self, entry: Entry, boards, problem: str = problems.DEFAULT):
        """Refuses a size without a solution (N-Queens: boards 2 and 3) to an algorithm that
        must reach 0 conflicts there, and an algorithm whose max-board leaves it no board."""
        if not any(entry.runs_on(board) for board in boards):
            self.fail(f"baselines.{entry.name}.{MAX_BOARD_KEY}", f"is {entry.max_board}, below "
                      f"every board in boards {list(boards)}: {entry.name} would not run")
        target = getattr(entry.settings, "target", 0)
        solved = problems.get(problem)
        for i, board in enumerate(boards):
            if entry.runs_on(board) and board_problem(entry.name, entry.runner, board):
                self.fail(f"boards[{i}]", board_problem(entry.name, entry.runner, board))
            if not solved.has_solution(board) and target == 0 and entry.runs_on(board):
                self.fail(f"boards[{i}]", f"is {board}, which has no solution "
                          f"({no_solution(solved, board)}): {entry.name} cannot reach 0 "
                          f"{solved.conflicts_label}")
            if board == 1 and target is None and entry.runs_on(board):
                self.fail(f"boards[{i}]", f"is 1 and {entry.name} has stop.target none: a genome "
                          "of one entry is solved by the first population, and has nothing to "
                          "vary")


def no_solution(problem, size: int) -> str:
    """That ``problem`` has no solution of this size, in its own words."""
    return f"{problem.title or problem.name} has none on {problem.size_label} {size}"
