"""Problems: what the GA and the solvers work on, behind one small interface, so that engines,
the store, the verifier, the reports and the exports take any of them.

A problem here is a permutation problem: a genome of size n is a permutation of 0..n-1, and
its conflicts (0 for a solution, to minimise) are what every run reports of its final
genome. N-Queens (gaqueens.problems.nqueens) is the built-in one; a user's own joins by the
entry point group ``gaqueens.problems`` or by an import path, and an experiment file names
it: ``problem: nqueens`` (the default), ``problem: my-problem`` or ``problem: {plugin:
package.module}`` (the module's ``PROBLEM``, or ``package.module:object``).

A problem is an object (subclass Problem) with:

    name             its name in files and in the store
    title            its name in tables and plots, e.g. "N-Queens"
    measures         the fitness measures a GA may minimise (``ga: {fitness: NAME}``); the
                     first is its conflicts, the others must be 0 exactly where it is
    conflicts_label  what its conflicts count, e.g. "attacking pairs"
    evaluate(size, genomes, measure)   the measure of each row of a 2-D integer array of
                     genomes, in one call (a numpy array of whole numbers)
    reject(size, solution, conflicts, solved, solved_at, measure)   the independent verifier:
                     what is wrong with a run's claims about its final genome (a list of
                     whole numbers), or None; it shares no code with ``evaluate``
    measured(size, solution, measure)  the measure of one genome, recounted by the verifier
    has_solution(size), facts(size)    for the experiment's checks and the tables
    drawing(solution)                  the genome drawn in text, or None

Its words, which every table, plot, page and trace of its runs uses, so that a problem reads
as itself (each has a default):

    size_label, sizes_label   the word for one instance size and its plural: "size 9" ("board
                     8" for N-Queens), in tables' headings, plots' axes and messages
    genome_label     the word for one genome, e.g. "placement" for N-Queens
    size_text(size)  one size in a plot's legend or title: "size 9" ("8 x 8" for N-Queens)
    picture          how the page's player draws a genome: "genome", plainly, a bar per entry
                     as high as its value; "queens", as queens on a board with a line between
                     each attacking pair (N-Queens, whose traces then carry those pairs)
    trace_example    its name in traces (genoxide's format 1, ``example``); ``name`` if empty
    measured_rows(size, genomes, measure)   ``measured`` of each row of ``genomes``, at once
                     where the verifier can
    swaps(size, measure, runs)         optional: an incremental fitness of swap children for
                     the GA's batched path (gaqueens.ga.batched), or None; what it has is
                     what gaqueens.problems.nqueens.swaps.RunsFitness has
    compiled(size, measure, scheme, ties)   optional: that path's whole generation
                     compiled and loaded, or None: a function of the batch's arrays that
                     advances every row one generation in place (genomes and counters,
                     values, slots, evaluations, best), from the raw draws of
                     gaqueens.ga.draws, and returns nothing (what it must do:
                     gaqueens.ga.batched.step, gaqueens.problems.nqueens.generation_kernel)

The GA counts its evaluations through ``fitness(size, measure)``, a Fitness that counts the
genomes it is given, as IOHexperimenter's problems count theirs.
"""

from __future__ import annotations

import math
from functools import cache
from importlib import metadata

import numpy as np

from gaqueens.core.algorithms import imported
from gaqueens.core.registry import Registry, Unknown

ENTRY_POINTS = "gaqueens.problems"
DEFAULT = "nqueens"


class Fitness:
    """A problem's fitness in one measure on boards of ``size``, counting the genomes it
    evaluates: ``evaluations`` is what a run reports as its work, never a formula."""

    def __init__(self, problem: "Problem", size: int, measure: str):
        self.problem, self.size, self.measure = problem, size, measure
        self.evaluations = 0

    def __call__(self, genomes: np.ndarray) -> np.ndarray:
        self.evaluations += len(genomes)
        return self.problem.evaluate(self.size, genomes, self.measure)


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
    incremental = False  # whether swaps() gives the batched GA's incremental fitness

    def evaluate(self, size: int, genomes: np.ndarray, measure: str) -> np.ndarray:
        raise NotImplementedError

    def reject(self, size: int, solution: list[int], conflicts: int, solved: bool,
               solved_at: int, measure: str) -> str | None:
        raise NotImplementedError

    def measured(self, size: int, solution: list[int], measure: str) -> int:
        """The measure of one genome, recounted; by default ``evaluate`` on it."""
        return int(self.evaluate(size, np.asarray([solution]), measure)[0])

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
        return self.evaluate(size, genomes, self.measures[0])

    def has_solution(self, size: int) -> bool:
        return True

    def facts(self, size: int) -> dict:
        """For the tables: ``placements``, the genomes there are (n!, as text), ``solutions``
        (a count, or None where nobody has counted them), ``random_conflicts`` (the mean
        conflicts of a uniformly random genome, or None where not known exactly)."""
        return {"placements": placements_text(size), "solutions": None, "random_conflicts": None}

    def drawing(self, solution) -> str | None:
        return None

    def swaps(self, size: int, measure: str, runs: int):
        return None

    def compiled(self, size: int, measure: str, scheme: str, ties: str):
        return None


def placements_text(n: int) -> str:
    """n! as the published table writes it: exact up to 15!, else like 2.1e13."""
    if n <= 15:
        return f"{math.factorial(n):,}"
    exponent = math.lgamma(n + 1) / math.log(10)
    whole = math.floor(exponent)
    return f"{10 ** (exponent - whole):.1f}e{whole}"


PROBLEMS = Registry("problem")


@cache
def plugin_names() -> dict[str, metadata.EntryPoint]:
    """The installed plug-ins' problems, by name (read once)."""
    return {point.name: point for point in metadata.entry_points(group=ENTRY_POINTS)}


def source(name: str) -> str | None:
    """The module of a plug-in problem, whose source its runs record; None for N-Queens."""
    if name == DEFAULT:
        return None
    points = plugin_names()
    if name in points:
        return points[name].module
    return name.partition(":")[0]


@cache
def get(name: str) -> Problem:
    """The problem of that name (built in, or an entry point's), or at an import path
    (``package.module``, whose PROBLEM it is, or ``package.module:object``); Unknown says
    why not. The built-in N-Queens is loaded on first use."""
    if name == DEFAULT and name not in PROBLEMS:
        import gaqueens.problems.nqueens  # noqa: F401  (registers itself)
    if name in PROBLEMS:
        return PROBLEMS[name]
    points = plugin_names()
    try:
        if name in points:
            target = points[name].load()
        elif "." in name or ":" in name:
            target = imported(name)
        else:
            PROBLEMS.find(name, [DEFAULT, *points])
    except Unknown:
        raise
    except Exception as error:
        raise Unknown(f"cannot be loaded ({type(error).__name__}: {error})") from None
    problem = getattr(target, "PROBLEM", target)
    if isinstance(problem, type):
        problem = problem()
    missing = [part for part in ("name", "evaluate", "reject") if not hasattr(problem, part)]
    if missing:
        raise Unknown(f"is not a problem: it lacks {', '.join(missing)} (see gaqueens.problems)")
    return problem
