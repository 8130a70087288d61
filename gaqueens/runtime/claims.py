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

Many rows or runs at once (``rows_problems``, ``each_row_problem``, ``runs_problems``: a
sweep's batches, its runs.csv, verify, the exports) are checked in bulk, a group of one
algorithm and board at a time, the claims by the problem's ``reject_many`` (N-Queens': the
numpy verifier's rejection_rows); a row the bulk checks do not pass is checked alone by
``row_problem`` (``run_problem``), so every answer is the one-by-one answer
(tests/test_verify.py checks it on rows altered at random).
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


def claims(algorithm: algorithms.Algorithm, settings, problem: str = problems.DEFAULT) -> Claims:
    """The claims of runs of ``algorithm`` with these settings (a settings object) on
    ``problem`` (a GA's settings name their own)."""
    return Claims(algorithm.unit, algorithm.permutation, getattr(settings, "solved_at", 0),
                  getattr(settings, "fitness", None) or problems.get(problem).measures[0],
                  getattr(settings, "problem", problem))


def entry_claims(entries) -> dict[str, Claims]:
    """Per entry of an experiment, by the name its runs are stored by."""
    return {entry.name: claims(entry.runner, entry.settings, entry.problem) for entry in entries}


def stored_algorithm(name: str, settings: dict) -> tuple[str, algorithms.Algorithm]:
    """The algorithm of an entry known only by its name and its settings as the store and the
    manifest record them (gaqueens/experiment/settings_yaml.py), told apart as a file's reader tells
    them: a plug-in by its import path, a baseline by its name, else a GA. Raises
    Unknown for a plug-in that is not installed here."""
    if "plugin" in settings:
        return name, algorithms.plugin(str(settings["plugin"]))
    try:
        return name, algorithms.find(name, "baseline")
    except Unknown:
        return "ga", algorithms.ALGORITHMS["ga"]


def stored_claims(name: str, settings: dict) -> Claims:
    """The claims of an entry known only by its name and its recorded settings, on the
    problem they record (N-Queens where they record none)."""
    algorithm, spec = stored_algorithm(name, settings)
    problem = str(settings.get("problem", problems.DEFAULT))
    first = problems.get(problem).measures[0]
    if algorithm != "ga":
        return Claims(spec.unit, spec.permutation, 0, first, problem)
    stop = settings.get("stop", {})
    target = stop.get("target", 0) if isinstance(stop, dict) else 0
    fitness = settings.get("fitness") or first
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


def runs_problems(rule: Claims, board: int, results) -> list[str | None]:
    """``run_problem`` of each of a batch's (seed, Result) pairs on one board, in order: the
    placements checked together (in range, permutations where the rule says so, the claims by
    the problem's reject_many), any that the bulk check does not pass one by one, so that
    every answer is run_problem's own."""
    out: list[str | None] = [None] * len(results)
    alone = range(len(results))
    try:
        rows = np.array([np.asarray(r.solution) for _, r in results], dtype=np.int64)
    except (ValueError, TypeError, OverflowError):
        rows = None
    if results and rows is not None and rows.ndim == 2 and rows.shape[1] == board:
        conflicts = np.array([r.conflicts for _, r in results], dtype=np.int64)
        solved = np.array([bool(r.solved) for _, r in results], dtype=bool)
        good = _confirmed(rows, board, conflicts, solved, rule)
        alone = np.flatnonzero(~good).tolist()
    for i in alone:
        result = results[i][1]
        out[i] = run_problem(rule, result.solution, board, result.conflicts, result.solved)
    return out


def _confirmed(rows: np.ndarray, board: int, conflicts, solved, rule: Claims) -> np.ndarray:
    """Which rows (genomes of ``board`` entries) certainly pass run_problem: each entry in
    0..board-1, a permutation where the rule says so, and the claims confirmed by the problem's
    reject_many, which sees only the rows that passed the rest."""
    good = ((rows >= 0) & (rows < board)).all(axis=1) if board else np.ones(len(rows), bool)
    if rule.permutation and board:
        good &= (np.sort(rows, axis=1) == np.arange(board)).all(axis=1)
    kept = np.flatnonzero(good)
    if len(kept):
        found = problems.get(rule.problem).reject_many(
            board, rows[kept], conflicts[kept], solved[kept], rule.solved_at, rule.fitness)
        good[kept] = np.array([problem is None for problem in found], dtype=bool)
    return good


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
    return [f"{algorithm} on board {board}, seed {seed}: {problem}"
            for algorithm, board, seed, problem in zip(runs["algorithm"], runs["board"],
                                                       runs["seed"], each_row_problem(runs, rules))
            if problem]


def each_row_problem(runs, rules: dict[str, Claims]) -> list[str | None]:
    """Per row of ``runs`` (a DataFrame with the columns of runs.csv), in order, what the
    verifier finds wrong with it (``row_problem``; for a row whose algorithm has no rule, that
    it is not one of the experiment's), or None. The rows are checked in bulk, a group of one
    algorithm and board at a time (``passing``); only those the bulk checks do not pass are
    checked one by one, so the answers are row_problem's own."""
    out: list[str | None] = [None] * len(runs)
    alone = np.flatnonzero(~passing(runs, rules))
    for i, row in zip(alone, runs.iloc[alone].itertuples(index=False)):
        rule = rules.get(row.algorithm)
        out[i] = ("its algorithm is not one of the experiment's" if rule is None
                  else row_problem(row, rule))
    return out


NUMERIC = ("board", "seed", "conflicts", "work", "generations", "seconds")


def passing(runs, rules: dict[str, Claims]) -> np.ndarray:
    """Which rows of ``runs`` certainly pass ``row_problem`` (a mask), checked in bulk per
    algorithm and board: their unit, numbers, solved, placement (parsed as ``placement``
    parses it) and the claims recounted by the problem's reject_many on every row at once
    (N-Queens': the numpy verifier's rejection_rows, the very function its ``reject`` applies
    to one). A row left False may still pass: ``each_row_problem`` checks it alone."""
    count = len(runs)
    ok = np.zeros(count, dtype=bool)
    needed = (*NUMERIC, "algorithm", "unit", "solved")
    if not count or any(c not in runs.columns for c in needed) or any(
            runs[c].dtype.kind not in "iuf" for c in NUMERIC):
        return ok
    numbers_ok = np.ones(count, dtype=bool)
    for column in NUMERIC:
        values = runs[column].to_numpy(dtype=float)
        numbers_ok &= np.isfinite(values) & (values >= 0)
    solved = runs["solved"].to_numpy()
    if solved.dtype.kind in "iub":  # True, False, or 0 and 1 as the store keeps them
        numbers_ok &= (solved == 0) | (solved == 1)
    else:
        numbers_ok &= np.array([isinstance(v, (bool, np.bool_)) for v in solved], dtype=bool)
    solved = np.array([v is True or v == 1 for v in solved], dtype=bool) if (
        solved.dtype.kind not in "iub") else solved.astype(bool)
    boards = runs["board"].to_numpy()
    conflicts = runs["conflicts"].to_numpy()
    whole = (boards == np.round(boards)) & (conflicts == np.round(conflicts))
    algorithms, units = runs["algorithm"].to_numpy(), runs["unit"].to_numpy()
    texts = runs["solution"].to_numpy(dtype=object) if "solution" in runs.columns else None
    groups = runs.groupby(["algorithm", "board"], sort=False).indices
    for places in groups.values():
        rule = rules.get(algorithms[places[0]])
        if rule is None:
            continue
        good = numbers_ok[places] & whole[places] & (units[places] == rule.unit)
        if texts is not None:
            good &= _placements_pass(texts[places], int(boards[places[0]]),
                                     conflicts[places].astype(np.int64), solved[places], rule)
        else:
            first = problems.get(rule.problem).measures[0]
            if rule.fitness == first:
                good &= solved[places] == (conflicts[places] <= rule.solved_at)
        ok[places] = good
    return ok


def _placements_pass(texts, board: int, conflicts, solved, rule: Claims) -> np.ndarray:
    """Which placements of a group of one board certainly pass run_problem: parsed as
    ``placement`` parses them (split, then whole numbers), then ``_confirmed``; all False where
    a placement is not ``board`` whole numbers."""
    try:
        tokens = [str(text).split() for text in texts]
        if any(len(each) != board for each in tokens):
            return np.zeros(len(texts), dtype=bool)
        rows = np.array([column for each in tokens for column in each],
                        dtype=np.int64).reshape(len(texts), board)
    except (ValueError, OverflowError):
        return np.zeros(len(texts), dtype=bool)
    return _confirmed(rows, board, conflicts, solved, rule)
