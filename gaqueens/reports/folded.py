"""The GA's traces folded one run at a time into what the exports need, so that the exports of
a sweep never hold all its traces at once (a 100,000-run sweep's fill gigabytes as one table):

first rows   each run's first generation, from which tables.summarize measures the first
             populations' attacking pairs
convergence  per (algorithm, board), how many runs had each best conflict count at each
             generation (a stopped run keeps its last best), whose quartiles over seeds are
             those of the seeds-by-generations matrix
runtimes     per run, the evaluations after which its best so far first reached each level
             below its first best, from which runtimes.run_runtimes to the fixed targets follow

The runs come grouped by (algorithm, board), as Store.each gives them. tests/test_folded.py
compares every number with the computations over all the traces at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from gaqueens.ga import UNIT
from gaqueens.runtime.claims import Claims, own_best
from gaqueens.reports import runtimes
from gaqueens.core.result import TRACE_COLUMNS
from gaqueens.runtime.store import Store, unpack

QUARTILES = (0.25, 0.5, 0.75)
CHUNK = 256  # runs of a group held at a time before they are folded into its counts
FIRST_COLUMNS = ("algorithm", "board", "seed", "fitness", *TRACE_COLUMNS)
_MEDIAN = TRACE_COLUMNS.index("median")


@dataclass(frozen=True)
class Line:
    """The convergence of one (algorithm, board): each generation's evaluations and the
    quartiles of the best over seeds."""

    algorithm: str
    board: int
    evaluations: np.ndarray
    low: np.ndarray
    median: np.ndarray
    high: np.ndarray


class _Group:
    """One (algorithm, board) being read, folded CHUNK runs at a time: counts[g, v] runs whose
    best at generation g is v, ended[g, v] runs that stopped at generation g with v as their
    last best, each generation's evaluations (those of the last run still running there), and
    each run's first generation and runtimes below its first best."""

    def __init__(self):
        self.counts = np.zeros((0, 0), dtype=np.int64)
        self.ended = np.zeros((1, 0), dtype=np.int64)
        self.evaluations = np.zeros(0)
        self.seeds, self.fitness, self.first = [], [], []  # per run
        self.below, self.offsets = [], [0]  # per folded run: its runtimes below its first best
        self.pending: list[tuple] = []  # runs not folded yet

    def add(self, evaluations: np.ndarray, best: np.ndarray, final=None) -> None:
        """A run's evaluations and best per generation, and its own best ``final``."""
        self.pending.append((evaluations, best, final))
        if len(self.pending) == CHUNK:
            self.fold()

    def _grow(self, generations: int, width: int) -> None:
        rows, columns = self.counts.shape
        if generations > rows or width > columns:
            shape = (max(rows, generations), max(columns, width))
            for name, extra in (("counts", 0), ("ended", 1)):
                grown = np.zeros((shape[0] + extra, shape[1]), dtype=np.int64)
                old = getattr(self, name)
                grown[:old.shape[0], :old.shape[1]] = old
                setattr(self, name, grown)
            evaluations = np.zeros(shape[0])
            evaluations[:len(self.evaluations)] = self.evaluations
            self.evaluations = evaluations

    def fold(self) -> None:
        """Folds the pending runs into the counts, in one bincount each."""
        if not self.pending:
            return
        spent, bests, finals = zip(*self.pending)
        lengths = np.array([len(best) for best in bests])
        longest = int(lengths.max())
        self._grow(longest, int(max(best.max() for best in bests)) + 1)
        rows, width = self.counts.shape
        generation = np.concatenate([np.arange(length) for length in lengths])
        best = np.concatenate(bests)
        self.counts += np.bincount(generation * width + best,
                                   minlength=rows * width).reshape(rows, width)
        last = np.array([b[-1] for b in bests])
        self.ended += np.bincount(lengths * width + last,
                                  minlength=(rows + 1) * width).reshape(rows + 1, width)
        order = np.argsort(lengths, kind="stable")  # the last run as long or longer, per generation
        latest = np.maximum.accumulate(order[::-1])[::-1]
        place = np.searchsorted(lengths[order], np.arange(longest), side="right")
        starts = np.cumsum(lengths) - lengths
        self.evaluations[:longest] = np.concatenate(spent)[starts[latest[place]]
                                                          + np.arange(longest)]
        values, offsets = runtimes.below_first(spent, bests, finals)
        self.below.append(values)
        self.offsets += (self.offsets[-1] + offsets[1:]).tolist()
        self.pending = []

    def line(self, algorithm: str, board: int) -> Line:
        """The quartiles over seeds of each generation's best, a run that has stopped keeping
        its last best, as np.quantile (linear) gives them over the seeds-by-generations matrix,
        here from the counts of each value at each generation."""
        self.fold()
        longest = int(np.flatnonzero(self.ended.sum(axis=1)).max())  # the longest run's length
        counts = (self.counts + np.cumsum(self.ended, axis=0)[:-1])[:longest]
        runs = int(counts[0].sum())
        cumulative = np.cumsum(counts, axis=1)
        quartiles = np.empty((len(QUARTILES), longest))
        for i, q in enumerate(QUARTILES):
            h = (runs - 1) * q
            below = int(np.floor(h))
            low = (cumulative <= below).sum(axis=1)  # the value of the rank below h
            high = (cumulative <= min(below + 1, runs - 1)).sum(axis=1)
            quartiles[i] = low + (h - below) * (high - low)
        return Line(algorithm, board, self.evaluations[:longest].copy(), *quartiles)


class Folded:
    """What the exports need from the traces, folded by :meth:`add` one run at a time;
    ``order`` lists the algorithms in the order their lines are drawn (others last), boards
    ascending within each. A finished group keeps its runs' first generations and runtimes
    below their first best in arrays."""

    def __init__(self, order=()):
        self.order = list(order)
        self.lines: dict[tuple[str, int], Line] = {}
        self.groups: dict[tuple[str, int], dict] = {}  # arrays per finished group
        self._key = None
        self._group = None

    @property
    def runs(self) -> int:
        self._close()
        return sum(len(group["seeds"]) for group in self.groups.values())

    def add(self, algorithm: str, board: int, seed: int, trace: np.ndarray,
            fitness: str = "pairs", final=None) -> None:
        """One run's trace (rows per generation, TRACE_COLUMNS), after every other run of
        its (algorithm, board) or of an earlier group; ``final`` is the run's own best (its
        conflicts), which runtimes.best_so_far counts at its last generation."""
        key = (algorithm, int(board))
        if key != self._key:
            self._close()
            if key in self.lines:
                raise ValueError(f"the traces of {algorithm} on board {board} come apart: "
                                 "they must be grouped by algorithm and board")
            self._key, self._group = key, _Group()
        trace = np.asarray(trace, dtype=float)
        evaluations = trace[:, 1].astype(np.int64).astype(float)
        best = trace[:, 2].astype(np.int64)
        group = self._group
        group.add(evaluations, best, final)
        group.seeds.append(int(seed))
        group.fitness.append(fitness)
        group.first.append(trace[0])

    def _close(self) -> None:
        group = self._group
        if group is not None:
            self.lines[self._key] = group.line(*self._key)
            self.groups[self._key] = dict(
                seeds=np.array(group.seeds, dtype=np.int64), fitness=group.fitness,
                first=np.vstack(group.first), values=np.concatenate(group.below),
                offsets=np.array(group.offsets))
            self._key = self._group = None

    def keys(self) -> list[tuple[str, int]]:
        """The (algorithm, board) groups, in drawing order."""
        self._close()
        rank = {name: i for i, name in enumerate(self.order)}
        return sorted(self.groups, key=lambda key: (rank.get(key[0], len(rank)), key[1]))

    def first_rows(self) -> pd.DataFrame:
        """Each run's first generation, with FIRST_COLUMNS (TRACE_COLUMNS typed as
        Store.traces gives them), in the order the runs came."""
        self._close()
        groups = list(self.groups.items())
        counts = [len(group["seeds"]) for _, group in groups]
        first = (np.vstack([group["first"] for _, group in groups]) if groups
                 else np.empty((0, len(TRACE_COLUMNS))))
        frame = pd.DataFrame({
            "algorithm": np.repeat(np.array([key[0] for key, _ in groups], dtype=object), counts),
            "board": np.repeat(np.array([key[1] for key, _ in groups], dtype=np.int64), counts),
            "seed": np.concatenate([group["seeds"] for _, group in groups] or [[]]),
            "fitness": [f for _, group in groups for f in group["fitness"]],
            **{column: first[:, i] for i, column in enumerate(TRACE_COLUMNS)},
        }, columns=FIRST_COLUMNS)
        return _typed(frame)

    def fitness(self) -> dict[str, set[str]]:
        """Each algorithm's fitness measures over its runs."""
        self._close()
        measures: dict[str, set[str]] = {}
        for (algorithm, _), group in self.groups.items():
            measures.setdefault(algorithm, set()).update(group["fitness"])
        return measures

    def convergence(self) -> list[Line]:
        """A line per (algorithm, board), in drawing order."""
        return [self.lines[key] for key in self.keys()]

    def runtimes(self, levels):
        """Per (algorithm, board) in drawing order and each fitness measure of its runs, a
        group at a time (the fixed-target plot then holds one group's, not the millions of a
        100,000-run sweep): the key, the measure and the runtimes of every (run, target) pair,
        run after run, as runtimes.runtimes gives them, to the targets ``levels(board,
        measure)`` (highest first): 1 at or above the run's first worst, its first evaluations
        at or above its first best, below that its runtime to the level."""
        for key in self.keys():
            group = self.groups[key]
            for measure, rows in _measures(group):
                yield key, measure, _runtimes(group, rows, levels(key[1], measure))


def _measures(group: dict):
    """Each fitness measure of a group's runs, and the places of its runs."""
    fitness = np.array(group["fitness"], dtype=object)
    return [(measure, np.flatnonzero(fitness == measure))
            for measure in dict.fromkeys(group["fitness"])]


def _runtimes(group: dict, rows: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """The runtimes of the group's runs at ``rows`` to ``targets`` (Folded.runtimes), a row
    of targets a run, flattened."""
    worst, evaluations = group["first"][rows, 4], group["first"][rows, 1]
    starts, lengths = group["offsets"][:-1][rows], np.diff(group["offsets"])[rows]
    reached = np.where(targets >= worst[:, None], 1.0, evaluations[:, None])
    under = targets < lengths[:, None]
    reached[under] = group["values"][(starts[:, None] + targets)[under]]
    return reached.ravel()


def first_row(algorithm: str, board: int, seed: int, trace: np.ndarray,
              fitness: str = "pairs") -> tuple:
    """A run's first generation, a row of :func:`first_frame`."""
    return (algorithm, int(board), int(seed), fitness, *np.asarray(trace)[0].tolist())


def first_frame(rows: list[tuple]) -> pd.DataFrame:
    """Runs' first generations (:func:`first_row`) as a table with FIRST_COLUMNS, typed as
    Store.traces types the traces."""
    return _typed(pd.DataFrame(rows, columns=FIRST_COLUMNS))


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    for column in ("board", "seed", "generation", "evaluations", "best", "worst"):
        frame[column] = frame[column].astype("int64")
    for column in ("median", "mean"):
        frame[column] = frame[column].astype(float)
    return frame


def from_store(store, keys=None, order=(), claims=None, algorithm=None) -> Folded:
    """The stored traces of ``keys`` (all if None; of ``algorithm`` alone if given), read one
    run at a time; ``claims`` maps an algorithm to its Claims (gaqueens.runtime.claims), whose
    fitness measure and problem say what its traces count (N-Queens' attacking pairs for those
    it does not name)."""
    folded = Folded(order)
    claims = claims or {}
    for algorithm, board, seed, _, conflicts, *_, solution, blob in store.each(algorithm):
        if blob is not None and (keys is None or (algorithm, board, seed) in keys):
            rule = claims.get(algorithm, Claims(UNIT))
            folded.add(algorithm, board, seed, unpack(blob), rule.fitness,
                       own_best(conflicts, solution, rule.fitness, rule.problem))
    folded._close()
    return folded


def from_folder(folder, keys, order, claims, algorithm: str) -> Folded:
    """``from_store`` of one algorithm on the store of ``folder``, opened here: a task of the
    exports' worker processes, which fold the algorithms side by side (``merged``)."""
    with Store(folder) as store:
        return from_store(store, keys, order, claims, algorithm)


def merged(parts: list[Folded], order=()) -> Folded:
    """Foldeds of different (algorithm, board) groups as one, their runs in the parts' order."""
    whole = Folded(order)
    for part in parts:
        part._close()
        if whole.groups.keys() & part.groups.keys():
            raise ValueError("the parts of a Folded share an (algorithm, board) group")
        whole.lines.update(part.lines)
        whole.groups.update(part.groups)
    return whole


def from_frame(traces: pd.DataFrame) -> Folded:
    """The traces of a table like Store.traces (with a ``fitness`` column or without), in its
    order of (algorithm, board) groups."""
    order = list(traces["algorithm"].unique()) if len(traces) else []
    folded = Folded(order)
    columns = list(TRACE_COLUMNS)
    for (algorithm, board), rows in traces.groupby(["algorithm", "board"], sort=False):
        for seed, run in rows.groupby("seed", sort=False):
            fitness = run["fitness"].iloc[0] if "fitness" in run.columns else "pairs"
            folded.add(algorithm, board, seed, run[columns].to_numpy(dtype=float), fitness)
    folded._close()
    return folded
