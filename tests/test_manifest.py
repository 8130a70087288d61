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


# ---- which sweeps the manifest names (gaqueens/runtime/manifest.py, its docstring) ------------


def test_the_chain_of_earlier_sweeps_keeps_those_that_stored_runs_oldest_first():
    record = {"command": "c", "status": "complete", "runs_added": 0,  # stored nothing
              "earlier": [{"command": "a", "runs_added": 4}, {"command": "b"}],  # b: older
              "since": [{"command": "d", "status": "interrupted", "runs_added": 2},
                        {"command": "e", "status": "interrupted", "runs_added": 0}]}
    assert [sweep["command"] for sweep in manifest.earlier(record)] == ["a", "b", "d"]
    assert manifest.earlier({"command": "f", "runs_added": 3})[0] == {"command": "f",
                                                                         "runs_added": 3}


@pytest.mark.parametrize("record, describes", [
    (None, False),
    ({"status": "complete"}, True),  # from before "outputs" was recorded
    ({"status": "complete", "outputs": {"runs": 3}}, True),
    ({"status": "complete", "outputs": None}, False),
    ({"status": "interrupted", "outputs": None}, False),
    ({"status": "running"}, False),
])
def test_a_manifest_speaks_for_outputs_only_as_a_complete_sweeps_record(record, describes):
    assert manifest.describes_outputs(record) is describes


def test_a_sweep_is_named_in_since_while_the_earlier_outputs_stay(tmp_path):
    previous = {"command": "first", "status": "complete", "outputs": {"runs": 2}}
    sweep = manifest.Sweep(tmp_path, {"command": "second", "status": "running"}, previous,
                           kept=True)
    sweep.stopped(KeyboardInterrupt(), 0)  # not named yet: nothing written
    assert manifest.read(tmp_path) is None
    sweep.running()
    assert manifest.read(tmp_path) == {**previous, "since": [{"command": "second",
                                                              "status": "running"}]}
    sweep.stopped(OSError("the disk\nis full"), 3, " while writing its outputs")
    since = manifest.read(tmp_path)["since"]
    assert since[0]["status"] == "failed while writing its outputs: the disk"
    assert since[0]["runs_added"] == 3 and manifest.read(tmp_path)["command"] == "first"
    sweep.written = True  # its outputs and their manifest moved in: left as they are
    sweep.stopped(KeyboardInterrupt(), 3)
    assert manifest.read(tmp_path)["since"] == since


def test_a_sweep_without_outputs_to_keep_is_the_manifest_itself_with_none(tmp_path):
    sweep = manifest.Sweep(tmp_path, {"command": "first", "status": "running"}, None,
                           kept=False)
    sweep.running()
    assert manifest.read(tmp_path) == {"command": "first", "status": "running", "outputs": None}
    sweep.stopped(KeyboardInterrupt(), 5)
    written = manifest.read(tmp_path)
    assert written["status"] == "interrupted" and written["runs_added"] == 5
    assert not manifest.describes_outputs(written)
    complete = sweep.complete(5, 7, ["runs.csv", "manifest.json"])
    assert complete["status"] == "complete" and manifest.describes_outputs(complete)
    assert complete["outputs"] == {"runs": 5, "stored": 7, "files": ["manifest.json", "runs.csv"]}
