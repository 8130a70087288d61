"""The manifest's provenance (gaqueens.runtime.manifest): in a checkout, the commit the package
runs from, and a digest of uncommitted changes to the code."""

import subprocess
from pathlib import Path

import pytest

from gaqueens.runtime import manifest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_a_checkout_records_the_commit_the_package_runs_from():
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    found = manifest.checkout()
    assert found["commit"] == head
    assert isinstance(found["dirty"], bool)
    assert f"commit {head}" in manifest.code_identity()
