"""gaqueens: seed sweeps of a (mu+lambda) GA on DEAP for N-Queens, beside classic solvers.

The Python API, for notebooks (the commands are thin layers over it):

    experiment = gaqueens.load("experiments/n8.yaml")   # validated, or BadInput
    gaqueens.run_sweep(experiment)                        # runs what is missing, writes outputs
    runs = gaqueens.read_runs("results/n8")               # pandas DataFrames
    traces = gaqueens.read_traces("results/n8")
"""

import importlib.util
import os
import signal
import sys

__version__ = "0.1.0"


def _interrupted_loading(number, frame):
    """Ctrl-C or SIGTERM while a command is still loading its modules, before its own handlers
    (gaqueens.cli.run): nothing is written yet, so it ends here, in one line, exit 130."""
    os.write(2, b"interrupted: nothing was done\n")
    os._exit(130)


if sys.argv[:1] == ["-m"]:  # python -m gaqueens.NAME, while Python finds the command's module
    for _number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_number, _interrupted_loading)

_NEEDS = {"deap": "deap", "numpy": "numpy", "pandas": "pandas", "matplotlib": "matplotlib",
          "yaml": "PyYAML", "tqdm": "tqdm", "numba": "numba"}
_MISSING = [package for module, package in _NEEDS.items() if importlib.util.find_spec(module) is None]
if _MISSING:
    raise ImportError(f"gaqueens needs {', '.join(_MISSING)}: install it with `pip install -e .` "
                      "(see the README's first command)")

_API = {
    "load": "gaqueens.experiment",
    "BadInput": "gaqueens.experiment",
    "run_sweep": "gaqueens.sweep",
    "read_runs": "gaqueens.runtime.store",
    "read_traces": "gaqueens.runtime.store",
    "Result": "gaqueens.core.result",
}
__all__ = list(_API)


def __getattr__(name):
    # imported on first use, so that `python -m gaqueens.count` does not load pandas
    if name in _API:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'gaqueens' has no attribute {name!r}")
