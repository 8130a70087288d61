"""The fitness, the verifier and the facts of the table, against hand counts and brute force."""

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaqueens.problems.nqueens.facts import drawing, known_solutions, mean_attacking_pairs
from gaqueens.problems.nqueens.fitness import Conflicts
from gaqueens.problems.nqueens import verifier
from gaqueens.problems.nqueens.verifier import attacking_pairs, is_solution

EIGHT = [5, 2, 0, 6, 4, 7, 1, 3]  # the published example's answer


def all_permutations(n):
    return np.array(list(itertools.permutations(range(n))))


@pytest.mark.parametrize("n", [1, 2, 5, 8, 32, 128])
def test_identity_puts_every_pair_on_one_diagonal(n):
    identity = np.arange(n)[None, :]
    assert Conflicts(n)(identity).tolist() == [n * (n - 1) // 2]
    assert attacking_pairs(identity[0]) == n * (n - 1) // 2


def test_a_solution_has_no_conflicts():
    assert Conflicts(8)(np.array([EIGHT])).tolist() == [0]
    assert Conflicts(4)(np.array([[1, 3, 0, 2]])).tolist() == [0]
    assert is_solution(EIGHT, 8) and is_solution([1, 3, 0, 2], 4)


def test_a_placement_counted_by_hand():
    # queens (0,0) (1,2) (2,1) (3,3): (0,0)-(3,3) share the falling diagonal and (1,2)-(2,1)
    # the rising one; no other pair meets
    assert Conflicts(4)(np.array([[0, 2, 1, 3]])).tolist() == [2]
    assert attacking_pairs([0, 2, 1, 3]) == 2


def test_three_queens_on_one_diagonal_make_three_pairs():
    # (0,4) (1,3) (2,2) share the rising diagonal r + c = 4: 3 pairs; (3,0) and (4,1) share the
    # falling diagonal r - c = 3: 1 pair; no other two queens meet
    placement = [4, 3, 2, 0, 1]
    assert attacking_pairs(placement) == 3 + 1
    assert Conflicts(5)(np.array([placement])).tolist() == [4]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), k=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_batched_fitness_matches_the_verifier_row_by_row(n, k, seed):
    genomes = np.random.default_rng(seed).permuted(np.tile(np.arange(n), (k, 1)), axis=1)
    assert Conflicts(n)(genomes).tolist() == [attacking_pairs(g) for g in genomes]


def _pairs_by_hand(columns) -> int:
    """Every two queens compared: same column or same diagonal."""
    return sum(a == b or abs(a - b) == j - i
               for (i, a), (j, b) in itertools.combinations(enumerate(columns), 2))


def test_rows_counted_together_keep_their_clashes_apart():
    # the columns, sorted: row 0 ends 1, 1 and row 1 starts 1, 1; a count that joined the two
    # runs of equal values gave row 1 a pair too many (found by a property test of the batch
    # check). By hand, queens as (row, column): row 0, (0,0)-(1,1) a diagonal and (1,1)-(2,1)
    # the column: 2 pairs; row 1, (0,1)-(1,1) the column and (1,1)-(2,2) a diagonal: 2 pairs
    rows = np.array([[0, 1, 1], [1, 1, 2]])
    assert verifier.attacking_pairs_rows(rows).tolist() == [2, 2]
    assert [_pairs_by_hand(r) for r in rows] == [2, 2]
    assert verifier.diagonal_excess_rows(rows).tolist() == [
        verifier.diagonal_excess(r) for r in rows]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=6, max_size=6), min_size=1, max_size=8))
def test_the_verifier_counts_each_row_of_a_batch_as_by_hand(rows):
    """Any placements (columns may clash), counted together: each row's pairs are those of
    comparing its queens two by two, and the same as counting it alone."""
    batch = np.array(rows)
    assert verifier.attacking_pairs_rows(batch).tolist() == [_pairs_by_hand(r) for r in rows]
    assert verifier.attacking_pairs_rows(batch).tolist() == [attacking_pairs(r) for r in rows]


def test_brute_force_over_all_8x8_permutations_finds_the_92_solutions_and_mean_5():
    conflicts = Conflicts(8)(all_permutations(8))
    assert int((conflicts == 0).sum()) == 92 == known_solutions(8)[0]
    assert conflicts.mean() == pytest.approx(mean_attacking_pairs(8)) == 5


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_mean_attacking_pairs_is_exact_on_small_boards(n):
    conflicts = Conflicts(n)(all_permutations(n))
    assert conflicts.mean() == pytest.approx(mean_attacking_pairs(n))
    assert int((conflicts == 0).sum()) == known_solutions(n)[0]


@pytest.mark.parametrize("placement, n", [
    ([0, 0, 1, 2], 4),          # not a permutation: a column twice
    ([1, 3, 0], 4),             # too short
    ([1, 3, 0, 2, 4], 4),       # too long
    ([1, 3, 0, 4], 4),          # a column off the board
    ([-1, 1, 3, 0], 4),         # a negative column
    ([0, 2, 1, 3], 4),          # a permutation with diagonal clashes
    ([0, 2, 4, 3, 1], 5),       # a solution with its last two rows swapped: (0,0)-(3,3) clash
])
def test_verifier_rejects(placement, n):
    assert not is_solution(placement, n)


def test_verifier_counts_column_clashes_too():
    # three queens in column 0 make 3 pairs; their diagonals r - c and r + c are all distinct
    assert attacking_pairs([0, 0, 0]) == 3
    assert is_solution([0, 2, 4, 1, 3], 5)


def test_known_solutions_come_from_the_shipped_table():
    assert known_solutions(1) == (1, 1)
    assert known_solutions(2) == (0, 0)
    assert known_solutions(16) == (14_772_512, 1_846_955)
    assert known_solutions(27) == (234_907_967_154_122_528, 29_363_495_934_315_694)
    assert known_solutions(28) is None


def test_drawing_has_a_queen_per_row():
    lines = drawing([1, 3, 0, 2]).splitlines()
    assert lines == [". Q . .", ". . . Q", "Q . . .", ". . Q ."]


def test_a_board_too_large_to_draw_is_not_drawn():
    from gaqueens.problems.nqueens.facts import DRAWN_UP_TO

    assert len(drawing(np.arange(DRAWN_UP_TO)).splitlines()) == DRAWN_UP_TO
    assert drawing(np.arange(10**8, dtype=np.int32)) == ""  # not 10^16 characters


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 60), seed=st.integers(0, 2**32 - 1), spread=st.sampled_from([1, 3, 60]))
def test_marking_and_sorting_count_the_same_pairs_and_excess_as_counters(n, seed, spread):
    placement = np.random.default_rng(seed).integers(0, max(1, n // spread), n)
    expected_pairs = expected_excess = 0
    for line in (placement, np.arange(n) - placement, np.arange(n) + placement):
        held = Counter(line.tolist()).values()
        expected_pairs += sum(k * (k - 1) // 2 for k in held)
        expected_excess += sum(k - 1 for k in held)
    with pytest.MonkeyPatch.context() as patch:  # marks from 1 queen on, then sorting
        for threshold in (1, verifier.MARKED_FROM):
            patch.setattr(verifier, "MARKED_FROM", threshold)
            assert verifier.attacking_pairs(placement) == expected_pairs
            assert verifier.diagonal_excess(placement) == expected_excess
            assert verifier.is_solution(placement, n) == (expected_pairs == 0)
            assert verifier.rejection(placement, n, expected_pairs, expected_pairs == 0) is None


def test_marking_a_solution_finds_nothing_and_a_swap_of_it_its_clashes():
    """The marked path's early answer (every value once on every line) on a solution of 10
    queens, and its full count on the same placement with two queens swapped."""
    solution = np.array([0, 2, 5, 7, 9, 4, 8, 1, 3, 6])
    swapped = solution.copy()
    swapped[[0, 1]] = swapped[[1, 0]]  # rows 0 and 1 trade their columns
    counts = [Counter(line.tolist()).values()
              for line in (swapped, np.arange(10) - swapped, np.arange(10) + swapped)]
    pairs = sum(k * (k - 1) // 2 for held in counts for k in held)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verifier, "MARKED_FROM", 1)
        assert verifier.is_solution(solution, 10)
        assert verifier.attacking_pairs(solution) == verifier.diagonal_excess(solution) == 0
        assert pairs > 0 and verifier.attacking_pairs(swapped) == pairs
        assert not verifier.is_solution(swapped, 10)
