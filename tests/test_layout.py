"""The package's shape (README, "Layout"): its folders follow the flow of the data, each layer
importing only from the layers below it, with no cycle between modules, and the N-Queens
verifier importing nothing of what makes answers."""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gaqueens"
# from the bottom up: what each layer may import is its own and what lies below it
LAYERS = (
    ("core",),                 # results, ranges, files, errors, registries
    ("problems",),             # the problem interface and N-Queens
    ("ga", "baselines"),       # the algorithms
    ("experiment",),           # experiment files -> settings
    ("runtime",),              # batches, executors, the store, provenance, the verifier applied
    ("reports",),              # tables, statistics, plots, the page, exports
    ("commands", "bench"),     # the commands on top (the package's top-level modules)
)
COMMANDS = {"__init__", "__main__", "cli", "sweep", "run", "count", "verify", "export", "report",
            "readme", "fidelity"}


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS) - 1  # gaqueens itself: the API
    folder = parts[1] if parts[1] not in COMMANDS else "commands"
    return next(i for i, names in enumerate(LAYERS) if folder in names)


def imports(module: str, path: Path, known) -> set[str]:
    """The gaqueens modules ``module`` imports, at its top or inside its functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # what only type checkers read is no import at run time
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            node.body = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module and name.startswith("gaqueens"):
                out.add(name)
    return out


KNOWN = modules()
GRAPH = {module: imports(module, path, KNOWN) for module, path in KNOWN.items()}


@pytest.mark.parametrize("module", sorted(KNOWN))
def test_nothing_imports_upward(module):
    upward = [target for target in GRAPH[module]
              if layer(target) > layer(module) and target != "gaqueens"]
    assert not upward, f"{module} (layer {LAYERS[layer(module)]}) imports {upward}"


def test_no_module_imports_itself_through_others():
    """No cycle: a depth-first walk of the import graph meets no module on its own path (a
    package importing its own modules, as gaqueens.baselines does, is a cycle only if one of
    them imports the package back)."""
    state: dict[str, str] = {}
    cycles = []

    def visit(module, path):
        state[module] = "open"
        for target in sorted(GRAPH[module]):
            if target in path and not module.startswith(target + "."):
                cycles.append(path[path.index(target):] + [target])
            elif state.get(target) is None:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(GRAPH):
        if state.get(module) is None:
            visit(module, [module])
    assert not cycles, cycles[:3]


def test_the_verifier_imports_nothing_that_makes_answers():
    assert GRAPH["gaqueens.problems.nqueens.verifier"] == set()
    source = KNOWN["gaqueens.problems.nqueens.verifier"].read_text()
    imported = set(re.findall(r"^(?:from|import) (\w+)", source, re.M))
    assert imported <= {"__future__", "numpy", "collections", "typing"}, imported


def test_every_module_stays_short():
    long = {module: n for module, path in KNOWN.items()
            if (n := len(path.read_text().splitlines())) > 320}
    assert not long, long
