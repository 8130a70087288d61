"""The plug-in code a run imports, module by module: what every stored run records beside
gaqueens' own code (gaqueens.runtime.manifest.entry_code), and what a Dask worker must have
the same of.

The rule: from each plug-in module of an entry (a plug-in solver's, its problem's, the GA's
operators given by import path: gaqueens.experiment.Entry.plugins), the packages above it and
every module that its source names in an import statement (anywhere in it, a function's body
included), followed from module to module; each by its module name and a digest of its source
file's content, resolved as this process imports it (the module loaded, else where importing
it would find it), so that the same files give the same record from any working folder. Left
out: the standard library, gaqueens (whose own code its version, commit and changes record),
the libraries installed in site-packages (a plug-in's own top-level package installed there
is followed all the same), and files holding nothing but a docstring (an empty package's
__init__.py, which a namespace package found first from another working folder does not run).
A module imported by a name made at run time (importlib) is not seen.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import site
import sys
import sysconfig
from functools import cache
from pathlib import Path


def plugin_code(plugins) -> dict[str, str]:
    """The plug-in code that the runs of an entry whose plug-ins are the modules ``plugins``
    import (the module's docstring gives the rule): a digest of each module's source file by
    module name, sorted; "not found" for a plug-in module that cannot be located."""
    roots = sorted(set(plugins))
    return {module: _source_digest(module) for module in _closure(tuple(roots))}


@cache
def _closure(roots: tuple[str, ...]) -> tuple[str, ...]:
    """The modules plugin_code digests for these plug-in modules: those with a source file, and
    a plug-in module that cannot be found (read once a process, as the modules it runs were
    loaded once)."""
    own = frozenset(root.split(".")[0] for root in roots)
    seen, found, todo = set(), set(), list(roots)
    while todo:
        module = todo.pop()
        if module in seen or _outside(module.split(".")[0], own):
            continue
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        path = _file(module)
        if path is not None:
            names, code = _imports(module, path) if path.suffix == ".py" else ([], True)
            todo += names
            if code:
                found.add(module)
        elif module in roots and _spec(module) is None:
            found.add(module)  # "not found"
    return tuple(sorted(found))


def _imports(module: str, path: Path) -> tuple[list[str], bool]:
    """The modules ``module`` (its source at ``path``) names in its import statements, with the
    names ``from X import name`` takes, in case they are modules (those that are not are found
    to be no module, and left); and whether it has code: a file with nothing but a docstring
    (an empty package's __init__.py, which a namespace package found first from another
    working folder skips) counts as none."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return [], True
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                try:
                    base = importlib.util.resolve_name("." * node.level + base, package)
                except (ImportError, ValueError):
                    continue
            out += [base] + [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    body = tree.body[1:] if ast.get_docstring(tree) is not None else tree.body
    return out, bool(body)


@cache
def _spec(module: str):
    """The module's spec as this process finds it (the loaded module's own where it is
    loaded), or None."""
    loaded = sys.modules.get(module)
    if loaded is not None:
        return getattr(loaded, "__spec__", None)
    try:
        return importlib.util.find_spec(module)  # imports the packages above it
    except Exception:  # no such module, or a package above it fails to import
        return None


def _file(module: str) -> Path | None:
    """The file a module is loaded from, or None (no such module, a namespace package, a
    built-in)."""
    spec = _spec(module)
    origin = getattr(spec, "origin", None)
    return Path(origin) if origin and getattr(spec, "has_location", False) else None


@cache
def _installed() -> tuple[Path, ...]:
    """The folders the standard library and installed libraries live in."""
    places = {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    places |= set(site.getsitepackages()) | {site.getusersitepackages()}
    return tuple(Path(place).resolve() for place in places if place)


@cache
def _outside(top: str, own: frozenset) -> bool:
    """Whether modules under the top-level name ``top`` are no plug-in's code to record: the
    standard library's, gaqueens', and an installed library's (but a plug-in's own, ``own``)."""
    if top in own:
        return False
    if top in sys.stdlib_module_names or top in sys.builtin_module_names or top == "gaqueens":
        return True
    spec = _spec(top)
    if spec is None:
        return False
    places = ([spec.origin] if getattr(spec, "has_location", False) and spec.origin
              else list(spec.submodule_search_locations or []))
    return bool(places) and all(any(Path(place).resolve().is_relative_to(folder)
                                    for folder in _installed()) for place in places)


@cache
def _source_digest(module: str) -> str:
    """A digest of the module's source file, or "not found" where there is no such module."""
    path = _file(module)
    if path is None:
        return "not found"
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except OSError:
        return "not found"
