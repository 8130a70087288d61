"""All solutions of an N x N board and the fundamental ones, counted.

    python -m gaqueens.count N                 both counts, the time, the match with the table
    python -m gaqueens.count N --list          every solution, one a line
    python -m gaqueens.count N --html FILE     a page of every solution, and a board for each

Prints both counts and the time, and whether they match the shipped table (OEIS A000170 and
A002562) where it knows the board. ``--list`` prints instead each solution on a line, in
lexicographic order: the columns of rows 0 to N-1 separated by spaces (columns from 0), a
fundamental one (the least of its class under the 8 symmetries of the square, compared as
sequences) followed by " *". ``--html FILE`` writes the self-contained page of them and says
so in one line. Both list boards up to 12, refuse larger ones as bad input, and check the
listing's counts against the table. N runs from 1 to 18; the count is compiled and uses every
core. A FILE that is a folder, or in a folder that does not exist, is refused before the
count. Exit statuses as every command's (gaqueens/cli.py); 1 when the counts differ from the
table.
"""

from __future__ import annotations

import re
import sys
import time

from gaqueens import cli
from gaqueens.core.errors import BadInput, Rejected
from gaqueens.problems.nqueens.facts import known_solutions
from gaqueens.problems.nqueens.counting import count
from gaqueens.problems.nqueens import solutions, solutions_page
from gaqueens.cli import Parser
from gaqueens.core.files import file_problem, write_text

LARGEST = 18


def main(argv=None) -> int:
    parser = Parser(prog="python -m gaqueens.count",
                     description="Count all solutions of the N x N board and the fundamental "
                                 "ones (up to the 8 symmetries of the square).")
    parser.add_argument("n", metavar="N", help=f"the board size, 1 to {LARGEST}")
    parser.add_argument("--list", action="store_true",
                        help=f"print every solution, one a line (N up to {solutions.LARGEST})")
    parser.add_argument("--html", metavar="FILE",
                        help=f"write a page of every solution (N up to {solutions.LARGEST})")
    args = parser.parse_args(argv)
    if args.list or args.html:
        return cli.run(lambda: _list(_board(args.n), args.list, args.html))
    return cli.run(lambda: _count(_board(args.n)))


def _board(text: str) -> int:
    digits = re.fullmatch(r"\s*0*([0-9]{1,2})\s*", text)  # longer numbers are too large
    if not digits or not 1 <= int(digits[1]) <= LARGEST:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise BadInput(f"N must be a whole number from 1 to {LARGEST}, got {shown!r}")
    return int(digits[1])


def _list(n: int, printed: bool, page: str | None) -> None:
    if n > solutions.LARGEST:
        raise BadInput(f"solutions are listed up to N = {solutions.LARGEST} (14,200 of them), "
                       f"got {n}; count them without --list and --html")
    if page and file_problem(page):
        raise BadInput(f"--html {page}: {file_problem(page)}")
    listed = solutions.listing(n)
    known = known_solutions(n)
    found = (len(listed), sum(starred for _, starred in listed))
    if known is not None and known != found:
        raise Rejected(f"listed {found[0]:,} solutions, {found[1]:,} fundamental; the published "
                       f"counts are {known[0]:,} and {known[1]:,}")
    if printed:
        sys.stdout.write("".join(solutions.line(p, starred) + "\n" for p, starred in listed))
    if page:
        try:
            write_text(page, solutions_page.page(n, listed))
        except OSError as error:
            raise BadInput(f"--html {page}: cannot be written ({error.strerror})") from None
        print(f"wrote {page}: {found[0]:,} solutions of {n} x {n}, {found[1]:,} fundamental",
              file=sys.stderr if printed else sys.stdout)


def _count(n: int) -> None:
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
    cli.command(main)
