"""The compiled kernels of the local search, min-conflicts and plain backtracking
(gaqueens.baselines.*_kernel): their random numbers against SplitMix64's published outputs,
the local search against a plain Python reading of its docstring run on the same random
numbers, plain backtracking node for node against its first, mask-per-row search, each
kernel's bookkeeping against brute force, and the cache (gaqueens.core.jit); and heuristic
backtracking draw for draw against its first, list-per-depth search."""

import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backtracking_reference import heuristic_search, search as reference_search

from gaqueens.baselines import (backtracking, backtracking_kernel, local_search,
                                local_search_kernel, min_conflicts, min_conflicts_kernel)
from gaqueens.baselines.backtracking_heuristic import _Attempt
from gaqueens.problems.nqueens.verifier import attacking_pairs
from gaqueens.core.jit import kernel

MASK = 2**64 - 1
KERNELS = [local_search_kernel, min_conflicts_kernel]


class SplitMix64:
    """SplitMix64 in plain Python integers (Steele, Lea and Flood 2014), and the draw below a
    span that both kernels document: int(u * span), u the top 53 bits as a fraction of 1."""

    def __init__(self, seed):
        self.state = seed % 2**64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, span):
        return int((self.next() >> 11) / 2**53 * span)


# ---- random numbers -------------------------------------------------------------------------


def test_the_python_generator_gives_splitmix64s_published_outputs():
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821]
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("module", KERNELS, ids=lambda m: m.__name__.split(".")[-1])
def test_each_kernels_draw_is_splitmix64s(module):
    """With span 2^53 a draw is the output's top 53 bits exactly."""
    state, reference = np.uint64(1234567), SplitMix64(1234567)
    for _ in range(100):
        state, value = module.draw(np.uint64(state), 2**53)  # numba hands back an int
        assert value == reference.next() >> 11


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, MASK), span=st.integers(1, 10**7))
def test_a_draw_is_below_its_span_and_as_documented(seed, span):
    for module in KERNELS:
        state, value = module.draw(np.uint64(seed), span)
        assert 0 <= value < span and value == SplitMix64(seed).below(span)
        assert int(state) == (seed + 0x9E3779B97F4A7C15) & MASK


# ---- the local search against its docstring -------------------------------------------------


def attacked_rows(columns):
    down = Counter(r - c for r, c in enumerate(columns))
    up = Counter(r + c for r, c in enumerate(columns))
    return [r for r, c in enumerate(columns) if down[r - c] > 1 or up[r + c] > 1]


def reference_local_search(n, tries, factor, budget, seed):
    """gaqueens.baselines.local_search's docstring and settings, read plainly: every count
    redone from scratch with the verifier. Returns the placement, its pairs, the swaps tried
    and the greedy starts made."""
    rng, tried, starts = SplitMix64(seed), 0, 0
    while True:
        starts += 1
        columns = list(range(n))
        for i in range(n):  # the greedy start: each draw a candidate swap, counted
            for draws in range(1, tries + 1):
                j = i + rng.below(n - i)
                if not any(abs(columns[j] - columns[k]) == i - k for k in range(i)):
                    break
            tried += draws
            columns[i], columns[j] = columns[j], columns[i]
        conflicts = attacking_pairs(columns)
        made = fruitless = since = 0
        listed = []
        while conflicts and fruitless < factor * n and made < budget - tried:
            if not listed or since >= n // 64:
                listed, since = attacked_rows(columns), 0
            still = []
            for i in listed:
                if i not in attacked_rows(columns):
                    continue
                j = rng.below(n - 1)
                j += j >= i
                made, since = made + 1, since + 1
                columns[i], columns[j] = columns[j], columns[i]
                after = attacking_pairs(columns)
                if after < conflicts:
                    conflicts, fruitless = after, 0
                else:
                    columns[i], columns[j] = columns[j], columns[i]
                    fruitless += 1
                still.append(i)
                if not conflicts or fruitless >= factor * n or made >= budget - tried:
                    break
            listed = still
        tried += made
        if conflicts == 0 or tried >= budget:
            return columns, conflicts, tried, starts


CASES = [(n, tries, factor, budget) for n in (1, 4, 5, 8, 13, 30)
         for tries, factor, budget in ((50, 32, 10**9), (1, 1, 10**9), (2, 1, 200), (3, 2, 60))]


@pytest.mark.parametrize("n, tries, factor, budget", CASES)
def test_the_local_search_is_its_docstring_run_on_the_same_random_numbers(n, tries, factor,
                                                                         budget):
    restarted = False
    for seed in range(12):
        columns, conflicts, tried, starts = reference_local_search(n, tries, factor, budget, seed)
        result = local_search.run(local_search.Settings(start_tries=tries, restart_factor=factor,
                                                        budget=budget), n, seed)
        assert result.solution.tolist() == columns
        assert (result.conflicts, result.work) == (conflicts, tried)
        restarted |= starts > 1
    if (tries, factor) == (1, 1) and n >= 8:
        assert restarted  # the restart path ran


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 30), seed=st.integers(0, MASK), data=st.data())
def test_local_search_swap_returns_the_change_in_attacking_pairs_and_undoes_itself(n, seed, data):
    columns, down, up = (np.empty(n, np.int32), np.empty(2 * n - 1, np.int32),
                         np.empty(2 * n - 1, np.int32))
    local_search_kernel.greedy_start(columns, down, up, 3, np.uint64(seed))
    before = columns.tolist()
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1).filter(lambda j: j != i))
    change = local_search_kernel.swap(columns, down, up, i, j)
    assert change == attacking_pairs(columns) - attacking_pairs(before)
    assert local_search_kernel.swap(columns, down, up, i, j) == -change
    assert columns.tolist() == before
    rows = np.arange(n)
    assert down.tolist() == np.bincount(rows - columns + n - 1, minlength=2 * n - 1).tolist()
    assert up.tolist() == np.bincount(rows + columns, minlength=2 * n - 1).tolist()


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), seed=st.integers(0, MASK), tries=st.integers(1, 6))
def test_a_greedy_start_row_attacking_a_queen_above_it_spent_every_draw(n, seed, tries):
    columns, down, up = (np.empty(n, np.int32), np.empty(2 * n - 1, np.int32),
                         np.empty(2 * n - 1, np.int32))
    draws, _ = local_search_kernel.greedy_start(columns, down, up, tries, np.uint64(seed))
    assert sorted(columns.tolist()) == list(range(n))
    settled_badly = sum(any(abs(columns[i] - columns[k]) == i - k for k in range(i))
                        for i in range(n))
    assert n + (tries - 1) * settled_badly <= draws <= n * tries


# ---- min-conflicts' bookkeeping -------------------------------------------------------------


def check_board(board, listed, flagged, n):
    """Every count of a min-conflicts board against the placement, recounted."""
    columns, on, rows, free, slot, tally = (a.tolist() for a in board)
    lines = [[c, 2 * n - 1 + r - c, 3 * n - 1 + r + c] for r, c in enumerate(columns)]
    assert on == np.bincount(np.ravel(lines), minlength=5 * n - 2).tolist()
    xor = [0] * (5 * n - 2)
    for r, line in enumerate(lines):
        for index in line:
            xor[index] ^= r
    assert rows == xor
    assert tally[1] == attacking_pairs(columns)
    assert sorted(free[:tally[0]]) == sorted(set(range(n)) - set(columns))
    assert all(slot[c] == k for k, c in enumerate(free[:tally[0]]))
    shown = listed[:tally[2]].tolist()
    assert len(shown) == len(set(shown)) and set(np.flatnonzero(flagged)) == set(shown)
    assert set(attacked_rows_any(columns)) <= set(shown)


def attacked_rows_any(columns):
    """Rows whose queen shares a column or a diagonal with another."""
    return [r for r, c in enumerate(columns)
            if any(c == oc or abs(c - oc) == abs(r - orow)
                   for orow, oc in enumerate(columns) if orow != r)]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 30), seed=st.integers(0, MASK), tries=st.integers(1, 5))
def test_min_conflicts_moves_a_queen_to_a_least_conflicted_column(n, seed, tries):
    board = min_conflicts_kernel.new_board(n)
    listed, flagged = np.empty(n, np.int32), np.zeros(n, np.bool_)
    state = min_conflicts_kernel.greedy_start(board, listed, flagged, tries, np.uint64(seed))
    check_board(board, listed, flagged, n)
    r = seed % n
    min_conflicts_kernel.lift(board, r)
    others = [(row, c) for row, c in enumerate(board[0].tolist()) if row != r]

    def conflicts(c):
        return sum(c == oc or abs(c - oc) == abs(r - orow) for orow, oc in others)

    chosen, state = min_conflicts_kernel.best_column(board, r, tries, np.uint64(state))
    assert conflicts(chosen) == min(conflicts(c) for c in range(n))
    min_conflicts_kernel.place(board, r, chosen)
    assert board[5][1] == attacking_pairs(board[0])


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 24), seed=st.integers(0, MASK), tries=st.integers(1, 3))
def test_min_conflicts_keeps_every_count_and_lists_every_attacked_queen_move_by_move(n, seed,
                                                                                     tries):
    board = min_conflicts_kernel.new_board(n)
    listed, flagged = np.empty(n, np.int32), np.zeros(n, np.bool_)
    state = min_conflicts_kernel.greedy_start(board, listed, flagged, tries, np.uint64(seed))
    for _ in range(3 * n):
        made, state = min_conflicts_kernel.repair(board, listed, flagged, tries, 1,
                                                  np.uint64(state))
        check_board(board, listed, flagged, n)
        if not made:
            assert board[5][1] == 0
            break


@settings(max_examples=60, deadline=None)
@given(n=st.integers(8, 40), seed=st.integers(0, MASK), budget=st.integers(1, 400),
       factor=st.integers(1, 3))
def test_min_conflicts_spends_its_budget_to_the_move(n, seed, budget, factor):
    """A run stops at a solution, or once ``budget`` moves are made: up to N - 1 beyond it when
    the budget runs out in a greedy start (which always finishes, and counts N)."""
    result = min_conflicts.run(min_conflicts.Settings(restart_factor=factor, budget=budget),
                               n, seed)
    assert result.work >= n and result.conflicts == attacking_pairs(result.solution)
    if not result.solved:
        assert budget <= result.work < budget + n
    else:
        assert result.work < budget + n


def test_min_conflicts_restarts_and_still_solves():
    """With restarts after N repair moves, some runs of 30 queens need more than one greedy
    start (more than 2N moves) and end solved."""
    runs = [min_conflicts.run(min_conflicts.Settings(restart_factor=1), 30, seed)
            for seed in range(200)]
    assert all(run.solved for run in runs)
    assert any(run.work > 2 * 30 for run in runs)


# ---- the cache ------------------------------------------------------------------------------


def test_a_function_numba_cannot_cache_is_compiled_without_a_cache():
    namespace = {}
    exec("def twice(x):\n    return 2 * x\n", namespace)  # no source file: nowhere to cache
    assert kernel(namespace["twice"])(21) == 42


def test_the_kernels_cache_where_numba_cache_dir_says_and_a_second_process_reads_it(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    program = ("from gaqueens.baselines import local_search, local_search_kernel as k\n"
               "local_search.run(local_search.Settings(), 12, 1)\n"
               "print(sum(k.solve.stats.cache_hits.values()),"
               " sum(k.solve.stats.cache_misses.values()))\n")
    first = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                           text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["0", "1"]  # compiled and written
    assert list((tmp_path / "cache").rglob("*.nbi"))
    second = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                            text=True, timeout=300)
    assert second.stdout.split() == ["1", "0"], second.stderr  # read back, not compiled


def test_the_main_job_does_not_import_numba(tmp_path):
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gaqueens.sweep", "experiments/n8.yaml",
         "--out", str(tmp_path / "n8"), "--seeds", "1..3", "--quiet"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "MPLCONFIGDIR": str(tmp_path / "mpl")},
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr[-2000:]
    imported = [line.split("|")[-1].strip() for line in done.stderr.splitlines()]
    assert "gaqueens.core.algorithms" in imported and "numpy" in imported
    assert not [name for name in imported if name.split(".")[0] in ("numba", "llvmlite")]


# ---- plain backtracking's kernel against the mask-per-row search ----------------------------


@settings(max_examples=200, deadline=None)
@given(board=st.integers(4, 20), budget=st.integers(1, 200_000))
def test_backtracking_places_the_same_rows_node_for_node_as_the_mask_per_row_search(board, budget):
    assert backtracking.search(board, budget) == reference_search(board, budget)


@pytest.mark.parametrize("board", [1, *range(4, 21), 63, 64, 65, 127, 128, 129, 200])
@pytest.mark.parametrize("budget", [1, 7, 100, 5_000, 60_000])
def test_backtracking_matches_the_reference_on_every_board_and_across_word_boundaries(board, budget):
    path, nodes = backtracking.search(board, budget)
    assert (path, nodes) == reference_search(board, budget)
    assert attacking_pairs(path) == 0 if path else True


def test_the_lowest_bit_table_indexes_every_bit():
    assert sorted(backtracking_kernel.LOWEST.tolist()) == list(range(64))
    columns = np.zeros(2, np.uint64)
    empty = np.zeros(4, np.uint64)
    for c in (0, 1, 37, 63, 64, 99):
        assert backtracking_kernel.first_free(columns, empty, empty, 100, 0, c, 0) == c
    backtracking_kernel.mark(columns, 64, True)
    assert backtracking_kernel.first_free(columns, empty, empty, 100, 0, 64, 0) == 65
    assert backtracking_kernel.first_free(columns, empty, empty, 100, 0, 100, 0) == -1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300), seed=st.integers(0, 2**32 - 1))
def test_the_int32_pair_count_of_a_permutation_is_the_verifiers(n, seed):
    placement = np.random.default_rng(seed).permutation(n).astype(np.int32)
    assert backtracking_kernel.pairs(placement) == attacking_pairs(placement)


# ---- heuristic backtracking against its list-per-depth search -------------------------------


@settings(max_examples=80, deadline=None)
@given(n=st.sampled_from([1, *range(4, 40)]), seed=st.integers(0, 2**63 - 1),
       limit=st.integers(1, 400))
def test_heuristic_backtracking_keeps_the_list_per_depth_searchs_squares_and_random_stream(
        n, seed, limit):
    ours, theirs = (_Attempt(n, np.random.default_rng(seed)) for _ in range(2))
    assert ours.search(limit) == heuristic_search(theirs, limit)
    assert ours.nodes == theirs.nodes
    assert ours.placement().tolist() == theirs.placement().tolist()
    assert ours.rng.bit_generator.state == theirs.rng.bit_generator.state
