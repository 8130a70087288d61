"""The `baselines:` key of an experiment file: the classic solvers, and plug-ins.

    baselines: [local-search, construction]        # names, at their default settings
    baselines:                                      # or each with its settings
      backtracking: {budget: 10000000, max-board: 32}
      my-solver: {plugin: mypackage.solver, steps: 100}

A name is a built-in algorithm's or an installed plug-in's (entry point group
gaqueens.algorithms); ``plugin: package.module`` (or package.module:object) names any other
algorithm by its import path, under the name given. Each algorithm's settings are the fields of
its Settings class, written with - for _ ; ``max-board`` runs it only on boards up to that size.
"""

from __future__ import annotations

import dataclasses
import re

from gaqueens import baselines  # noqa: F401  (registers the built-in solvers)
from gaqueens.core import algorithms
from gaqueens.core.registry import Unknown
from gaqueens.experiment.checker import Checker
from gaqueens.experiment.ga_keys import NAME, NAME_CHARS
from gaqueens.experiment.model import Entry
from gaqueens.experiment.settings_yaml import MAX_BOARD_KEY, PLUGIN_KEY
from gaqueens.experiment.yaml_file import shown
from gaqueens.core.ranges import Whole, allowed

BOARDS = Whole(1, 100_000_000)  # the largest board any algorithm takes
LARGEST_BOARD = 10_000_000  # the largest board of every other algorithm (the GA, plug-ins)
SCALING = ("local-search", "min-conflicts", "construction")  # solvers up to BOARDS' bound:
# a run of 10^8 queens takes up to minutes and gigabytes (each states its memory)


def board_problem(name: str, algorithm, board: int) -> str | None:
    """Why ``algorithm`` (registered as ``name``) cannot run on this board, or None: only the
    built-in SCALING solvers take boards above LARGEST_BOARD."""
    scales = name in SCALING and algorithms.ALGORITHMS.get(name) is algorithm
    if board <= LARGEST_BOARD or scales:
        return None
    return (f"is {board:,}, above {LARGEST_BOARD:,}, the largest board {name} takes (only "
            f"{', '.join(SCALING)} take boards up to {BOARDS.maximum:,})")


def read_baselines(checker: Checker, value) -> list[Entry]:
    if isinstance(value, list):
        for i, name in enumerate(value):
            if not isinstance(name, str):
                checker.expect(f"baselines[{i}]", "a baseline's name", name)
        if len(set(value)) != len(value):
            checker.fail("baselines", f"lists a baseline twice: {shown(value)}")
        value = {name: None for name in value}
    value = checker.mapping("baselines", value, None,
                            "a list of baselines, or a mapping from a baseline to its settings")
    return [_baseline(checker, name, settings) for name, settings in value.items()]


def _baseline(checker: Checker, name, value) -> Entry:
    key = f"baselines.{name}"
    value = {} if value is None else value
    plugin = value.get(PLUGIN_KEY) if isinstance(value, dict) else None
    try:
        if plugin is not None:
            if not isinstance(name, str) or not re.fullmatch(NAME, name) or name == "ga":
                checker.fail(key, f"is not a name for a plug-in: use {NAME_CHARS}")
            if not isinstance(plugin, str):
                checker.expect(f"{key}.{PLUGIN_KEY}", "an import path, package.module", plugin)
            spec = algorithms.plugin(plugin)
        else:
            spec = algorithms.find(str(name), "baseline")
    except Unknown as error:
        where = f"{key}.{PLUGIN_KEY}" if plugin is not None else key
        checker.fail(where, str(error))
    fields = {f.name.replace("_", "-"): f for f in dataclasses.fields(spec.settings)}
    extra = [MAX_BOARD_KEY] + ([PLUGIN_KEY] if plugin is not None else [])
    value = checker.mapping(key, value, [*fields, *extra])
    settings = {}
    for k, item in value.items():
        if k not in extra:
            rule = allowed(fields[k])
            settings[fields[k].name] = item if rule is None else checker.check(f"{key}.{k}", rule, item)
    max_board = value.get(MAX_BOARD_KEY)
    if max_board is not None:
        checker.check(f"{key}.{MAX_BOARD_KEY}", BOARDS, max_board)
    return Entry(name, name, checker.build(key, spec.settings, settings), max_board,
                 plugin=plugin, spec=spec)
