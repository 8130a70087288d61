"""What the commands share: usage errors on one line, and the exit statuses, each meaning one
thing (README, "Commands"):

    0    done
    1    a run, or a stored folder, failed the verifier
    2    bad input or usage: a line naming the file or option and what is expected
    3    a fault: a worker died, the disk is full, the cluster failed, an unexpected error;
         one line, and the traceback in error.log (best effort: the disk may be full)
    130  interrupted (Ctrl-C or SIGTERM)
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import traceback
from datetime import datetime, timezone
from pathlib import Path

from gaqueens.files import write_text

DONE, REJECTED, BAD_INPUT, FAULT, INTERRUPTED = 0, 1, 2, 3, 130
LOG = "error.log"


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error printed as one line (and exit status 2)."""

    def error(self, message):
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        sys.exit(BAD_INPUT)


def one_line(text) -> str:
    """``text`` on one line: its lines joined with "; "."""
    return "; ".join(line.strip() for line in str(text).splitlines() if line.strip())


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
