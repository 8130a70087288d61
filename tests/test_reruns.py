"""A folder that sweeps wrote always verifies, whatever the sweeps into it were (README,
"Resuming" and "Faults"; gaqueens/reports/staged.py, gaqueens/runtime/manifest.py): narrower
and wider seeds, settings that change no run (the reference, the name), --set, --fresh, grid
twins, and sweeps stopped while computing, while writing their outputs and while moving them
in. The outputs describe the runs the last sweep that wrote them asked for; the store keeps
every run."""

import json
import os
import signal
import subprocess
import sys
import threading
from contextlib import ExitStack

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from gaqueens.experiment import load, parse_seeds
from gaqueens.reports import outputs, page, staged
from gaqueens.runtime import signals
from gaqueens.runtime.store import Store
from gaqueens.sweep import main
from gaqueens.verify import main as verify, verify_folder
from sweeps import QUIET, experiment_file

N8 = "boards: [8]\nseeds: {first: 1, last: 6}\nreference: {8: 100}\n"


def sweep(file, out, *args):
    return main([str(file), "--out", str(out), "--workers", "1", "--quiet", *args])


def verifies(out) -> str:
    """verify's verdict on ``out``, which must find nothing wrong, nor any outputs left aside."""
    problems, checked = verify_folder(out)
    assert problems == [], problems
    assert not (out / staged.READY).exists() and not (out / staged.STAGED).exists()
    return checked


def described(out) -> set:
    runs = pd.read_csv(out / "runs.csv")
    return set(zip(runs["algorithm"], runs["board"], runs["seed"]))


def record(out) -> dict:
    return json.loads((out / "manifest.json").read_text())


def exports(out) -> dict:
    """The outputs present, by name (the manifest aside)."""
    return {name: (out / name).read_bytes() for name in outputs.EXPORTS if (out / name).exists()}


def stopping_after_a_batch(monkeypatch):
    """Ctrl-C once the first batch is stored, as the sweep's own check after a batch sees it."""
    add = Store.add

    def adding(self, *args):
        add(self, *args)
        raise KeyboardInterrupt

    monkeypatch.setattr(Store, "add", adding)


def stopping_at(monkeypatch, point: str):
    """Ctrl-C where the outputs are written: before runs.csv, summary.csv or the page."""
    if point == "the page":
        def writing_the_page(*args, **kwargs):
            raise KeyboardInterrupt

        monkeypatch.setattr(page, "write", writing_the_page)
        return
    write_csv = outputs.write_csv

    def writing(path, table):
        if path.name == point:
            raise KeyboardInterrupt
        write_csv(path, table)

    monkeypatch.setattr(outputs, "write_csv", writing)


def signalled_while_moving(monkeypatch, number):
    """``number`` sent to this process in the middle of moving the outputs in."""
    finish = staged._finish

    def finishing(folder, names):
        os.kill(os.getpid(), number)
        finish(folder, names)

    monkeypatch.setattr(staged, "_finish", finishing)


# ---- the two reported cases -----------------------------------------------------------------


def test_a_narrower_rerun_exports_the_runs_it_asks_for_and_keeps_every_stored_run(tmp_path):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out) == 0
    first = record(out)
    assert sweep(file, out, "--seeds", "1..3") == 0
    assert verifies(out) == ("6 stored runs pass the verifier (the outputs describe 3 of them); "
                             "runs.csv, summary.csv and manifest.json match the store")
    assert described(out) == {("ga", 8, seed) for seed in (1, 2, 3)}
    assert pd.read_csv(out / "summary.csv")["runs"].tolist() == [3]
    lines = (out / "summary.md").read_text().splitlines()
    second = record(out)
    assert lines[0].startswith("# tiny: ") and lines[0].endswith("boards 8; seeds 1 to 3")
    assert lines[2].startswith(f"From 3 of the 6 runs in runs.sqlite; the runs: manifest.json: "
                               f"{second['command']}, ")
    assert second["command"].endswith("--seeds 1..3") and second["status"] == "complete"
    assert second["outputs"]["runs"] == 3 and second["outputs"]["stored"] == 6
    assert second["runs_stored_before"] == 3 and second["runs_added"] == 0
    assert [(s["command"], s["runs_added"]) for s in second["earlier"]] == [(first["command"], 6)]
    player = page_data(out)
    assert player["runs"] and {run["seed"] for run in player["runs"]} <= {1, 2, 3}
    with Store(out) as store:
        assert len(store.keys()) == 6
    assert sweep(file, out) == 0  # wider again: nothing to compute
    assert verifies(out).startswith("6 stored runs pass the verifier; ")
    assert described(out) == {("ga", 8, seed) for seed in range(1, 7)}
    assert [s["command"] for s in record(out)["earlier"]] == [first["command"]]  # 1..3 made none


def page_data(out) -> dict:
    text = (out / "index.html").read_text()
    start = text.index('<script id="player-data" type="application/json">')
    return json.loads(text[start:].split(">", 1)[1].split("</script>", 1)[0])


def test_an_edited_reference_or_name_alone_is_exported_and_verifies(tmp_path):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out) == 0
    (tmp_path / "tiny.yaml").write_text(N8.replace("{8: 100}", "{8: 300}"))
    assert sweep(file, out) == 0
    verifies(out)
    assert pd.read_csv(out / "summary.csv")["reference"].tolist() == [300]
    assert sweep(file, out, "--set", "reference.8=200", "--set", "name=renamed") == 0
    verifies(out)
    assert pd.read_csv(out / "summary.csv")["reference"].tolist() == [200]
    heading = (out / "summary.md").read_text().splitlines()[0]
    assert heading.startswith("# renamed: ") and heading.endswith("boards 8; seeds 1 to 6")
    assert record(out)["settings"]["name"] == "renamed"


# ---- stopped while computing --------------------------------------------------------------


def test_a_sweep_stopped_while_computing_leaves_the_earlier_outputs_and_names_itself(
        tmp_path, monkeypatch):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out, "--seeds", "1..3") == 0
    first, before = record(out), exports(out)
    with monkeypatch.context() as patched:
        stopping_after_a_batch(patched)
        assert sweep(file, out) == 130
    assert exports(out) == before
    now = record(out)
    assert {k: v for k, v in now.items() if k != "since"} == first
    (stopped,) = now["since"]
    assert stopped["status"] == "interrupted" and stopped["command"].endswith("--quiet")
    with Store(out) as store:
        added = len(store.keys()) - 3
    assert stopped["runs_added"] == added > 0
    assert verifies(out).endswith(f"; {added} of them stored since by 1 sweep that wrote no "
                                  "outputs (interrupted)")
    assert sweep(file, out) == 0
    verifies(out)
    assert [s["status"] for s in record(out)["earlier"]] == ["complete", "interrupted"]


def test_a_first_sweep_stopped_while_computing_says_it_wrote_no_outputs(tmp_path, monkeypatch,
                                                                        capsys):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    with monkeypatch.context() as patched:
        stopping_after_a_batch(patched)
        assert sweep(file, out) == 130
    assert exports(out) == {}
    now = record(out)
    assert now["outputs"] is None and now["status"] == "interrupted" and now["runs_added"] > 0
    assert "no outputs yet" in verifies(out)
    capsys.readouterr()
    assert verify([str(out)]) == 0 and "no outputs yet" in capsys.readouterr().out
    (out / "summary.csv").write_text("algorithm\n")  # an output no sweep wrote
    problems, _ = verify_folder(out)
    assert problems == ["summary.csv: present, but manifest.json says no outputs were written "
                        "(the sweep's status is 'interrupted')"]
    assert sweep(file, out) == 0
    verifies(out)
    assert [s["status"] for s in record(out)["earlier"]] == ["interrupted"]


def test_fresh_runs_stopped_while_computing_take_the_outputs_of_the_runs_discarded(
        tmp_path, monkeypatch):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out) == 0
    with monkeypatch.context() as patched:
        stopping_after_a_batch(patched)
        assert sweep(file, out, "--set", "ga.population=10", "--fresh") == 130
    assert exports(out) == {} and record(out)["outputs"] is None
    verifies(out)
    assert sweep(file, out, "--set", "ga.population=10") == 0
    verifies(out)
    assert record(out)["settings"]["algorithms"]["ga"]["population"] == 10


def test_runs_of_other_code_kept_or_discarded_leave_folders_that_verify(tmp_path, monkeypatch):
    from gaqueens.runtime import manifest

    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    monkeypatch.setattr(manifest, "code_identity", lambda: "gaqueens 0.1.0, commit aaaa")
    assert sweep(file, out, "--seeds", "1..3") == 0
    monkeypatch.setattr(manifest, "code_identity", lambda: "gaqueens 0.1.0, commit bbbb")
    assert sweep(file, out, "--mixed-code") == 0
    verifies(out)
    assert sweep(file, out, "--seeds", "2..4", "--mixed-code") == 0  # narrower, still mixed
    verifies(out)
    assert record(out)["mixed_code"] == {"ga": {"gaqueens 0.1.0, commit aaaa": 2}}
    with monkeypatch.context() as patched:  # --fresh discards the runs the outputs describe
        stopping_after_a_batch(patched)
        assert sweep(file, out, "--fresh") == 130
    assert exports(out) == {} and record(out)["outputs"] is None
    verifies(out)
    assert sweep(file, out) == 0
    verifies(out)
    with Store(out) as store:
        assert store.codes() == {"ga": {manifest.entry_code(()): 6}}


def test_a_grid_cell_that_becomes_the_ga_twin_keeps_the_runs_it_made_as_a_cell(tmp_path):
    """Found by the property below: the ga's settings changed to a cell's (--fresh), the
    cell's own stored runs and those of the ga computed for it met in the store."""
    grid = "grid: {population: [10, 20]}\n"
    file, out = experiment_file(tmp_path, N8 + "ga: {population: 20}\n" + grid), tmp_path / "out"
    assert sweep(file, out, "--seeds", "1..2") == 0
    assert sweep(file, out, "--seeds", "1..3", "--set", "ga.population=10", "--fresh") == 0
    verifies(out)
    runs = pd.read_csv(out / "runs.csv").set_index(["algorithm", "board", "seed"])
    columns = ["solved", "conflicts", "generations", "work", "solution"]
    assert runs.loc["population=10", columns].equals(runs.loc["ga", columns])


# ---- stopped while writing the outputs, and while moving them in ----------------------------


@pytest.mark.parametrize("point", ["runs.csv", "summary.csv", "the page"])
def test_a_sweep_stopped_while_writing_leaves_the_earlier_outputs_whole(tmp_path, monkeypatch,
                                                                        point):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out, "--seeds", "1..3") == 0
    first, before = record(out), exports(out)
    with monkeypatch.context() as patched:
        stopping_at(patched, point)
        assert sweep(file, out) == 130
    assert exports(out) == before and not list(out.glob("*.partial*"))
    now = record(out)
    assert now["command"] == first["command"]
    assert now["since"][0]["status"] == "interrupted while writing its outputs"
    assert now["since"][0]["runs_added"] == 3
    verifies(out)
    assert sweep(file, out) == 0
    verifies(out)
    assert described(out) == {("ga", 8, seed) for seed in range(1, 7)}


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_outputs_move_in_waits_until_they_all_have(tmp_path, monkeypatch,
                                                                      number):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out, "--seeds", "1..3") == 0
    with monkeypatch.context() as patched:
        signalled_while_moving(patched, number)
        assert sweep(file, out) == 130
    verifies(out)
    assert described(out) == {("ga", 8, seed) for seed in range(1, 7)}
    assert record(out)["status"] == "complete" and "since" not in record(out)


KILLED_WHILE_MOVING = """\
import os, signal, sys
from gaqueens.reports import staged
from gaqueens.sweep import main

def dying(folder, names):  # two files moved in, then killed
    ready = folder / staged.READY
    for path in sorted(p for p in ready.iterdir() if p.name != "manifest.json")[:2]:
        os.replace(path, folder / path.name)
    os.kill(os.getpid(), signal.SIGKILL)

staged._finish = dying
sys.exit(main(sys.argv[1:]))
"""


def test_outputs_a_kill_left_half_moved_in_are_reported_and_moved_in_by_the_next_sweep(
        tmp_path, capsys):
    file, out = experiment_file(tmp_path, N8), tmp_path / "out"
    assert sweep(file, out, "--seeds", "1..3") == 0
    script = tmp_path / "script.py"
    script.write_text(KILLED_WHILE_MOVING)
    done = subprocess.run([sys.executable, str(script), file, "--out", str(out), "--workers", "1",
                           "--quiet"], capture_output=True, text=True, env=QUIET, timeout=120)
    assert done.returncode == -signal.SIGKILL
    assert (out / staged.READY).is_dir()
    capsys.readouterr()
    assert verify([str(out)]) == 1
    assert (f"  {staged.READY}: a sweep was stopped while moving its outputs in; run it again to "
            "move them in") in capsys.readouterr().out.splitlines()
    assert sweep(file, out, "--seeds", "1..3") == 0
    verifies(out)
    assert record(out)["earlier"][-1]["command"].endswith("--quiet")  # the killed one's record
    assert described(out) == {("ga", 8, seed) for seed in (1, 2, 3)}


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raising KeyboardInterrupt here, as it does in a command a terminal started (the
    suite itself may run with Ctrl-C ignored, as a shell's background job)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_held_holds_a_signal_until_its_block_has_run(ctrl_c_raises):
    before, steps = signal.getsignal(signal.SIGINT), []
    with pytest.raises(KeyboardInterrupt):
        with signals.held():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("after the signal")
    assert steps == ["after the signal"] and signal.getsignal(signal.SIGINT) is before
    with pytest.raises(ValueError):  # a block that raises raises its own error
        with signals.held():
            os.kill(os.getpid(), signal.SIGINT)
            raise ValueError
    ran = []

    def elsewhere():
        with signals.held():  # no handler can be set here: the block runs as it is
            ran.append(threading.current_thread() is not threading.main_thread())

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert ran == [True]


# ---- any sequence of sweeps ----------------------------------------------------------------

STEP = st.fixed_dictionaries({
    "first": st.integers(1, 4), "count": st.integers(1, 3),
    "boards": st.sampled_from(["[8]", "[8, 9]"]),
    "reference": st.sampled_from([None, 100, 300]), "by_set": st.booleans(),
    "name": st.sampled_from(["walk", "renamed"]),
    "population": st.sampled_from([20, 10]),
    "extra": st.sampled_from(["", "grid: {population: [10, 20]}\n", "baselines: [construction]\n"]),
    "fresh": st.booleans(),
    "stop": st.sampled_from([None, "computing", "runs.csv", "the page", "moving"]),
})


@settings(max_examples=6, deadline=None)
@given(steps=st.lists(STEP, min_size=2, max_size=4))
def test_any_sequence_of_sweeps_leaves_a_folder_that_verifies(tmp_path_factory, steps):
    folder = tmp_path_factory.mktemp("walk")
    out, stored_population = folder / "out", None
    for step in steps:
        text = (f"name: {step['name']}\nboards: {step['boards']}\nseeds: {{first: 1, last: 2}}\n"
                f"ga: {{population: {step['population']}}}\n{step['extra']}")
        sets = []
        if step["reference"] is not None:
            if step["by_set"]:
                sets = ["--set", f"reference.8={step['reference']}"]
            else:
                text += f"reference: {{8: {step['reference']}}}\n"
        file = experiment_file(folder, text, "walk.yaml")
        seeds = f"{step['first']}..{step['first'] + step['count'] - 1}"
        args = ["--seeds", seeds, *sets, *(["--fresh"] if step["fresh"] else [])]
        changed = stored_population not in (None, step["population"])
        refused, discarding = changed and not step["fresh"], changed and step["fresh"]
        before = {**exports(out), "manifest": record(out) if (out / "manifest.json").exists()
                  else None}
        with ExitStack() as stack:
            patched = stack.enter_context(pytest.MonkeyPatch.context())
            if step["stop"] == "computing":
                stopping_after_a_batch(patched)
            elif step["stop"] == "moving":
                signalled_while_moving(patched, signal.SIGINT)
            elif step["stop"] is not None:
                stopping_at(patched, step["stop"])
            code = sweep(file, out, *args)
        verifies(out)
        if refused:
            assert code == 2
            assert {**exports(out), "manifest": record(out)} == before
            continue
        stored_population = step["population"]
        if code == 0 or step["stop"] == "moving":
            assert code == (130 if step["stop"] == "moving" else 0)
            tasks = load(file, output=out, seeds=parse_seeds(seeds), overrides=sets[1::2]).tasks()
            assert described(out) == set(tasks)
            assert record(out)["outputs"]["runs"] == len(tasks) and "since" not in record(out)
        else:
            assert code == 130 and step["stop"] in ("computing", "runs.csv", "the page")
            if discarding or before["manifest"] is None:
                assert exports(out) == {} and record(out)["outputs"] is None
            else:
                assert exports(out) == {k: v for k, v in before.items() if k != "manifest"}
