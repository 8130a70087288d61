"""Provenance: what produced an output folder, in manifest.json beside the runs, and the code
each run records (entry_code): gaqueens' own (code_identity) and the plug-in code it imports
(gaqueens.runtime.plugin_code: a digest of each module's source file by module name), so that
the same files give the same record from any working folder and a refusal names the module
that changed.

manifest.json speaks for the outputs beside it (runs.csv, summary.csv, summary.md,
comparisons.csv, the plots, index.html). Its top level is the sweep that wrote them: its
command, code, versions and times, "settings", the experiment whose runs the outputs describe
(its boards, seeds, algorithms and reference), and "outputs", how many runs they describe, how
many the store held then, and the files written. The store may hold more runs than the outputs
describe (a narrower rerun: ``--seeds 1..5`` after ``--seeds 1..20``); "earlier" names, oldest
first, the sweeps before it that stored runs still kept, and "since" the sweeps after it that
stored runs but wrote no outputs (interrupted or failed), so that every stored run's command is
named. Until a sweep's outputs are written, and while none describe stored runs (a first sweep,
or one after ``--fresh`` discarded the runs they described), the top level is that sweep
itself, with "outputs": null and its status (running, interrupted, failed).

A sweep writes the manifest whole (gaqueens.core.files) while it computes (``Sweep``), and its
complete record with its outputs, moved in together with them (gaqueens.reports.staged).
"""

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

from gaqueens.core.errors import Interrupted
from gaqueens.core.files import write_text
from gaqueens.runtime.plugin_code import plugin_code

FILE = "manifest.json"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def version(package: str) -> str | None:
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
    gaqueens is installed from a package. Read once a process, as code_identity is (five git
    commands: a sweep asked three times)."""
    return dict(_checkout())


@cache
def _checkout() -> dict:
    top = Path(__file__).resolve().parents[2]  # the checkout: gaqueens/runtime/manifest.py

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
    text = f"gaqueens {version('gaqueens')}"
    if git.get("commit"):
        text += f", commit {git['commit']}"
        if git.get("changes"):
            text += f" with local changes {git['changes']}"
    return text


PLUGIN = "; plug-in "  # what joins a plug-in module's digest to the code that made a run


def entry_code(plugins) -> str:
    """The code that makes the runs of an entry whose plug-ins are the modules ``plugins``:
    gaqueens' code (code_identity) and the digest of each module of plug-in code its runs
    import (plugin_code); what every stored run of the entry records."""
    return code_identity() + "".join(f"{PLUGIN}{module} {digest}"
                                     for module, digest in plugin_code(plugins).items())


def code_change(stored: str, now: str) -> str:
    """What differs between the code that made stored runs and this sweep's (both as
    entry_code writes them), in words: gaqueens' own, or which modules of plug-in code."""
    def parts(code):
        base, *plugins = code.split(PLUGIN)
        return base, dict(plugin.rpartition(" ")[::2] for plugin in plugins)

    (old, old_plugins), (new, new_plugins) = parts(stored), parts(now)
    said = [] if old == new else [f"{old}, now {new}"]
    for module in sorted(set(old_plugins) | set(new_plugins)):
        before, after = old_plugins.get(module), new_plugins.get(module)
        if before is None:
            said.append(f"plug-in module {module} imported now, not by the stored runs' code")
        elif after is None:
            said.append(f"plug-in module {module} imported by the stored runs' code, not now")
        elif before != after:
            said.append(f"plug-in module {module} changed (source digest {before}, now {after})")
    return "; ".join(said) or "the same code"


def worker_code(plugins) -> tuple[str, dict[str, str]]:
    """What a worker process runs: gaqueens' code, and the plug-in code (plugin_code) of the
    plug-in modules ``plugins`` as it finds it there; called on each Dask worker before any
    run."""
    return code_identity(), plugin_code(plugins)


def start(experiment, argv: list[str] | None, executor: str) -> dict:
    """The manifest of a sweep that starts now; ``argv`` is None for one started from Python."""
    return {
        "experiment": experiment.source,
        "settings": experiment.resolved(),
        "command": ("gaqueens.run_sweep() from Python" if argv is None
                    else "python -m gaqueens.sweep " + shlex.join(argv)),
        "executor": executor,
        "versions": {
            "gaqueens": version("gaqueens"),
            "python": platform.python_version(),
            **{name: version(name) for name in ("deap", "numpy", "pandas", "matplotlib")},
            **({"dask": version("dask"), "distributed": version("distributed")}
               if executor.startswith("dask") else {}),
        },
        "git": checkout(),
        "host": {"cores": os.cpu_count(), "system": platform.system(), "machine": platform.machine()},
        "started": now(),
        "ended": None,
        "status": "running",
    }


EARLIER = ("command", "executor", "started", "ended", "status", "runs_stored_before",
           "runs_added", "code")


def brief(record: dict) -> dict:
    """A sweep's record in the few keys (EARLIER) that "earlier" and "since" keep of it."""
    return {key: record.get(key) for key in EARLIER if key in record}


def earlier(manifest: dict) -> list[dict]:
    """The sweeps into a folder up to the one whose manifest this is and those since it,
    oldest first, each in a few keys (EARLIER), but those that stored no run (a rerun that
    computed nothing): a sweep whose store keeps runs from before keeps them beside its own, so
    that the manifest names every command that made its runs."""
    chain = [*manifest.get("earlier", []), brief(manifest), *manifest.get("since", [])]
    return [sweep for sweep in chain if sweep.get("runs_added", 1)]


def describes_outputs(manifest: dict | None) -> bool:
    """Whether ``manifest`` speaks for outputs in its folder: a complete sweep's (one from
    before the key "outputs" existed included), not a sweep's that has written none yet."""
    return (manifest is not None and manifest.get("status") == "complete"
            and manifest.get("outputs", {}) is not None)


class Sweep:
    """This sweep's ``record`` (``start``'s, and what the computing adds) and what manifest.json
    says while it computes and writes: with ``kept``, the outputs of ``previous`` (the folder's
    manifest before it) stay, and the manifest is ``previous`` with this sweep added to its
    "since"; else this sweep's record with "outputs": null. ``complete`` gives the record
    written with its outputs."""

    def __init__(self, folder, record: dict, previous: dict | None, kept: bool):
        self.folder, self.record, self.previous, self.kept = Path(folder), record, previous, kept
        self.named = False  # manifest.json names this sweep
        self.written = False  # its outputs, and their manifest, are moved in

    def _pending(self) -> dict:
        if self.kept:
            return {**self.previous, "since": [*self.previous.get("since", []),
                                               brief(self.record)]}
        return {**self.record, "outputs": None}

    def running(self) -> None:
        """Names this sweep in manifest.json, as running."""
        write(self.folder, self._pending())
        self.named = True

    def stopped(self, error: BaseException, added: int, doing: str = "") -> None:
        """Says in manifest.json that this sweep stopped by ``error`` having stored ``added``
        runs (``doing``: where, such as " while writing its outputs"); nothing once its
        outputs are written, or when the manifest does not name it."""
        if self.written or not self.named:
            return
        status = (f"interrupted{doing}" if isinstance(error, (Interrupted, KeyboardInterrupt))
                  else f"failed{doing}: {error}".splitlines()[0])
        self.record.update(ended=now(), status=status, runs_added=added)
        try:
            write(self.folder, self._pending())
        except OSError:
            pass  # the disk may be full: the store says what is done

    def complete(self, runs: int, stored: int, files: list[str]) -> dict:
        """The record written with the outputs: they describe ``runs`` runs of the ``stored``
        in the store, in ``files``."""
        return {**self.record, "ended": now(), "status": "complete",
                "outputs": {"runs": runs, "stored": stored, "files": sorted(files)}}


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
    return f"{code(checkout(), version('gaqueens'))}, {now()}"
