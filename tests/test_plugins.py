"""Plug-ins: a solver and an operator of a user's own, without editing gaqueens.

tests/plugin is a tiny package (gaqueens-example-plugin): a solver module registered under the
entry point group gaqueens.algorithms as random-restarts, and a mutation written DEAP's way.
The tests install it into a folder of their own (pip install --target, never into the running
environment) and run sweeps in subprocesses that see it there, on the local pool and on a
Dask cluster whose workers import it by name (the README's "Extending" section).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from gaqueens.problems.nqueens.verifier import is_solution

PLUGIN = Path(__file__).parent / "plugin"
EXPERIMENT = textwrap.dedent("""\
    boards: [8, 10]
    seeds: {first: 1, last: 6}
    ga:
      stop: {generations: 2000}
      mutation: {function: "gaqueens_example_plugin.operators:reverse_segment", longest: 8}
    baselines:
      random-restarts: {budget: 50000}
      restarts-by-path: {plugin: gaqueens_example_plugin.solver, budget: 50000}
    """)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The plug-in, built from a copy and installed into a folder of its own."""
    root = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(PLUGIN, root / "source")
    target = root / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "--target", str(target), str(source)],
                   check=True, capture_output=True, text=True)
    return target


def run_python(site: Path, code: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
           "CI": "true"}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=240)


def sweep_code(file: Path, out: Path, *options: str) -> str:
    return (f"import sys; from gaqueens.sweep import main; "
            f"sys.exit(main({[str(file), '--out', str(out), '--quiet', *options]!r}))")


def check_rows(out: Path) -> pd.DataFrame:
    runs = pd.read_csv(out / "runs.csv")
    assert sorted(runs["algorithm"].unique()) == ["ga", "random-restarts", "restarts-by-path"]
    assert len(runs) == 3 * 2 * 6 and runs["solved"].all()
    assert set(runs.loc[runs["algorithm"] != "ga", "unit"]) == {"placements"}
    for row in runs.itertuples():
        assert is_solution([int(c) for c in row.solution.split()], row.board)
    return runs.drop(columns="seconds")


def test_a_plugin_solver_and_operator_run_in_a_sweep(site, tmp_path):
    file = tmp_path / "plugged.yaml"
    file.write_text(EXPERIMENT)
    done = run_python(site, sweep_code(file, tmp_path / "local", "--workers", "2"), tmp_path)
    assert done.returncode == 0, done.stderr
    runs = check_rows(tmp_path / "local")
    by_name = runs.set_index(["algorithm", "board", "seed"])
    same = by_name.loc["random-restarts"].equals(by_name.loc["restarts-by-path"])
    assert same  # the entry point and the import path name the same solver


def test_plugins_run_on_a_dask_cluster_whose_workers_import_them(site, tmp_path):
    pytest.importorskip("distributed")
    file = tmp_path / "plugged.yaml"
    file.write_text(EXPERIMENT)
    code = textwrap.dedent(f"""\
        import sys
        from distributed import LocalCluster
        from gaqueens.sweep import main
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster:
            status = main({[str(file), '--out', str(tmp_path / 'dask'), '--quiet']!r}
                          + ["--scheduler", cluster.scheduler_address])
        sys.exit(status)
        """)
    done = run_python(site, code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert run_python(site, sweep_code(file, tmp_path / "local", "--workers", "1"),
                      tmp_path).returncode == 0
    pd.testing.assert_frame_equal(check_rows(tmp_path / "dask"), check_rows(tmp_path / "local"))


def test_without_the_plugin_installed_the_file_is_refused_in_one_line(tmp_path):
    file = tmp_path / "plugged.yaml"
    file.write_text(EXPERIMENT)
    done = subprocess.run([sys.executable, "-m", "gaqueens.sweep", str(file), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "ga.mutation.function" in done.stderr and "cannot import" in done.stderr


# ---- the code of a plug-in, recorded with every run ----------------------------------------------

MY_OPERATOR = textwrap.dedent("""\
    import random


    def shuffle_some(individual, swaps):
        for _ in range(swaps):
            i, j = random.sample(range(len(individual)), 2)
            individual[i], individual[j] = individual[j], individual[i]
        return (individual,)
    """)
MY_EXPERIMENT = textwrap.dedent("""\
    boards: [8]
    seeds: {first: 1, last: 5}
    ga:
      stop: {generations: 300}
      mutation: {function: "myops:shuffle_some", swaps: 1}
    """)


def sweep_here(folder: Path, *options: str) -> subprocess.CompletedProcess:
    """python -m gaqueens.sweep of MY_EXPERIMENT in ``folder``, which holds myops.py."""
    return subprocess.run([sys.executable, "-m", "gaqueens.sweep", "plugged.yaml", "--out", "out",
                           *options], cwd=folder, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "CI": "true"})


def test_runs_of_an_edited_plugin_are_refused_or_computed_again(tmp_path):
    (tmp_path / "plugged.yaml").write_text(MY_EXPERIMENT)
    (tmp_path / "myops.py").write_text(MY_OPERATOR)
    assert sweep_here(tmp_path, "--quiet").returncode == 0
    first = pd.read_csv(tmp_path / "out" / "runs.csv").drop(columns="seconds")
    (tmp_path / "myops.py").write_text(MY_OPERATOR.replace("range(swaps)", "range(swaps + 2)"))
    done = sweep_here(tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "5 of its stored runs of ga were made by other code" in done.stderr
    assert "plug-in myops changed (source digest" in done.stderr and "--fresh" in done.stderr
    assert sweep_here(tmp_path, "--quiet", "--fresh").returncode == 0
    again = pd.read_csv(tmp_path / "out" / "runs.csv").drop(columns="seconds")
    assert not again.equals(first)  # three swaps a child make other runs
    (tmp_path / "myops.py").write_text(MY_OPERATOR)
    assert sweep_here(tmp_path, "--quiet", "--mixed-code").returncode == 0
    assert "made by different code" in (tmp_path / "out" / "summary.md").read_text()


def test_dask_workers_with_other_code_of_a_plugin_are_refused(tmp_path):
    pytest.importorskip("distributed")
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    for folder, swaps in ((ours, "swaps"), (theirs, "swaps + 1")):
        folder.mkdir()
        (folder / "myops.py").write_text(MY_OPERATOR.replace("range(swaps)", f"range({swaps})"))
    (ours / "plugged.yaml").write_text(MY_EXPERIMENT)
    code = textwrap.dedent(f"""\
        import sys
        from distributed import Client, LocalCluster
        from gaqueens.sweep import main
        def look_first(folder):
            import sys
            sys.path.insert(0, folder)

        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster:
            with Client(cluster) as client:  # the workers find another myops.py first
                client.run(look_first, {str(theirs)!r})
            status = main(["plugged.yaml", "--out", "out", "--scheduler", cluster.scheduler_address])
        sys.exit(status)
        """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ours, capture_output=True, text=True,
                          timeout=240, env={**os.environ, "CI": "true", "PYTHONPATH": str(ours)})
    assert done.returncode == 2, done.stderr
    assert "its workers have other code of the plug-in myops" in done.stderr
    assert not (ours / "out").exists()


# ---- a problem of a user's own -----------------------------------------------------------------

PROBLEM_EXPERIMENT = textwrap.dedent("""\
    problem: all-interval
    boards: [6, 9]
    seeds: {first: 1, last: 5}
    variants:
      by-path: {population: 20}
    """)


def test_a_plugin_problem_runs_through_sweep_verify_export_tables_and_plots(site, tmp_path):
    file = tmp_path / "intervals.yaml"
    file.write_text(PROBLEM_EXPERIMENT)
    out = tmp_path / "out"
    done = run_python(site, sweep_code(file, out, "--workers", "2"), tmp_path)
    assert done.returncode == 0, done.stderr
    runs = pd.read_csv(out / "runs.csv")
    assert len(runs) == 2 * 2 * 5 and runs["solved"].all()
    for row in runs.itertuples():  # every solution is an all-interval series
        columns = [int(c) for c in row.solution.split()]
        gaps = {abs(b - a) for a, b in zip(columns, columns[1:])}
        assert sorted(columns) == list(range(row.board)) and gaps == set(range(1, row.board))
    summary = pd.read_csv(out / "summary.csv")
    assert summary.loc[summary["board"] == 6, "placements"].iloc[0] == "720"
    assert summary["solutions"].isna().all() and summary["random_exact"].isna().all()
    text = (out / "summary.md").read_text()
    assert "repeated gaps of a random genome" in text
    assert (out / "convergence.png").exists() and (out / "ecdf.png").exists()
    manifest = (out / "manifest.json").read_text()
    assert '"problem": "all-interval"' in manifest
    verified = run_python(site, f"import sys; from gaqueens.verify import main; "
                                f"sys.exit(main([{str(out)!r}]))", tmp_path)
    assert verified.returncode == 0 and "20 stored runs pass the verifier" in verified.stdout
    exported = run_python(site, f"import sys; from gaqueens.export import main; "
                                f"sys.exit(main([{str(out)!r}]))", tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert (out / "ioh" / "ga" / "IOHprofiler_f1_Allintervalseries.json").exists()
    by_path = tmp_path / "by-path.yaml"
    by_path.write_text(PROBLEM_EXPERIMENT.replace(
        "problem: all-interval", "problem: {plugin: gaqueens_example_plugin.problem}"))
    again = tmp_path / "again"
    assert run_python(site, sweep_code(by_path, again), tmp_path).returncode == 0
    pd.testing.assert_frame_equal(pd.read_csv(again / "runs.csv").drop(columns="seconds"),
                                  runs.drop(columns="seconds"))


def test_the_nqueens_solvers_are_refused_on_another_problem(site, tmp_path):
    file = tmp_path / "intervals.yaml"
    file.write_text("problem: all-interval\nboards: [6]\nbaselines: [local-search]\n")
    done = run_python(site, sweep_code(file, tmp_path / "out"), tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "baselines.local-search solves nqueens, not the problem all-interval" in done.stderr
