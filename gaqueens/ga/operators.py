"""The GA's operators: each a plain function written DEAP's way, under the name experiment files
give it, registered where it is defined.

The kinds: ``select`` picks each child's parent and ``survivors`` the next population from
the pool (``function(individuals, k, **parameters)``, k of them); ``crossover`` works on a
pair (``function(first, second, **parameters)``, both changed in place and returned in a
tuple), ``mutation`` on one (``function(individual, **parameters)``, changed in place and
returned in a 1-tuple). A function draws from the module ``random``, which a run binds to its
own generator (gaqueens.ga.randomness). Both engines use that function: engine: deap in its
toolbox, engine: numpy on one row of its arrays at a time, but for tournament, uniform and
swap, which it draws for the whole generation at once (gaqueens.ga.variation).

The built-in names (BUILTINS, per kind): a function of gaqueens' own (``@operator``), or one
of DEAP's under a name of gaqueens' (``deap_builtin``), each with its parameters, their
ranges and defaults; a file gives a built-in's one parameter as ``{tournament: 3}``, or any
number of them as ``{name: {parameter: value, ...}}``. Besides: any function of deap.tools,
``{deap: NAME, ...arguments}``, and a user's own, ``{function: "package.module:name",
...arguments}``, their arguments checked against the function's signature when the file
loads, and what they return checked in use (gaqueens.ga.operator_checks).
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass, field
from functools import cache

from gaqueens.core.ranges import Number, Whole
from gaqueens.core.registry import Registry, Unknown, hint, imported
from gaqueens.ga import randomness
from gaqueens.ga.operator_checks import Ranked, mistake

KINDS = ("select", "survivors", "crossover", "mutation")
DEAP_PREFIX = {"select": "sel", "survivors": "sel", "crossover": "cx", "mutation": "mut"}
POSITIONAL = {"select": 2, "survivors": 2, "crossover": 2, "mutation": 1}  # individuals, k
NAMED = ("deap", "function")  # the operators given by a name of DEAP's or an import path


@dataclass(frozen=True)
class Parameter:
    """A built-in's parameter: its name in files, the function's keyword for it, its allowed
    values and its default."""

    name: str
    keyword: str
    allowed: object
    default: object


def deap_tools():
    """deap.tools, imported when first needed: it imports moocore (and starts a thread), which
    a run of gaqueens' own operators never calls."""
    from deap import tools

    return tools


@dataclass(frozen=True)
class Builtin:
    """A built-in operator: its kind and name, its function (None for the crossover ``none``;
    for one of DEAP's, its name in deap.tools), its parameters, and what it does with the
    ranges of its parameters (``doc``)."""

    kind: str
    name: str
    function: object
    parameters: tuple[Parameter, ...] = ()
    doc: str = ""

    def parameter(self, name: str) -> Parameter:
        return next(p for p in self.parameters if p.name == name)

    def resolved(self):
        """The function itself: DEAP's looked up in deap.tools (deap_tools)."""
        return getattr(deap_tools(), self.function) if isinstance(self.function, str) \
            else self.function


BUILTINS = {kind: Registry(f"built-in {kind}") for kind in KINDS}


def operator(kinds: tuple[str, ...], name: str, **allowed):
    """A decorator registering a function of gaqueens' own as the built-in ``name`` of
    ``kinds``; its keyword parameters are the operator's, each with its allowed values from
    ``allowed``."""
    def register(function):
        signature = inspect.signature(function)
        parameters = tuple(Parameter(key, key, allowed.get(key), value.default)
                           for key, value in list(signature.parameters.items())[1:])
        for kind in kinds:
            BUILTINS[kind].register(name, Builtin(kind, name, function, parameters,
                                                  inspect.getdoc(function) or ""),
                                    place=f"{function.__module__}.{function.__name__}")
        return function

    return register


def deap_builtin(kinds: tuple[str, ...], name: str, function: str, doc: str, **parameters) -> None:
    """Registers DEAP's ``function`` (its name in deap.tools) as the built-in ``name`` of
    ``kinds``, doing what ``doc`` says; ``parameters`` map each parameter's name in files to
    (the function's keyword, allowed values, default)."""
    made = tuple(Parameter(key, *spec) for key, spec in parameters.items())
    for kind in kinds:
        BUILTINS[kind].register(name, Builtin(kind, name, function, made, doc),
                                place=f"gaqueens.ga.operators ({function})")


# ---- the built-ins ----------------------------------------------------------------------------

deap_builtin(("survivors",), "best", "selBest",
             "The best of the pool, ties in the pool's order (the published truncation): DEAP's "
             "selBest, a stable sort.")
deap_builtin(("select", "survivors"), "tournament", "selTournament", """\
size  each pick the best of this many individuals drawn uniformly with replacement, the
      first drawn on a tie: DEAP's selTournament (tournsize); 1 to 1,000 (2, published)""",
             size=("tournsize", Whole(1, 1000), 2))
deap_builtin(("select", "survivors"), "uniform", "selRandom",
             "Picks drawn uniformly with replacement, fitness ignored: DEAP's selRandom.")
BUILTINS["crossover"].register("none", Builtin("crossover", "none", None, (),
                                               "No crossover: children are copies of their "
                                               "parents until mutated (published)."),
                               place="gaqueens.ga.operators (no crossover)")
deap_builtin(("crossover",), "pmx", "cxPartialyMatched",
             "Partially matched crossover (Goldberg and Lingle 1985): DEAP's cxPartialyMatched.")
deap_builtin(("crossover",), "ordered", "cxOrdered",
             "Ordered crossover (Davis 1985): DEAP's cxOrdered.")


@operator(("mutation",), "swap", count=Whole(1, 1000))
def swap(individual, count=1):
    """Swaps the entries of two distinct positions, drawn uniformly, ``count`` times: two queens
    trade columns, so the genome stays a permutation; a genome of one entry has nothing to
    swap. Changed in place and returned in a tuple.

    count  swaps per child, 1 to 1,000 (1, published)"""
    if len(individual) >= 2:
        for _ in range(count):
            i, j = random.sample(range(len(individual)), 2)
            individual[i], individual[j] = individual[j], individual[i]
    return (individual,)


deap_builtin(("mutation",), "shuffle", "mutShuffleIndexes", """\
indpb  each position is swapped with another, drawn uniformly, with this probability: DEAP's
       mutShuffleIndexes; a number above 0 to 1 (0.05)""",
             indpb=("indpb", Number(0, 1, open_minimum=True), 0.05))


# ---- the operator a file names ----------------------------------------------------------------


@dataclass(frozen=True)
class Operator:
    """An operator as an experiment file names it: its kind, its name (a built-in's, or
    "deap" or "function"), its arguments as sorted (parameter, value) pairs (a built-in's
    parameters that a file leaves out take their defaults), and for deap and function the
    name in deap.tools or the import path."""

    kind: str
    name: str
    arguments: tuple = ()
    target: str | None = field(default=None)

    @property
    def built_in(self) -> bool:
        """Whether gaqueens defined it (so it keeps permutations by construction)."""
        return self.name not in NAMED

    def get(self, parameter: str):
        """The value of a built-in's parameter: given, or its default."""
        given = dict(self.arguments)
        if parameter in given:
            return given[parameter]
        return BUILTINS[self.kind][self.name].parameter(parameter).default

    def function(self) -> tuple[object, dict]:
        """The DEAP-style function and its keyword arguments; (None, {}) for no crossover."""
        if self.name == "deap":
            return getattr(deap_tools(), self.target), dict(self.arguments)
        if self.name == "function":
            return imported(self.target), dict(self.arguments)
        builtin = BUILTINS[self.kind][self.name]
        return builtin.resolved(), {p.keyword: self.get(p.name) for p in builtin.parameters}


def make(kind: str, name: str, **arguments) -> Operator:
    """The built-in ``name`` of ``kind`` with these arguments, each checked, and the others at
    their defaults (so that two operators that work alike are equal): ValueError naming a
    parameter it does not have or a value outside its range."""
    builtin = BUILTINS[kind].find(name)
    names = [p.name for p in builtin.parameters]
    for key, value in arguments.items():
        if key not in names:
            raise ValueError(f"{kind} {name} has no parameter {key!r}; it has "
                             f"{', '.join(names) or 'none'}")
        rule = builtin.parameter(key).allowed
        if rule is not None and not rule.accepts(value):
            raise ValueError(f"{kind} {name}'s {key} must be {rule.expected}, got {value!r}")
    values = {p.name: arguments.get(p.name, p.default) for p in builtin.parameters}
    return Operator(kind, name, tuple(sorted(values.items())))


def deap_operator(kind: str, name, arguments: dict) -> Operator:
    """DEAP's deap.tools function ``name`` as an operator of ``kind``, its arguments checked."""
    prefix, tools = DEAP_PREFIX[kind], deap_tools()
    known = sorted(n for n in dir(tools) if n.startswith(prefix) and callable(getattr(tools, n)))
    if name not in known:
        raise Unknown(f"names no {kind} function of deap.tools{hint(name, known)}; "
                      f"{len(known)} start with {prefix}, e.g. {', '.join(known[:4])}")
    _check_arguments(kind, getattr(tools, name), arguments, f"DEAP's {name}")
    return Operator(kind, "deap", tuple(sorted(arguments.items())), name)


def function_operator(kind: str, path, arguments: dict) -> Operator:
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
    return Operator(kind, "function", tuple(sorted(arguments.items())), path)


def _check_arguments(kind: str, function, arguments: dict, name: str) -> None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return  # a builtin without a signature: its own call will say what is wrong
    try:
        signature.bind(*[None] * POSITIONAL[kind], **arguments)
    except TypeError as error:
        raise Unknown(f"does not fit {name}{signature}: {error}") from None


def try_out(operator: Operator, size: int = 8) -> str | None:
    """What goes wrong when the operator is applied once, DEAP's way, to permutations of
    0..size-1 with a fixed generator, or None: a wrong argument, what it raises, or what it
    returns (``mistake``), found when a file loads."""
    generator = randomness.python(0)
    function, arguments = operator.function()
    function = randomness.RandomBinding(generator)(function)
    genomes = [generator.sample(range(size), size) for _ in range(2)]
    individuals = [Ranked(value, row) for row, value in enumerate([3, 1, 4, 1, 5, 9, 2, 6])]
    given = {"select": (individuals, 4), "survivors": (individuals, 4), "crossover": genomes,
             "mutation": genomes[:1]}[operator.kind]
    try:
        out = function(*given, **arguments)
    except Exception as error:
        return f"raises {type(error).__name__}: {error}"
    return mistake(operator, out, size, individuals, 4)


@cache
def published(kind: str) -> Operator:
    """The published GA's operator of each kind: tournaments of 2, no crossover, one swap,
    the best survive."""
    return {"select": make("select", "tournament", size=2), "crossover": make("crossover", "none"),
            "mutation": make("mutation", "swap", count=1), "survivors": make("survivors", "best")}[kind]
