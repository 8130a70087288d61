"""The `grid:` key of an experiment file: every combination of a few GA settings, each run as a
variant of the file's ga.

    grid:
      population: [5, 10, 20, 40, 80]
      select.tournament: [2, 3, 5]

A key is a path into the ga's settings, as a file writes them (``population``, ``cxpb``,
``select.tournament``, ``mutation.swap``, ``survivors.tournament``, ``stop.generations``,
``mutation.indpb`` for a ``{deap: ...}`` mutation); its value a list of the values to try. The
cartesian product of the lists makes the cells, each named from its values
(``population=5,select.tournament=2``) and read exactly as a variant with those changes would
be, before any run starts: a bad value names its cell and key path. At most MAX_CELLS cells.
"""

from __future__ import annotations

import copy
import itertools
import math

import yaml

from gaqueens import problems
from gaqueens.core.registry import hint
from gaqueens.experiment.checker import Checker
from gaqueens.experiment.ga_keys import KEYS, read_fields, read_ga
from gaqueens.experiment.model import Entry, Grid
from gaqueens.experiment.overrides import put
from gaqueens.experiment.yaml_file import join

MAX_CELLS = 10_000


def read_grid(checker: Checker, value, ga, earlier: list[Entry],
              problem: str = problems.DEFAULT) -> tuple[list[Entry], Grid]:
    """The grid's cells as entries, after the ``earlier`` ones (the ga and its variants), and
    the grid itself. A cell with the settings of an earlier entry shares its runs
    (Entry.same_as) rather than computing them again."""
    value = checker.mapping("grid", value, None, "a mapping from a GA setting path to a list of "
                            "values, e.g. {population: [10, 20]}")
    if not value:
        return [], Grid()
    base = {} if ga == "none" else ga
    for path, values in value.items():
        key = join("grid", path)
        if not isinstance(path, str) or path.split(".")[0] not in KEYS:
            checker.fail(key, f"is not a path into the ga's settings"
                         f"{hint(str(path).split('.')[0], KEYS)}; they start with one "
                         f"of {', '.join(KEYS)}")
        if not isinstance(values, list) or not values:
            checker.expect(key, "a list of values to try", values)
        if len({cell_text(v) for v in values}) != len(values):
            checker.fail(key, f"lists a value twice: {values}")
    for path in value:
        inner = next((other for other in value if other.startswith(f"{path}.")), None)
        if inner is not None:
            checker.fail(join("grid", inner), f"is inside grid.{path}: give the whole setting or "
                         "a path into it, not both")
    cells = math.prod(len(values) for values in value.values())
    if cells > MAX_CELLS:
        checker.fail("grid", f"makes {cells:,} cells, more than {MAX_CELLS:,}: run fewer values, "
                     "or split it into several experiments")
    inherited = read_fields(checker, base, "ga")
    entries = []
    grid = grid_of(value)
    made = {}
    for name, combination in grid.cells:
        if name in {entry.name for entry in earlier}:
            checker.fail(f"grid[{name}]", "has the name of a variant")
        changes = {}
        for path, setting in zip(value, combination):
            _set(changes, base, path.split("."), setting)
        settings = read_ga(checker, changes, f"grid[{name}]", inherited, problem)
        if settings in made:
            checker.fail(f"grid[{name}]", f"makes the same settings as grid[{made[settings]}]: a "
                         "grid's values must differ")
        made[settings] = name
        same = next((entry.name for entry in earlier if entry.settings == settings), None)
        entries.append(Entry(name, "ga", settings, same_as=same))
    return entries, grid


def grid_of(values: dict) -> Grid:
    """The grid of these paths and values: its cells in the order of the cartesian product,
    each named from its values (``population=5,select.tournament=2``)."""
    cells = tuple((",".join(f"{path}={cell_text(v)}" for path, v in zip(values, combination)),
                   combination) for combination in itertools.product(*values.values()))
    return Grid(tuple((path, tuple(v)) for path, v in values.items()), cells)


def cell_text(value) -> str:
    """A value as a cell's name writes it: as YAML, on one line."""
    if isinstance(value, str):
        return value
    return yaml.safe_dump(value, default_flow_style=True, width=10**6).strip().removesuffix("\n...")


def _set(changes: dict, base: dict, keys: list[str], value) -> None:
    """Sets ``value`` at the key path in ``changes``, starting from the ga's own value of the
    first key (so that a path into an operator keeps its other arguments); a value on the way
    that is not a mapping is replaced by one."""
    if len(keys) > 1 and keys[0] not in changes:
        changes[keys[0]] = copy.deepcopy(base.get(keys[0]))
    put(changes, keys, value)
