"""Every name an experiment file can use for an algorithm or an operator, in one place, and
the ways plug-ins join them.

Algorithms: the built-in ones (ALGORITHMS); a plug-in's, by the Python entry point group
``gaqueens.algorithms`` (the entry point's name is the algorithm's name; its value a module
or ``module:object``), or by an import path in the file (``{plugin: package.module}``). An
algorithm is anything with the shape of a built-in baseline module: ``run(settings, board,
seed) -> Result``, ``Settings`` (a frozen dataclass whose fields are its settings, with
ranges.setting to have their ranges checked when a file loads), ``UNIT`` (its unit of work)
and optionally ``DETERMINISTIC`` (True when the seed changes nothing), ``PERMUTATION``
(False when its placements may put two queens in a column) and ``prepare()`` (what every run
needs loaded, called once a process before any run is timed).

Operators: the built-in names (OPERATORS, per kind: select, survivors, crossover, mutation);
any function of DEAP's deap.tools by its name, ``{deap: NAME, ...arguments}``; a user's own,
written DEAP's way, ``{function: "package.module:name", ...arguments}``. The arguments are
checked against the function's signature, and a DEAP name against the kind's prefix (sel,
cx, mut), when the file loads.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import inspect
import time
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from typing import Callable

from deap import tools

from gaqueens import ga
from gaqueens.baselines import (backtracking, backtracking_heuristic, construction, local_search,
                                min_conflicts)
from gaqueens.ga.operators import (CROSSOVER, MUTATION, SELECT, SURVIVORS, DeapOperator,
                                   FunctionOperator, imported)
from gaqueens.result import Result

ENTRY_POINTS = "gaqueens.algorithms"


@dataclass(frozen=True)
class Algorithm:
    """An algorithm a sweep can run: ``run(settings, board, seed) -> Result``, its settings
    class (defaults are the documented ones), its unit of work, whether the seed changes
    nothing (one run per board is then enough), and whether its placements are permutations
    (a queen per column too), which the verifier then checks."""

    run: Callable[[object, int, int], Result]
    settings: type
    unit: str
    deterministic: bool = False
    permutation: bool = True
    prepare: Callable[[], None] | None = None  # loads, once a process, what every run needs


ALGORITHMS: dict[str, Algorithm] = {
    "ga": Algorithm(ga.run, ga.GaSettings, ga.UNIT),
    "local-search": Algorithm(local_search.run, local_search.Settings, local_search.UNIT,
                              prepare=local_search.prepare),
    "min-conflicts": Algorithm(min_conflicts.run, min_conflicts.Settings, min_conflicts.UNIT,
                               permutation=False,  # columns may clash until it solves
                               prepare=min_conflicts.prepare),
    "backtracking": Algorithm(backtracking.run, backtracking.Settings, backtracking.UNIT,
                              deterministic=True),
    "backtracking-heuristic": Algorithm(backtracking_heuristic.run, backtracking_heuristic.Settings,
                                        backtracking_heuristic.UNIT),
    "construction": Algorithm(construction.run, construction.Settings, construction.UNIT,
                              deterministic=True),
}

OPERATORS = {"select": SELECT, "survivors": SURVIVORS, "crossover": CROSSOVER,
             "mutation": MUTATION}
DEAP_PREFIX = {"select": "sel", "survivors": "sel", "crossover": "cx", "mutation": "mut"}
# the individuals a DEAP-style function of each kind takes before its keyword arguments
POSITIONAL = {"select": 2, "survivors": 2, "crossover": 2, "mutation": 1}


class Unknown(ValueError):
    """A name or import path that names nothing usable; the message says why, on one line."""


# ---- algorithms ------------------------------------------------------------------------------


def algorithm(name: str, kind: str = "algorithm") -> Algorithm:
    """The algorithm of that name: built in, or a plug-in's entry point. ``kind`` names what
    is looked for in the refusal: "baseline" leaves the GA out of the names offered."""
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
        return _shaped(points[name].load(), f"entry point {points[name].value}")
    except Unknown:
        raise
    except Exception as error:  # a broken plug-in: its own error, on one line
        raise Unknown(f"is a plug-in that fails to load ({type(error).__name__}: {error})") from None


def plugin(path: str) -> Algorithm:
    """The algorithm at the import path ``package.module`` or ``package.module:object``."""
    try:
        target = imported(path) if ":" in path else importlib.import_module(path)
    except Exception as error:
        raise Unknown(f"cannot be imported ({type(error).__name__}: {error})") from None
    return _shaped(target, path)


@cache
def plugin_names() -> dict[str, metadata.EntryPoint]:
    """The installed plug-ins' algorithms, by name (read once: it scans the installed packages)."""
    return {point.name: point for point in metadata.entry_points(group=ENTRY_POINTS)}


def _shaped(target, where: str) -> Algorithm:
    missing = [name for name in ("run", "Settings", "UNIT") if not hasattr(target, name)]
    if missing:
        raise Unknown(f"({where}) lacks {', '.join(missing)}: an algorithm has run(settings, "
                      "board, seed), Settings and UNIT, as gaqueens/baselines/local_search.py")
    if not dataclasses.is_dataclass(target.Settings):
        raise Unknown(f"({where}) has a Settings that is not a dataclass")
    return Algorithm(target.run, target.Settings, str(target.UNIT),
                     bool(getattr(target, "DETERMINISTIC", False)),
                     bool(getattr(target, "PERMUTATION", True)), getattr(target, "prepare", None))


_PREPARED: set = set()  # the prepare functions this process has called


def execute(algorithm: Algorithm, settings, board: int, seed: int) -> Result:
    """Runs one algorithm once, with ``seconds`` the wall time around the whole run; what the
    algorithm loads once a process (its ``prepare``, such as a compiled kernel) is loaded
    before the clock starts."""
    if algorithm.prepare is not None and algorithm.prepare not in _PREPARED:
        algorithm.prepare()
        _PREPARED.add(algorithm.prepare)
    start = time.perf_counter()
    result = algorithm.run(settings, board, seed)
    return replace(result, seconds=time.perf_counter() - start)


def runs_together(algorithm: Algorithm, settings, board: int) -> bool:
    """Whether execute_batch advances a batch's runs together in one array (the GA's batched
    family, gaqueens.ga.batched), where a larger batch costs less per run."""
    return algorithm.run is ga.run and ga.batched.covers(settings, board)


def execute_batch(algorithm: Algorithm, settings, board: int, seeds: list[int]) -> list[tuple[int, Result]]:
    """Runs one algorithm on one board for several seeds: the unit of work sent to a worker.
    The GA's seeds run together (ga.run_many: each run its seed's own, its ``seconds`` its share
    of the batch's wall time); any other algorithm's one after the other."""
    if algorithm.run is ga.run:
        return list(zip(seeds, ga.run_many(settings, board, seeds)))
    return [(seed, execute(algorithm, settings, board, seed)) for seed in seeds]


# ---- operators -------------------------------------------------------------------------------


def deap_operator(kind: str, name, arguments: dict) -> DeapOperator:
    """DEAP's deap.tools function ``name`` as an operator of ``kind``, its arguments checked."""
    prefix = DEAP_PREFIX[kind]
    known = sorted(n for n in dir(tools) if n.startswith(prefix) and callable(getattr(tools, n)))
    if name not in known:
        close = difflib.get_close_matches(str(name), known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise Unknown(f"names no {kind} function of deap.tools{hint}; {len(known)} start "
                      f"with {prefix}, e.g. {', '.join(known[:4])}")
    _check_arguments(kind, getattr(tools, name), arguments, f"DEAP's {name}")
    return DeapOperator(name, tuple(sorted(arguments.items())))


def function_operator(kind: str, path, arguments: dict) -> FunctionOperator:
    """A user's function at ``package.module:name`` as an operator of ``kind``."""
    if not isinstance(path, str) or ":" not in path:
        raise Unknown(f"must be an import path package.module:function, got {path!r}")
    try:
        function = imported(path)
    except Exception as error:
        raise Unknown(f"cannot import {path} ({type(error).__name__}: {error})") from None
    if not callable(function):
        raise Unknown(f"{path} is not a function")
    _check_arguments(kind, function, arguments, path)
    return FunctionOperator(path, tuple(sorted(arguments.items())))


def _check_arguments(kind: str, function, arguments: dict, name: str) -> None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return  # a builtin without a signature: its own call will say what is wrong
    try:
        signature.bind(*[None] * POSITIONAL[kind], **arguments)
    except TypeError as error:
        raise Unknown(f"does not fit {name}{signature}: {error}") from None
