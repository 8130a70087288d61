"""Problems: what the GA and the solvers work on, behind one small interface, so that engines,
the store, the verifier, the reports and the exports take any of them.

A problem is a permutation problem: a genome of size n is a permutation of 0..n-1, and its
conflicts (0 for a solution, to minimise) are what every run reports of its final genome.
N-Queens (gaqueens.problems.nqueens) is the built-in one; a user's own joins by the entry
point group ``gaqueens.problems`` or by an import path, and an experiment file names it:
``problem: nqueens`` (the default), ``problem: my-problem`` or ``problem: {plugin:
package.module}`` (the module's ``PROBLEM``, or ``package.module:object``). Its ``name`` is
what solvers' ``PROBLEMS``, messages and tables know it by; ``locator`` what settings record,
which loads it again in any process.

A problem is an instance of Problem (or a subclass, made once) with:

    name             its name in files and in the store: ASCII letters, digits, - _ and .
    title            its name in tables and plots, e.g. "N-Queens"
    measures         the fitness measures a GA may minimise (``ga: {fitness: NAME}``); the
                     first is its conflicts, the others are 0 exactly where it is
    conflicts_label  what its conflicts count, e.g. "attacking pairs"
    evaluate(size, genomes, measure)   the measure of each row of a 2-D integer array, a 1-D
                     array of whole numbers >= 0 (checked: anything else is a PluginError)
    reject(size, solution, conflicts, solved, solved_at, measure)   the independent verifier:
                     what is wrong with a run's claims about its final genome, or None; it
                     shares no code with ``evaluate``
    reject_many(...), measured(size, solution, measure), measured_rows(...)   the same for many
                     rows, and the measure recounted by the verifier (defaults row by row)
    has_solution(size), facts(size)    for the experiment's checks and the tables
    drawing(solution)                  the genome drawn in text, or None

and its words, so that every table, plot, page and trace reads as itself: ``size_label`` and
``sizes_label`` ("board", "boards"), ``genome_label`` ("placement"), ``size_text(size)`` ("8
x 8"), ``picture`` (how the page's player draws a genome: "genome", a bar per entry, or
"queens", with a line between attacking pairs), ``picture_note()`` (the sentence under that
drawing) and ``trace_example`` (its name in traces).

An algorithm may look for more, for its own use: the GA's faster ways for its published family
(``ga_swaps``, ``ga_compiled``: gaqueens.ga.generation). A plug-in that lacks something or
gives it of the wrong type is refused when it loads, naming it (Unknown). The GA counts its
evaluations through ``fitness(size, measure)``, a Fitness counting the genomes it is given.
"""

from __future__ import annotations

import inspect
import math
import re
from functools import cache

import numpy as np

from gaqueens.core.registry import PluginError, Registry, Unknown

ENTRY_POINTS = "gaqueens.problems"
DEFAULT = "nqueens"
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")  # as GaSettings.problem takes it


def _values(problem: "Problem", size: int, count: int, measure: str, values) -> np.ndarray:
    """What ``evaluate`` returned for ``count`` genomes, checked: a 1-D array of ``count``
    whole numbers >= 0; else a PluginError naming the problem and what it returned."""
    array = np.asarray(values) if not isinstance(values, np.ndarray) else values
    wrong = None
    if array.shape != (count,):
        wrong = f"an array of shape {array.shape}"
    elif array.dtype.kind not in "iu":
        nan = array.dtype.kind in "fc" and bool(np.isnan(array).any())
        wrong = f"{array.dtype} values{' with NaN' if nan else ''}"
    elif count and array.dtype.kind == "i" and array.min() < 0:
        wrong = f"a negative value ({int(array.min())})"
    if wrong is None:
        return array
    raise PluginError(f"the problem {problem.name} ({type(problem).__module__}."
                      f"{type(problem).__qualname__}): evaluate on {count} genomes of size {size}, "
                      f"measure {measure}, returned {wrong}; expected shape ({count},), whole "
                      "numbers >= 0 in an integer array, one per genome")


class Fitness:
    """A problem's fitness in one measure on boards of ``size``, counting the genomes it
    evaluates: ``evaluations`` is what a run reports as its work, never a formula."""

    def __init__(self, problem: "Problem", size: int, measure: str):
        self.problem, self.size, self.measure = problem, size, measure
        self.evaluations = 0

    def __call__(self, genomes: np.ndarray) -> np.ndarray:
        self.evaluations += len(genomes)
        return _values(self.problem, self.size, len(genomes), self.measure,
                       self.problem.evaluate(self.size, genomes, self.measure))


class Problem:
    """What every problem has (see the module's docstring); a subclass gives ``name``,
    ``evaluate`` and ``reject`` at least."""

    name = ""
    title = ""
    measures: tuple[str, ...] = ("conflicts",)
    conflicts_label = "conflicts"
    size_label, sizes_label = "size", "sizes"
    genome_label = "genome"
    picture = "genome"  # or "queens"
    trace_example = ""

    def picture_note(self) -> str:
        """The sentence the page's player shows under its drawing of a genome."""
        return (f"Each bar is an entry of the {self.genome_label}, from the first on the left, "
                f"as high as its value; its conflicts are its {self.conflicts_label}.")

    def evaluate(self, size: int, genomes: np.ndarray, measure: str) -> np.ndarray:
        raise NotImplementedError

    def reject(self, size: int, solution, conflicts: int, solved: bool,
               solved_at: int, measure: str) -> str | None:
        raise NotImplementedError

    def reject_many(self, size: int, rows: np.ndarray, conflicts, solved, solved_at: int,
                    measure: str) -> list[str | None]:
        """``reject`` of each row of ``rows`` with its claims (``conflicts`` and ``solved``,
        one each a row), in order."""
        return [self.reject(size, row, int(count), bool(done), solved_at, measure)
                for row, count, done in zip(rows, conflicts, solved)]

    def measured(self, size: int, solution, measure: str) -> int:
        """The measure of one genome, recounted; by default ``evaluate`` on it."""
        return int(_values(self, size, 1, measure,
                           self.evaluate(size, np.asarray([solution]), measure))[0])

    def measured_rows(self, size: int, genomes, measure: str) -> np.ndarray:
        """``measured`` of each row of ``genomes``; by default one at a time."""
        return np.array([self.measured(size, [int(v) for v in genome], measure)
                         for genome in genomes], dtype=np.int64)

    def size_text(self, size: int) -> str:
        return f"{self.size_label} {size:,}"

    def fitness(self, size: int, measure: str | None = None) -> Fitness:
        return Fitness(self, size, measure or self.measures[0])

    def conflicts(self, size: int, genomes: np.ndarray) -> np.ndarray:
        """The conflicts (the first measure) of each row of ``genomes``."""
        return _values(self, size, len(genomes), self.measures[0],
                       self.evaluate(size, genomes, self.measures[0]))

    def has_solution(self, size: int) -> bool:
        return True

    def facts(self, size: int) -> dict:
        """For the tables: ``placements``, the genomes there are (n!, as text), ``solutions``
        (a count, or None where nobody has counted them), ``random_conflicts`` (the mean
        conflicts of a uniformly random genome, or None where not known exactly)."""
        return {"placements": placements_text(size), "solutions": None, "random_conflicts": None}

    def drawing(self, solution) -> str | None:
        return None


def placements_text(n: int) -> str:
    """n! as the published table writes it: exact up to 15!, else like 2.1e13."""
    if n <= 15:
        return f"{math.factorial(n):,}"
    exponent = math.lgamma(n + 1) / math.log(10)
    whole = math.floor(exponent)
    return f"{10 ** (exponent - whole):.1f}e{whole}"


# ---- loading: the built-in problem, and plug-ins ----------------------------------------------

_PLUGGED: dict[int, tuple[str, str]] = {}  # a plug-in problem (by id) -> (locator, its module)
_NAMED: dict[str, "Problem"] = {}  # a plug-in problem's name -> the first problem loaded by it


def _shape_problem(target, where: str, path: str) -> Problem:
    """A plug-in's problem (a module's PROBLEM, or the object or class at the path), checked
    against the interface (Unknown naming the plug-in), with its locator."""
    problem = getattr(target, "PROBLEM", target)
    if isinstance(problem, type) and issubclass(problem, Problem):
        problem = problem()
    if inspect.ismodule(problem):
        raise Unknown(f"({where}) has no PROBLEM: a problem's module sets PROBLEM to its "
                      "Problem (see gaqueens.problems)")
    if not isinstance(problem, Problem):
        raise Unknown(f"({where}) is not a problem: a {type(problem).__name__}, expected an "
                      "instance of gaqueens.problems.Problem")
    _check_shape(problem, where)
    if PROBLEMS.get(problem.name) is problem:  # the built-in one, by its import path
        return problem
    module, _, attribute = path.partition(":")
    if not attribute and inspect.ismodule(target):
        attribute = "PROBLEM"
    located = f"{module}:{attribute}" if attribute else module
    point = PROBLEMS.entry_points().get(problem.name)
    if point is not None and _full(point.value) == located:
        located = problem.name
    earlier = PROBLEMS.get(problem.name) or _NAMED.get(problem.name)
    if earlier is not None and type(earlier) is not type(problem):
        raise Unknown(f"({where}) is named {problem.name!r}, as {type(earlier).__module__}."
                      f"{type(earlier).__qualname__} is: a problem needs a name of its own")
    _NAMED.setdefault(problem.name, problem)
    _PLUGGED[id(problem)] = (located, module)
    return problem


def _full(path: str) -> str:
    """An import path as a problem's locator writes it: ``module:object``."""
    return path if ":" in path else f"{path}:PROBLEM"


def _check_shape(problem: Problem, where: str) -> None:
    """Unknown for what the problem gives wrong, naming it (``where``)."""
    def wrong(what):
        raise Unknown(f"({where}) {what} (see gaqueens.problems)")

    if not isinstance(problem.name, str) or not NAME.fullmatch(problem.name):
        wrong(f"has name {problem.name!r}, expected ASCII letters, digits, - _ and ., from a "
              "letter or _")
    for method in ("evaluate", "reject"):
        if getattr(type(problem), method) is getattr(Problem, method):
            wrong(f"lacks {method}")
    measures = problem.measures
    if (not isinstance(measures, (tuple, list)) or not measures
            or not all(isinstance(m, str) and m for m in measures)
            or len(set(measures)) != len(measures)):
        wrong(f"has measures {measures!r}, expected a tuple of distinct names, its conflicts "
              "first, e.g. (\"conflicts\",)")
    for text in ("title", "conflicts_label"):
        if not isinstance(getattr(problem, text), str):
            wrong(f"has {text} {getattr(problem, text)!r}, expected text")


PROBLEMS = Registry("problem", ENTRY_POINTS, _shape_problem)


@cache
def _builtin() -> None:
    import gaqueens.problems.nqueens  # noqa: F401  (registers itself)


def get(name: str) -> Problem:
    """The problem of that name (built in, or an installed plug-in's), or at an import path
    (``package.module``, whose PROBLEM it is, or ``package.module:object``); Unknown says
    why not. The built-in N-Queens is loaded on first use."""
    _builtin()
    if name in PROBLEMS or name in PROBLEMS.entry_points() or not re.search(r"[.:]", name):
        return PROBLEMS.find(name)
    return PROBLEMS.plugin(name)


def plugin(path: str) -> Problem:
    """The problem at the import path ``path`` (``problem: {plugin: PATH}``): a module's
    PROBLEM, a single-file module's too, or ``module:object``."""
    _builtin()
    return PROBLEMS.plugin(path)


def locator(problem: Problem) -> str:
    """What settings record of ``problem``, which ``get`` loads again in any process where it
    is installed: a built-in's or an entry point's name, else its import path."""
    return _PLUGGED.get(id(problem), (problem.name, None))[0]


def source(name: str) -> str | None:
    """The module of a plug-in problem, whose code its runs record; None for a built-in one."""
    return _PLUGGED.get(id(get(name)), (None, None))[1]


def named(name: str) -> str:
    """The name of the problem a solver's ``PROBLEMS`` names by ``name``: a problem's name, an
    entry point's or an import path (loaded to find it), so that either form matches."""
    _builtin()
    if name in PROBLEMS or not (name in PROBLEMS.entry_points() or re.search(r"[.:]", name)):
        return name
    try:
        return get(name).name
    except Unknown:
        return name


def solves(names, name: str) -> bool:
    """Whether an algorithm whose ``problems`` are ``names`` (None: any) solves the problem
    that ``name`` (a locator, or any name ``get`` takes) loads."""
    return names is None or get(name).name in {named(each) for each in names}
