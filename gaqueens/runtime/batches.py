"""The unit of work sent to a worker, a batch of runs of one algorithm on one board, and how an
experiment's missing runs are grouped into batches that fit a worker's memory.

A sweep with at least COMPILED_RUNS runs a worker that an algorithm can run compiled
(``Algorithm.compiles``: the GA's published family) on boards from COMPILED_FROM runs all
those batches in its compiled kernel (``compiled``: ga.run_many's, the same runs). Loading
numba and the kernel costs each process a fixed time that the runs of a small sweep (the
published table) never earn back, and a large one does many times over (results/bench).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from gaqueens.core.algorithms import Algorithm
from gaqueens.runtime.budget import shown
from gaqueens.core.errors import Fault
from gaqueens.runtime.execution import compiles_runs, ending, execute_batch, need, runs_together

BATCH = 25  # runs sent to a worker at once, one after another: at most this many are lost with it
TOGETHER = 50  # the same for runs advanced together (the GA's engine: numpy), which cost
# less the more seeds share the arrays
COMPILED_FROM, COMPILED_RUNS = 32, 1000  # see the module's docstring


@dataclass(frozen=True)
class Batch:
    """Runs of one entry on one board: the name they are stored by, the algorithm and its
    settings, the board and the seeds."""

    name: str
    algorithm: Algorithm
    settings: object
    board: int
    seeds: tuple[int, ...]
    compiled: bool = False  # in the algorithm's compiled kernel (Algorithm.compiles)

    def run(self) -> list:
        """The batch's (seed, Result) pairs, computed here."""
        return execute_batch(self.algorithm, self.settings, self.board, list(self.seeds),
                             self.compiled)

    def __str__(self) -> str:
        seeds = (f"seed {self.seeds[0]}" if len(self.seeds) == 1
                 else f"seeds {self.seeds[0]} to {self.seeds[-1]}")
        return f"{self.name} on board {self.board}, {seeds}"


def batches(experiment, todo: list[tuple[str, int, int]], workers: int,
            budget: int | None = None) -> list[Batch]:
    """The runs ``todo`` (name, board, seed) grouped by entry and board into batches of a few
    seeds, the largest boards first so that the longest runs start early: runs made one after
    another in batches of at most BATCH, at least two a worker for each group; runs advanced
    together in as few batches as there are workers, of at most TOGETHER, and of no more than
    fit a worker's memory ``budget`` (bytes; memory_problem has made sure that one run fits);
    those compiled in a large sweep (the module's docstring). On each board the entries'
    batches take turns (``in_turn``)."""
    seeds = defaultdict(list)
    for name, board, seed in todo:
        seeds[name, board].append(seed)
    together = {key: runs_together(experiment.entry(key[0]).runner,
                                   experiment.entry(key[0]).settings, key[1]) for key in seeds}
    compiles = {key: compiles_runs(experiment.entry(key[0]).runner,
                                   experiment.entry(key[0]).settings, key[1]) for key in seeds}
    large = sum(len(group) for key, group in seeds.items()
                if compiles[key] and key[1] >= COMPILED_FROM)
    compiled = large >= COMPILED_RUNS * max(1, workers)
    by_board: dict[int, list[list[Batch]]] = defaultdict(list)  # each entry's, in order
    for (name, board), group in seeds.items():
        entry = experiment.entry(name)
        algorithm, settings = entry.runner, entry.settings
        if together[name, board]:
            size = min(TOGETHER, -(-len(group) // workers))
            while size > 1 and budget is not None and (
                    need(algorithm, settings, board, size) or 0) > budget:
                size -= 1
        else:
            size = max(1, min(BATCH, len(group) // (2 * workers)))
        by_board[board].append([Batch(name, algorithm, settings, board,
                                      tuple(group[i:i + size]), compiled and compiles[name, board])
                                for i in range(0, len(group), size)])
    return [batch for board in sorted(by_board, reverse=True) for batch in in_turn(by_board[board])]


def in_turn(lists: list[list]) -> list:
    """The items of all ``lists``, each list's spread evenly over the order by count: its i-th
    (from 0) of k where (2i + 1) / 2k of the way falls. Items that fall together are ordered by
    their list's place, negated where i is odd, so that lists of equal length (whose items fall
    together by i) take turns back and forth, a1 b1 b2 a2 a3 b3, and two workers taking them
    up in turn each run items of both. These are a board's batches, in the order the workers
    take them up: a machine that is slower for a while (another process, the host's other
    guests) then slows every entry alike, where one entry's batches after the other's would
    charge it to one entry only, whose seconds the comparisons set against the other's
    (gaqueens.reports.compare). By count, not by time: entries whose batches take as long as
    each other's run side by side in time."""
    placed = sorted((Fraction(2 * i + 1, 2 * len(items)), -k if i % 2 else k, k, i)
                    for k, items in enumerate(lists) for i in range(len(items)))
    return [lists[k][i] for *_, k, i in placed]


def memory_problem(experiment, budget: int | None, how: str) -> str | None:
    """The line refusing an experiment whose run of some algorithm on some board needs more
    memory than a worker's ``budget`` (bytes; ``how`` says how it was set), or None."""
    if budget is None:
        return None
    for entry in experiment.entries:
        for board in experiment.boards:
            wanted = need(entry.runner, entry.settings, board) if entry.runs_on(board) else None
            if wanted is not None and wanted > budget:
                return (f"{experiment.source}: {entry.name} on board {board:,} needs about "
                        f"{shown(wanted)} of memory for one run, more than the budget of "
                        f"{shown(budget)} a worker ({how}); run smaller boards, fewer workers, "
                        "or set --memory-budget")
    return None


class OutOfMemory(Fault):
    """A batch ran out of memory (MemoryError) where it ran: the message names its runs."""


def out_of_memory(batch: Batch, where: str) -> OutOfMemory:
    return OutOfMemory(f"{batch} ran out of memory (MemoryError) {where}: run "
                       "smaller boards, or give the workers more memory")


def run_batch(batch: Batch):
    """A batch and its results, computed here (a plug-in's SystemExit a fault: execution.ending)."""
    with ending(f"the runs of {batch}"):
        return batch, batch.run()


def in_process(batches) -> Iterator:
    """Each of ``batches`` with its results, computed in this process, one after another."""
    for batch in batches:
        try:
            yield run_batch(batch)
        except MemoryError:
            raise out_of_memory(batch, "in this process") from None
