"""An experiment, validated: its boards, seeds and algorithms (each an Entry), and the runs
they make."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from gaqueens.experiment.settings_yaml import settings_to_yaml
from gaqueens import problems
from gaqueens.core import algorithms
from gaqueens.core.algorithms import Algorithm
from gaqueens.ga.operators import Operator


@dataclass(frozen=True)
class Entry:
    """One algorithm of an experiment with its settings, under the name its runs are stored
    by: the algorithm's own name, or a GA variant's."""

    name: str
    algorithm: str
    settings: object
    max_board: int | None = None
    plugin: str | None = None  # the import path of a plug-in named by one
    spec: Algorithm | None = field(default=None, compare=False, repr=False)
    same_as: str | None = None  # a grid cell with the settings of this entry shares its runs
    problem: str = problems.DEFAULT  # the problem its runs solve (problems.locator's)

    def runs_on(self, board: int) -> bool:
        return self.max_board is None or board <= self.max_board

    @property
    def runner(self) -> Algorithm:
        """The algorithm that makes this entry's runs."""
        return self.spec or algorithms.find(self.algorithm)

    @property
    def plugins(self) -> tuple[str, ...]:
        """The plug-in modules its runs load: a plug-in algorithm's own, its problem's, and the
        GA's operators given by import path ({function: "package.module:name"}); what each
        of them imports is recorded with them (gaqueens.runtime.plugin_code)."""
        found = [self.runner.source] if self.runner.source else []
        problem = problems.source(getattr(self.settings, "problem", self.problem))
        found += [problem] if problem else []
        if dataclasses.is_dataclass(self.settings):
            found += [value.target.partition(":")[0]
                      for value in (getattr(self.settings, f.name)
                                    for f in dataclasses.fields(self.settings))
                      if isinstance(value, Operator) and value.name == "function"]
        return tuple(sorted(set(found)))


@dataclass(frozen=True)
class Grid:
    """An experiment's grid: its setting paths, the values of each, and its cells, each the name
    of its entry and its value of each path, in the order of the paths."""

    values: tuple[tuple[str, tuple], ...] = ()
    cells: tuple[tuple[str, tuple], ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(path for path, _ in self.values)


@dataclass(frozen=True)
class Experiment:
    name: str
    source: str
    boards: tuple[int, ...]
    seeds: tuple[int, int]
    entries: tuple[Entry, ...]
    reference: dict
    output: Path
    overrides: tuple[str, ...] = ()  # the --set PATH=VALUE changes made to the file
    grid: Grid = Grid()
    problem: str = problems.DEFAULT  # the problem every entry's runs solve

    def tasks(self) -> list[tuple[str, int, int]]:
        """Every (algorithm, board, seed) the experiment runs; a deterministic algorithm runs
        once per board, with the first seed."""
        first, last = self.seeds
        tasks = []
        for entry in self.entries:
            seeds = [first] if entry.runner.deterministic else range(first, last + 1)
            tasks += [(entry.name, b, s) for b in self.boards if entry.runs_on(b) for s in seeds]
        return tasks

    def shared(self) -> dict[str, str]:
        """The entries that share the runs of another (a grid cell with the ga's settings, or
        a variant's): name -> the entry whose runs it shares. A run depends on its settings and
        seed alone, so those runs are made once and stored under both names."""
        return {entry.name: entry.same_as for entry in self.entries if entry.same_as}

    def entry(self, name: str) -> Entry:
        return next(entry for entry in self.entries if entry.name == name)

    def resolved(self) -> dict:
        """The whole experiment with every default filled in, in the file's own terms."""
        return {
            "name": self.name,
            **({"problem": self.problem} if self.problem != problems.DEFAULT else {}),
            "boards": list(self.boards),
            "seeds": {"first": self.seeds[0], "last": self.seeds[1]},
            "algorithms": {entry.name: settings_to_yaml(entry) for entry in self.entries},
            "reference": {int(board): value for board, value in self.reference.items()},
            "output": str(self.output),
            **({"grid": {path: list(values) for path, values in self.grid.values}}
               if self.grid.values else {}),
            **({"overrides": list(self.overrides)} if self.overrides else {}),
        }
