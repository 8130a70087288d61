"""Reading an experiment file's YAML safely, and saying what is wrong with it in one line.

The YAML is read with PyYAML's safe loader (no tag builds a Python object), refusing aliases
(so an alias bomb is refused before it expands), repeated keys and files over a megabyte, from a
regular file only: a folder, a FIFO (which would block until a writer came), a device or a pipe
(/dev/stdin) is refused before anything is read (gaqueens.core.files.read_file).
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import yaml

from gaqueens.core.errors import BadInput
from gaqueens.core.files import NotAFile, read_file

MAX_BYTES = 1_000_000


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader (no tag builds a Python object), refusing aliases and values that
    its tag cannot read (a number of 5,000 digits, !!float x)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"found an alias (*{event.anchor}), which experiment files do not "
                "allow", event.start_mark)
        return super().compose_node(parent, index)

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except (ArithmeticError, LookupError, TypeError, ValueError):  # e.g. 5,000 digits
            raise yaml.constructor.ConstructorError(
                None, None, f"found {shown(node.value, 40)}, which is not a valid "
                f"!!{node.tag.rsplit(':', 1)[-1]}", node.start_mark) from None


def read_yaml(path: Path):
    """The file's YAML document, or BadInput for a missing, unreadable, oversized, non-UTF-8
    or broken file, one that repeats a key, or what is not a regular file."""
    try:
        raw = read_file(path, MAX_BYTES + 1)
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: is a folder, expected an experiment file (YAML)") from None
    except NotAFile as error:
        raise BadInput(f"{path}: {error.strerror}, expected an experiment file (YAML) in a "
                       "regular file") from None
    except OSError as error:
        raise BadInput(f"{path}: cannot be read ({error.strerror})") from None
    if len(raw) > MAX_BYTES:
        raise BadInput(f"{path}: is over {MAX_BYTES:,} bytes, too large for an experiment file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise BadInput(f"{path}: not UTF-8 text at line {line}") from None
    return read_yaml_text(text, path)


def read_yaml_text(text: str, path):
    """The YAML document in ``text``, read as a file's is; ``path`` names it in a refusal."""
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        _unique_keys(loader, node, path, "")
        return None if node is None else loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = ", ".join(filter(None, (error.context, error.problem)))
        if "'\\t'" in problem:
            problem = "found a tab: indent with spaces, as YAML does not allow tabs there"
        raise BadInput(f"{path}: not valid YAML{where}: {problem}") from None
    except yaml.reader.ReaderError as error:  # a control character
        line = text.count("\n", 0, error.position) + 1
        raise BadInput(f"{path}: not valid YAML at line {line}: {str(error).splitlines()[0]}") from None
    except RecursionError:
        raise BadInput(f"{path}: not valid YAML: nested too deeply") from None


def _unique_keys(loader: _Loader, node, path: Path, where: str) -> None:
    """Refuses a key given twice, or a list or mapping as a key, anywhere under ``node``."""
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _unique_keys(loader, item, path, f"{where}[{i}]")
    elif isinstance(node, yaml.MappingNode):
        seen = set()
        for key_node, value in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise BadInput(f"{path}: {where or 'the file'} has a list or mapping as a key, "
                               f"at line {line}")
            key = loader.construct_object(key_node)
            if key in seen:
                raise BadInput(f"{path}: {join(where, key)} is given twice (again at line {line})")
            seen.add(key)
            _unique_keys(loader, value, path, join(where, key))


def shown(value, room: int = 60) -> str:
    """A value for a message, about as the YAML file wrote it, shortened to ``room``."""
    if room <= 3:
        return "..."
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = repr(value[:room])
    elif isinstance(value, dict):
        items = islice(value.items(), room // 4 + 1)
        text = "{" + ", ".join(f"{shown(k, room - 1)}: {shown(v, room - 1)}" for k, v in items) + "}"
    elif isinstance(value, list):
        text = "[" + ", ".join(shown(v, room - 1) for v in value[: room // 3 + 1]) + "]"
    elif isinstance(value, (int, float)):
        text = repr(value) if len(str(value)) <= room else f"a number of {len(str(value))} digits"
    else:
        text = f"a {type(value).__name__} ({value})"
    return text if len(text) <= room else text[: room - 3] + "..."


def join(where: str, key) -> str:
    """The key path of ``key`` inside ``where``, e.g. ga.select."""
    plain = isinstance(key, str) and key.isprintable() and " " not in key and 0 < len(key) <= 40
    name = key if plain else shown(key, 40)
    return f"{where}.{name}" if where else name
