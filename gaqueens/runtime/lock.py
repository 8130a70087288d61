"""The lock that makes a sweep the only writer of its output folder: an exclusive lock on the
folder's runs.lock, taken without waiting.

The lock is the operating system's: ``fcntl.flock`` on POSIX, ``msvcrt.locking`` of the
file's first byte on Windows (where there is no fcntl), each imported only when a lock is
taken, so importing gaqueens needs neither. Either way the system releases it when the process
ends, however it ends (kill -9 included).

It is the sweep's alone. Its descriptor is not inheritable, so no program a child starts
(``exec``) gets it; and a forked child, which gets a copy of every descriptor, closes its copy
at once (``os.register_at_fork``). That matters for flock: the lock belongs to the open file
description that all copies share, so a pool worker or plot process still running after its
sweep was killed would keep the folder locked, and a child that unlocked its copy would unlock
the parent's. tests/test_faults.py kills a sweep, leaves its workers running, and takes the
folder at once, and runs a whole sweep with fcntl made unavailable and a stand-in for msvcrt;
the real msvcrt is not exercised, as the tests run on Linux.
"""

from __future__ import annotations

import os

_HELD: set[int] = set()  # descriptors of the locks this process holds


def take(path) -> int | None:
    """Opens ``path`` (creating it) and locks it; returns the descriptor that holds the lock,
    or None when another process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)  # non-inheritable (PEP 446)
    try:
        taken = _lock(fd)
    except BaseException:
        os.close(fd)
        raise
    if not taken:
        os.close(fd)
        return None
    _HELD.add(fd)
    return fd


def release(fd: int) -> None:
    """Releases a lock from :func:`take` by closing its descriptor."""
    _HELD.discard(fd)
    os.close(fd)


def _lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # the first byte, from position 0
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _close_in_child() -> None:
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):  # POSIX; Windows starts children afresh
    os.register_at_fork(after_in_child=_close_in_child)
