"""gaqueens.problems.nqueens.swaps, SwapConflicts (what NQueens.ga_swaps gives the GA): a swap
child's conflicts from its parent's diagonal counters equal the full count (Conflicts), by hand
and on random permutations and swaps."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.problems.nqueens.fitness import Conflicts, FITNESSES
from gaqueens.problems import get
from gaqueens.problems.nqueens.swaps import FEW_SWAPS, SwapConflicts


def random_genomes(n, k, seed):
    return np.random.default_rng(seed).permuted(np.tile(np.arange(n), (k, 1)), axis=1)


def swapped(genomes, positions):
    children = genomes.copy()
    rows = np.arange(len(genomes))
    i, j = positions
    children[rows, i], children[rows, j] = genomes[rows, j], genomes[rows, i]
    return children


def random_swaps(n, k, seed):
    """Two distinct positions per genome, as planes (2, k)."""
    rng = np.random.default_rng(seed)
    i = rng.integers(0, n, k)
    j = rng.integers(0, n - 1, k)
    return np.stack((i, j + (j >= i)))


def columns_at(genomes, positions):
    return np.stack([genomes[np.arange(len(genomes)), p] for p in positions])


@pytest.mark.parametrize("parent, positions, child, pairs_change", [
    # P0 of tests/test_ga.py: 1 pair; its rows 0 and 1 swapped give C0, 2 pairs
    ([2, 0, 1, 3], (0, 1), [0, 2, 1, 3], +1),
    # the identity: all 6 pairs on one diagonal; rows 0 and 1 (attacking each other) swapped
    # leave (2,2)-(3,3) on the falling diagonal and (0,1)-(1,0) on the rising one
    ([0, 1, 2, 3], (0, 1), [1, 0, 2, 3], 2 - 6),
    # a solution spoilt: queens (0,1) (1,0) (2,3) (3,2); (0,1)-(1,0) and (2,3)-(3,2) share a
    # rising diagonal, (0,1)-(2,3) and (1,0)-(3,2) a falling one: 4 pairs
    ([1, 3, 0, 2], (1, 2), [1, 0, 3, 2], 4),
])
def test_a_swap_counted_by_hand(parent, positions, child, pairs_change):
    conflicts, swaps = Conflicts(4), SwapConflicts(4)
    genome = np.array([parent])
    assert swapped(genome, np.array(positions)[:, None]).tolist() == [child]
    assert conflicts(np.array([child]))[0] - conflicts(genome)[0] == pairs_change
    columns = columns_at(genome, np.array(positions)[:, None])
    diagonals = swaps.diagonals(np.array(positions)[:, None], columns)
    counts = conflicts.counts(genome)[0]
    assert swaps.change(counts[diagonals], diagonals).tolist() == [pairs_change]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 48), k=st.integers(1, 25), seed=st.integers(0, 2**32 - 1),
       measure=st.sampled_from(FITNESSES))
def test_the_change_of_a_swap_is_the_change_of_the_full_count(n, k, seed, measure):
    conflicts, swaps = Conflicts(n, measure), SwapConflicts(n, measure)
    parents = random_genomes(n, k, seed)
    positions = random_swaps(n, k, seed + 1)
    children = swapped(parents, positions)
    columns = columns_at(parents, positions)
    counts = conflicts.counts(parents)
    diagonals = swaps.diagonals(positions, columns)
    change = swaps.change(counts[np.arange(k), diagonals], diagonals)
    assert (conflicts(parents) + change).tolist() == conflicts(children).tolist()


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 48), k=st.integers(1, 2 * FEW_SWAPS), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.uint8, np.int16, np.int64]))
def test_moved_counters_are_the_childrens_counters_in_a_flat_array(n, k, seed, dtype):
    """As the GA's numpy step keeps them: each genome's row holds its n entries, then its 4n
    counters; positions are flat indices of the entries, the counters n further on. Fewer
    swaps than FEW_SWAPS are moved in one np.add.at, more in two sums: both ways are drawn."""
    conflicts, swaps = Conflicts(n), SwapConflicts(n)
    parents = random_genomes(n, k, seed)
    positions = random_swaps(n, k, seed + 1)
    children = swapped(parents, positions)
    cells = np.concatenate((parents, conflicts.counts(parents)), axis=1).astype(dtype)
    entries = positions + 5 * n * np.arange(k)
    flat = cells.reshape(-1)
    columns = flat[entries].astype(np.int64)
    diagonals = swaps.diagonals(entries, columns, n)
    values = conflicts(parents) + swaps.change(flat[diagonals], diagonals)
    assert values.tolist() == conflicts(children).tolist()
    flat[entries] = columns[::-1]
    swaps.move(flat, diagonals)
    assert cells[:, :n].tolist() == children.tolist()
    assert cells[:, n:].tolist() == conflicts.counts(children).tolist()


@pytest.mark.parametrize("measure", FITNESSES)
def test_the_ga_gets_it_from_nqueens_with_each_genomes_counters(measure):
    swaps = get("nqueens").ga_swaps(7, measure)
    assert isinstance(swaps, SwapConflicts) and swaps.measure == measure
    genomes = random_genomes(7, 5, 1)
    assert (swaps.counts(genomes) == Conflicts(7).counts(genomes)).all()


def test_an_unknown_measure_is_refused():
    with pytest.raises(ValueError, match="measure must be one of pairs, excess"):
        SwapConflicts(8, "squares")
