"""Settings back in an experiment file's terms, every default filled in: what the manifest and
the store record, and what a rerun is compared with."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from gaqueens import problems
from gaqueens.ga import GaSettings
from gaqueens.ga.operators import BUILTINS, NAMED, Operator
from gaqueens.ga.settings import not_applicable

if TYPE_CHECKING:
    from gaqueens.experiment.model import Entry

MAX_BOARD_KEY = "max-board"  # any baseline: run it only on boards up to this size
PLUGIN_KEY = "plugin"  # a baseline given by its import path


def settings_to_yaml(entry: Entry) -> dict:
    """An algorithm's settings as an experiment file would write them, every default filled in
    and every GA setting that does not apply left out: two entries that make the same runs
    write the same."""
    settings = entry.settings
    if isinstance(settings, GaSettings):
        skip = not_applicable(settings)
        out = {}
        for f in dataclasses.fields(settings):
            value = getattr(settings, f.name)
            if f.name in skip or f.name in ("target", "generations"):
                continue
            if f.name == "problem" and value == problems.DEFAULT:
                continue  # the experiment's problem, written where it is not N-Queens
            out[f.name] = operator_to_yaml(value) if isinstance(value, Operator) else value
        out["stop"] = {"target": "none" if settings.target is None else settings.target,
                       "generations": settings.generations}
        return out
    out = {f.name.replace("_", "-"): getattr(settings, f.name) for f in dataclasses.fields(settings)}
    if entry.problem != problems.DEFAULT:  # what its runs solve, which their verifier checks
        out["problem"] = entry.problem
    if entry.max_board is not None:
        out[MAX_BOARD_KEY] = entry.max_board
    if entry.plugin is not None:
        out[PLUGIN_KEY] = entry.plugin
    return out


def run_settings(entry: Entry) -> dict:
    """What makes an entry's runs what they are, as the store records it: its settings
    without the keys that only choose which runs to do (max-board; seeds and boards are not
    settings either), so that changing those adds or leaves runs and never asks for --fresh."""
    return {key: value for key, value in settings_to_yaml(entry).items() if key != MAX_BOARD_KEY}


def operator_to_yaml(operator: Operator):
    """An operator as a file writes it: a built-in's name, {name: PARAMETER} or {name:
    {parameter: value, ...}}, or {deap: NAME, ...} or {function: PATH, ...} with its
    arguments."""
    arguments = dict(operator.arguments)
    if operator.name in NAMED:
        return {operator.name: operator.target, **arguments}
    parameters = BUILTINS[operator.kind][operator.name].parameters
    if not parameters:
        return operator.name
    if len(parameters) == 1:
        return {operator.name: arguments[parameters[0].name]}
    return {operator.name: arguments}
