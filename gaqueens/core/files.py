"""Files written whole or not at all: each is written beside its final name, then renamed over
it, so a reader never sees half a file, whatever stops the writer."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path) -> Iterator[Path]:
    """Yields a path beside ``path`` (with the same suffix, for writers that infer the format
    from it) to write the whole file into; when the block ends, renames it over ``path``, or
    removes it if the block raised."""
    path = Path(path)
    partial = path.with_name(f"{path.name}.partial{path.suffix}")
    try:
        yield partial
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def write_text(path, text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path``, whole or not at all."""
    with replacing(path) as partial:
        partial.write_text(text, encoding="utf-8")


def write_csv(path, table) -> None:
    """Writes a pandas table as CSV (no index) to ``path``, whole or not at all, straight into
    the file in pandas' chunks: a 100,000-run sweep's runs.csv is 24 MB, which written as one
    string took its process's peak 51-52 MB higher, while the plots drew beside it."""
    with replacing(path) as partial:
        table.to_csv(partial, index=False)


def folder_problem(path) -> str | None:
    """What stops ``path`` from being, or becoming, a writable folder (said after its name), or
    None: checked before any work, so that nothing computed is lost for want of a place."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir():
            return "is a file, expected a folder"
        existing = next(p for p in [path, *path.absolute().parents] if p.exists())
    except OSError as error:
        return f"cannot be a folder ({error.strerror})"
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        return f"cannot be written ({existing} is not a writable folder)"
    return None
