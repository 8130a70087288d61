"""Command-line overrides, ``--set PATH=VALUE``, applied to an experiment file's document before
it is read, so that a change given so is checked exactly as the same change written in the file.

PATH is a dotted key path from the top of the file (``ga.population``, ``ga.select.tournament``,
``boards``, ``reference.8``); under ``grid`` the rest of the path is one grid key
(``grid.select.tournament``). VALUE is read as YAML with the file's safe loader: ``40``,
``[8, 16]``, ``{tournament: 3}``, ``none``. Mappings on the way are made as needed; a value
that is not a mapping on the way is replaced by one.
"""

from __future__ import annotations

import copy
import re

from gaqueens.experiment.yaml_file import BadInput, read_yaml_text, shown

PATH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+,-]*")


def parse(text: str) -> tuple[list, object]:
    """PATH=VALUE as (the path's keys, the value)."""
    path, equals, value = text.partition("=")
    path = path.strip()
    if not equals or not PATH.fullmatch(path) or ".." in path or path.endswith("."):
        raise BadInput(f"--set must be PATH=VALUE with a dotted key path, e.g. ga.population=40, "
                       f"got {shown(text)}")
    keys: list = path.split(".")
    if keys[0] == "grid" and len(keys) > 2:
        keys = ["grid", ".".join(keys[1:])]
    keys = [int(key) if key.isdigit() else key for key in keys]
    return keys, read_yaml_text(value, f"--set {path}")


def apply(document, overrides: list[str]):
    """The document with every override applied in turn (the document is not changed)."""
    if not overrides or not isinstance(document, dict):
        return document  # an empty file, or one that is not a mapping, is refused as it is
    out = copy.deepcopy(document)
    for text in overrides:
        put(out, *parse(text))
    return out


def put(mapping: dict, keys: list, value) -> None:
    """Sets ``value`` at the key path in ``mapping``; a value on the way that is not a
    mapping is replaced by one."""
    for key in keys[:-1]:
        if not isinstance(mapping.get(key), dict):
            mapping[key] = {}
        mapping = mapping[key]
    mapping[keys[-1]] = value
