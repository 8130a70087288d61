"""N-Queens' independent verifier: what a run claims of its final placement, recounted, sharing
no code with what makes the answers (the fitness, the engines, the solvers) and importing
none of it.

A placement is a sequence of columns: entry r is the column of the queen in row r, rows and
columns numbered from 0. The verifier assumes nothing of it and checks columns as well as
diagonals. Its method is not the fitness's: it sorts each line's values (the columns, r - c
for the falling diagonals, r + c for the rising ones) and counts equal neighbours, where the
fitness counts every diagonal in one bincount; and it works on many placements of one board
at once (a row each, as the exports check every run of a sweep) and on one of a hundred
million queens in a few seconds, a line at a time in 4-byte integers. tests/test_board.py
checks it against counts made by hand, by brute force on small boards, and by plain Python
Counters on random placements.
"""

from __future__ import annotations

import numpy as np


def _rows(placements) -> np.ndarray:
    """Placements as a 2-D array, a row each, in the smallest integers that hold r + c."""
    array = np.asarray(placements)
    array = array[None] if array.ndim == 1 else array
    n = array.shape[1]
    return array.astype(np.int32 if 2 * n < 2**31 else np.int64, copy=False)


def _lines(rows: np.ndarray):
    """Each line's values, a line at a time: the columns, then r - c, then r + c."""
    index = np.arange(rows.shape[1], dtype=rows.dtype)
    yield rows
    yield index - rows
    yield index + rows


def _equal_pairs(values: np.ndarray) -> np.ndarray:
    """Per row of ``values``, the pairs of equal entries: sorted, a run of k equal values
    holds k(k-1)/2 pairs, the sum of each entry's place within its run (1 for the second,
    up to k - 1 for the last). Only the places where a value repeats its neighbour are
    gathered, so a placement with few clashes costs its sorted copy and a mask, not arrays of
    8-byte counts as long as the board."""
    ordered = np.sort(values, axis=1)
    same = ordered[:, 1:] == ordered[:, :-1]
    del ordered
    rows, at = np.nonzero(same)
    if not len(rows):
        return np.zeros(len(values), dtype=np.int64)
    flat = rows * same.shape[1] + at  # consecutive within a run of equal values
    fresh = np.ones(len(flat), dtype=bool)
    fresh[1:] = flat[1:] != flat[:-1] + 1
    index = np.arange(len(flat))
    first = np.maximum.accumulate(np.where(fresh, index, 0))
    places = index - first + 1
    return np.bincount(rows, weights=places, minlength=len(values)).astype(np.int64)


def _distinct(values: np.ndarray) -> np.ndarray:
    """Per row of ``values``, its distinct entries."""
    ordered = np.sort(values, axis=1)
    return 1 + (ordered[:, 1:] != ordered[:, :-1]).sum(axis=1)


def attacking_pairs_rows(placements) -> np.ndarray:
    """Per placement (a row each), the pairs of queens that attack each other along a column
    or a diagonal."""
    rows = _rows(placements)
    return sum(_equal_pairs(line) for line in _lines(rows))


def diagonal_excess_rows(placements) -> np.ndarray:
    """Per placement, the queens beyond the first on each line (column, falling and rising
    diagonal); for a permutation, the ``excess`` fitness."""
    rows = _rows(placements)
    return sum(rows.shape[1] - _distinct(line) for line in _lines(rows))


def attacking_pairs(columns) -> int:
    """The attacking pairs of one placement."""
    return int(attacking_pairs_rows(columns)[0])


def diagonal_excess(columns) -> int:
    """The queens beyond the first on each line of one placement."""
    return int(diagonal_excess_rows(columns)[0])


def is_solution(columns, n: int) -> bool:
    """True when ``columns`` places n queens, one per row, that attack nowhere: every column,
    every falling and every rising diagonal used once."""
    rows = _rows(columns)
    if rows.shape[1] != n or (n and not 0 <= rows.min() <= rows.max() < n):
        return False
    return all(bool((_distinct(line) == n).all()) for line in _lines(rows))


def rejection_rows(placements, n: int, conflicts, solved, target: int = 0,
                   fitness: str = "pairs") -> list[str | None]:
    """What the verifier finds wrong with each run's claims about its final placement (a row
    each), or None where it confirms them: n columns, each from 0 to n-1 (min-conflicts lets
    columns clash until it solves the board; for a GA genome that is not a permutation the
    recount of the pairs, columns included, disagrees), ``conflicts`` attacking pairs, and
    ``solved`` exactly when its ``fitness`` (pairs, or excess) is at most ``target``: a
    placement of n columns in 0..n-1 without an attacking pair is a solution."""
    rows = _rows(placements)
    if rows.shape[1] != n:
        return [f"it reports {rows.shape[1]} columns on a board of {n}"] * len(rows)
    outside = (rows < 0).any(axis=1) | (rows >= n).any(axis=1)
    pairs = attacking_pairs_rows(rows)
    measured = pairs if fitness == "pairs" else diagonal_excess_rows(rows)
    conflicts, solved = np.asarray(conflicts), np.asarray(solved, dtype=bool)
    out: list[str | None] = [None] * len(rows)
    for i in np.flatnonzero(outside | (pairs != conflicts) | (solved != (measured <= target))):
        if outside[i]:
            out[i] = f"its placement has a column outside 0..{n - 1}"
        else:
            out[i] = (f"it reports {conflicts[i]} conflicts (solved: {bool(solved[i])}), the "
                      f"verifier counts {pairs[i]}"
                      + ("" if fitness == "pairs" else f" ({measured[i]} by the {fitness} fitness)"))
    return out  # no attacking pair, and n columns in 0..n-1, is a solution


def rejection(columns, n: int, conflicts: int, solved: bool, target: int = 0,
              fitness: str = "pairs") -> str | None:
    """What the verifier finds wrong with one run's claims (see rejection_rows), or None."""
    if len(columns) != n:
        return f"it reports {len(columns)} columns on a board of {n}"
    return rejection_rows(np.asarray(columns)[None], n, [conflicts], [solved], target, fitness)[0]
