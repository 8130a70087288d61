"""Files written whole or not at all: each is written beside its final name, then renamed over
it, so a reader never sees half a file, whatever stops the writer (an exception, Ctrl-C or
SIGTERM: gaqueens.runtime.signals makes both raise, and the partial file is removed on the way
out). Files read only if they are regular files, and paths to write checked before any work.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path) -> Iterator[Path]:
    """Yields a path beside ``path`` (with the same suffix, for writers that infer the format
    from it) to write the whole file into; when the block ends, renames it over ``path``, or
    removes it if the block raised."""
    path = Path(path)
    partial = path.with_name(f"{path.name}.partial{path.suffix}")
    try:
        yield partial
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def write_text(path, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path``, whole or not at all."""
    with replacing(path) as partial:
        partial.write_text(text, encoding="utf-8")


def write_csv(path, table) -> None:
    """Writes a pandas table as CSV (no index) to ``path``, whole or not at all, straight into
    the file in pandas' chunks rather than as one string in memory."""
    with replacing(path) as partial:
        table.to_csv(partial, index=False)


def folder_problem(path) -> str | None:
    """What stops ``path`` from being, or becoming, a writable folder (said after its name), or
    None: checked before any work, so that nothing computed is lost for want of a place."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir():
            return "is a file, expected a folder"
        existing = next(p for p in [path, *path.absolute().parents] if p.exists())
    except OSError as error:
        return f"cannot be a folder ({error.strerror})"
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        return f"cannot be written ({existing} is not a writable folder)"
    return None


class NotAFile(OSError):
    """What a path names is not a regular file (a FIFO, a device, a socket)."""


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, from its ``st_mode``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe or FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "not a regular file"


def read_file(path, most: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (the first ``most`` of them, if given), read only
    once it is known to be one: opened without waiting (a FIFO would block until a writer
    came), then refused with IsADirectoryError or NotAFile (saying what it is) if it is not a
    regular file; any other OSError as open() raises it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(mode):
            raise NotAFile(errno.EINVAL, f"is {_kind(mode)}", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        file = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with file:
        return file.read() if most is None else file.read(most)


def file_problem(path) -> str | None:
    """What stops ``path`` from becoming a file written whole (said after its name), or None:
    checked before any work, so that nothing computed is lost for want of a place."""
    path = Path(path)
    try:
        if path.is_dir():
            return "is a folder, expected a file"
        if path.exists() and not path.is_file():
            return f"is {_kind(path.stat().st_mode)}, expected a regular file"
    except OSError as error:
        return f"cannot be a file ({error.strerror})"
    where = path.absolute().parent
    if not where.is_dir():
        return f"its folder {where} does not exist"
    problem = folder_problem(where)
    return f"its folder {problem}" if problem else None
