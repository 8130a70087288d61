"""engine: numpy for many seeds at once: the runs of the published family of settings advanced
together, each seed's run the very one gaqueens.ga.general makes for that seed alone.

The family (``covers``): variation each, select tournament or uniform, no crossover, mutation
swap with count 1, survivors best, scheme mu+lambda (either tie rule) or mu,lambda, any
fitness measure, population, offspring, target and generation limit, on boards of 2 and more,
of a problem with an incremental fitness of swaps (N-Queens). gaqueens.ga.run and run_many
send every run of the family here, a one-seed run as a batch of one, and any other setting to
the general engine, seed by seed.

What makes it fast, and what keeps each run its own:

- One array for all runs: each population's genomes and the state of their fitness side by
  side (``cells``: for N-Queens a row of n + 4n per genome, the diagonal counters, uint8 up to
  n = 255) and fitness (runs, mu); each generation's tournaments, swaps, fitness and
  survivors are a few dozen numpy calls for all of them, however many.
- A child's fitness is its parent's plus the change of its swap, from the few counters the
  swap touches, not a recount (the problem's ``swaps``: for N-Queens eight diagonal counters,
  gaqueens.problems.nqueens.swaps), counted per run. Only the survivors' rows are copied; a
  surviving child is made in its new row from its parent's.
- Each seed draws from its own Randomness, in its own run's order (gaqueens.ga.draws); a
  window of generations' draws is laid out for all rows at once. The seeds' generators are
  numpy's default_rng(seed), seeded together (gaqueens.ga.seeding).
- The population stays sorted by fitness (survivors best), so the best survivor is rank 0 (a
  run's row 0, or compiled its row ``slots[:, 0]``): a generation improves the best found
  exactly when rank 0 is better, and it is then the first child of the lowest fitness, the
  one DEAP's HallOfFame keeps. The trace's min, median and max are the sorted fitness's
  columns (gaqueens.ga.history).
- A run that ends gives its result at once; its rows are dropped when the window of draws ends.
- ``compiled`` (a large sweep's batches, gaqueens.runtime.batches): each generation is the
  problem's compiled kernel instead (N-Queens: gaqueens.problems.nqueens.generation_kernel),
  the same numbers in one call in place of a few dozen numpy calls: about half of ga.run_many's
  time on every board of the table (100 seeds), once numba is loaded; ``slots`` says there
  which row holds each rank.

``seconds``: each generation's time (with the draws it took) is shared evenly among the runs
it advanced, and the set-up and the end among all; a run's seconds is its share, so a batch's
seconds add up to its time. The time is the processor time of the thread running the batch
(time.thread_time): what the runs cost, not the wall time, which on a shared machine also
counts the time the process waited for a core (a sweep's two workers beside its own process
and other work on two cores waited about as long as they computed). tests/test_batched.py
checks every run against the general engine (tests/runs.py), and the published table's.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from gaqueens import problems
from gaqueens.ga import seeding
from gaqueens.ga.draws import Draws, bases, calls
from gaqueens.ga.history import History
from gaqueens.ga.randomness import Randomness
from gaqueens.ga.rows import key_shift, lowest
from gaqueens.ga.settings import GaSettings
from gaqueens.core.result import Result


def covers(settings: GaSettings, board: int) -> bool:
    """Whether the settings' runs on this board can take the batched path."""
    return (settings.engine == "numpy" and settings.variation == "each" and board >= 2
            and problems.get(settings.problem).incremental
            and settings.select.name in ("tournament", "uniform")
            and settings.crossover.name == "none"
            and settings.mutation.name == "swap" and settings.mutation.get("count") == 1
            and settings.survivors.name == "best" and settings.scheme in ("mu+lambda", "mu,lambda"))


class Runs:
    """The seeds' runs in arrays with a row per seed, in the seeds' order: each population's
    genomes and diagonal counters side by side (``cells``, a row of n + 4n per genome, seed by
    seed) and their fitness (``values``), sorted by fitness, the genomes in that order (or,
    compiled, where ``slots`` says); the best found; the history of the trace. A run that ends
    (``finish``) stays in the arrays, not alive, until ``compact`` drops the ended ones when a
    window of draws ends, having made their results (``settle``)."""

    def __init__(self, settings: GaSettings, board: int, seeds: list[int], compiled=None):
        self.problem = problems.get(settings.problem)
        self.fitness = self.problem.swaps(board, settings.fitness, len(seeds))
        self.settings, self.n = settings, board
        self.width = board + self.fitness.state_width  # a genome and its state, side by side
        self.mu, self.lam = settings.population, settings.children
        self.randomness = [Randomness(seed, made)
                           for seed, made in zip(seeds, seeding.generators(seeds))]
        self.ids = np.arange(len(seeds))  # each row's seed, by its place in ``seeds``
        self.alive = np.ones(len(seeds), dtype=bool)
        self.ended = 0  # rows whose run ended
        first = np.tile(np.arange(board), (self.mu, 1))
        genomes = np.stack([r.numpy.permuted(first, axis=1) for r in self.randomness])
        values, counts = self.fitness.whole(genomes)
        # for lowest(): every pool (population, children or both) is at most mu + lambda wide
        self.shift = key_shift(self.mu + self.lam, self.fitness.largest)
        order, self.values = lowest(values, self.mu, self.shift)
        rows = (order + bases(len(seeds), self.mu)).reshape(-1)
        cells = np.empty((len(rows), self.width), _small(board))  # in the small type first:
        cells[:, :board], cells[:, board:] = genomes.reshape(-1, board), counts  # less to gather
        self.cells = cells.take(rows, axis=0)
        self.best = self.cells[:: self.mu, :board].copy()  # row 0 of each: the first lowest
        self.best_value = self.values[:, 0].copy()
        self.history = History(len(seeds), self.mu)
        self.history.record(self.values, self.fitness.evaluations)
        self.results: dict[int, dict] = {}  # each ended run's Result, but its seconds
        self.pending: list[tuple] = []  # the runs ended, whose results are not made yet
        self.compiled = compiled  # the problem's compiled generation, or None: numpy's
        # compiled: the row of its run's mu that holds each rank (numpy's keeps them in order)
        self.slots = None if compiled is None else np.tile(np.arange(self.mu), (len(seeds), 1))

    def rows(self) -> int:
        return len(self.ids)

    def finish(self, done: np.ndarray, generation: int) -> None:
        """Ends the runs of the rows ``done`` (a mask) after ``generation``: what their
        results need is kept (``settle`` makes them)."""
        places = done.nonzero()[0]
        self.pending.append((places, generation, self.best[places].astype(np.int64),
                             self.best_value[places], self.fitness.evaluations[places]))
        self.alive[places] = False
        self.ended += len(places)

    def settle(self) -> None:
        """The results of the runs ended since the last time, their traces from the history's
        buffer before it is emptied."""
        if not self.pending:
            return
        settings, history = self.settings, self.history
        places = np.concatenate([event[0] for event in self.pending])
        traces = iter(history.traces(places, self.ids[places],
                                     [event[1] for event in self.pending for _ in event[0]]))
        for places, generation, best, best_value, evaluations in self.pending:
            pairs = (best_value if settings.fitness == self.problem.measures[0]
                     else self.problem.conflicts(self.n, best))
            for seed, solved, conflicts, work, solution in zip(
                    self.ids[places].tolist(), (best_value <= settings.solved_at).tolist(),
                    pairs.tolist(), evaluations.tolist(), best):
                self.results[seed] = dict(solved=solved, conflicts=int(conflicts), work=work,
                                          solution=solution, generations=generation,
                                          trace=next(traces))
        self.pending = []

    def compact(self) -> None:
        """Drops the rows of the runs that ended (their results made, the history's buffer
        emptied first)."""
        keep = self.alive
        self.settle()
        self.history.flush(keep.nonzero()[0], self.ids[keep])
        self.history.keep(keep)
        self.ids, self.values = self.ids[keep], self.values[keep]
        self.cells = self.cells[np.repeat(keep, self.mu)]
        if self.slots is not None:
            self.slots = self.slots[keep]
        self.best, self.best_value = self.best[keep], self.best_value[keep]
        self.fitness.keep(keep)
        self.alive, self.ended = self.alive[keep], 0


def run_many(settings: GaSettings, board: int, seeds, observe=None,
             compiled: bool = False) -> list[Result]:
    """The runs of ``seeds`` on an n x n board, together; each result is the one
    gaqueens.ga.general.run gives for its seed (``covers`` must hold). ``observe``, if given,
    holds a callable per seed: each sees its run's best found so far after each generation,
    as general.run's ``observe`` does, until the run ends. ``compiled``: each generation in
    the problem's compiled kernel where it has one (the same runs; loaded before the clock
    starts, so the loading is no run's seconds)."""
    if not covers(settings, board):
        raise ValueError("these settings are not of the batched family: see covers()")
    seeds = list(seeds)
    if not seeds:
        return []
    compiled = _compiled(settings, board) if compiled else None
    start = time.thread_time()
    runs = Runs(settings, board, seeds, compiled)
    history = runs.history
    target, generation = settings.target, 0
    draws = Draws(calls(settings, board), compiled=compiled is not None)
    shares = np.zeros(len(seeds))  # each run's share of the batch's time
    passed = 0.0  # the share of a run running since the start
    clock = time.thread_time()
    shares += (clock - start) / len(seeds)
    if observe is not None:
        if len(observe) != len(seeds):
            raise ValueError("observe holds a callable per seed")
        _observe(observe, runs, generation)
    while True:
        if target is not None:
            done = runs.best_value <= target
            if runs.ended:
                done &= runs.alive
            if done.any():
                shares[runs.ids[done]] += passed
                runs.finish(done, generation)
        if generation == settings.generations:
            alive = runs.alive.copy()
            shares[runs.ids[alive]] += passed
            runs.finish(alive, generation)
        if runs.ended == runs.rows():
            runs.settle()
            break
        if not draws.stacked(generation):  # a new window of draws: ended runs drop out first
            if runs.ended:
                runs.compact()
            if not draws.drawn(generation):
                draws.draw(generation, runs.ids, [runs.randomness[i] for i in runs.ids])
            draws.stack(generation, runs.ids, runs.mu)
        if history.used == history.size:
            runs.settle()
            history.flush(runs.alive.nonzero()[0], runs.ids[runs.alive])
        step(runs, draws.take(generation))
        generation += 1
        history.record(runs.values, runs.fitness.evaluations)
        if observe is not None:
            _observe(observe, runs, generation)
        now = time.thread_time()
        passed += (now - clock) / (runs.rows() - runs.ended)
        clock = now
    shares += (time.thread_time() - clock) / len(seeds)
    return [Result(**runs.results[i], seconds=float(share)) for i, share in enumerate(shares)]


def step(runs: Runs, drawn: tuple) -> None:
    """One generation of every row: tournaments, swaps, the children's fitness from their
    parents' counters, the survivors, and the best found. The problem's compiled generation,
    where there is one (``_compiled``), does the same in place, called with the cells, the
    values, the slots (Runs), the raw draws (Draws: entrants' ranks, first and second
    positions), the evaluations, the best found and its value."""
    if runs.compiled is not None:  # in place
        runs.compiled(runs.cells, runs.values, runs.slots, *drawn, runs.fitness.evaluations,
                      runs.best, runs.best_value)
        return
    settings, mu, lam, n, width = runs.settings, runs.mu, runs.lam, runs.n, runs.width
    count = runs.rows()
    values = runs.values
    entered, positions = drawn  # (rows, lambda, entrants) and (2, rows, lambda)
    if entered.shape[2] == 1:  # uniform
        parents = entered[:, :, 0]
    else:  # a tournament: the first drawn of the lowest fitness wins
        contest = values.take(entered)
        if entered.shape[2] == 2:
            parents = np.where(contest[:, :, 1] < contest[:, :, 0], entered[:, :, 1],
                               entered[:, :, 0])
        else:
            won = contest.argmin(axis=2)[:, :, None]
            parents = np.take_along_axis(entered, won, axis=2)[:, :, 0]
    # each child: a copy of genome ``parents`` with the entries at ``positions`` swapped
    cells = runs.cells.reshape(-1)
    starts = parents * width
    entries = positions + starts  # where the two entries are in ``cells``
    columns = cells.take(entries)
    diagonals = runs.fitness.touched(entries, columns, n)  # the counters follow the genome
    child_values = runs.fitness.children(values.take(parents), cells.take(diagonals),
                                         diagonals)
    if settings.scheme == "mu,lambda":
        pool, sources, children = child_values, parents, 0
    elif settings.ties == "offspring-first":
        pool = np.concatenate((child_values, values), axis=1)
        sources, children = np.concatenate((parents, _population_rows(count, mu)), axis=1), 0
    else:
        pool = np.concatenate((values, child_values), axis=1)
        sources, children = np.concatenate((_population_rows(count, mu), parents), axis=1), mu
    keep, runs.values = lowest(pool, mu, runs.shift)
    kept = keep + bases(count, pool.shape[1])
    new = runs.cells.take(sources.take(kept).reshape(-1), axis=0)
    chosen = keep < lam if not children else (keep >= children) & (keep < children + lam)
    made = chosen.reshape(-1).nonzero()[0]  # the survivors that are children, by their new row
    if len(made):
        child = (keep + _child_offsets(count, lam, children)).take(made)
        shift = (made - parents.take(child)) * width  # from the parent's row to the new
        flat = new.reshape(-1)
        flat[entries.reshape(2, -1).take(child, axis=1) + shift] = columns.reshape(2, -1)[
            ::-1].take(child, axis=1)
        moved = diagonals.reshape(8, -1).take(child, axis=1)
        moved += shift
        runs.fitness.move(flat, moved)
    runs.cells = new
    improved = runs.values[:, 0] < runs.best_value
    if improved.any():
        runs.best_value = np.minimum(runs.best_value, runs.values[:, 0])
        runs.best[improved] = new[improved.nonzero()[0] * mu, :n]


def _compiled(settings: GaSettings, board: int):
    """The problem's compiled generation, loaded with the draws' compiled pass, or None where
    it has none."""
    generation = problems.get(settings.problem).compiled(board, settings.fitness,
                                                         settings.scheme, settings.ties)
    if generation is not None:
        from gaqueens.ga import bounded_kernel  # noqa: F401 (loaded before the clock starts)
    return generation


def _observe(observe, runs: Runs, generation: int) -> None:
    """Shows each running row's callable its run's best found so far and its population's
    median."""
    rows = runs.alive.nonzero()[0]
    values = runs.values[rows].astype(np.float64)  # each row sorted: its middle is its median
    medians = (values[:, (runs.mu - 1) // 2] + values[:, runs.mu // 2]) / 2
    best = runs.best[rows].astype(np.int64)
    for k, row in enumerate(rows.tolist()):
        observe[runs.ids[row]](generation, int(runs.fitness.evaluations[row]), best[k],
                               runs.best_value[row], medians[k])


def _small(board: int):
    """The smallest integer type holding a board's columns and counts (at most n each)."""
    return np.uint8 if board < 2**8 else np.int16 if board < 2**15 else np.int32


@cache
def _child_offsets(count: int, lam: int, children: int) -> np.ndarray:
    """Added to a pool index of ``count`` rows' pools, whose children start at ``children``:
    the child's place among all rows' children."""
    return bases(count, lam) - children


@cache
def _population_rows(count: int, mu: int) -> np.ndarray:
    """The rows of ``count`` seeds' populations, a row per seed."""
    return np.arange(count * mu).reshape(count, mu)
