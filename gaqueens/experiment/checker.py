"""What every part of an experiment file's reading shares: refusing in one line that names the
file, the key path and what is expected."""

from __future__ import annotations

from gaqueens.core.registry import hint
from gaqueens.experiment.yaml_file import BadInput, join, shown


class Checker:
    """Checks values of one file, raising BadInput on the first that is wrong."""

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

    def mapping(self, key: str, value, known, expected: str = "a mapping") -> dict:
        """``value``, a mapping whose keys are all ``known`` (any keys when None)."""
        if not isinstance(value, dict):
            self.expect(key or "the file", expected, value)
        for name in value:
            if known is not None and name not in known:
                self.fail(join(key, name), f"is not a known key{hint(name, known)}; known: "
                          f"{', '.join(known) or 'none'}")
        return value

    def build(self, key: str, cls, settings: dict):
        """``cls(**settings)``, its own checks' ValueError refused under ``key``."""
        try:
            return cls(**settings)
        except ValueError as error:
            self.fail(key, f"is refused: {error}")
