"""One generation of every run of a batch (gaqueens.ga.numpy_engine.Runs): ``step``, in numpy,
for every setting of engine: numpy, every child a genome of its own, evaluated by the problem's
batched fitness: the reference the faster ways below are tested against.

A problem may offer two faster ways to make the published family's generations (``family``:
a tournament or uniform parent, one swap per child, no crossover, the best survive), as
optional methods the GA looks for on it (``hook``), not part of the public Problem. Both make
the runs of ``step`` from the same draws, a window of generations drawn at once (WINDOW).

    ga_swaps(size, measure)   a swap child's fitness from its parent's state, no recount:
        counts(genomes)       the state of genomes (k, n), a row of whole numbers each
        diagonals(positions, columns, offset)   the state's entries a swap of the entries
                              ``positions`` [i, j] (2, ...) holding ``columns`` changes, plus
                              ``offset``, where each genome's state starts in a flat array
        change(counts, diagonals)   the change of the measure, those entries holding counts
        move(flat, diagonals)       makes the swaps in a flat array of states
    ga_compiled(size, measure, scheme, ties)   a compiled generation:
        start(genomes)   the state of a batch's populations (runs, mu, n), each sorted by
                         fitness, in the kernel's own layout
        advance(state, values, entrants, first, second, evaluations, best, best_value)
                         one generation of every run, in place: ``values`` (runs, mu) sorted,
                         each child's tournament entrants (runs, lambda, size), its swap's
                         positions (runs, lambda; the second drawn below n - 1), the
                         evaluations, the best found and its fitness
        keep(state, going)   the state of the runs of the mask ``going``

N-Queens has both (gaqueens.problems.nqueens.swaps, .generation_kernel). The swap fitness
serves engine: numpy's cost per evaluation (results/bench), the compiled generation the
100,000-run sweep's wall time (results/scale).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from gaqueens.ga import randomness
from gaqueens.ga.randomness import CHOICES, CROSSINGS, PARENTS, PARTNERS, SWAPS
from gaqueens.ga.settings import GaSettings
from gaqueens.ga.variation import (bases, cross, lowest, mutate, rows_of, select, survivors,
                                   tournament)

WINDOW = 16  # the family's generations drawn at once, at most (fewer early in a run)


def family(settings: GaSettings, board: int) -> bool:
    """Whether these settings are of the published family, which the faster ways make."""
    return (settings.engine == "numpy" and settings.variation == "each" and board >= 2
            and settings.select.name in ("tournament", "uniform")
            and settings.crossover.name == "none" and settings.mutation.name == "swap"
            and settings.mutation.get("count") == 1 and settings.survivors.name == "best"
            and settings.scheme in ("mu+lambda", "mu,lambda"))


def hook(settings: GaSettings, board: int, name: str):
    """The problem's ``ga_swaps`` or ``ga_compiled`` for these settings, made, or None."""
    from gaqueens import problems

    made = getattr(problems.get(settings.problem), name, None)
    if made is None or not family(settings, board):
        return None
    if name == "ga_swaps":
        return made(board, settings.fitness)
    return made(board, settings.fitness, settings.scheme, settings.ties)


def _deap_style(settings: GaSettings) -> bool:
    """Whether some operator is applied as its DEAP-style function (a generator per run)."""
    return (settings.select.name not in ("tournament", "uniform")
            or settings.crossover_rate > 0 or settings.mutation.name != "swap"
            or settings.survivors.name != "best")


def step(runs, generation: int) -> None:
    """Generation ``generation`` (from 1) of every run of ``runs``, in place."""
    if runs.compiled is not None:
        entrants, first, second = _family_draws(runs, generation)
        runs.compiled.advance(runs.state, runs.values, entrants, first, second,
                              runs.evaluations, runs.best, runs.best_value)
        return
    if runs.swaps is not None:
        _swapped(runs, generation)
        return
    settings, keys, mu, lam = runs.settings, runs.keys, runs.mu, runs.lam
    bindings = runs.bindings if _deap_style(settings) else None
    genomes, values = runs.genomes, runs.values
    crossed = np.zeros((len(keys), lam), dtype=bool)
    rate = settings.crossover_rate
    if settings.variation == "or":  # DEAP's varOr
        choice = randomness.uniform(keys, generation, CHOICES, (lam,))
        crossed, mutated = choice < rate, (choice >= rate) & (choice < rate + settings.mutpb)
        parents = randomness.integers(keys, generation, PARENTS, mu, (lam,))
        children = rows_of(genomes, parents)
        if crossed.any():
            partners = randomness.integers(keys, generation, PARTNERS, mu - 1, (lam,))
            partners += partners >= parents  # a parent other than the first
            run, child = crossed.nonzero()
            cross(settings.crossover, children, zip(run, child, child), bindings,
                  rows_of(genomes, partners))
    else:
        parents = select(settings.select, values, lam, keys, generation, bindings)
        children = rows_of(genomes, parents)
        if rate:  # pairs 0-1, 2-3, ... each crossed with probability cxpb, as varAnd pairs
            run, pair = (randomness.uniform(keys, generation, CROSSINGS, (lam // 2,))
                         < rate).nonzero()
            cross(settings.crossover, children, zip(run, 2 * pair, 2 * pair + 1), bindings)
            crossed[run, 2 * pair] = crossed[run, 2 * pair + 1] = True
        mutated = (np.ones_like(crossed) if settings.variation == "each"
                   else randomness.uniform(keys, generation, CHOICES, (lam,)) < settings.mutpb)
    mutate(settings.mutation, children, mutated, keys, generation, bindings)
    child_values = _evaluated(runs, children, np.take_along_axis(values, parents, axis=1),
                              crossed | mutated)
    first = child_values.argmin(axis=1)  # the first child of the lowest fitness
    lowest = np.take_along_axis(child_values, first[:, None], axis=1)[:, 0]
    better = (lowest < runs.best_value).nonzero()[0]
    runs.best[better] = children[better, first[better]]
    runs.best_value[better] = lowest[better]
    if settings.scheme == "simple":
        runs.genomes, runs.values = children, child_values
        return
    if settings.scheme == "mu,lambda":
        pool, pool_values = children, child_values
    elif settings.ties == "offspring-first":
        pool = np.concatenate((children, genomes), axis=1)
        pool_values = np.concatenate((child_values, values), axis=1)
    else:
        pool = np.concatenate((genomes, children), axis=1)
        pool_values = np.concatenate((values, child_values), axis=1)
    keep, runs.values = survivors(settings.survivors, pool_values, mu, bindings)
    runs.genomes = rows_of(pool, keep)


def _evaluated(runs, children: np.ndarray, inherited: np.ndarray, touched: np.ndarray):
    """The children's fitness: evaluated where ``touched`` (DEAP invalidates the fitness of
    what a variation operator touched, changed or not), else their parent's; each run's
    evaluations counted."""
    if touched.all():
        runs.evaluations += touched.shape[1]
        return runs.evaluate(children)
    runs.evaluations += touched.sum(axis=1)
    if touched.any():
        inherited[touched] = runs.fitness(children[touched])
    return inherited


def _family_draws(runs, generation: int) -> tuple:
    """The family's draws of ``generation``: each child's entrants (runs, lambda, size; size 1
    for uniform picks), its swap's first and second positions (runs, lambda), the second
    drawn below n - 1; from a window of generations drawn at once (``runs.window``)."""
    window = runs.window
    if window is None or generation not in window[0]:
        keys, settings = runs.keys, runs.settings
        span = range(generation, generation + min(WINDOW, max(4, generation)))
        size = settings.select.get("size") if settings.select.name == "tournament" else 1
        runs.window = window = (span, randomness.integers(keys, span, PARENTS, runs.mu,
                                                          (runs.lam, size)),
                                randomness.integers(keys, span, SWAPS, (runs.n, runs.n - 1),
                                                    (runs.lam, 1, 2)))
    at = generation - window[0].start
    return window[1][:, at], window[2][:, at, :, 0, 0], window[2][:, at, :, 0, 1]


def _swapped(runs, generation: int) -> None:
    """The family's generation with the problem's ``ga_swaps``: each child's fitness its
    parent's plus the change of its swap, from the state kept beside each genome (``cells``,
    a row of genome and state each); only the survivors' rows are copied, and a surviving
    child is made in its new row from its parent's."""
    settings, swaps, mu, lam, n = runs.settings, runs.swaps, runs.mu, runs.lam, runs.n
    entrants, first, second = _family_draws(runs, generation)
    values, count, width = runs.values, len(runs.values), runs.cells.shape[2]
    cells = runs.cells.reshape(-1)
    rows = tournament(values, entrants)
    rows += bases(count, mu)  # each child's parent's row
    positions = np.empty((2, count, lam), dtype=np.int64)
    positions[0] = first
    np.add(second, second >= first, out=positions[1])  # a position other than the first
    starts = rows * width
    entries = positions + starts  # where the swapped entries are in ``cells``
    columns = cells.take(entries)
    diagonals = swaps.diagonals(positions, columns, starts + n)
    child_values = values.take(rows) + swaps.change(cells.take(diagonals), diagonals)
    runs.evaluations += lam
    if settings.scheme == "mu,lambda":
        pool, sources, children = child_values, rows, 0
    elif settings.ties == "offspring-first":
        pool, children = np.concatenate((child_values, values), axis=1), 0
        sources = np.concatenate((rows, _rows(count, mu)), axis=1)
    else:
        pool, children = np.concatenate((values, child_values), axis=1), mu
        sources = np.concatenate((_rows(count, mu), rows), axis=1)
    keep, runs.values = lowest(pool, mu)
    new = runs.cells.reshape(-1, width).take(sources.take(keep + bases(count, pool.shape[1])),
                                             axis=0)
    child = keep - children
    made = ((child >= 0) & (child < lam)).reshape(-1).nonzero()[0]  # surviving children
    if len(made):
        which = (child + bases(count, lam)).reshape(-1).take(made)
        shift = (made - rows.reshape(-1).take(which)) * width  # from the parent's row to its own
        flat = new.reshape(-1)
        flat[entries.reshape(2, -1)[:, which] + shift] = columns.reshape(2, -1)[::-1, which]
        swaps.move(flat, diagonals.reshape(8, -1)[:, which] + shift)
    runs.cells = new.reshape(count, mu, width)
    better = (runs.values[:, 0] < runs.best_value).nonzero()[0]
    runs.best[better] = runs.cells[better, 0, :n]
    runs.best_value[better] = runs.values[better, 0]


@cache
def _rows(count: int, mu: int) -> np.ndarray:
    """The rows of ``count`` runs' populations, a row of mu per run."""
    return np.arange(count * mu).reshape(count, mu)
