"""Algorithms by the names experiment files use: the built-in ones register where they are
defined (``@algorithm("local-search", ...)`` on their ``run``), plug-ins join by the entry
point group ``gaqueens.algorithms`` or by an import path.

An algorithm is ``run(settings, board, seed) -> Result`` with its settings class (a frozen
dataclass whose defaults are the documented ones; fields made with ranges.setting are checked
when a file loads), its unit of work, and what it may claim: whether the seed changes nothing
(one run per board is enough), whether its placements are permutations (a queen per column
too, which the verifier then checks), and the memory a run needs. Runs that advance together
(the GA's published family) also give ``run_many`` and ``together``.

A plug-in is any module (or ``module:object``) shaped like a built-in baseline module:
``run(settings, board, seed) -> Result``, ``Settings`` and ``UNIT``, and optionally
``DETERMINISTIC``, ``PERMUTATION`` (False when its placements may put two queens in a
column), ``PROBLEMS`` (the problems it solves, gaqueens.problems: N-Queens by default),
``memory(settings, board)`` (bytes a run needs) and ``prepare()`` (what every run needs
loaded, called once a process before any run is timed).
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import inspect
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Callable

from gaqueens.core.registry import Registry, Unknown
from gaqueens.core.result import Result

ENTRY_POINTS = "gaqueens.algorithms"


@dataclass(frozen=True)
class Algorithm:
    """An algorithm a sweep can run (see the module's docstring)."""

    run: Callable[[object, int, int], Result]
    settings: type
    unit: str
    deterministic: bool = False
    permutation: bool = True
    prepare: Callable[[], None] | None = None  # a plug-in's: what every run needs loaded
    source: str | None = None  # a plug-in's module, whose source its runs record
    memory: Callable[..., int] | None = None  # bytes a run needs: memory(settings, board)
    run_many: Callable[..., list] | None = None  # runs of several seeds (and compiled=True)
    together: Callable[[object, int], bool] | None = None  # whether run_many shares arrays
    compiles: Callable[[object, int], bool] | None = None  # whether run_many(compiled=True) does
    warm: Callable[[object], None] | None = None  # an untimed run, paying one-off costs
    problems: tuple[str, ...] | None = ("nqueens",)  # the problems it solves; None: any


ALGORITHMS = Registry("algorithm")


def algorithm(name: str, **shape):
    """A decorator for an algorithm's ``run``: registers it under ``name`` with ``shape``, the
    other fields of Algorithm (settings and unit at least)."""
    def register(run):
        ALGORITHMS.register(name, Algorithm(run, **shape), place=f"{run.__module__}.{run.__name__}")
        return run

    return register


def find(name: str, kind: str = "algorithm") -> Algorithm:
    """The algorithm of that name: registered (built in), or a plug-in's entry point. ``kind``
    names what is looked for in the refusal: "baseline" leaves the GA out of the names
    offered."""
    if name in ALGORITHMS and not (kind == "baseline" and name == "ga"):
        return ALGORITHMS[name]
    points = plugin_names()
    if name not in points:
        known = [n for n in [*ALGORITHMS, *points] if not (kind == "baseline" and n == "ga")]
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        extra = ": the GA is set by ga: and variants:" if name == "ga" else ""
        raise Unknown(f"is not a known {kind}{extra}{hint}; known: {', '.join(known)}")
    try:
        return shaped(points[name].load(), f"entry point {points[name].value}")
    except Unknown:
        raise
    except Exception as error:  # a broken plug-in: its own error, on one line
        raise Unknown(f"is a plug-in that fails to load ({type(error).__name__}: {error})") from None


def imported(path: str):
    """The object at the import path ``package.module:name``."""
    module, _, name = path.partition(":")
    target = importlib.import_module(module)
    for part in name.split(".") if name else ():
        target = getattr(target, part)
    return target


def plugin(path: str) -> Algorithm:
    """The algorithm at the import path ``package.module`` or ``package.module:object``."""
    try:
        target = imported(path)
    except Exception as error:
        raise Unknown(f"cannot be imported ({type(error).__name__}: {error})") from None
    return shaped(target, path)


@cache
def plugin_names() -> dict[str, metadata.EntryPoint]:
    """The installed plug-ins' algorithms, by name (read once: it scans the installed packages)."""
    return {point.name: point for point in metadata.entry_points(group=ENTRY_POINTS)}


def shaped(target, where: str) -> Algorithm:
    """A plug-in module (or object) as an Algorithm, or Unknown saying what it lacks."""
    missing = [name for name in ("run", "Settings", "UNIT") if not hasattr(target, name)]
    if missing:
        raise Unknown(f"({where}) lacks {', '.join(missing)}: an algorithm has run(settings, "
                      "board, seed), Settings and UNIT, as gaqueens/baselines/local_search.py")
    if not dataclasses.is_dataclass(target.Settings):
        raise Unknown(f"({where}) has a Settings that is not a dataclass")
    module = target if inspect.ismodule(target) else inspect.getmodule(target)
    return Algorithm(target.run, target.Settings, str(target.UNIT),
                     bool(getattr(target, "DETERMINISTIC", False)),
                     bool(getattr(target, "PERMUTATION", True)), getattr(target, "prepare", None),
                     getattr(module, "__name__", where), getattr(target, "memory", None),
                     problems=tuple(getattr(target, "PROBLEMS", ("nqueens",))))
