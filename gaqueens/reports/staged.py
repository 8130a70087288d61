"""A sweep's outputs moved in together, so that an output folder always holds one sweep's
outputs and the manifest that speaks for them, whatever stops the sweep.

The outputs are written whole into a folder of their own in the output folder (STAGED; its
manifest lists them), which is renamed READY once they all are: the moment the new outputs
count. Then, with Ctrl-C and SIGTERM held (gaqueens.runtime.signals.held), the earlier
outputs that the new ones do not have are removed, and the new ones are moved over the others,
the manifest last. Stopped while writing, a sweep leaves the earlier outputs as they were (and
STAGED, removed by the next); only a kill can stop it while moving, leaving READY, which the
next sweep into the folder moves in first (``settle``) and verify reports until then.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gaqueens.runtime import manifest, signals

STAGED, READY = ".outputs.partial", ".outputs.ready"


def stage(folder: Path) -> Path:
    """An empty STAGED in ``folder``, for the new outputs."""
    path = Path(folder) / STAGED
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir()
    return path


def settle(folder: Path, exports) -> None:
    """Moves in the outputs a sweep stopped moving in (READY), and removes those a sweep
    stopped writing (STAGED); ``exports``: the names outputs may have."""
    folder = Path(folder)
    if (folder / READY).is_dir():
        with signals.held():
            _finish(folder, exports)
    shutil.rmtree(folder / STAGED, ignore_errors=True)


def move_in(folder: Path, staged: Path, exports, sweep) -> None:
    """Moves the outputs written whole in ``staged`` over those of ``folder``, all or none;
    then ``sweep`` (gaqueens.runtime.manifest.Sweep) has written its outputs."""
    with signals.held():
        os.rename(staged, folder / READY)
        _finish(folder, exports)
        sweep.written = True


def _finish(folder: Path, exports) -> None:
    """Moves the outputs of READY into ``folder``, the manifest last, after removing those of
    ``exports`` its manifest does not list; what a kill leaves here, the next call moves."""
    ready = folder / READY
    record = manifest.read(ready)
    if record is not None:  # else all moved in already, the manifest last
        listed = set(record["outputs"]["files"])
        for name in exports:
            if name not in listed:
                (folder / name).unlink(missing_ok=True)
        for path in sorted(ready.iterdir(), key=lambda path: path.name == manifest.FILE):
            os.replace(path, folder / path.name)
    shutil.rmtree(ready, ignore_errors=True)
