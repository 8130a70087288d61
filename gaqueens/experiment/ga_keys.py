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

from gaqueens import registry
from gaqueens.experiment.checker import Checker
from gaqueens.experiment.model import Entry
from gaqueens.experiment.yaml_file import join, shown
from gaqueens.ga import GaSettings
from gaqueens.ga.operators import try_out
from gaqueens.ga.settings import combination_problem, not_applicable
from gaqueens.ranges import Number, allowed

NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
NAME_CHARS = "letters, digits, '-', '_' and '.'"
STOP_KEYS = ("target", "generations")
KEYS = [f.name for f in dataclasses.fields(GaSettings) if f.name not in STOP_KEYS] + ["stop"]
FIELDS = {f.name: f for f in dataclasses.fields(GaSettings)}
SHORTHAND = ("pmx", "ordered")  # {pmx: CXPB}: the crossover and its probability
RATE = Number(0, 1)


def read_ga(checker: Checker, value, where: str = "ga", inherited: dict | None = None) -> GaSettings:
    """GaSettings from the mapping ``value`` at ``where``, on top of the fields ``inherited``
    (already read) when a variant is read."""
    value = checker.mapping(where, value, KEYS, "a mapping of GA settings, or none")
    given = read_fields(checker, value, where)
    settings = {**(inherited or {}), **given}
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
        elif "registry" in FIELDS[key].metadata:
            operator, rate = read_operator(checker, f"{where}.{key}", item, key)
            out[key] = operator
            if rate is not None:
                if "cxpb" in value:
                    checker.fail(f"{where}.cxpb", f"is given twice: once here and once as "
                                 f"{where}.crossover's rate")
                out["cxpb"] = rate
        else:
            out[key] = checker.check(f"{where}.{key}", allowed(FIELDS[key]), item)
    return out


def read_operator(checker: Checker, key: str, value, kind: str):
    """(operator, rate): an operator of ``kind`` written as a built-in name, {name: PARAMETER},
    {deap: NAME, ...arguments} or {function: PATH, ...arguments}; ``rate`` is the probability
    of a {pmx: CXPB} crossover, else None."""
    names = registry.OPERATORS[kind]
    parameters = {name: dataclasses.fields(cls) for name, cls in names.items()}
    forms = [f"{{{name}: {fields[0].name.upper()}}}" if fields else name
             for name, fields in parameters.items()]
    if kind == "crossover":
        forms += [f"{{{name}: CXPB}}" for name in SHORTHAND]
    expected = " or ".join(forms + ["{deap: NAME, ...}", "{function: PATH, ...}"])
    if isinstance(value, str) and value in names and not parameters[value]:
        return names[value](), None
    if isinstance(value, dict) and ("deap" in value or "function" in value):
        return _named(checker, key, value, kind), None
    if not (isinstance(value, dict) and len(value) == 1):
        checker.expect(key, expected, value)
    (name, parameter), = checker.mapping(key, value, list(names)).items()
    if not parameters[name]:
        if kind == "crossover" and name in SHORTHAND:
            return names[name](), checker.check(join(key, name), RATE, parameter)
        checker.expect(key, expected, value)
    field = parameters[name][0]
    parameter = checker.check(join(key, name), allowed(field), parameter)
    return checker.build(join(key, name), names[name], {field.name: parameter}), None


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
            operator = registry.deap_operator(kind, value["deap"], arguments)
        else:
            operator = registry.function_operator(kind, value["function"], arguments)
    except registry.Unknown as error:
        checker.fail(f"{key}.{form}", f"{shown(value[form], 80)} {error}")
    problem = try_out(kind, operator)
    if problem:
        checker.fail(f"{key}.{form}", f"{shown(value[form], 80)}, tried once, {problem}")
    return operator


def read_variants(checker: Checker, value, ga) -> list[Entry]:
    """The variants, each the file's ga (the published GA when ga is none) with changes."""
    value = checker.mapping("variants", value, None, "a mapping from a variant's name to its changes")
    inherited = {} if ga == "none" else read_fields(checker, ga, "ga")
    entries = []
    for name, changes in value.items():
        where = join("variants", name)
        if (not isinstance(name, str) or not re.fullmatch(NAME, name) or name in registry.ALGORITHMS
                or name in registry.plugin_names()):
            checker.fail(where, f"is not a variant name: use {NAME_CHARS}, and no algorithm's name")
        changes = checker.mapping(where, {} if changes is None else changes, KEYS,
                                  "a mapping of GA settings")
        entries.append(Entry(name, "ga", read_ga(checker, changes, where, inherited)))
    return entries
