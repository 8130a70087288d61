"""Algorithms by the names experiment files use: the built-in ones register where they are
defined (``@algorithm("local-search", ...)`` on their ``run``), plug-ins join by the entry
point group ``gaqueens.algorithms`` or by an import path.

An algorithm is ``run(settings, board, seed) -> Result`` with its settings class (a frozen
dataclass whose defaults are the documented ones; fields made with ranges.setting are checked
when a file loads), its unit of work, and what it may claim: whether the seed changes nothing
(one run per board is enough), whether its placements are permutations (a queen per column
too, which the verifier then checks), and the memory a run needs. Runs that advance together
(the GA's published family) also give ``run_many`` and ``together``.

A plug-in is any module (or ``module:object``) shaped like a built-in baseline module (README,
"Extending"): ``run``, ``Settings`` and ``UNIT``, and optionally ``DETERMINISTIC``,
``PERMUTATION``, ``PROBLEMS``, ``memory(settings, board)`` and ``prepare()`` (called once a
process before any run is timed). ``shaped`` refuses, naming it, what is missing or of the
wrong type; gaqueens.runtime.execution checks what its ``run`` returns.
"""

from __future__ import annotations

import dataclasses
import inspect
from functools import partial
from dataclasses import dataclass
from typing import Callable

from gaqueens.core.registry import Registry, Unknown, imported  # noqa: F401  (imported: ga.operators')
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


def shaped(target, where: str, path: str = "") -> Algorithm:
    """A plug-in module (or object) as an Algorithm, or Unknown saying what it lacks or gives
    wrong, with ``where`` it was found."""
    def wrong(what):
        return Unknown(f"({where}) {what}: an algorithm has run(settings, board, seed), "
                       "Settings and UNIT, as gaqueens/baselines/local_search.py")

    missing = [name for name in ("run", "Settings", "UNIT") if not hasattr(target, name)]
    if missing:
        raise wrong(f"lacks {', '.join(missing)}")
    if not callable(target.run):
        raise wrong(f"has a run that is not a function ({type(target.run).__name__})")
    settings = target.Settings
    if not (isinstance(settings, type) and dataclasses.is_dataclass(settings)):
        raise wrong("has a Settings that is not a dataclass")
    bare = [f.name for f in dataclasses.fields(settings) if f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING]
    if bare:
        raise wrong(f"has Settings fields without a default ({', '.join(bare)}): each setting "
                    "needs its documented default")
    if not isinstance(target.UNIT, str) or not target.UNIT:
        raise wrong(f"has UNIT {target.UNIT!r}, expected its unit of work as text, e.g. "
                    "\"moves\"")
    for name in ("DETERMINISTIC", "PERMUTATION"):
        if not isinstance(getattr(target, name, False), bool):
            raise wrong(f"has {name} {getattr(target, name)!r}, expected True or False")
    for name in ("memory", "prepare"):
        if getattr(target, name, None) is not None and not callable(getattr(target, name)):
            raise wrong(f"has a {name} that is not a function")
    solves = getattr(target, "PROBLEMS", ("nqueens",))
    if solves is not None and (isinstance(solves, str) or not isinstance(solves, (tuple, list))
                               or not solves or not all(isinstance(p, str) for p in solves)):
        raise wrong(f"has PROBLEMS {solves!r}, expected a tuple of problems' names, e.g. "
                    "(\"nqueens\",), or None for any")
    module = target if inspect.ismodule(target) else inspect.getmodule(target)
    return Algorithm(target.run, settings, target.UNIT,
                     getattr(target, "DETERMINISTIC", False), getattr(target, "PERMUTATION", True),
                     getattr(target, "prepare", None), getattr(module, "__name__", where),
                     getattr(target, "memory", None),
                     problems=None if solves is None else tuple(solves))


ALGORITHMS = Registry("algorithm", ENTRY_POINTS, shaped)


def algorithm(name: str, **shape):
    """A decorator for an algorithm's ``run``: registers it under ``name`` with ``shape``, the
    other fields of Algorithm (settings and unit at least)."""
    def register(run):
        ALGORITHMS.register(name, Algorithm(run, **shape), place=f"{run.__module__}.{run.__name__}")
        return run

    return register


def per_queen(size: int, fixed: int = 2**19) -> Callable[[object, int], int]:
    """A solver's ``memory(settings, board)``: ``size`` bytes a queen for its arrays and
    ``fixed`` (512 KiB) for a small run's scattered allocations; picklable, as settings go to
    worker processes."""
    return partial(_need, size, fixed)


def _need(size: int, fixed: int, settings, board: int) -> int:
    return fixed + size * board


def find(name: str, kind: str = "algorithm") -> Algorithm:
    """The algorithm of that name: registered (built in), or a plug-in's entry point. ``kind``
    names what is looked for in the refusal: "baseline" leaves the GA out of the names
    offered."""
    if kind == "baseline" and name == "ga":
        raise Unknown(f"is not a known baseline: the GA is set by ga: and variants:; known: "
                      f"{', '.join(ALGORITHMS.known(('ga',)))}")
    return ALGORITHMS.find(name, what=kind, leave_out=("ga",) if kind == "baseline" else ())


def plugin(path: str) -> Algorithm:
    """The algorithm at the import path ``package.module`` or ``package.module:object``."""
    return ALGORITHMS.plugin(path)
