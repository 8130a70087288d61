"""All solutions of an N x N board and the fundamental ones, counted.

    python -m gaqueens.count N

Prints both counts and the time, and whether they match the shipped table (OEIS A000170 and
A002562) where it knows the board. N runs from 1 to 18; the count is compiled and uses every
core (gaqueens.baselines.counting), and its time grows about seven times per row: the benchmark
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
from gaqueens.board import known_solutions
from gaqueens.baselines.counting import count
from gaqueens.cli import Parser

LARGEST = 18


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.count",
                     description="Count all solutions of the N x N board and the fundamental "
                                 "ones (up to the 8 symmetries of the square).")
    parser.add_argument("n", metavar="N", help=f"the board size, 1 to {LARGEST}")
    args = parser.parse_args(argv)
    digits = re.fullmatch(r"\s*0*([0-9]{1,2})\s*", args.n)  # longer numbers are too large
    if not digits or not 1 <= int(digits[1]) <= LARGEST:
        shown = args.n if len(args.n) <= 20 else args.n[:20] + "..."
        print(f"error: N must be a whole number from 1 to {LARGEST}, got {shown!r}",
              file=sys.stderr)
        return cli.BAD_INPUT
    n = int(digits[1])
    start = time.perf_counter()
    try:
        every, fundamental = count(n)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return cli.INTERRUPTED
    except Exception as error:
        return cli.fault(f"unexpected {type(error).__name__}: {error}", error)
    seconds = time.perf_counter() - start
    print(f"{n} x {n}: {every:,} solutions, {fundamental:,} fundamental, {seconds:.3f} s")
    known = known_solutions(n)
    if known is None:
        print("no published counts to compare with")
    elif known == (every, fundamental):
        print("matches the published counts (OEIS A000170, A002562)")
    else:
        print(f"error: the published counts are {known[0]:,} and {known[1]:,}", file=sys.stderr)
        return cli.REJECTED
    return cli.DONE


if __name__ == "__main__":
    sys.exit(main())
