"""Shared test set-up: Hypothesis and numba (the kernels' compiled code, gaqueens.jit) keep
their files in temporary folders, not in the checkout; the commands the tests start inherit
numba's."""

import os
import shutil
import tempfile

from hypothesis import configuration, settings

_HOME = tempfile.mkdtemp(prefix="gaqueens-hypothesis-")
_NUMBA_CACHE = tempfile.mkdtemp(prefix="gaqueens-numba-")
os.environ["NUMBA_CACHE_DIR"] = _NUMBA_CACHE  # read when numba is first imported
configuration.set_hypothesis_home_dir(_HOME)
settings.register_profile("gaqueens", database=None)
settings.load_profile("gaqueens")


def pytest_unconfigure(config):
    shutil.rmtree(_HOME, ignore_errors=True)
    shutil.rmtree(_NUMBA_CACHE, ignore_errors=True)
