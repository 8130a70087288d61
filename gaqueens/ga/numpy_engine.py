"""engine: numpy, the GA over arrays with a leading axis of runs: a batch of seeds advanced
together, generation by generation, and a one-seed run the batch of one. Each run draws by its
own key (gaqueens.ga.randomness), so its numbers do not depend on the batch. The loop is
engine: deap's (gaqueens.ga.deap_engine), on arrays: ``generation.step`` makes one generation
of every run of the batch, and a run that ends leaves the arrays at once. ``best`` is DEAP's
HallOfFame of one, the first individual found with the lowest fitness; the evaluations are
what the fitness was given (for the published settings mu, then lambda a generation).

``seconds``: each generation's processor time (time.thread_time) is shared evenly among the
runs it advanced, and the set-up and the end among all, so a batch's seconds add up to its time.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from gaqueens import problems
from gaqueens.core.result import Result
from gaqueens.ga import generation as generations
from gaqueens.ga import randomness
from gaqueens.ga.settings import GaSettings
from gaqueens.ga.variation import lowest, rows_of


class Runs:
    """The runs of a batch still going, a row each in every array: ``ids`` (each run's place
    in the batch's seeds), ``keys``, ``genomes`` (runs, mu, n), ``values`` (runs, mu), the
    best found (``best``, ``best_value``), ``evaluations``, and ``bindings`` (each run's
    DEAP-style functions, made when first used). With the problem's ``swaps``, ``cells`` (runs,
    mu, n + w) holds each genome with its state instead; with its ``compiled`` generation, its
    own ``state`` holds them. ``window``: the family's draws of a few generations."""

    def __init__(self, settings: GaSettings, board: int, seeds: list[int], swaps=None,
                 compiled=None):
        self.settings, self.n = settings, board
        self.problem = problems.get(settings.problem)
        self.fitness = self.problem.fitness(board, settings.fitness)
        self.mu, self.lam = settings.population, settings.children
        self.ids, self.seeds = np.arange(len(seeds)), seeds
        self.keys = randomness.keys(seeds)
        self._bindings: list | None = None
        self.window = None
        genomes = randomness.permutations(self.keys, self.mu, board)  # int64, as problems take
        values = self.evaluate(genomes)
        self.evaluations = np.full(len(seeds), self.mu, dtype=np.int64)
        if settings.sorted:
            order, values = lowest(values, self.mu)
            genomes = rows_of(genomes, order)
        self.genomes, self.values = genomes, values
        first = values.argmin(axis=1)
        self.best = genomes[np.arange(len(seeds)), first].astype(small(board))
        self.best_value = values[np.arange(len(seeds)), first]
        self.swaps, self.compiled, self.cells, self.state = swaps, compiled, None, None
        if swaps is not None:  # the faster ways keep genomes in the smallest type
            counts = swaps.counts(genomes.reshape(-1, board))
            self.cells = np.concatenate((genomes, counts.reshape(len(seeds), self.mu, -1)),
                                        axis=2, dtype=self.best.dtype, casting="unsafe")
            self.genomes = None
        if compiled is not None:
            self.state = compiled.start(genomes.astype(self.best.dtype))
            self.genomes = None

    @property
    def bindings(self) -> list:
        if self._bindings is None:
            self._bindings = [randomness.RandomBinding(randomness.python(self.seeds[i]))
                              for i in self.ids]
        return self._bindings

    def evaluate(self, genomes: np.ndarray) -> np.ndarray:
        """The fitness (runs, k) of genomes (runs, k, n), by the problem's batched fitness."""
        runs, k, n = genomes.shape
        return np.asarray(self.fitness(genomes.reshape(runs * k, n))).reshape(runs, k)

    def keep(self, going: np.ndarray) -> None:
        """Keeps the runs of the mask ``going``, in their order."""
        self.ids, self.keys = self.ids[going], self.keys[going]
        self.values, self.evaluations = self.values[going], self.evaluations[going]
        self.best, self.best_value = self.best[going], self.best_value[going]
        if self.genomes is not None:
            self.genomes = self.genomes[going]
        if self.cells is not None:
            self.cells = self.cells[going]
        if self.state is not None:
            self.state = self.compiled.keep(self.state, going)
        if self.window is not None:
            span, *drawn = self.window
            self.window = (span, *(each[going] for each in drawn))
        if self._bindings is not None:
            self._bindings = [b for b, kept in zip(self._bindings, going.tolist()) if kept]


def run_many(settings: GaSettings, board: int, seeds, observe=None, compiled: bool = False,
             incremental: bool = True) -> list[Result]:
    """The runs of ``seeds`` on an n x n board, together; each result depends on the settings
    and its seed alone. ``observe``, if given, holds a callable per seed: each sees
    ``(generation, evaluations, best, best_fitness, median_fitness)`` after each generation,
    from generation 0, until its run ends (gaqueens.ga.replay). ``compiled``: each generation
    in the problem's compiled kernel where there is one for these settings (loaded before the
    clock starts); else, ``incremental``, its numpy step with the problem's swap fitness where
    there is one (gaqueens.ga.generation); the same runs every way."""
    seeds = list(seeds)
    if not seeds:
        return []
    if observe is not None and len(observe) != len(seeds):
        raise ValueError("observe holds a callable per seed")
    kernel = generations.hook(settings, board, "ga_compiled") if compiled else None
    swaps = (generations.hook(settings, board, "ga_swaps") if incremental and kernel is None
             else None)
    start = time.thread_time()
    runs = Runs(settings, board, seeds, swaps, kernel)
    trace: list[tuple] = []  # per generation: the running runs' ids and what their rows need
    ended: dict[int, dict] = {}
    shares = np.zeros(len(seeds))
    clock, generation = time.thread_time(), 0
    shares += (clock - start) / len(seeds)
    while True:
        advanced = runs.ids  # the runs this turn advances: its time is theirs
        trace.append(_record(runs))
        if observe is not None:
            _observe(observe, runs, generation, trace[-1])
        done = (np.ones(len(runs.ids), dtype=bool) if generation == settings.generations
                else None if settings.target is None else runs.best_value <= settings.target)
        if done is not None and done.any():
            for place in done.nonzero()[0].tolist():
                ended[int(runs.ids[place])] = _result(runs, place, generation)
            if done.all():
                break
            runs.keep(~done)
        generation += 1
        generations.step(runs, generation)
        now = time.thread_time()
        shares[advanced] += (now - clock) / len(advanced)
        clock = now
    traces = _traces(trace, len(seeds), runs.mu)
    shares += (time.thread_time() - clock) / len(seeds)
    return [Result(**ended[i], trace=traces[i], seconds=float(shares[i]))
            for i in range(len(seeds))]


def _result(runs: Runs, place: int, generation: int) -> dict:
    """A run's result but its trace and seconds."""
    settings, problem = runs.settings, runs.problem
    best, value = runs.best[place].astype(np.int64), runs.best_value[place]
    conflicts = (value if settings.fitness == problem.measures[0]
                 else problem.conflicts(runs.n, best[None])[0])
    return dict(solved=bool(value <= settings.solved_at), conflicts=int(conflicts),
                work=int(runs.evaluations[place]), solution=best, generations=generation)


def _record(runs: Runs) -> tuple:
    """What the running runs' trace rows of this generation need, in few numpy calls: their
    ids, evaluations, best, middle two (whose mean is the median), worst, and summed fitness
    of their populations (a sorted population's are columns)."""
    values, mu = runs.values, runs.mu
    if runs.settings.sorted:
        picked = values.take(_columns(mu), axis=1)
    else:
        median = np.median(values, axis=1)
        picked = np.column_stack((values.min(axis=1), median, median, values.max(axis=1)))
    return runs.ids, runs.evaluations.copy(), picked, values.sum(axis=1)


@cache
def _columns(mu: int) -> np.ndarray:
    return np.array([0, (mu - 1) // 2, mu // 2, mu - 1])


def _traces(trace: list[tuple], count: int, mu: int) -> list[np.ndarray]:
    """Each run's trace (TRACE_COLUMNS of gaqueens.core.result: generation, evaluations, and
    its population's best, median, worst and mean fitness), from the records of all runs,
    generation by generation."""
    ids, evaluations, picked, sums = (np.concatenate(part) for part in zip(*trace))
    sizes = [len(record[0]) for record in trace]
    rows = np.column_stack((np.repeat(np.arange(len(trace)), sizes), evaluations, picked[:, 0],
                            (picked[:, 1] + picked[:, 2]) / 2, picked[:, 3], sums / mu))
    order = np.argsort(ids, kind="stable")
    return np.split(rows[order], np.cumsum(np.bincount(ids, minlength=count))[:-1])


def _observe(observe, runs: Runs, generation: int, record: tuple) -> None:
    """Shows each run's callable its best found so far and its population's median."""
    medians = (record[2][:, 1] + record[2][:, 2]) / 2
    best = runs.best.astype(np.int64)
    for place, i in enumerate(runs.ids.tolist()):
        observe[i](generation, int(runs.evaluations[place]), best[place],
                   runs.best_value[place], medians[place])


def small(board: int):
    """The smallest integer type holding a board's columns (and counts, at most n each): the
    best found's, and the genomes' of the faster ways (gaqueens.ga.generation)."""
    return np.uint8 if board < 2**8 else np.int16 if board < 2**15 else np.int32
