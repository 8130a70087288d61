"""What can stop a command, by what the user should do about it; each command's exit status
follows from the class (gaqueens/cli.py):

    BadInput     2    bad input or usage: fix the file, the option or the folder
    Rejected     1    a run, or a stored folder, fails the independent verifier: a bug to report
    Fault        3    the machine or a worker failed (a worker died, the disk is full, out of
                      memory, the cluster went away), or code gaqueens calls (a plug-in's)
                      tried to end the process (Ended): the stored runs are kept
    Interrupted  130  Ctrl-C or SIGTERM: the stored runs are kept

Each message is one line, said as it is (``str()``); a line break in it is escaped.
"""

from __future__ import annotations

import re
import sysconfig
from pathlib import Path

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


class Ended(Fault):
    """Code that gaqueens calls (a plug-in's solver, operator or problem) raised SystemExit, or
    KeyboardInterrupt with no signal behind it: an exception that would end the command as if
    it were done, or interrupted. A fault, naming where it was raised (``ended``)."""


_OURS = Path(__file__).resolve().parents[1]  # the gaqueens package
_PYTHON = Path(sysconfig.get_paths()["stdlib"]).resolve()  # the standard library, without
_INSTALLED = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
# the packages installed in it


def raised_at(error: BaseException) -> str:
    """Where ``error`` was raised, as a message names it: the module, file and line of the
    innermost Python frame of its traceback (for ``sys.exit()``, the line that called it), and
    the module outside gaqueens and the standard library that gaqueens called on the way there,
    when it is another."""
    frames = []
    trace = error.__traceback__
    while trace is not None:
        frames.append((trace.tb_frame, trace.tb_lineno))
        trace = trace.tb_next
    if not frames:
        return "code gaqueens called"

    def module(frame) -> str:
        return str(frame.f_globals.get("__name__") or frame.f_code.co_filename)

    def passed_through(frame) -> bool:  # gaqueens' own, or the standard library's
        if frame.f_code.co_filename.startswith("<"):  # frozen: importlib's
            return True
        file = Path(frame.f_code.co_filename).resolve()
        return file.is_relative_to(_OURS) or (file.is_relative_to(_PYTHON) and not any(
            file.is_relative_to(installed) for installed in _INSTALLED))

    frame, line = frames[-1]
    where = f"{module(frame)} ({frame.f_code.co_filename}, line {line})"
    called = next((f for f, _ in frames if not passed_through(f)), None)
    if called is not None and module(called) != module(frame):
        where += f", called through {module(called)}"
    return where


def ended(error: BaseException, during: str) -> Ended:
    """The fault for a SystemExit, or a KeyboardInterrupt that no signal raised, ``error``,
    met ``during`` something (such as "the run on board 8, seed 3"), naming where it came
    from."""
    if isinstance(error, SystemExit):
        what, to = f"SystemExit({error.code!r})", "end"
    else:
        what, to = "KeyboardInterrupt, with no Ctrl-C or SIGTERM,", "interrupt"
    return Ended(f"{raised_at(error)} raised {what} in {during}: code that gaqueens calls must "
                 f"return its result or raise an exception, not {to} the command")
