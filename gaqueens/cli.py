"""What the commands share: usage errors on one line, and one wrapper, ``run``, that turns what
stopped a command into its exit status, each meaning one thing (README, "Commands"):

    0    done
    1    a run, or a stored folder, failed the verifier (core.errors.Rejected)
    2    bad input or usage: a line naming the file or option and what is expected (BadInput)
    3    a fault: a worker died, the disk is full, out of memory, the cluster failed, an
         unexpected error; one line, and the traceback in error.log (best effort: the disk may
         be full) in the command's folder, or in the system's temporary folder
    130  interrupted (Ctrl-C or SIGTERM)
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
from typing import Callable

from gaqueens.core.errors import BadInput, Fault, Interrupted, Rejected
from gaqueens.core.files import write_text

DONE, REJECTED, BAD_INPUT, FAULT, INTERRUPTED = 0, 1, 2, 3, 130
LOG = "error.log"
NO_ROOM = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error printed as one line (and exit status 2)."""

    def error(self, message):
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(BAD_INPUT)


def one_line(text) -> str:
    """``text`` on one line: its lines joined with "; "."""
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())


def run(body: Callable[[], int | None], *, folder: Callable[[], object] = lambda: None,
        interrupted: str = "interrupted", after_fault: Callable[[Exception], str] = lambda e: "") -> int:
    """Runs a command's ``body`` and returns its exit status: what ``body`` returns (0 when
    None), or that of what stopped it, said in one line on stderr. ``folder()`` is where
    error.log goes (None: the system's temporary folder), ``interrupted`` the line for Ctrl-C,
    and ``after_fault(error)`` what a fault's line adds (such as "the runs stored so far are
    kept")."""
    try:
        status = body()
        return DONE if status is None else status
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    except Rejected as error:
        print(f"error: {error}", file=sys.stderr)
        return REJECTED
    except (Interrupted, KeyboardInterrupt):
        print(f"\n{interrupted}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # stdout closed early, as by `| head`: the work is done
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return DONE
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
