"""What an operator written DEAP's way (gaqueens.ga.operators) must return, checked where a
plug-in's mistake can show: once when a file loads (operators.try_out, on genomes of 8), and
on every call in a run of an operator that gaqueens did not define (``checked``). A selection returns a
list of k of the individuals it is given; a crossover a 2-tuple of the two genomes; a mutation
a 1-tuple of the genome (DEAP's conventions); every genome a permutation of 0..n-1 of the
board's length. A mistake is one line naming the operator (its import path, or DEAP's name),
what it returned and what was expected: at load, the file's key; in a run, a PluginError (a
fault, exit 3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gaqueens.core.registry import PluginError

if TYPE_CHECKING:
    from gaqueens.ga.operators import Operator


class Ranked:
    """An individual as a selection sees it: a fitness to compare and the row it stands for."""

    __slots__ = ("fitness", "row")

    def __init__(self, value, row: int):
        from gaqueens.ga import deap_types

        self.fitness = deap_types.Fitness((value,))
        self.row = row


EXPECTED = {"crossover": "a 2-tuple of the two genomes, each a permutation of 0..{last}",
            "mutation": "a 1-tuple of the genome, a permutation of 0..{last}"}


def named(operator: Operator) -> str:
    """The operator as a message names it: its kind and its import path or DEAP's name."""
    where = {"deap": f"deap.tools.{operator.target}", "function": operator.target}
    return f"the {operator.kind} {where.get(operator.name, operator.name)}"


def mistake(operator: Operator, out, size: int = 0, individuals=None, count: int = 0) -> str | None:
    """What is wrong with ``out``, what the operator returned when given genomes of ``size``
    (a selection: asked for ``count`` of ``individuals``), as "returned ..., expected ...", or
    None."""
    if operator.kind in ("select", "survivors"):
        expected = f"expected a list of {count} of the individuals it is given"
        if not isinstance(out, (list, tuple)):
            return f"returned {_shown(out)}, {expected}"
        if len(out) != count:
            return f"returned {len(out)} individuals, {expected}"
        given = {id(individual) for individual in individuals}
        if not all(id(item) in given for item in out):
            return f"returned individuals it was not given, {expected}"
        return None
    expected = EXPECTED[operator.kind].format(last=size - 1)
    if not isinstance(out, tuple) or len(out) != (2 if operator.kind == "crossover" else 1):
        return f"returned {_shown(out)}, expected {expected} (DEAP's convention)"
    for genome in out:
        try:
            if len(genome) != size:
                return (f"returned a genome of {len(genome)} entries on a board of {size}, "
                        f"expected {expected}")
            if sorted(genome) == list(range(size)):
                continue
        except TypeError:
            pass
        return (f"does not keep a genome a permutation: it returned {_shown(genome)}, "
                f"expected {expected}")
    return None


def _shown(value) -> str:
    """A returned value in a message: its start and its type (a DEAP individual is a list)."""
    text = repr(value)
    kind = next((k.__name__ for k in (list, tuple) if isinstance(value, k)), type(value).__name__)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} (a {kind})"


def checked(operator: Operator, function, arguments: tuple, keywords: dict, size: int = 0,
            individuals=None, count: int = 0):
    """``function(*arguments, **keywords)``, the operator's own (bound to a run's generator),
    and what it returned, checked when it is not built in: a PluginError (a fault, exit 3)
    naming the operator, what it returned and what was expected, or what it raised."""
    if operator.built_in:
        return function(*arguments, **keywords)
    try:
        out = function(*arguments, **keywords)
    except Exception as error:
        raise PluginError(f"{named(operator)} raised {type(error).__name__}: {error}") from error
    wrong = mistake(operator, out, size, individuals, count)
    if wrong:
        raise PluginError(f"{named(operator)} {wrong}")
    return out
