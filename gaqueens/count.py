"""All solutions of an N x N board and the fundamental ones, counted.

    python -m gaqueens.count N

Prints both counts and the time, and whether they match the shipped table (OEIS A000170 and
A002562) where it knows the board. N runs from 1 to 18; the count is compiled and uses every
core (gaqueens.problems.nqueens.counting), and its time grows about seven times per row: the benchmark
(``python -m gaqueens.bench``) times 16 and 17. Ctrl-C stops it within a fraction of a second.
Exit status (gaqueens/cli.py): 0 done; 1 the counts differ from the table; 2 bad input or
usage; 3 an unexpected error, in one line with the traceback in a temporary error.log; 130
interrupted.
"""

from __future__ import annotations

import re
import sys
import time

from gaqueens import cli
from gaqueens.core.errors import BadInput, Rejected
from gaqueens.problems.nqueens.facts import known_solutions
from gaqueens.problems.nqueens.counting import count
from gaqueens.cli import Parser

LARGEST = 18


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.count",
                     description="Count all solutions of the N x N board and the fundamental "
                                 "ones (up to the 8 symmetries of the square).")
    parser.add_argument("n", metavar="N", help=f"the board size, 1 to {LARGEST}")
    args = parser.parse_args(argv)
    return cli.run(lambda: _count(args.n))


def _count(text: str) -> None:
    digits = re.fullmatch(r"\s*0*([0-9]{1,2})\s*", text)  # longer numbers are too large
    if not digits or not 1 <= int(digits[1]) <= LARGEST:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise BadInput(f"N must be a whole number from 1 to {LARGEST}, got {shown!r}")
    n = int(digits[1])
    start = time.perf_counter()
    every, fundamental = count(n)
    seconds = time.perf_counter() - start
    print(f"{n} x {n}: {every:,} solutions, {fundamental:,} fundamental, {seconds:.3f} s")
    known = known_solutions(n)
    if known is None:
        print("no published counts to compare with")
    elif known == (every, fundamental):
        print("matches the published counts (OEIS A000170, A002562)")
    else:
        raise Rejected(f"the published counts are {known[0]:,} and {known[1]:,}")


if __name__ == "__main__":
    sys.exit(main())
