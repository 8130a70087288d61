"""The GA's generation of the published family on N-Queens, compiled by numba: what
gaqueens.ga.generation.step does in numpy for those settings, done row by row in one call
(``ga.run_many(..., compiled=True)``; a sweep asks for it when it is large, by the rule of
gaqueens.runtime.batches). ``Generation`` is what NQueens.ga_compiled gives the GA (the
protocol is gaqueens.ga.generation's).

The same generation, number for number, from the same draws: each child's parent is the first
drawn of the lowest fitness among its entrants (or the uniform pick), its swap the drawn
positions, its fitness its parent's plus the change of the swap, from the parent's diagonal
counters (a row of n + 4n cells per genome: its columns, then the queens on each falling
diagonal r - c at r - c + n - 1 and each rising r + c at r + c + 2n, the layout of
gaqueens.problems.nqueens.fitness.Conflicts.counts); the survivors are the first mu of a
stable sort of the pool, children first or the population first on ties (mu+lambda: a merge
of the children, sorted stably, with the population, which is sorted), or of the children
(mu,lambda). The genomes do not move: ``slots`` says which row of its run's mu holds each
rank, and a surviving child is made from its parent's row in a row that a dropped member
leaves; a child of a dropped member is made aside first, and copied in once every child has
been made. tests/test_numpy_engine.py runs the family both ways.

Importing this module compiles the kernel for its three types of counters, or reads it from
numba's cache; ga.run_many imports it before a batch's clock starts, so that no run's seconds
count it.
"""

from __future__ import annotations

import numpy as np

from numba import types

from gaqueens.core.jit import kernel
from gaqueens.problems.nqueens.fitness import Conflicts

SCHEMES = {("mu,lambda", "offspring-first"): 0, ("mu,lambda", "parents-first"): 0,
           ("mu+lambda", "offspring-first"): 1, ("mu+lambda", "parents-first"): 2}
MEASURES = {"pairs": 0, "excess": 1}


class Generation:
    """The compiled generation of one board, measure, scheme and tie rule. Its state is a
    batch's (cells, slots): the genomes and their counters, a row each, mu rows a run, and
    which of a run's rows holds each rank."""

    def __init__(self, n: int, measure: str, scheme: str, ties: str):
        self.n, self.measure = n, measure
        self.scheme, self.code = SCHEMES[scheme, ties], MEASURES[measure]

    def start(self, genomes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        runs, mu, n = genomes.shape
        cells = np.empty((runs * mu, 5 * n), dtype=genomes.dtype)
        cells[:, :n] = genomes.reshape(-1, n)
        cells[:, n:] = Conflicts(n, self.measure).counts(genomes.reshape(-1, n))
        return cells, np.tile(np.arange(mu), (runs, 1))

    def advance(self, state, values, entrants, first, second, evaluations, best,
                best_value) -> None:
        cells, slots = state
        _generation(cells, values, slots, entrants, first, second, self.n, self.scheme,
                    self.code, evaluations, best, best_value)

    @staticmethod
    def keep(state, going: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cells, slots = state
        return cells[np.repeat(going, slots.shape[1])], slots[going]


@kernel(nogil=True)
def _change(cells, row, n, i, j, ci, cj, measure):
    """The change of the measure when the queens of rows i and j (columns ci, cj) of the
    genome in ``row`` swap columns: its counters start n cells after its first entry, the
    falling diagonal r - c at r - c + n - 1, the rising r + c at r + c + 2n."""
    fall, rise = 2 * n - 1, 3 * n
    d0, d1 = fall + i - ci, fall + j - cj  # the falling left
    d2, d3 = rise + i + ci, rise + j + cj  # the rising left
    d4, d5 = fall + i - cj, fall + j - ci  # the falling entered
    d6, d7 = rise + i + cj, rise + j + ci  # the rising entered
    c0, c1, c2, c3 = np.int64(cells[row, d0]), np.int64(cells[row, d1]), \
        np.int64(cells[row, d2]), np.int64(cells[row, d3])
    c4, c5, c6, c7 = np.int64(cells[row, d4]), np.int64(cells[row, d5]), \
        np.int64(cells[row, d6]), np.int64(cells[row, d7])
    attack, rising = d0 == d1, d2 == d3
    if measure == 0:
        return c4 + c5 + c6 + c7 - c0 - c1 - c2 - c3 + (6 if attack or rising else 4)
    change = ((c4 >= 1) + (c5 >= 1) + (c6 >= 1) + (c7 >= 1)
              - (c0 >= 2) - (c1 >= 2) - (c2 >= 2) - (c3 >= 2))
    if attack:
        change += (c0 == 2) + (c6 == 0)
    if rising:
        change += (c2 == 2) + (c4 == 0)
    return change


@kernel(nogil=True)
def _copy_row(new, target, cells, source):
    """Row ``source`` of ``cells`` into row ``target`` of ``new``."""
    for c in range(cells.shape[1]):
        new[target, c] = cells[source, c]


@kernel(nogil=True)
def _make_child(new, target, cells, source, n, i, j):
    """Writes into row ``target`` of ``new`` the genome of row ``source`` of ``cells`` with
    the entries of rows i and j swapped, its counters following."""
    _copy_row(new, target, cells, source)
    ci, cj = np.int64(cells[source, i]), np.int64(cells[source, j])
    fall, rise = 2 * n - 1, 3 * n
    new[target, fall + i - ci] -= 1
    new[target, fall + j - cj] -= 1
    new[target, rise + i + ci] -= 1
    new[target, rise + j + cj] -= 1
    new[target, fall + i - cj] += 1
    new[target, fall + j - ci] += 1
    new[target, rise + i + cj] += 1
    new[target, rise + j + ci] += 1
    new[target, i], new[target, j] = cells[source, j], cells[source, i]


def _signatures() -> list[tuple]:
    """_generation's argument types, for each type of counters (gaqueens.ga.numpy_engine.small):
    the draws as any view (numba compiles each layout apart, and a batch's draws are views of
    a window), the rest contiguous, as the batch makes them."""
    def array(kind, dims, layout="C"):
        return types.Array(kind, dims, layout)

    whole = types.int64
    return [(array(cell, 2), array(whole, 2), array(whole, 2), array(whole, 3, "A"),
             array(whole, 2, "A"), array(whole, 2, "A"), whole, whole, whole, array(whole, 1),
             array(cell, 2), array(whole, 1))
            for cell in (types.uint8, types.int16, types.int32)]


@kernel(nogil=True)
def _survivors(values, slots, r, child_values, order, lam, scheme, kept_values, kept_slots,
               taken):
    """Row r's survivors: the first mu of the children (sorted, ``order``) merged with the
    population (sorted), children first on ties (scheme 1) or the population first (2), or
    the children alone (0). Their values go to ``kept_values``; a surviving member's slot to
    ``kept_slots``, a surviving child's place among the surviving children as -1 - place,
    and its index to ``taken``. Returns how many children and how many members survive: the
    members kept are those of ranks 0 to members - 1."""
    mu = values.shape[1]
    a, b = 0, 0  # the next child, the next of the population
    for m in range(mu):
        if scheme == 0:
            take_child = True
        elif a == lam:
            take_child = False
        elif b == mu:
            take_child = True
        elif scheme == 1:
            take_child = child_values[order[a]] <= values[r, b]
        else:
            take_child = child_values[order[a]] < values[r, b]
        if take_child:
            taken[a] = order[a]
            kept_values[m] = child_values[order[a]]
            kept_slots[m] = -1 - a
            a += 1
        else:
            kept_values[m] = values[r, b]
            kept_slots[m] = slots[r, b]
            b += 1
    return a, b


@kernel(nogil=True, signatures=_signatures())
def _generation(cells, values, slots, entered, first, second, n, scheme, measure, evaluations,
                best, best_value):
    """A generation of every row, in place, from the draws (gaqueens.ga.generation):
    ``entered`` (rows, lambda, entrants) the ranks of the parents' entrants, ``first`` and
    ``second`` (rows, lambda) the swaps' positions, the second drawn among the n - 1 others
    than the first; ``values`` and ``slots`` (rows, mu) each row's fitness, sorted, and the
    row of ``cells`` (of the mu from mu times the row) that holds each; the evaluations, the
    best found and its value updated too. The survivors stay in their rows: each surviving
    child is made in a row a dropped member leaves (aside first, when it is made from a
    dropped member), so a generation copies a row per surviving child of a kept member and two
    per surviving child of a dropped one, none per surviving member."""
    rows, mu = values.shape
    lam, entrants = entered.shape[1], entered.shape[2]
    parents = np.empty(lam, np.int64)  # each child's parent, by rank
    seconds = np.empty(lam, np.int64)  # each child's second position
    child_values = np.empty(lam, np.int64)
    order = np.empty(lam, np.int64)
    kept_values = np.empty(mu, np.int64)
    kept_slots = np.empty(mu, np.int64)
    taken = np.empty(mu, np.int64)  # the surviving children
    aside = np.empty((mu, cells.shape[1]), cells.dtype)
    for r in range(rows):
        base = r * mu
        for k in range(lam):
            winner = entered[r, k, 0]
            for t in range(1, entrants):
                other = entered[r, k, t]
                if values[r, other] < values[r, winner]:
                    winner = other
            parents[k] = winner
            row = base + slots[r, winner]
            i, j = first[r, k], second[r, k]
            j += j >= i  # a position other than i, as Swap makes it
            seconds[k] = j
            ci, cj = np.int64(cells[row, i]), np.int64(cells[row, j])
            child_values[k] = values[r, winner] + _change(cells, row, n, i, j, ci, cj, measure)
        for k in range(lam):  # the children sorted, stably (insertion: a few dozen)
            value, place = child_values[k], k
            while place > 0 and child_values[order[place - 1]] > value:
                order[place] = order[place - 1]
                place -= 1
            order[place] = k
        made, members = _survivors(values, slots, r, child_values, order, lam, scheme,
                                   kept_values, kept_slots, taken)
        # the members of rank ``members`` and on are dropped: their rows take the children
        for t in range(made):
            k = taken[t]
            if parents[k] >= members:  # made from a dropped member, whose row is taken
                _make_child(aside, t, cells, base + slots[r, parents[k]], n, first[r, k],
                            seconds[k])
        for t in range(made):
            k = taken[t]
            if parents[k] < members:
                _make_child(cells, base + slots[r, members + t], cells,
                            base + slots[r, parents[k]], n, first[r, k], seconds[k])
        for t in range(made):
            if parents[taken[t]] >= members:
                _copy_row(cells, base + slots[r, members + t], aside, t)
        for m in range(mu):
            slot = kept_slots[m]
            kept_slots[m] = slot if slot >= 0 else slots[r, members - 1 - slot]
        for m in range(mu):
            values[r, m] = kept_values[m]
            slots[r, m] = kept_slots[m]
        evaluations[r] += lam
        if values[r, 0] < best_value[r]:
            best_value[r] = values[r, 0]
            row = base + slots[r, 0]
            for c in range(n):
                best[r, c] = cells[row, c]
