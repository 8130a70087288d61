"""Ctrl-C and SIGTERM: around starting a worker process, and while the sweep stores.

Starting a worker. A forked worker runs this process's signal handlers until it sets its own:
a SIGTERM in between (the sweep ending its workers as it stops, just after starting one)
would run the sweep's handler there and print its KeyboardInterrupt. So this process blocks
both signals while it starts a worker (``starting``), the worker inherits the block, and
``worker`` sets the worker's handlers before it lifts it: a signal that came in between then
does what the worker's own handlers say. A signal this process gets meanwhile waits until the
worker has started. Where threads cannot block signals (Windows), workers are spawned afresh.

While the sweep stores (``Stopping``). Python prints and drops an exception that a signal's
handler raises while a finalizer runs (an object's ``__del__``, a weakref's callback), so a
KeyboardInterrupt can be lost; the handler also remembers the signal, and the sweep checks
after each batch (tests/test_faults.py presses Ctrl-C inside a finalizer).

Around a few steps that must all happen or none (``deferred``: the renames that move a
sweep's outputs in), a signal waits until they have.
"""

from __future__ import annotations

import contextlib
import signal
import threading

HELD = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def starting():
    """Blocks Ctrl-C and SIGTERM in this thread while the block runs (the workers it starts
    inherit the block, until ``worker``)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def worker() -> None:
    """A worker's handlers, then the signals unblocked: Ctrl-C reaches every process of the
    terminal's group, and the parent alone handles it (it stops its workers); SIGTERM ends a
    worker quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


class Stopping:
    """``with Stopping() as stop``: Ctrl-C and SIGTERM raise KeyboardInterrupt where this
    process is, and are remembered, for ``stop.check()`` to raise again (the module's
    docstring says why); the handlers before are set again at the end."""

    def __enter__(self) -> Stopping:
        self.asked = False
        self.previous = {number: signal.signal(number, self._stop) for number in HELD}
        return self

    def __exit__(self, *exception) -> None:
        for number, handler in self.previous.items():
            if handler is not None:  # None: set outside Python, and left so
                signal.signal(number, handler)

    def _stop(self, number, frame):
        self.asked = True
        raise KeyboardInterrupt

    def check(self) -> None:
        """Raises KeyboardInterrupt if a signal came while the block ran."""
        if self.asked:
            raise KeyboardInterrupt


@contextlib.contextmanager
def deferred():
    """Ctrl-C and SIGTERM held while the block runs: a signal that comes meanwhile raises
    KeyboardInterrupt once the block has run (unless it raised). Handlers can be set in the
    main thread only; elsewhere the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came = []
    previous = {number: signal.signal(number, lambda number, frame: came.append(number))
                for number in HELD}
    try:
        yield
    finally:
        for number, handler in previous.items():
            if handler is not None:  # None: set outside Python, and left so
                signal.signal(number, handler)
    if came:
        raise KeyboardInterrupt
