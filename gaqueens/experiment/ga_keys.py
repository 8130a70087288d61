"""The GA's keys of an experiment file, `ga:` and `variants:`, read into GaSettings.

    ga:
      engine: numpy              # or deap
      population: 20
      offspring: 20
      scheme: mu+lambda          # or mu,lambda, or simple
      variation: each            # or and (DEAP's varAnd), or or (DEAP's varOr)
      cxpb: 0.5                  # with a crossover
      mutpb: 0.2                 # with variation and/or
      select: {tournament: 2}    # or uniform, {deap: NAME, ...}, {function: PATH, ...}
      crossover: none            # or pmx, ordered, {pmx: CXPB}, {deap: ...}, {function: ...}
      mutation: {swap: 1}        # or {shuffle: INDPB}, {deap: ...}, {function: ...}
      survivors: best            # or any selection
      ties: offspring-first      # or parents-first
      fitness: pairs             # or excess
      stop: {target: 0, generations: 50000}   # target: none runs every generation

GaSettings documents each. ``{pmx: CXPB}`` and ``{ordered: CXPB}`` say the crossover and its
probability at once. A variant is the ga's settings with its own keys changed: a key it
inherits that does not apply to it any more (cxpb once it has no crossover) is left out, and
a key it gives that does not apply is refused, as it is in `ga:`.
"""

from __future__ import annotations

import dataclasses
import re

from gaqueens import problems
from gaqueens.core import algorithms
from gaqueens.core.registry import Unknown
from gaqueens.experiment.checker import Checker
from gaqueens.experiment.model import Entry
from gaqueens.experiment.yaml_file import join, shown
from gaqueens.ga import GaSettings
from gaqueens.ga import operators
from gaqueens.ga.settings import combination_problem, not_applicable
from gaqueens.core.ranges import Number, allowed

NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
NAME_CHARS = "ASCII letters (a to z, A to Z), digits, '-', '_' and '.'"
STOP_KEYS = ("target", "generations")
KEYS = [f.name for f in dataclasses.fields(GaSettings)
        if f.name not in (*STOP_KEYS, "problem")] + ["stop"]  # the problem is the file's
FIELDS = {f.name: f for f in dataclasses.fields(GaSettings)}
SHORTHAND = ("pmx", "ordered")  # {pmx: CXPB}: the crossover and its probability
RATE = Number(0, 1)


def read_ga(checker: Checker, value, where: str = "ga", inherited: dict | None = None,
            problem: str = problems.DEFAULT) -> GaSettings:
    """GaSettings for ``problem`` from the mapping ``value`` at ``where``, on top of the fields
    ``inherited`` (already read) when a variant is read."""
    value = checker.mapping(where, value, KEYS, "a mapping of GA settings, or none")
    given = read_fields(checker, value, where)
    measures = problems.get(problem).measures
    if "fitness" in given and (not isinstance(given["fitness"], str)
                               or given["fitness"] not in measures):
        checker.expect(f"{where}.fitness", f"one of {', '.join(measures)}", given["fitness"])
    settings = {**(inherited or {}), **given, "problem": problem}
    for name, reason in not_applicable(settings).items():
        if name in given:
            key = f"{where}.stop.{name}" if name in STOP_KEYS else f"{where}.{name}"
            checker.fail(key, f"does not apply: {reason}")
        settings.pop(name, None)
    _combination(checker, settings, where)
    return checker.build(where, GaSettings, settings)


def _combination(checker: Checker, settings: dict, where: str) -> None:
    """Refuses settings each in range but impossible together, naming the key to change."""
    problem = combination_problem(settings)
    if problem:
        checker.fail(f"{where}.{problem[0]}", problem[1])


def read_fields(checker: Checker, value: dict, where: str) -> dict:
    """The GaSettings fields a mapping gives, each checked."""
    out = {}
    for key, item in value.items():
        if key == "stop":
            stop = checker.mapping(f"{where}.stop", item, STOP_KEYS)
            for name, limit in stop.items():
                if name == "target" and limit == "none":
                    limit = None
                elif limit is None:
                    checker.expect(f"{where}.stop.{name}", allowed(FIELDS[name]).expected, limit)
                out[name] = checker.check(f"{where}.stop.{name}", allowed(FIELDS[name]), limit)
        elif "operator" in FIELDS[key].metadata:
            operator, rate = read_operator(checker, f"{where}.{key}", item, key)
            out[key] = operator
            if rate is not None:
                if "cxpb" in value:
                    checker.fail(f"{where}.cxpb", f"is given twice: once here and once as "
                                 f"{where}.crossover's rate")
                out["cxpb"] = rate
        elif key == "fitness":
            out[key] = item  # one of the problem's measures: read_ga checks it
        else:
            out[key] = checker.check(f"{where}.{key}", allowed(FIELDS[key]), item)
    return out


def _form(builtin) -> str:
    """How a file writes a built-in: its name, {name: PARAMETER}, or {name: {p: P, ...}}."""
    parameters = builtin.parameters
    if not parameters:
        return builtin.name
    if len(parameters) == 1:
        return f"{{{builtin.name}: {parameters[0].name.upper()}}}"
    inner = ", ".join(f"{p.name}: {p.name.upper()}" for p in parameters)
    return f"{{{builtin.name}: {{{inner}}}}}"


def read_operator(checker: Checker, key: str, value, kind: str):
    """(operator, rate): an operator of ``kind`` written as a built-in's name (one without
    parameters), {name: PARAMETER} (one with one), {name: {parameter: value, ...}} (any
    number of its parameters, the others at their defaults), {deap: NAME, ...arguments} or
    {function: PATH, ...arguments}; ``rate`` is the probability of a {pmx: CXPB} crossover,
    else None."""
    builtins = operators.BUILTINS[kind]
    forms = [_form(builtin) for _, builtin in builtins.items()]
    if kind == "crossover":
        forms += [f"{{{name}: CXPB}}" for name in SHORTHAND]
    expected = " or ".join(forms + ["{deap: NAME, ...}", "{function: PATH, ...}"])
    if isinstance(value, str) and value in builtins and not builtins[value].parameters:
        return operators.make(kind, value), None
    if isinstance(value, dict) and ("deap" in value or "function" in value):
        return _named(checker, key, value, kind), None
    if not (isinstance(value, dict) and len(value) == 1):
        checker.expect(key, expected, value)
    (name, given), = checker.mapping(key, value, list(builtins)).items()
    parameters = builtins[name].parameters
    if kind == "crossover" and name in SHORTHAND and not isinstance(given, dict):
        return operators.make(kind, name), checker.check(join(key, name), RATE, given)
    if not parameters:
        checker.expect(key, expected, value)
    if isinstance(given, dict):
        given = checker.mapping(join(key, name), given, [p.name for p in parameters])
        places = {parameter: join(join(key, name), parameter) for parameter in given}
    elif len(parameters) == 1:
        given, places = {parameters[0].name: given}, {parameters[0].name: join(key, name)}
    else:
        checker.expect(join(key, name), "a mapping of its parameters: " + _form(builtins[name]),
                       given)
    arguments = {}
    for parameter, item in given.items():
        rule = builtins[name].parameter(parameter).allowed
        arguments[parameter] = item if rule is None else checker.check(places[parameter], rule, item)
    return checker.build(join(key, name), lambda **a: operators.make(kind, name, **a),
                         arguments), None


def _named(checker: Checker, key: str, value: dict, kind: str):
    """{deap: NAME, ...} or {function: PATH, ...}: the function and its keyword arguments."""
    if "deap" in value and "function" in value:
        checker.fail(key, "gives both deap and function: name one")
    form = "deap" if "deap" in value else "function"
    arguments = {k: v for k, v in value.items() if k != form}
    for name in arguments:
        if not (isinstance(name, str) and name.isidentifier()):
            checker.fail(join(key, name), "is not an argument name")
    try:
        if form == "deap":
            if not isinstance(value["deap"], str):
                checker.expect(f"{key}.deap", "the name of a function of deap.tools", value["deap"])
            operator = operators.deap_operator(kind, value["deap"], arguments)
        else:
            operator = operators.function_operator(kind, value["function"], arguments)
    except Unknown as error:
        checker.fail(f"{key}.{form}", f"{shown(value[form], 80)} {error}")
    problem = operators.try_out(operator)
    if problem:
        checker.fail(f"{key}.{form}", f"{shown(value[form], 80)}, tried once, {problem}")
    return operator


def read_variants(checker: Checker, value, ga, problem: str = problems.DEFAULT) -> list[Entry]:
    """The variants, each the file's ga (the published GA when ga is none) with changes."""
    value = checker.mapping("variants", value, None, "a mapping from a variant's name to its changes")
    inherited = {} if ga == "none" else read_fields(checker, ga, "ga")
    entries = []
    for name, changes in value.items():
        where = join("variants", name)
        if (not isinstance(name, str) or not re.fullmatch(NAME, name)
                or name in algorithms.ALGORITHMS.known()):
            checker.fail(where, f"is not a variant name: use {NAME_CHARS}, and no algorithm's name")
        changes = checker.mapping(where, {} if changes is None else changes, KEYS,
                                  "a mapping of GA settings")
        entries.append(Entry(name, "ga", read_ga(checker, changes, where, inherited, problem)))
    return entries
