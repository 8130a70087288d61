"""Ctrl-C and SIGTERM: for a whole command, around starting a worker process, and in workers.

A command (``Stopping``, around every command's work: gaqueens/cli.py). Ctrl-C and SIGTERM
raise KeyboardInterrupt where the command's main thread is, so that every writer removes its
partial file on the way out (gaqueens.core.files) and the command says one line and exits 130,
whichever of its phases the signal meets; SIGTERM's own action would end the process at once,
leaving a partial file behind and no word. The handler also remembers the signal:
``received()`` tells a KeyboardInterrupt raised by a signal from one that code raised itself
(a plug-in's, a fault: gaqueens.runtime.execution), and ``Stopping.check`` raises again one
that Python dropped. Python prints and drops an exception that a signal's handler raises while
a finalizer runs (an object's ``__del__``, a weakref's callback), so a KeyboardInterrupt can be
lost; the sweep checks after each batch, and every command once its work is done
(tests/test_faults.py presses Ctrl-C inside a finalizer). Before these handlers are set, while
``python -m gaqueens.NAME`` still loads its modules, gaqueens/__init__.py's end the command at
once: nothing is written yet.

Starting a worker. A forked worker runs this process's signal handlers until it sets its own:
a SIGTERM in between (the sweep ending its workers as it stops, just after starting one)
would run the command's handler there and print its KeyboardInterrupt. So this process blocks
both signals while it starts a worker (``starting``), the worker inherits the block, and
``worker`` sets the worker's handlers before it lifts it: a signal that came in between then
does what the worker's own handlers say. A signal this process gets meanwhile waits until the
worker has started. Where threads cannot block signals (Windows), workers are spawned afresh.

A few steps that must not be parted (renaming an export into place) are ``held``: a signal
that comes meanwhile is only noted, and handled as the block ends. (Blocking it in this thread
would not do: the system may hand it to another thread, a library's, whose C handler still
has Python run the handler in the main thread.)

In a worker, Ctrl-C is ignored (it reaches every process of the terminal's group, and the
command alone handles it: it ends its workers), so a KeyboardInterrupt there is always its
code's own. SIGTERM ends a worker: at once where it writes no file (the sweep's runs), or by
SystemExit where it is (``tidy``), so that a writer removes its partial file first (the plots,
the exports).
"""

from __future__ import annotations

import contextlib
import signal
import threading

HELD = {signal.SIGINT, signal.SIGTERM}
_counted = [0]  # the signals the handlers of Stopping took in this process
_since: list[int] = []  # the count when each Stopping block now running began, outermost first


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


@contextlib.contextmanager
def held():
    """Notes Ctrl-C and SIGTERM while the block runs, and handles the first that came once it
    has run, by the handlers before (the module's docstring); a block that raises ends by its
    own error. Outside the main thread, where
    Python cannot set handlers, it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    previous = {number: signal.signal(number, lambda number, frame: came.append(number))
                for number in HELD}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
    if came:  # a block that raised ends by its own error
        signal.raise_signal(came[0])


def worker(tidy: bool = False) -> None:
    """A worker's handlers, then the signals unblocked (the module's docstring): Ctrl-C
    ignored; SIGTERM ends it at once, or with ``tidy`` by raising SystemExit where it is."""
    _since.clear()  # a fork's copy of the command's blocks: no signal here is theirs
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_tidily if tidy else signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


def settled() -> None:
    """Ctrl-C and SIGTERM ignored from now on in this process: a command calls it once its
    work is done or has failed, to exit with the status it decided."""
    for number in HELD:
        signal.signal(number, signal.SIG_IGN)


def _exit_tidily(number, frame):
    raise SystemExit(128 + number)


def received() -> bool:
    """Whether Ctrl-C or SIGTERM came while the Stopping blocks now running ran."""
    return bool(_since) and _counted[0] > _since[0]


class Stopping:
    """``with Stopping() as stop``: Ctrl-C and SIGTERM raise KeyboardInterrupt where this
    process's main thread is, and are remembered, for ``stop.check()`` to raise again and
    ``received()`` to tell (the module's docstring); the handlers before are set again at the
    end. Outside the main thread, where Python cannot set handlers, it changes nothing."""

    def __enter__(self) -> Stopping:
        self.start = _counted[0]
        self.previous = {}
        if threading.current_thread() is threading.main_thread():
            _since.append(self.start)
            self.previous = {number: signal.signal(number, self._stop) for number in HELD}
        return self

    def __exit__(self, *exception) -> None:
        if not self.previous:
            return
        for number, handler in self.previous.items():
            if handler is not None:  # None: set outside Python, and left so
                signal.signal(number, handler)
        _since.pop()

    @staticmethod
    def _stop(number, frame):
        _counted[0] += 1
        raise KeyboardInterrupt

    @property
    def asked(self) -> bool:
        """Whether a signal came while the block ran."""
        return _counted[0] > self.start

    def check(self) -> None:
        """Raises KeyboardInterrupt if a signal came while the block ran."""
        if self.asked:
            raise KeyboardInterrupt

