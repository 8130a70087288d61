"""engine: numpy for many seeds at once: the runs of the published family of settings advanced
together, each seed's run the very one gaqueens.ga.numpy_engine makes for that seed alone.

The family (``covers``): variation each, select Tournament or Uniform, no crossover, mutation
Swap(1), survivors Best, scheme mu+lambda (either tie rule) or mu,lambda, fitness pairs or
excess, any population, offspring, target and generation limit, on boards of 2 and more.
gaqueens.ga.run_many sends any other setting to the general engine, seed by seed.

What makes it fast, with what keeps each run its own:

- One array for all seeds still running: genomes (seeds, mu, n), their diagonal counters
  (seeds x mu, 4n) and fitness (seeds, mu); each generation's tournaments, swaps, fitness and
  survivors are a few numpy calls for all of them. A seed whose run ends drops out.
- Each seed keeps its own Randomness, which hands out numpy draws in blocks of 256 calls per
  (low, high, size). A generation of the general engine makes the calls of ``calls()`` in that
  order; here each seed takes the draws of the next 256 generations at once
  (Randomness.ahead; 128 when two of the calls share a block, as Uniform's (0, mu, lambda)
  and the swap's (0, n, lambda) do when mu = n), so its generator draws the same blocks in the
  same order, and a seed's draws are stacked beside the others'.
- A child's fitness is its parent's plus the change of its swap (board.SwapConflicts: eight
  diagonal counters, not a recount), counted per seed (board.RunsFitness). Genomes and
  counters are only copied for the survivors; a child is built in the survivor's row.
- The population stays sorted by fitness (survivors best), so the best survivor is in row 0:
  a generation improves the best found exactly when row 0 is better than it, and that row is
  the first child with the lowest fitness, the one DEAP's HallOfFame keeps. The trace's min,
  median, max and mean come from the sorted rows; its numbers are whole or halves, so they are
  the general engine's exactly.

``seconds``: each generation's wall time (with the draws it took) is shared evenly among the
seeds it advanced, and the set-up among all seeds; a run's seconds is its share, so the
batch's seconds add up to its wall time. tests/test_batched.py checks every run against the
general engine with gaqueens.result.same_run.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import cache

import numpy as np

from gaqueens.board import Conflicts, RunsFitness
from gaqueens.ga.operators import Best, NoCrossover, Swap, Tournament, Uniform
from gaqueens.ga.randomness import Randomness
from gaqueens.ga.settings import GaSettings
from gaqueens.ga.numpy_engine import trace
from gaqueens.result import Result


def covers(settings: GaSettings, board: int) -> bool:
    """Whether the settings' runs on this board can take the batched path."""
    return (settings.engine == "numpy" and settings.variation == "each" and board >= 2
            and type(settings.select) in (Tournament, Uniform)
            and type(settings.crossover) is NoCrossover
            and type(settings.mutation) is Swap and settings.mutation.count == 1
            and type(settings.survivors) is Best and settings.scheme in ("mu+lambda", "mu,lambda"))


def calls(settings: GaSettings, board: int) -> list[tuple]:
    """The general engine's numpy draws in one generation, in order, as (low, high, size): the
    parents' selection, then the swap's two positions."""
    mu, lam = settings.population, settings.children
    select = ((0, mu, (lam, settings.select.size)) if isinstance(settings.select, Tournament)
              else (0, mu, lam))
    return [select, (0, board, lam), (0, board - 1, lam)]


class Draws:
    """Every running seed's draws for a chunk of generations: ``draw`` takes them from each
    seed's own Randomness, ``take(t, at)`` gives generation t's for the seeds at places ``at``
    of the chunk's seeds (None: all), one array (seeds, lambda, columns): the selection's
    draws (the tournament's entrants, or the uniform pick), then the swap's two positions
    (the second one already made other than the first, as Swap does)."""

    def __init__(self, calls: list[tuple], block: int):
        self.calls = calls
        self.chunk = block // max(calls.count(key) for key in calls)  # blocks drawn at its start
        self.keys = list(dict.fromkeys(calls))  # in the order of their first call
        self.drawn = np.empty(0)

    def draw(self, randomness: list[Randomness]) -> None:
        per_key = {}
        for key in self.keys:
            uses = self.calls.count(key)
            rows = [r.ahead(*key, uses * self.chunk) for r in randomness]
            children = np.atleast_1d(key[2])[0]  # every call draws (lambda, ...)
            per_key[key] = np.stack(rows, axis=1).reshape(self.chunk, uses, len(rows), children, -1)
        seen: dict = {}
        columns = []
        for key in self.calls:  # the o-th call of a key takes its o-th draws
            use = seen[key] = seen.get(key, -1) + 1
            columns.append(per_key[key][:, use])
        first, second = columns[-2], columns[-1]
        second = second + (second >= first)
        self.drawn = np.concatenate((*columns[:-2], first, second), axis=-1)

    def take(self, t: int, at) -> np.ndarray:
        return self.drawn[t] if at is None else self.drawn[t][at]


class Runs:
    """The seeds still running, in arrays with a row per seed (genomes, diagonal counters and
    fitness of each population, sorted by fitness; the best found), and the results of those
    that ended."""

    def __init__(self, settings: GaSettings, board: int, seeds: list[int]):
        self.settings, self.n = settings, board
        self.mu, self.lam = settings.population, settings.children
        self.randomness = [Randomness(seed) for seed in seeds]
        self.fitness = RunsFitness(board, settings.fitness, len(seeds))
        self.ids = np.arange(len(seeds))  # the running seeds, by their place in ``seeds``
        first = np.tile(np.arange(board), (self.mu, 1))
        genomes = np.stack([r.numpy.permuted(first, axis=1) for r in self.randomness])
        values, counts = self.fitness.whole(self.ids, genomes)
        order = np.argsort(values, axis=1, kind="stable")
        rows = (order + self.mu * self.ids[:, None]).reshape(-1)
        self.genomes = genomes.reshape(-1, board)[rows].astype(_small(board))
        self.counts = counts[rows]
        self.values = np.take_along_axis(values, order, axis=1)
        self.best = self.genomes[:: self.mu].copy()  # row 0 of each seed: the first lowest
        self.best_value = self.values[:, 0].copy()
        self.history = History(self)
        self.results: dict[int, Result] = {}

    def running(self) -> int:
        return len(self.ids)

    def finish(self, done: np.ndarray, generation: int) -> None:
        """Ends the runs at the places ``done`` (a mask of the running seeds) after
        ``generation``: their results, and the others' arrays without them."""
        settings, n = self.settings, self.n
        ended = self.ids[done]
        traces = self.history.end(ended)
        best, best_value = self.best[done].astype(np.int64), self.best_value[done]
        pairs = best_value if settings.fitness == "pairs" else Conflicts(n)(best)
        for k, seed in enumerate(ended.tolist()):
            self.results[seed] = Result(
                solved=bool(best_value[k] <= settings.solved_at),
                conflicts=int(pairs[k]),
                evaluations=int(self.fitness.evaluations[seed]),
                solution=best[k],
                generations=generation,
                trace=traces[k],
            )
        keep = ~done
        rows = np.repeat(keep, self.mu)
        self.ids, self.values = self.ids[keep], self.values[keep]
        self.genomes, self.counts = self.genomes[rows], self.counts[rows]
        self.best, self.best_value = self.best[keep], self.best_value[keep]


class History:
    """Each running seed's population fitness and evaluations per generation, in a buffer of
    ``size`` generations, made into trace rows (TRACE_COLUMNS) when it fills or a seed ends."""

    def __init__(self, runs: Runs, size: int = 256):
        self.size, self.mu = size, runs.mu
        total = len(runs.ids)
        self.values = np.empty((size, total, runs.mu), dtype=np.int64)
        self.evaluations = np.empty((size, total), dtype=np.int64)
        self.first, self.used = 0, 0  # the buffer's first generation, and its rows in use
        self.rows: list[list[np.ndarray]] = [[] for _ in range(total)]  # per seed
        self.record(runs)

    def record(self, runs: Runs) -> None:
        """Records the generation just made."""
        ids = runs.ids
        if self.used == self.size:
            for seed, rows in zip(ids.tolist(), self._rows(ids)):
                self.rows[seed].append(rows)
            self.first, self.used = self.first + self.size, 0
        self.values[self.used, ids] = runs.values
        self.evaluations[self.used, ids] = runs.fitness.evaluations[ids]
        self.used += 1

    def end(self, ids: np.ndarray) -> list[np.ndarray]:
        """The whole traces of the seeds ``ids``, whose last generation is the last recorded."""
        return [np.concatenate((*self.rows[seed], rows))
                for seed, rows in zip(ids.tolist(), self._rows(ids))]

    def _rows(self, ids: np.ndarray) -> np.ndarray:
        """The buffer's trace rows of the seeds ``ids``, shape (seeds, generations, 6); the
        population is sorted, so its min, median and max are columns."""
        used, mu = self.used, self.mu
        values = self.values[:used, ids]
        rows = np.empty((len(ids), used, 6))
        rows[:, :, 0] = np.arange(self.first, self.first + used)
        rows[:, :, 1] = self.evaluations[:used, ids].T
        rows[:, :, 2] = values[:, :, 0].T
        rows[:, :, 3] = ((values[:, :, (mu - 1) // 2] + values[:, :, mu // 2]) / 2).T
        rows[:, :, 4] = values[:, :, mu - 1].T
        rows[:, :, 5] = (values.sum(axis=2) / mu).T
        return rows


def run_many(settings: GaSettings, board: int, seeds) -> list[Result]:
    """The runs of ``seeds`` on an n x n board, together; each result is the one
    gaqueens.ga.numpy_engine.run gives for its seed (``covers`` must hold)."""
    if not covers(settings, board):
        raise ValueError("these settings are not of the batched family: see covers()")
    seeds = list(seeds)
    if not seeds:
        return []
    start = time.perf_counter()
    runs = Runs(settings, board, seeds)
    target, generation = settings.target, 0
    draws = Draws(calls(settings, board), runs.randomness[0].block)
    shares = np.zeros(len(seeds))  # each run's share of the wall time
    passed = 0.0  # the share of a run running since the start
    clock = time.perf_counter()
    shares += (clock - start) / len(seeds)
    chunk, at = runs.ids, None  # the seeds whose draws are taken, and where the running are
    while runs.running():
        if target is not None:
            done = runs.best_value <= target
            if done.any():
                shares[runs.ids[done]] += passed
                runs.finish(done, generation)
                at = np.searchsorted(chunk, runs.ids)
                if not runs.running():
                    break
        if generation == settings.generations:
            shares[runs.ids] += passed
            runs.finish(np.ones(runs.running(), dtype=bool), generation)
            break
        t = generation % draws.chunk
        if t == 0:
            chunk, at = runs.ids, None
            draws.draw([runs.randomness[i] for i in chunk])
        generation += 1
        step(runs, draws.take(t, at))
        runs.history.record(runs)
        now = time.perf_counter()
        passed += (now - clock) / runs.running()
        clock = now
    results = [runs.results[i] for i in range(len(seeds))]
    shares += (time.perf_counter() - clock) / len(seeds)
    return [replace(result, seconds=float(share)) for result, share in zip(results, shares)]


def step(runs: Runs, drawn: np.ndarray) -> None:
    """One generation of every running seed: tournaments, swaps, the children's fitness from
    their parents' counters, the survivors, and the best found."""
    settings, mu, lam, n = runs.settings, runs.mu, runs.lam, runs.n
    count = runs.running()
    base = _bases(count, mu)  # each seed's first row
    values = runs.values.reshape(-1)
    entrants = drawn[:, :, :-2] + base[:, :, None]
    if entrants.shape[2] == 1:  # uniform
        rows = entrants[:, :, 0]
    elif entrants.shape[2] == 2:  # a tournament: the first drawn of the lowest fitness wins
        contest = values[entrants]
        rows = np.where(contest[:, :, 1] < contest[:, :, 0], entrants[:, :, 1], entrants[:, :, 0])
    else:
        won = values[entrants].argmin(axis=2)
        rows = np.take_along_axis(entrants, won[:, :, None], axis=2)[:, :, 0]
    positions = drawn[:, :, -2:]  # each child's parent is genome ``rows``: swap these
    columns = runs.genomes.reshape(-1)[(rows * n)[:, :, None] + positions]
    swaps = runs.fitness.swaps
    at = swaps.diagonals(positions, columns, rows)
    child_values = runs.fitness.children(runs.ids, values[rows], runs.counts, at)
    if settings.scheme == "mu,lambda":
        pool, sources, children = child_values, rows, 0
    elif settings.ties == "offspring-first":
        pool = np.concatenate((child_values, runs.values), axis=1)
        sources, children = np.concatenate((rows, _population_rows(count, mu)), axis=1), 0
    else:
        pool = np.concatenate((runs.values, child_values), axis=1)
        sources, children = np.concatenate((_population_rows(count, mu), rows), axis=1), mu
    width = pool.shape[1]
    keep = np.argsort(pool, axis=1, kind="stable")[:, :mu]
    kept = keep + _bases(count, width)
    runs.values = pool.reshape(-1)[kept]
    sources = sources.reshape(-1)[kept]
    genomes, counts = runs.genomes[sources.reshape(-1)], runs.counts[sources.reshape(-1)]
    made = np.flatnonzero((keep >= children) & (keep < children + lam))  # survivors: children
    if len(made):
        child = (keep + (_bases(count, lam) - children)).reshape(-1)[made]  # which, flat
        swapped = positions.reshape(-1, 2)[child] + (made * n)[:, None]
        genomes.reshape(-1)[swapped] = columns.reshape(-1, 2)[child, ::-1]
        swaps.move(counts, swaps.diagonals(positions.reshape(-1, 2)[child],
                                           columns.reshape(-1, 2)[child], made))
    runs.genomes, runs.counts = genomes, counts
    improved = runs.values[:, 0] < runs.best_value
    if improved.any():
        runs.best_value = np.minimum(runs.best_value, runs.values[:, 0])
        runs.best[improved] = genomes[np.flatnonzero(improved) * mu]


def _small(board: int):
    """The smallest integer type holding the columns of a board."""
    return np.uint8 if board <= 256 else np.int16 if board <= 2**15 else np.int32


@cache
def _bases(count: int, mu: int) -> np.ndarray:
    """The first row of each of ``count`` seeds' populations, as a column."""
    return mu * np.arange(count)[:, None]


@cache
def _population_rows(count: int, mu: int) -> np.ndarray:
    """The rows of ``count`` seeds' populations, a row per seed."""
    return np.arange(count * mu).reshape(count, mu)
