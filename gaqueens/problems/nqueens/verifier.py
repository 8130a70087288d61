"""N-Queens' independent verifier: what a run claims of its final placement, recounted, sharing
no code with what makes the answers (the fitness, the engines, the solvers) and importing
none of it.

A placement is a sequence of columns: entry r is the column of the queen in row r, rows and
columns numbered from 0. The verifier assumes nothing of it and checks columns as well as
diagonals. Its method is not the fitness's (one bincount of every diagonal): it looks at each
line's values in turn (the columns, r - c for the falling diagonals, r + c for the rising
ones), in 4-byte integers, and finds the entries that repeat a value:

- many placements of one board at once (a row each, as the exports check every run of a
  sweep) are sorted, row by row, and equal neighbours counted;
- one placement of MARKED_FROM queens or more, too large to sort quickly, is marked: each
  entry sets a flag (a byte) at its value, and a line whose flags set are as many as its
  entries repeats no value. Where some value repeats, each entry writes its index at its
  value in an array of marks, and the entries whose index is not the one left there repeat
  a value written by another; only those few are then counted by value.
"""

from __future__ import annotations

import numpy as np

MARKED_FROM = 2**20  # one placement of this many queens or more is marked, not sorted


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


def _sorted(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``values``, the pairs of equal entries and the entries beyond the first of
    each value, by sorting: a run of k equal values holds k(k-1)/2 pairs, the sum of each
    entry's place within its run (1 for the second, up to k - 1 for the last), and k - 1
    entries beyond its first. Only the places where a value repeats its neighbour are
    gathered, so few clashes cost a sorted copy and a mask, not 8-byte counts per entry."""
    ordered = np.sort(values, axis=1)
    same = ordered[:, 1:] == ordered[:, :-1]
    del ordered
    excess = same.sum(axis=1, dtype=np.int64)
    rows, at = np.nonzero(same)
    if not len(rows):
        return np.zeros(len(values), dtype=np.int64), excess
    # consecutive within a run of equal values; a row's places are spaced one beyond its
    # length, so that a run ending one row and one starting the next are not joined
    flat = rows * (same.shape[1] + 1) + at
    fresh = np.ones(len(flat), dtype=bool)
    fresh[1:] = flat[1:] != flat[:-1] + 1
    index = np.arange(len(flat))
    first = np.maximum.accumulate(np.where(fresh, index, 0))
    places = index - first + 1
    pairs = np.bincount(rows, weights=places, minlength=len(values))  # exact below 2^53
    return pairs.astype(np.int64), excess


def _marked(values: np.ndarray, low: int, size: int) -> tuple[int, int]:
    """The pairs of equal entries of one line of ``values`` (from ``low`` to low + size - 1)
    and its entries beyond the first of each value, by marks (see the module's docstring)."""
    at = values - low if low else values
    seen = np.zeros(size, dtype=bool)
    seen[at] = True
    if np.count_nonzero(seen) == len(values):  # every value once: nothing repeats
        return 0, 0
    del seen
    index = np.arange(len(values), dtype=values.dtype)
    marks = np.empty(size, dtype=values.dtype)
    marks[at] = index  # of equal values, one index is left
    repeated = marks[at] != index
    del marks, index
    again = at[repeated]  # each value k times on the line appears k - 1 times here
    if not len(again):
        return 0, 0
    _, extra = np.unique(again, return_counts=True)
    held = extra.astype(np.int64) + 1
    return int((held * (held - 1) // 2).sum()), len(again)


def _counted(placements) -> tuple[np.ndarray, np.ndarray]:
    """Per placement (a row each), the pairs of queens that attack each other along a column
    or a diagonal, and the queens beyond the first on each line."""
    rows = _rows(placements)
    n = rows.shape[1]
    if len(rows) == 1 and n >= MARKED_FROM and 0 <= rows.min() and rows.max() < n:
        pairs = excess = 0
        for line, low in zip(_lines(rows), (0, 1 - n, 0)):
            found = _marked(line[0], low, 2 * n - 1)
            pairs, excess = pairs + found[0], excess + found[1]
        return np.array([pairs], dtype=np.int64), np.array([excess], dtype=np.int64)
    pairs = excess = 0
    for line in _lines(rows):
        found = _sorted(line)
        pairs, excess = pairs + found[0], excess + found[1]
    return pairs, excess


def attacking_pairs_rows(placements) -> np.ndarray:
    """Per placement (a row each), the pairs of queens that attack each other along a column
    or a diagonal."""
    return _counted(placements)[0]


def diagonal_excess_rows(placements) -> np.ndarray:
    """Per placement, the queens beyond the first on each line (column, falling and rising
    diagonal); for a permutation, the ``excess`` fitness."""
    return _counted(placements)[1]


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
    return bool((_counted(rows)[1] == 0).all())


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
    pairs, excess = _counted(rows)
    measured = pairs if fitness == "pairs" else excess
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
