"""The problem's independent verifier (its ``reject``: for N-Queens
gaqueens.problems.nqueens.verifier) applied to a run's claims, as a sweep stores the run, as
the exports write it, and as ``python -m gaqueens.verify`` reads it back.

What a run of an entry may claim (``Claims``) comes from the entry: its problem, its
algorithm's unit of work, whether its genomes are permutations (every algorithm's but
min-conflicts', whose queens may share a column until it solves:
gaqueens/baselines/min_conflicts.py, and a plug-in that says PERMUTATION = False), and for a
GA the fitness at or below which a run is solved (its target, 0 with target none) and which
measure it is (N-Queens: pairs or excess). A run passes when:

- its genome has N entries, each a whole number from 0 to N-1, and is a permutation of 0..N-1
  where its algorithm keeps permutations;
- the problem's verifier confirms its conflicts and that it is solved exactly when its
  fitness, recounted, is at most its target;
- its unit of work is its algorithm's.

A row without its genome (a compact runs file) is checked for the last two only, solved
against its conflicts.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

import gaqueens.baselines  # noqa: F401  (registers the built-in solvers)
import gaqueens.ga  # noqa: F401  (registers the GA)
from gaqueens import problems
from gaqueens.core import algorithms
from gaqueens.core.errors import Rejected
from gaqueens.core.registry import Unknown
from gaqueens.ga import UNIT as GA_UNIT


class Invalid(Rejected):
    """A stored run, or a file exported from the runs, fails the verifier: the store or the
    file was altered, or a bug wrote it."""


@dataclass(frozen=True)
class Claims:
    """What a run may claim: its unit, whether its genome is a permutation, the fitness at or
    below which it is solved, that fitness's measure, and its problem."""

    unit: str
    permutation: bool = True
    solved_at: int = 0
    fitness: str = "pairs"
    problem: str = problems.DEFAULT


def claims(algorithm: algorithms.Algorithm, settings) -> Claims:
    """The claims of runs of ``algorithm`` with these settings (a settings object)."""
    return Claims(algorithm.unit, algorithm.permutation, getattr(settings, "solved_at", 0),
                  getattr(settings, "fitness", "pairs"),
                  getattr(settings, "problem", problems.DEFAULT))


def entry_claims(entries) -> dict[str, Claims]:
    """Per entry of an experiment, by the name its runs are stored by."""
    return {entry.name: claims(entry.runner, entry.settings) for entry in entries}


def stored_algorithm(name: str, settings: dict) -> tuple[str, algorithms.Algorithm]:
    """The algorithm of an entry known only by its name and its settings as the store and the
    manifest record them (gaqueens/experiment/written.py), told apart as a file's reader tells
    them: a plug-in by its import path, a baseline by its name, else a GA. Raises
    Unknown for a plug-in that is not installed here."""
    if "plugin" in settings:
        return name, algorithms.plugin(str(settings["plugin"]))
    try:
        return name, algorithms.find(name, "baseline")
    except Unknown:
        return "ga", algorithms.ALGORITHMS["ga"]


def stored_claims(name: str, settings: dict) -> Claims:
    """The claims of an entry known only by its name and its recorded settings."""
    algorithm, spec = stored_algorithm(name, settings)
    if algorithm != "ga":
        return Claims(spec.unit, spec.permutation)
    stop = settings.get("stop", {})
    target = stop.get("target", 0) if isinstance(stop, dict) else 0
    problem = str(settings.get("problem", problems.DEFAULT))
    fitness = settings.get("fitness") or problems.get(problem).measures[0]
    return Claims(GA_UNIT, True, 0 if target == "none" else int(target), str(fitness), problem)


def placement(text) -> list[int] | None:
    """A placement as runs.csv and the store write it (columns separated by spaces), or None
    when it is not a list of whole numbers."""
    try:
        return [int(column) for column in str(text).split()]
    except ValueError:
        return None


def own_best(conflicts: int, solution, fitness: str, problem: str = problems.DEFAULT) -> int | None:
    """A GA run's own best in its fitness measure, as its trace counts: its ``conflicts``
    (what runs report) where it minimises the problem's conflicts, else its genome's measure
    recounted by the verifier (N-Queens: the excess); None for a genome that cannot be read."""
    solved_by = problems.get(problem)
    if fitness == solved_by.measures[0]:
        return int(conflicts)
    columns = placement(solution)
    return None if columns is None else solved_by.measured(len(columns), columns, fitness)


def run_problem(rule: Claims, columns, board: int, conflicts: int, solved: bool) -> str | None:
    """What the verifier finds wrong with a run's placement and claims, or None."""
    columns = np.asarray(columns)  # numpy, not a Python list: 10^8 columns would take 10 GB
    if not np.issubdtype(columns.dtype, np.integer):
        columns = np.array([int(c) for c in columns], dtype=np.int64)
    if len(columns) != board:
        return f"its placement has {len(columns)} columns on a board of {board}"
    if len(columns) and not 0 <= columns.min() <= columns.max() < board:
        return f"its placement has a column outside 0 to {board - 1}"
    if rule.permutation and not _every_column(columns, board):
        return f"its placement is not a permutation of 0 to {board - 1}"
    return problems.get(rule.problem).reject(board, columns, conflicts, solved, rule.solved_at,
                                             rule.fitness)


def _every_column(columns: np.ndarray, board: int) -> bool:
    """Whether the columns (each in 0..board-1) hold every column of the board."""
    seen = np.zeros(board, dtype=bool)
    seen[columns] = True
    return bool(seen.all())


def row_problem(row, rule: Claims) -> str | None:
    """What the verifier finds wrong with a row of runs (a namedtuple with the columns of
    runs.csv; ``solution`` may be missing), or None."""
    if row.unit != rule.unit:
        return f"its unit is {row.unit!r}, its algorithm counts {rule.unit!r}"
    for column in ("board", "seed", "conflicts", "work", "generations", "seconds"):
        value = getattr(row, column)
        if not (isinstance(value, numbers.Real) and math.isfinite(value) and value >= 0):
            return f"its {column} is {value!r}, expected a number >= 0"
    if row.solved not in (True, False):
        return f"its solved is {row.solved!r}, expected True or False"
    if not hasattr(row, "solution"):
        first = problems.get(rule.problem).measures[0]
        if rule.fitness == first and bool(row.solved) != (row.conflicts <= rule.solved_at):
            return f"it reports {row.conflicts} conflicts and solved: {bool(row.solved)}"
        return None
    columns = placement(row.solution)
    if columns is None:
        return "its placement is not a list of whole numbers"
    return run_problem(rule, columns, int(row.board), int(row.conflicts), bool(row.solved))


def rows_problems(runs, rules: dict[str, Claims]) -> list[str]:
    """A line per row of ``runs`` (a DataFrame with the columns of runs.csv) that the verifier
    rejects, naming the run."""
    problems = []
    for row in runs.itertuples(index=False):
        rule = rules.get(row.algorithm)
        if rule is None:
            problem = "its algorithm is not one of the experiment's"
        else:
            problem = row_problem(row, rule)
        if problem:
            problems.append(f"{row.algorithm} on board {row.board}, seed {row.seed}: {problem}")
    return problems
