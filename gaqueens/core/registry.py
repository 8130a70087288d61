"""Names registered where what they name is defined, as nevergrad's Registry does, and the one
way plug-ins join them.

A built-in registers with a decorator (or a call) placed at its definition; a name given twice
is an error that names both places, so that no second definition silently replaces the first.
A plug-in joins a registry by an entry point of the registry's group (``group``), named like a
built-in, or by an import path, ``package.module`` or ``package.module:object``; either way it
is imported by ``imported``, the only place gaqueens imports a user's code, and made into what
the registry holds by the registry's ``shape``, which refuses, naming the plug-in, what a
plug-in lacks. ``hint`` is the "did you mean" of every refusal of a name.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import re
import signal
import threading
from collections.abc import MutableMapping
from contextlib import contextmanager
from importlib import metadata
from typing import Callable

from gaqueens.core.errors import Fault

PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*)?")


class Unknown(ValueError):
    """A name, or an import path, that names nothing usable; the message says why, on one line."""


class PluginError(Fault):
    """A plug-in broke its contract while it ran or loaded: the message names the plug-in, what
    it did and what was expected (a fault, exit status 3: the plug-in's code needs a fix)."""


def hint(name, known) -> str:
    """" (did you mean X?)" for the name of ``known`` closest to ``name``, or ""."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def where(value) -> str:
    """Where ``value`` was defined, for a message: its module and name."""
    target = inspect.unwrap(value) if callable(value) else value
    module = getattr(target, "__module__", None) or type(target).__module__
    return f"{module}.{getattr(target, '__qualname__', type(target).__qualname__)}"


@contextmanager
def _ctrl_c_seen():
    """A list that holds Ctrl-C or SIGTERM once either arrives within the block (the handler
    before it still runs: a command's raises KeyboardInterrupt for both, gaqueens.cli), so that
    a KeyboardInterrupt a plug-in raises itself is told from the user's signal; in a thread
    other than the main one, where no handler can be set, it stays empty."""
    seen: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}

    def handler(number, frame):
        seen.append(number)
        if callable(before[number]):
            before[number](number, frame)
        elif number == signal.SIGTERM and before[number] == signal.SIG_DFL:
            signal.signal(number, signal.SIG_DFL)  # ends the process, as it would have
            signal.raise_signal(number)
        elif before[number] != signal.SIG_IGN:
            raise KeyboardInterrupt

    for number in before:
        signal.signal(number, handler)
    try:
        yield seen
    finally:
        for number, handler_before in before.items():
            if handler_before is not None:  # None: set outside Python, and left so
                signal.signal(number, handler_before)


def imported(path: str):
    """The object at the import path ``package.module`` or ``package.module:name`` (the
    module itself, or its attribute ``name``, dotted for an attribute's attribute). What the
    import raises is raised as it is, but for a plug-in that exits (SystemExit) or raises
    KeyboardInterrupt itself while it is imported: that is a PluginError naming it."""
    module, _, name = str(path).partition(":")
    with _ctrl_c_seen() as seen:
        try:
            target = importlib.import_module(module)
        except (SystemExit, KeyboardInterrupt) as error:
            if seen:  # the user's Ctrl-C, not the plug-in's
                raise
            raise PluginError(f"the plug-in {module} raised {error!r} while it was imported: "
                              "a module gaqueens imports must not exit or interrupt") from None
    for part in name.split(".") if name else ():
        target = getattr(target, part)
    return target


def plugin(path) -> object:
    """``imported(path)``, for a path a user gave: Unknown, saying why, for a path that is not
    one or whose import fails (the plug-in's own error, on one line)."""
    if not isinstance(path, str) or not PATH.fullmatch(path):
        raise Unknown(f"is not an import path: expected package.module or "
                      f"package.module:object, got {path!r}")
    try:
        return imported(path)
    except (Unknown, Fault):
        raise
    except Exception as error:
        text = " ".join(str(error).split())
        raise Unknown(f"cannot be imported ({type(error).__name__}: {text})") from None


class Registry(MutableMapping):
    """Values by name, for one kind of thing (``what``: "algorithm", "problem", ...): the built-in
    ones registered in code, and plug-ins by the entry points of ``group`` or by import path,
    each made into a value by ``shape(target, where, path)`` (Unknown for a target that is not
    one) once a process. ``register`` refuses a name given twice; setting an item replaces it,
    as a test's stand-in does."""

    def __init__(self, what: str, group: str | None = None,
                 shape: Callable[[object, str, str], object] | None = None):
        self.what, self.group, self.shape = what, group, shape
        self._values: dict[str, object] = {}
        self._places: dict[str, str] = {}
        self._points: dict[str, metadata.EntryPoint] | None = None
        self._loaded: dict[str, object] = {}  # plug-ins, by entry point name or import path

    def register(self, name: str, value=None, *, place: str | None = None):
        """Registers ``value`` under ``name``; without a value, a decorator that registers what
        it decorates. ``place`` names the definition (by default, the value's module and name).
        ValueError when the name is taken."""
        def add(value):
            here = place or where(value)
            if name in self._values:
                raise ValueError(f"the {self.what} {name!r} is registered twice: by "
                                 f"{self._places[name]} and by {here}")
            self._values[name] = value
            self._places[name] = here
            return value

        return add if value is None else add(value)

    def __getitem__(self, name: str):
        return self._values[name]

    def __setitem__(self, name: str, value) -> None:
        self._values[name] = value
        self._places[name] = where(value)

    def __delitem__(self, name: str) -> None:
        del self._values[name], self._places[name]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def entry_points(self) -> dict[str, metadata.EntryPoint]:
        """The installed plug-ins of the registry's group, by name (read once: it scans the
        installed packages)."""
        if self._points is None:
            self._points = ({} if self.group is None else
                            {point.name: point for point in metadata.entry_points(group=self.group)})
        return self._points

    def known(self, leave_out=()) -> list[str]:
        """Every name a file may use: the registered ones, then the installed plug-ins'."""
        names = [*self._values, *(n for n in self.entry_points() if n not in self._values)]
        return [name for name in names if name not in leave_out]

    def find(self, name: str, *, what: str | None = None, leave_out=()):
        """The value of ``name``: registered, or an installed plug-in's (loaded once); else
        Unknown saying which names are known (but those ``leave_out``) and the closest one."""
        if name in self._values and name not in leave_out:
            return self._values[name]
        points = self.entry_points()
        if name in points and name not in leave_out:
            return self._load(name, points[name].value, f"entry point {points[name].value}")
        known = self.known(leave_out)
        raise Unknown(f"is not a known {what or self.what}{hint(name, known)}; known: "
                      f"{', '.join(known) or 'none'}")

    def plugin(self, path: str):
        """The plug-in at the import path ``path`` (loaded once)."""
        return self._load(path, path, path)

    def _load(self, key: str, path: str, place: str):
        if key not in self._loaded:
            target = plugin(path)
            self._loaded[key] = target if self.shape is None else self.shape(target, place, path)
        return self._loaded[key]
