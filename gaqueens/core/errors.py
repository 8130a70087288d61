"""What can stop a command, by what the user should do about it; each command's exit status
follows from the class (gaqueens/cli.py):

    BadInput     2    bad input or usage: fix the file, the option or the folder
    Rejected     1    a run, or a stored folder, fails the independent verifier: a bug to report
    Fault        3    the machine or a worker failed (a worker died, the disk is full, out of
                      memory, the cluster went away): the stored runs are kept
    Interrupted  130  Ctrl-C or SIGTERM: the stored runs are kept

Each message is one line, said as it is (``str()``); a line break in it is escaped.
"""

from __future__ import annotations

import re

_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


class OneLine(Exception):
    """An error whose ``str()`` is one line: any line break in the message is escaped."""

    def __init__(self, message: str = ""):
        super().__init__(_LINE_BREAK.sub(lambda m: m[0].encode("unicode_escape").decode(),
                                         str(message)))


class BadInput(OneLine):
    """Input refused before any work starts: the line names the file, key or option and what
    is expected."""


class Rejected(OneLine):
    """A run's answer, or a stored file, failed the independent verifier."""


class Fault(OneLine):
    """Something outside the input failed; ``details`` may hold a worker's own traceback."""

    def __init__(self, message: str = "", details: str = ""):
        super().__init__(message)
        self.details = details


class Interrupted(OneLine):
    """Ctrl-C or a termination signal stopped the command."""
