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

from gaqueens.board import is_solution

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
