"""Names registered where what they name is defined, as nevergrad's Registry does: a decorator
(or a call) placed at the definition, and a name given twice is an error that names both
places, so that no second definition silently replaces the first."""

from __future__ import annotations

import difflib
import inspect
from collections.abc import MutableMapping


class Unknown(ValueError):
    """A name, or an import path, that names nothing usable; the message says why, on one line."""


def where(value) -> str:
    """Where ``value`` was defined, for a message: its module and name."""
    target = inspect.unwrap(value) if callable(value) else value
    module = getattr(target, "__module__", None) or type(target).__module__
    return f"{module}.{getattr(target, '__qualname__', type(target).__qualname__)}"


class Registry(MutableMapping):
    """Values by name, for one kind of thing (``what``: "algorithm", "select operator", ...).
    ``register`` refuses a name given twice; setting an item replaces it, as a test's stand-in
    does."""

    def __init__(self, what: str):
        self.what = what
        self._values: dict[str, object] = {}
        self._places: dict[str, str] = {}

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

    def find(self, name: str, others=()):
        """The value of ``name``, or Unknown saying which names are known (with ``others``, more
        names to offer) and the closest one."""
        if name in self._values:
            return self._values[name]
        known = [*self._values, *others]
        close = difflib.get_close_matches(str(name), known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise Unknown(f"is not a known {self.what}{hint}; known: {', '.join(known)}")
