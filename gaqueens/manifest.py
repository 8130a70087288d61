"""Provenance: what produced an output folder, in manifest.json beside the runs."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shlex
import subprocess
from datetime import datetime, timezone
from functools import cache
from importlib import metadata
from pathlib import Path

from gaqueens.files import write_text

FILE = "manifest.json"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


CODE = ("gaqueens", "pyproject.toml")  # what makes the runs, in a checkout


def checkout() -> dict:
    """The commit of the checkout gaqueens runs from, whether the code that decides the runs
    (the package, the experiment files, pyproject.toml) had uncommitted changes, outputs such
    as results/ aside, and a digest of the package's own changes (its diff from the commit and
    its untracked files), so that two different edits never pass for the same code; empty when
    gaqueens is installed from a package."""
    top = Path(__file__).resolve().parent.parent

    def git(*args, strip=True):
        out = subprocess.run(["git", "-C", str(top), *args], capture_output=True, text=True,
                             timeout=10, check=True).stdout
        return out.strip() if strip else out

    try:
        if Path(git("rev-parse", "--show-toplevel")).resolve() != top:
            return {}
        changed = git("status", "--porcelain", "--", "gaqueens", "experiments", "pyproject.toml")
        out = {"commit": git("rev-parse", "HEAD"), "dirty": bool(changed)}
        diff = git("diff", "HEAD", "--", *CODE, strip=False)
        new = git("ls-files", "--others", "--exclude-standard", "--", *CODE).split()
        if diff or new:
            digest = hashlib.sha256(diff.encode())
            for name in sorted(new):
                digest.update(name.encode() + b"\0" + (top / name).read_bytes())
            out["changes"] = digest.hexdigest()[:12]
        return out
    except (OSError, subprocess.SubprocessError):
        return {}


@cache
def code_identity() -> str:
    """The code that makes runs, as every stored run records it: gaqueens' version, and in a
    checkout its commit and the digest of the package's uncommitted changes, if any. Read once
    a process, as the modules it runs were loaded once."""
    git = checkout()
    text = f"gaqueens {_version('gaqueens')}"
    if git.get("commit"):
        text += f", commit {git['commit']}"
        if git.get("changes"):
            text += f" with local changes {git['changes']}"
    return text


def start(experiment, argv: list[str] | None, executor: str) -> dict:
    """The manifest of a sweep that starts now; ``argv`` is None for one started from Python."""
    return {
        "experiment": experiment.source,
        "settings": experiment.resolved(),
        "command": ("gaqueens.run_sweep() from Python" if argv is None
                    else "python -m gaqueens.sweep " + shlex.join(argv)),
        "executor": executor,
        "versions": {
            "gaqueens": _version("gaqueens"),
            "python": platform.python_version(),
            **{name: _version(name) for name in ("deap", "numpy", "pandas", "matplotlib")},
            **({"dask": _version("dask"), "distributed": _version("distributed")}
               if executor.startswith("dask") else {}),
        },
        "git": checkout(),
        "host": {"cores": os.cpu_count(), "system": platform.system(), "machine": platform.machine()},
        "started": now(),
        "ended": None,
        "status": "running",
    }


def write(folder: Path, manifest: dict) -> None:
    write_text(Path(folder) / FILE, json.dumps(manifest, indent=2) + "\n")


def read(folder: Path) -> dict | None:
    try:
        return json.loads((Path(folder) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def code(git: dict, version: str | None) -> str:
    """The code that ran, in a few words: its commit, or its version outside a checkout."""
    if git.get("commit"):
        return f"commit {git['commit'][:10]}{' with local changes' if git.get('dirty') else ''}"
    return f"gaqueens {version}"


def describe(manifest: dict | None) -> str:
    """One line naming the manifest of the runs, for the tables."""
    if not manifest:
        return "no manifest"
    return (f"{FILE}: {manifest['command']}, {code(manifest['git'], manifest['versions'].get('gaqueens'))}, "
            f"started {manifest['started']}, {manifest['host']['cores']} cores, {manifest['executor']}")


def exporter() -> str:
    """The code writing tables and plots now, which a rerun may make newer than the runs'."""
    return f"{code(checkout(), _version('gaqueens'))}, {now()}"
