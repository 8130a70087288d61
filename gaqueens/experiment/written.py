"""Settings back in an experiment file's terms, every default filled in: what the manifest and
the store record, and what a rerun is compared with."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from gaqueens.ga import GaSettings

if TYPE_CHECKING:
    from gaqueens.experiment.model import Entry

MAX_BOARD_KEY = "max-board"  # any baseline: run it only on boards up to this size


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
