"""The facts of N-Queens boards for the tables: the mean attacking pairs of a random placement,
the known solution counts, which boards have a solution, and the board drawn in text."""

from __future__ import annotations

import csv
from functools import cache
from importlib import resources


def mean_attacking_pairs(n: int) -> float:
    """The mean attacking pairs of a uniformly random permutation, (2n-1)/3 for n >= 2.

    Rows i < j at distance d clash when their columns differ by exactly d, with probability
    2(n-d) / (n(n-1)); summing (n-d) such pairs over d = 1..n-1 gives (2n-1)/3.
    """
    return (2 * n - 1) / 3 if n >= 2 else 0.0


@cache
def _known_counts() -> dict[int, tuple[int, int]]:
    text = resources.files("gaqueens").joinpath("data/solution-counts.csv").read_text("utf-8")
    return {
        int(row["board"]): (int(row["all"]), int(row["fundamental"]))
        for row in csv.DictReader(text.splitlines())
    }


def known_solutions(n: int) -> tuple[int, int] | None:
    """(all, fundamental) solutions of the n x n board from the shipped table (OEIS A000170
    and A002562, n = 1..27), or None where nobody has counted them."""
    return _known_counts().get(n)


def has_solution(n: int) -> bool:
    """Every board but 2 and 3 has a solution (1 trivially, 4 and up by construction)."""
    return n not in (2, 3)


def refuse_unsolvable(who: str, n: int) -> None:
    """The ValueError a solver raises for a board without a solution."""
    if not has_solution(n):
        raise ValueError(f"{who}: board {n} has no solution (boards 2 and 3 have none)")


DRAWN_UP_TO = 100  # larger boards are not drawn: N^2 squares (10^16 characters for 10^8)


def drawing(columns) -> str:
    """The board in text, a line per row from row 0, Q for a queen and . for an empty square;
    empty for a board of more than DRAWN_UP_TO rows."""
    n = len(columns)
    if n > DRAWN_UP_TO:
        return ""
    return "\n".join(" ".join("Q" if c == col else "." for c in range(n)) for col in columns)
