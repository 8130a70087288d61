"""The independent verifier (gaqueens.board) applied to a run's claims, as a sweep stores the
run, as the exports write it, and as ``python -m gaqueens.verify`` reads it back.

A run passes when:

- its placement has N columns, each a whole number from 0 to N-1 (a queen per row, on the
  board);
- the placement is a permutation of 0..N-1 (a queen per column too), for every algorithm but
  min-conflicts, whose queens may share a column until it solves
  (gaqueens/baselines/min_conflicts.py);
- its conflicts are the attacking pairs the verifier counts, and it is solved exactly when they
  are at most its target (0 unless an experiment sets the GA another), a solution then passing
  the verifier's own test (board.rejection);
- its unit of work is its algorithm's (gaqueens/registry.py).

A row without its placement (a compact runs file) is checked for the last two only.
"""

from __future__ import annotations

import math
import numbers

from gaqueens.board import rejection
from gaqueens.registry import ALGORITHMS

SHARED_COLUMNS = frozenset({"min-conflicts"})  # queens may share a column until solved


class Invalid(Exception):
    """A stored run, or a file exported from the runs, fails the verifier: the store or the
    file was altered, or a bug wrote it."""


def algorithm_of(name: str) -> str:
    """The algorithm behind the name runs are stored by: its own, or "ga" for a GA variant
    (whose name cannot be an algorithm's: gaqueens/experiment/reader.py)."""
    return name if name in ALGORITHMS else "ga"


def targets(entries) -> dict[str, int]:
    """The conflicts at which each entry of an experiment counts a run solved."""
    return {entry.name: getattr(entry.settings, "target", 0) for entry in entries}


def placement(text) -> list[int] | None:
    """A placement as runs.csv and the store write it (columns separated by spaces), or None
    when it is not a list of whole numbers."""
    try:
        return [int(column) for column in str(text).split()]
    except ValueError:
        return None


def run_problem(name: str, columns, board: int, conflicts: int, solved: bool,
                target: int = 0) -> str | None:
    """What the verifier finds wrong with a run's placement and claims, or None."""
    columns = [int(c) for c in columns]
    if len(columns) != board:
        return f"its placement has {len(columns)} columns on a board of {board}"
    if columns and not 0 <= min(columns) <= max(columns) < board:
        return f"its placement has a column outside 0 to {board - 1}"
    if algorithm_of(name) not in SHARED_COLUMNS and len(set(columns)) != board:
        return f"its placement is not a permutation of 0 to {board - 1}"
    return rejection(columns, board, conflicts, solved, target)


def row_problem(row, target: int) -> str | None:
    """What the verifier finds wrong with a row of runs (a namedtuple with the columns of
    runs.csv; ``solution`` may be missing), or None."""
    unit = ALGORITHMS[algorithm_of(row.algorithm)].unit
    if row.unit != unit:
        return f"its unit is {row.unit!r}, {algorithm_of(row.algorithm)} counts {unit!r}"
    for column in ("board", "seed", "conflicts", "evaluations", "generations", "seconds"):
        value = getattr(row, column)
        if not (isinstance(value, numbers.Real) and math.isfinite(value) and value >= 0):
            return f"its {column} is {value!r}, expected a number >= 0"
    if row.solved not in (True, False):
        return f"its solved is {row.solved!r}, expected True or False"
    if not hasattr(row, "solution"):
        if bool(row.solved) != (row.conflicts <= target):
            return f"it reports {row.conflicts} conflicts and solved: {bool(row.solved)}"
        return None
    columns = placement(row.solution)
    if columns is None:
        return "its placement is not a list of whole numbers"
    return run_problem(row.algorithm, columns, int(row.board), int(row.conflicts),
                       bool(row.solved), target)


def rows_problems(runs, targets_by_name: dict[str, int]) -> list[str]:
    """A line per row of ``runs`` (a DataFrame with the columns of runs.csv) that the verifier
    rejects, naming the run."""
    problems = []
    for row in runs.itertuples(index=False):
        target = targets_by_name.get(row.algorithm)
        if target is None:
            problem = "its algorithm is not one of the experiment's"
        else:
            problem = row_problem(row, target)
        if problem:
            problems.append(f"{row.algorithm} on board {row.board}, seed {row.seed}: {problem}")
    return problems
