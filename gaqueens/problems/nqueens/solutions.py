"""Every solution of a small N-Queens board, in lexicographic order, and its class under the 8
symmetries of the square.

A solution is a tuple of columns: entry r is the column of the queen in row r, rows and
columns from 0. The symmetries are the 4 turns and the 4 reflections of the square; a
solution's class is its images under them, and the fundamental solution of a class is its
least member compared as sequences (Python's tuple order), as counted by OEIS A002562.
Listing stops at LARGEST (14,200 solutions of 12 x 12): beyond it, too many for a page or a
terminal to be of use.
"""

from __future__ import annotations

from collections.abc import Iterator

LARGEST = 12


def solutions(n: int) -> Iterator[tuple[int, ...]]:
    """The solutions of the n x n board in lexicographic order (a search row by row, each row's
    columns tried from the left, on bit masks of the columns and diagonals taken)."""
    if n < 1:
        raise ValueError(f"a board has at least one row, got {n}")
    full = (1 << n) - 1
    placed: list[int] = []

    def search(columns: int, falling: int, rising: int) -> Iterator[tuple[int, ...]]:
        if columns == full:
            yield tuple(placed)
            return
        free = full & ~(columns | falling | rising)
        while free:
            bit = free & -free  # the lowest free column: the leftmost
            free ^= bit
            placed.append(bit.bit_length() - 1)
            yield from search(columns | bit, ((falling | bit) << 1) & full, (rising | bit) >> 1)
            placed.pop()

    return search(0, 0, 0)


def quarter_turn(p) -> tuple[int, ...]:
    """The placement turned a quarter clockwise: the queen (r, c) goes to (c, n - 1 - r)."""
    q = [0] * len(p)
    for r, c in enumerate(p):
        q[c] = len(p) - 1 - r
    return tuple(q)


def mirror(p) -> tuple[int, ...]:
    """Left and right exchanged: the queen (r, c) goes to (r, n - 1 - c)."""
    return tuple(len(p) - 1 - c for c in p)


def images(p) -> list[tuple[int, ...]]:
    """The 8 images of a placement: the 4 turns (the first is p itself), then the 4 turns of
    its mirror image (the 4 reflections)."""
    out = [tuple(p)]
    for start in (None, mirror(p)):
        if start is not None:
            out.append(start)
        for _ in range(3):
            out.append(quarter_turn(out[-1]))
    return out


def fundamental(p) -> tuple[int, ...]:
    """The least member of the placement's class under the 8 symmetries."""
    return min(images(p))


def is_fundamental(p) -> bool:
    """True when the placement is the least of its class."""
    return tuple(p) == fundamental(p)


def listing(n: int) -> list[tuple[tuple[int, ...], bool]]:
    """Every solution of the n x n board in lexicographic order with whether it is the
    fundamental one of its class; n from 1 to LARGEST."""
    if not 1 <= n <= LARGEST:
        raise ValueError(f"solutions are listed for boards of 1 to {LARGEST}, got {n}")
    return [(p, is_fundamental(p)) for p in solutions(n)]


def line(p, starred: bool) -> str:
    """A solution as ``python -m gaqueens.count N --list`` prints it: its columns separated by
    spaces, then " *" for a fundamental one."""
    return " ".join(map(str, p)) + (" *" if starred else "")
