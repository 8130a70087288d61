"""What the commands share: usage errors on one line, one wrapper, ``run``, that turns what
stopped a command into its exit status, each meaning one thing (README, "Commands"), and the
entry of a command's process, ``command``:

    0    done
    1    a run, or a stored folder, failed the verifier (core.errors.Rejected)
    2    bad input or usage: a line naming the file or option and what is expected (BadInput)
    3    a fault: a worker died, the disk is full, out of memory, the cluster failed, code
         gaqueens calls (a plug-in's) raised SystemExit (core.errors.Ended), an unexpected
         error; one line, and the traceback in error.log (best effort: the disk may be full) in
         the command's folder, or in the system's temporary folder
    130  interrupted (Ctrl-C or SIGTERM, at any moment of the work: runtime/signals.py)

Output that cannot be written never changes the status of work that is done: a command's
process (``command``) writes what a closed stdout or stderr (``>&-``), or one whose reader has
gone (``| head -c1``), would get to the null device instead.
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import sys
import tempfile
import traceback
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, NoReturn

from gaqueens.core.errors import BadInput, Fault, Interrupted, Rejected, ended
from gaqueens.core.files import write_text
from gaqueens.runtime import signals

DONE, REJECTED, BAD_INPUT, FAULT, INTERRUPTED = 0, 1, 2, 3, 130
LOG = "error.log"
NO_ROOM = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error printed as one line (and exit status 2)."""

    def error(self, message):
        if sys.stderr is not None:  # None: closed, and not yet made null (``command``)
            print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(BAD_INPUT)


def one_line(text) -> str:
    """``text`` on one line: its lines joined with "; "."""
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())


def run(body: Callable[[], int | None], *, folder: Callable[[], object] = lambda: None,
        interrupted: str | Callable[[], str] = "interrupted",
        after_fault: Callable[[Exception], str] = lambda e: "") -> int:
    """Runs a command's ``body`` and returns its exit status: what ``body`` returns (0 when
    None), or that of what stopped it, said in one line on stderr. Ctrl-C and SIGTERM raise
    KeyboardInterrupt wherever the body is (runtime/signals.py), a signal that Python dropped
    (in a finalizer) is raised once the body is done, and a SystemExit that the body meets is
    a fault (code it called tried to end the command). ``folder()`` is where error.log goes
    (None: the system's temporary folder), ``interrupted`` the line (or what makes it) for
    Ctrl-C, and ``after_fault(error)`` what a fault's line adds (such as "the runs stored so
    far are kept")."""
    try:
        with signals.Stopping() as stop:
            status = body()
            stop.check()
        return DONE if status is None else status
    except (BadInput, Rejected) as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT if isinstance(error, BadInput) else REJECTED
    except (Interrupted, KeyboardInterrupt):
        line = interrupted() if callable(interrupted) else interrupted
        after_bar = "\n" if sys.stderr is not None and sys.stderr.isatty() else ""  # after ^C
        print(f"{after_bar}{line}", file=sys.stderr)
        return INTERRUPTED
    except SystemExit as error:  # the command's own ends are statuses, never SystemExit
        failure = ended(error, "the command")
        failure.__cause__ = error
        where = folder()
        return fault(_fault_line(failure, where, after_fault(failure)), failure, where)
    except Exception as error:
        where = folder()
        return fault(_fault_line(error, where, after_fault(error)), error, where,
                     getattr(error, "details", ""))


def _fault_line(error: Exception, folder, after: str) -> str:
    """The line a fault is reported by."""
    tail = f"; {after}" if after else ""
    if isinstance(error, Fault):
        return f"{error}{tail}"
    if isinstance(error, MemoryError):
        return f"ran out of memory (MemoryError) in the command's own process{tail}"
    if isinstance(error, OSError) and error.errno in NO_ROOM:
        written = os.path.basename(str(error.filename or "")) or "a file"
        return (f"{folder or 'the output folder'}: writing {written} failed ({error.strerror}): "
                f"the disk is full or a file size limit is reached{tail}")
    return f"unexpected {type(error).__name__}: {error}{tail}"


def fault(message: str, error: BaseException, folder=None, details: str = "") -> int:
    """Reports a fault: ``message`` as one line on stderr, and the traceback of ``error`` (with
    ``details``, such as a worker's own traceback) in error.log in ``folder``, or in the
    system's temporary folder for a command without one or when ``folder`` cannot be written.
    Writing the log is best effort: the disk may be full. Returns exit status 3."""
    text = (f"{datetime.now(timezone.utc).isoformat(timespec='seconds')}: "
            f"{shlex.join(sys.argv)}\n{message}\n\n"
            + "".join(traceback.format_exception(error)) + (f"\n{details}" if details else ""))
    log = None
    for where in ([Path(folder)] if folder is not None else []) + [None]:
        try:
            if where is None:
                with tempfile.NamedTemporaryFile("w", prefix="gaqueens-", suffix=f"-{LOG}",
                                                 delete=False, encoding="utf-8") as file:
                    file.write(text)
                log = file.name
            else:
                write_text(where / LOG, text)
                log = where / LOG
            break
        except OSError:
            continue
    shown = f"; the traceback is in {log}" if log else ""
    print(f"error: {one_line(message)}{shown}", file=sys.stderr)
    return FAULT


# ---- a command's process ----------------------------------------------------------------------


def command(main: Callable[[], int], quick: bool = False) -> NoReturn:
    """Runs ``main`` as the entry of a command's process (``python -m gaqueens.NAME``) and exits
    with the status it returns: stdout and stderr first made safe to write to, whatever they
    are (``Unbroken``), and flushed before the end. ``quick``: after status 0, with every file
    written and closed and every process joined, skip the interpreter's teardown (os._exit)."""
    for number, name in ((1, "stdout"), (2, "stderr")):
        stream = getattr(sys, name)
        if stream is None:  # closed when the process started: never reuse its descriptor
            _null(number, closed_only=True)
            stream = open(os.devnull, "w", encoding="utf-8")
        setattr(sys, name, Unbroken(stream))
    try:
        status = main()
    finally:
        # the work is done or its status decided: a signal from here to the exit changes
        # neither (without this, SIGTERM's default would end the process with 143, unsaid)
        signals.settled()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    if quick and status == DONE:
        os._exit(status)
    sys.exit(status)


def _null(number: int, closed_only: bool = False) -> None:
    """Points the file descriptor ``number`` at the null device (only if it is closed, with
    ``closed_only``): what is written there goes nowhere, and a file opened later never gets
    the descriptor a library may still write to."""
    if closed_only:
        try:
            os.fstat(number)
            return
        except OSError:
            pass
    null = os.open(os.devnull, os.O_RDWR)
    if null != number:
        os.dup2(null, number)
        os.close(null)


class Unbroken:
    """A text stream that never fails for want of a reader: once a write or flush finds its
    pipe broken or its descriptor closed, its descriptor points at the null device (``_null``)
    and what is written goes nowhere, so that output nobody reads never changes a command's
    exit status, nor stops its work half done."""

    GONE = {errno.EPIPE, errno.EBADF, errno.ECONNRESET}

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        try:
            return self.stream.write(text)
        except OSError as error:
            self._lost(error)
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            self._lost(error)

    def _lost(self, error: OSError) -> None:
        if error.errno not in self.GONE:
            raise error
        try:
            _null(self.stream.fileno())
        except (OSError, ValueError):
            self.stream = open(os.devnull, "w", encoding="utf-8")
            return
        try:
            self.stream.flush()  # what it held goes nowhere now
        except OSError:
            self.stream = open(os.devnull, "w", encoding="utf-8")

    def __getattr__(self, name):
        return getattr(self.stream, name)
