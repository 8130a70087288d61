"""The allowed values of a setting, kept on the settings' dataclass fields so that loading an
experiment file, the docs and the tests read the same range."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Whole:
    """A whole number (not a bool, not 20.0) from ``minimum`` up to ``maximum`` if given; with
    ``or_none``, None too (written none in a file)."""

    minimum: int
    maximum: int | None = None
    or_none: bool = False

    @property
    def expected(self) -> str:
        if self.maximum is None:
            text = f"a whole number >= {self.minimum}"
        else:
            text = f"a whole number from {self.minimum} to {self.maximum:,}"
        return text + (", or none" if self.or_none else "")

    def accepts(self, value) -> bool:
        if value is None:
            return self.or_none
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and value >= self.minimum
            and (self.maximum is None or value <= self.maximum)
        )


@dataclass(frozen=True)
class Number:
    """A finite number from ``minimum`` (excluded when ``open_minimum``) to ``maximum``."""

    minimum: float
    maximum: float
    open_minimum: bool = False

    @property
    def expected(self) -> str:
        low = f"above {self.minimum:g}" if self.open_minimum else f"from {self.minimum:g}"
        return f"a number {low} to {self.maximum:g}"

    def accepts(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        above = value > self.minimum if self.open_minimum else value >= self.minimum
        return above and value <= self.maximum  # false for nan; exact for a huge int


@dataclass(frozen=True)
class OneOf:
    """One of a few names."""

    choices: tuple[str, ...]

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(self.choices)

    def accepts(self, value) -> bool:
        return isinstance(value, str) and value in self.choices


@dataclass(frozen=True)
class Text:
    """A string matching ``pattern`` (a regular expression, matched whole), described as
    ``described``; with ``or_none``, None too."""

    pattern: str
    described: str
    or_none: bool = False

    @property
    def expected(self) -> str:
        return self.described + (", or none" if self.or_none else "")

    def accepts(self, value) -> bool:
        if value is None:
            return self.or_none
        return isinstance(value, str) and re.fullmatch(self.pattern, value) is not None


def setting(default, allowed):
    """A dataclass field with its default and its allowed values."""
    return field(default=default, metadata={"allowed": allowed})


def allowed(dataclass_field):
    """The allowed values recorded on a field made by ``setting``, or None."""
    return dataclass_field.metadata.get("allowed")


def check(settings) -> None:
    """Raises ValueError naming the first field of the dataclass ``settings`` that holds a
    value outside its allowed ones: settings are checked when they are built."""
    for each in dataclasses.fields(settings):
        rule, value = allowed(each), getattr(settings, each.name)
        if rule is not None and not rule.accepts(value):
            raise ValueError(f"{each.name.replace('_', '-')} must be {rule.expected}, got {value!r}")
