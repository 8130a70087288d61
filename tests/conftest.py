"""Shared test set-up: Hypothesis keeps its files in a temporary folder, not in the checkout."""

import shutil
import tempfile

from hypothesis import configuration, settings

_HOME = tempfile.mkdtemp(prefix="gaqueens-hypothesis-")
configuration.set_hypothesis_home_dir(_HOME)
settings.register_profile("gaqueens", database=None)
settings.load_profile("gaqueens")


def pytest_unconfigure(config):
    shutil.rmtree(_HOME, ignore_errors=True)
