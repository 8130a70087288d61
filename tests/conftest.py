"""Shared test set-up: Hypothesis keeps its files in a temporary folder and sets no deadline (a
loaded machine slows an example, never fails it), and numba (the kernels' compiled code,
gaqueens.core.jit) its cache in the system's temporary folder, kept from one session to the
next (compiling every kernel the tests call takes about half a minute); neither writes into the
checkout. The commands the tests start inherit numba's cache."""

import os
import shutil
import tempfile

from hypothesis import configuration, settings

_HOME = tempfile.mkdtemp(prefix="gaqueens-hypothesis-")
# read when numba is first imported; numba keeps the caches of different checkouts apart
os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "gaqueens-numba-cache")
configuration.set_hypothesis_home_dir(_HOME)
settings.register_profile("gaqueens", database=None, deadline=None)
settings.load_profile("gaqueens")


def pytest_unconfigure(config):
    shutil.rmtree(_HOME, ignore_errors=True)
