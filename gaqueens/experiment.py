"""Experiment files: YAML in, validated settings out, before any run starts.

The keys (SPEC section 3), each optional but ``boards``:

    name: n8                     # default: the file's stem; letters, digits, - _ .
    boards: [8]                  # one or more board sizes, 1 to 10^7
    seeds: {first: 1, last: 100} # inclusive, >= 0; the default
    ga: {...}                    # GaSettings, the published ones by default; or none
    variants: {name: {...}}      # more GAs beside it, each the ga's settings with these changed
    baselines: [local-search]    # or {backtracking: {budget: 10000000}}; default: none
    reference: {8: 100}          # published medians of the GA, per board; default: none
    output: results/n8           # default: results/<name>

Anything wrong is a ``BadInput`` whose message is one line naming the file, the key path and
what is expected. The YAML is read with PyYAML's safe loader, refusing aliases (so an alias
bomb is refused before it expands) and repeated keys.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from gaqueens.algorithms import ALGORITHMS
from gaqueens.board import has_solution
from gaqueens.ga import GaSettings
from gaqueens.ranges import Whole, allowed

TOP_KEYS = ("name", "boards", "seeds", "ga", "variants", "baselines", "reference", "output")
NAME = r"[A-Za-z0-9][A-Za-z0-9._-]*"
BOARDS = Whole(1, 10_000_000)
SEED = Whole(0, 2**63 - 1)
MAX_BOARD_KEY = "max-board"  # any baseline: run it only on boards up to this size


class BadInput(Exception):
    """Input refused before any work starts; ``str()`` is the one line to show."""


@dataclass(frozen=True)
class Entry:
    """One algorithm of an experiment with its settings, under the name its runs are stored
    by: the algorithm's own name, or a GA variant's."""

    name: str
    algorithm: str
    settings: object
    max_board: int | None = None

    def runs_on(self, board: int) -> bool:
        return self.max_board is None or board <= self.max_board


@dataclass(frozen=True)
class Experiment:
    name: str
    source: str
    boards: tuple[int, ...]
    seeds: tuple[int, int]
    entries: tuple[Entry, ...]
    reference: dict
    output: Path

    def tasks(self) -> list[tuple[str, int, int]]:
        """Every (algorithm, board, seed) the experiment runs; a deterministic algorithm runs
        once per board, with the first seed."""
        first, last = self.seeds
        tasks = []
        for entry in self.entries:
            seeds = [first] if ALGORITHMS[entry.algorithm].deterministic else range(first, last + 1)
            tasks += [(entry.name, b, s) for b in self.boards if entry.runs_on(b) for s in seeds]
        return tasks

    def entry(self, name: str) -> Entry:
        return next(entry for entry in self.entries if entry.name == name)

    def resolved(self) -> dict:
        """The whole experiment with every default filled in, in the file's own terms."""
        return {
            "name": self.name,
            "boards": list(self.boards),
            "seeds": {"first": self.seeds[0], "last": self.seeds[1]},
            "algorithms": {entry.name: settings_to_yaml(entry) for entry in self.entries},
            "reference": {int(board): value for board, value in self.reference.items()},
            "output": str(self.output),
        }


# ---- reading the file --------------------------------------------------------------------


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader (no tag builds a Python object), refusing aliases and repeated
    keys."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"found an alias (*{event.anchor}), which experiment files do not "
                "allow", event.start_mark)
        return super().compose_node(parent, index)

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (list, dict)):
                raise yaml.constructor.ConstructorError(
                    None, None, "found a list or mapping as a key", key_node.start_mark)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"found the key {key!r} twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: Path):
    """The file's YAML document, or BadInput for a missing, unreadable, non-UTF-8 or broken
    file."""
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, expected an experiment file (YAML)")
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise BadInput(f"{path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise BadInput(f"{path}: cannot be read ({error.strerror})") from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise BadInput(f"{path}: not valid YAML{where}: {error.problem or error.context}") from None
    except yaml.YAMLError as error:
        raise BadInput(f"{path}: not valid YAML: {str(error).splitlines()[0]}") from None
    except RecursionError:
        raise BadInput(f"{path}: not valid YAML: nested too deeply") from None


def load(path, *, output=None, seeds: tuple[int, int] | None = None) -> Experiment:
    """Reads and validates an experiment file; ``output`` and ``seeds`` override the file's."""
    path = Path(path)
    data = read_yaml(path)
    return _Reader(str(path)).experiment(data, path.stem, output, seeds)


# ---- validation --------------------------------------------------------------------------


def shown(value) -> str:
    """A value as the YAML file wrote it, for messages."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return repr(value)
    return type(value).__name__


class _Reader:
    def __init__(self, file: str):
        self.file = file

    def fail(self, key: str, message: str):
        raise BadInput(f"{self.file}: {key} {message}" if key else f"{self.file}: {message}")

    def expect(self, key: str, expected: str, value):
        self.fail(key, f"must be {expected}, got {shown(value)}")

    def check(self, key: str, allowed_values, value):
        if not allowed_values.accepts(value):
            self.expect(key, allowed_values.expected, value)
        return value

    def mapping(self, key: str, value, known) -> dict:
        if not isinstance(value, dict):
            self.expect(key, "a mapping", value)
        for name in value:
            if known is not None and name not in known:
                where = f"{key}.{name}" if key else str(name)
                close = difflib.get_close_matches(str(name), list(known), n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                self.fail(where, f"is not a known key{hint}; known: {', '.join(known)}")
        return value

    # ---- the top level ----

    def experiment(self, data, stem: str, output, seeds) -> Experiment:
        if data is None:
            self.fail("", "is empty, expected a mapping of settings (boards: [8], ...)")
        data = self.mapping("", data, TOP_KEYS)
        name = data.get("name", stem)
        if not isinstance(name, str) or not re.fullmatch(NAME, name):
            self.expect("name", "a name of letters, digits, '-', '_' and '.'", name)
        if "boards" not in data:
            self.fail("boards", "is missing: give the board sizes, e.g. boards: [8]")
        boards = self.boards(data["boards"])
        entries = []
        ga = data.get("ga", {})
        if ga != "none":
            entries.append(Entry("ga", "ga", self.ga(ga)))
        entries += self.variants(data.get("variants", {}), ga)
        entries += self.baselines(data.get("baselines", []))
        if not entries:
            self.fail("ga", "is none and there are no baselines: nothing to run")
        for entry in entries:
            self.solvable(entry, boards)
        reference = self.reference(data.get("reference", {}), boards, entries)
        first_last = seeds if seeds is not None else self.seeds(data.get("seeds", {}))
        if output is None:
            output = data.get("output", f"results/{name}")
            if not isinstance(output, str) or not output.strip():
                self.expect("output", "a folder path", output)
        return Experiment(
            name=name,
            source=self.file,
            boards=boards,
            seeds=first_last,
            entries=tuple(entries),
            reference=reference,
            output=self.output(Path(output)),
        )

    def boards(self, value) -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            self.expect("boards", "a list of board sizes, e.g. [8, 16]", value)
        for i, board in enumerate(value):
            self.check(f"boards[{i}]", BOARDS, board)
        if len(set(value)) != len(value):
            self.fail("boards", f"lists a board twice: {value}")
        return tuple(value)

    def seeds(self, value) -> tuple[int, int]:
        value = self.mapping("seeds", value, ("first", "last"))
        first = self.check("seeds.first", SEED, value.get("first", 1))
        last = self.check("seeds.last", SEED, value.get("last", 100))
        if last < first:
            self.fail("seeds", f"run from first to last, inclusive: first {first} is after last {last}")
        return first, last

    def output(self, path: Path) -> Path:
        if path.exists() and not path.is_dir():
            self.fail("output", f"{path} is a file, expected a folder")
        existing = next(p for p in [path, *path.absolute().parents] if p.exists())
        if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
            self.fail("output", f"{path} cannot be written ({existing} is not a writable folder)")
        return path

    def reference(self, value, boards, entries) -> dict:
        if not isinstance(value, dict):
            self.expect("reference", "a mapping from board to published median, e.g. {8: 100}", value)
        if value and entries[0].name != "ga":
            self.fail("reference", "gives published GA medians, but ga is none")
        for board, median in value.items():
            if board not in boards:
                self.fail(f"reference.{board}", f"names a board that is not in boards {list(boards)}")
            if isinstance(median, bool) or not isinstance(median, (int, float)) or not median > 0:
                self.expect(f"reference.{board}", "a median number of evaluations above 0", median)
        return dict(value)

    def solvable(self, entry: Entry, boards):
        """Refuses boards 2 and 3 to an algorithm that must reach 0 conflicts there."""
        target = getattr(entry.settings, "target", 0)
        for i, board in enumerate(boards):
            if not has_solution(board) and target == 0 and entry.runs_on(board):
                self.fail(f"boards[{i}]", f"is {board}, which has no solution: {entry.name} cannot "
                          "reach 0 conflicts (boards 2 and 3 have none)")

    # ---- the GA ----

    def variants(self, value, ga) -> list[Entry]:
        value = self.mapping("variants", value, None)
        entries = []
        for name, changes in value.items():
            if not isinstance(name, str) or not re.fullmatch(NAME, name) or name in ALGORITHMS:
                self.expect("variants", "named by letters, digits, '-', '_' and '.', other than "
                            "an algorithm's name", name)
            base = {} if ga in (None, "none") else dict(ga)
            changes = self.mapping(f"variants.{name}", {} if changes is None else changes,
                                   self.ga_keys())
            merged = {**base, **changes}
            if isinstance(base.get("stop"), dict) and isinstance(changes.get("stop"), dict):
                merged["stop"] = {**base["stop"], **changes["stop"]}
            entries.append(Entry(name, "ga", self.ga(merged, f"variants.{name}")))
        return entries

    @staticmethod
    def ga_keys() -> list[str]:
        names = [f.name for f in dataclasses.fields(GaSettings)]
        return [name for name in names if name not in ("target", "generations")] + ["stop"]

    def ga(self, value, where: str = "ga") -> GaSettings:
        if value is None:
            value = {}
        fields = {f.name: f for f in dataclasses.fields(GaSettings)}
        value = self.mapping(where, value, self.ga_keys())
        settings = {}
        for key, item in value.items():
            if key == "stop":
                stop = self.mapping(f"{where}.stop", item, ("target", "generations"))
                for name, limit in stop.items():
                    settings[name] = self.check(f"{where}.stop.{name}", allowed(fields[name]), limit)
            elif "registry" in fields[key].metadata:
                settings[key] = self.operator(f"{where}.{key}", item, fields[key].metadata["registry"])
            else:
                settings[key] = self.check(f"{where}.{key}", allowed(fields[key]), item)
        ga = GaSettings(**settings)
        if ga.scheme == "mu,lambda" and ga.offspring < ga.population:
            self.fail(f"{where}.offspring", f"must be at least {where}.population "
                      f"({ga.population}) with scheme mu,lambda, got {ga.offspring}")
        return ga

    def operator(self, key: str, value, registry: dict):
        forms = [
            name if not dataclasses.fields(cls) else f"{{{name}: {dataclasses.fields(cls)[0].name.upper()}}}"
            for name, cls in registry.items()
        ]
        expected = " or ".join(forms)
        if isinstance(value, str) and value in registry and not dataclasses.fields(registry[value]):
            return registry[value]()
        if not (isinstance(value, dict) and len(value) == 1):
            self.expect(key, expected, value)
        (name, parameter), = value.items()
        if name not in registry or not dataclasses.fields(registry[name]):
            self.expect(key, expected, value)
        field = dataclasses.fields(registry[name])[0]
        return registry[name](self.check(f"{key}.{name}", allowed(field), parameter))

    # ---- the baselines ----

    def baselines(self, value) -> list[Entry]:
        known = [name for name in ALGORITHMS if name != "ga"]
        if isinstance(value, list):
            for i, name in enumerate(value):
                if not isinstance(name, str):
                    self.expect(f"baselines[{i}]", "a baseline's name", name)
                self.mapping("baselines", {name: None}, known)
            if len(set(value)) != len(value):
                self.fail("baselines", f"lists a baseline twice: {value}")
            value = {name: None for name in value}
        value = self.mapping("baselines", value, known)
        return [self.baseline(name, settings) for name, settings in value.items()]

    def baseline(self, name: str, value) -> Entry:
        key = f"baselines.{name}"
        fields = {f.name.replace("_", "-"): f for f in dataclasses.fields(ALGORITHMS[name].settings)}
        value = self.mapping(key, {} if value is None else value, [*fields, MAX_BOARD_KEY])
        settings = {
            fields[k].name: self.check(f"{key}.{k}", allowed(fields[k]), item)
            for k, item in value.items()
            if k != MAX_BOARD_KEY
        }
        max_board = value.get(MAX_BOARD_KEY)
        if max_board is not None:
            self.check(f"{key}.{MAX_BOARD_KEY}", BOARDS, max_board)
        return Entry(name, name, ALGORITHMS[name].settings(**settings), max_board)


# ---- settings back to the file's terms -----------------------------------------------------


def settings_to_yaml(entry: Entry) -> dict:
    """An algorithm's settings as an experiment file would write them, every default filled."""
    settings = entry.settings
    if isinstance(settings, GaSettings):
        out = {}
        for f in dataclasses.fields(settings):
            value = getattr(settings, f.name)
            if "registry" in f.metadata:
                out[f.name] = _operator_to_yaml(value, f.metadata["registry"])
            elif f.name not in ("target", "generations"):
                out[f.name] = value
        out["stop"] = {"target": settings.target, "generations": settings.generations}
        return out
    out = {f.name.replace("_", "-"): getattr(settings, f.name) for f in dataclasses.fields(settings)}
    if entry.max_board is not None:
        out[MAX_BOARD_KEY] = entry.max_board
    return out


def _operator_to_yaml(operator, registry: dict):
    name = next(key for key, cls in registry.items() if type(operator) is cls)
    fields = dataclasses.fields(operator)
    return {name: getattr(operator, fields[0].name)} if fields else name


def parse_seeds(text: str) -> tuple[int, int]:
    """--seeds FIRST..LAST, inclusive."""
    match = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if not match:
        raise BadInput(f"--seeds must be FIRST..LAST with whole numbers >= 0, e.g. 1..100, got {text!r}")
    first, last = int(match[1]), int(match[2])
    if last < first or last > SEED.maximum:
        raise BadInput(f"--seeds runs from FIRST to LAST, inclusive, both 0 to {SEED.maximum}, got {text!r}")
    return first, last
