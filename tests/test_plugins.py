"""Plug-ins: solvers, an operator and a problem of a user's own, without editing gaqueens.

tests/plugin is a tiny package (gaqueens-example-plugin): an N-Queens solver registered under
the entry point group gaqueens.algorithms as random-restarts, a mutation written DEAP's way, a
problem (the all-interval series, entry point group gaqueens.problems) and a solver of that
problem that leaves some runs unsolved (interval-climber). The tests install it into a folder
of their own (pip install --target, never into the running environment) and run sweeps in
subprocesses that see it there, on the local pool and on a Dask cluster whose workers import
it by name (the README's "Extending" section). A plug-in's mistakes: tests/test_plugin_mistakes.py.
"""

from __future__ import annotations

import json
import os
import re
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


def dask_sweep_code(file: Path, out: Path) -> str:
    """A sweep of ``file`` into ``out`` on a Dask cluster of two worker processes."""
    return textwrap.dedent(f"""\
        import sys
        from distributed import LocalCluster
        from gaqueens.sweep import main
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster:
            status = main({[str(file), '--out', str(out), '--quiet']!r}
                          + ["--scheduler", cluster.scheduler_address])
        sys.exit(status)
        """)


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
    assert "plug-in module myops changed (source digest" in done.stderr and "--fresh" in done.stderr
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
    assert "its workers have other code of the plug-in module myops" in done.stderr
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


# ---- a solver of the plug-in problem, and one problem however it is named ---------------------

SOLVER_EXPERIMENT = textwrap.dedent("""\
    problem: all-interval
    boards: [6, 9]
    seeds: {first: 1, last: 6}
    ga: {stop: {generations: 2000}}
    baselines:
      interval-climber: {budget: 200}
      climber-by-path: {plugin: gaqueens_example_plugin.interval_search, budget: 200}
    """)


def repeated_gaps(series: list[int]) -> int:
    """The all-interval series' conflicts, counted here by hand: gaps that repeat one before."""
    gaps = [abs(b - a) for a, b in zip(series, series[1:])]
    return len(gaps) - len(set(gaps))


def command(site: Path, name: str, *args, cwd: Path) -> subprocess.CompletedProcess:
    return run_python(site, f"import sys; from gaqueens.{name} import main; "
                            f"sys.exit(main({[str(a) for a in args]!r}))", cwd)


def check_intervals(out: Path) -> pd.DataFrame:
    """runs.csv of SOLVER_EXPERIMENT: every run's claims recounted here, and some unsolved."""
    runs = pd.read_csv(out / "runs.csv")
    assert len(runs) == 3 * 2 * 6
    for row in runs.itertuples():
        series = [int(c) for c in row.solution.split()]
        assert sorted(series) == list(range(row.board))
        assert row.conflicts == repeated_gaps(series) and row.solved == (row.conflicts == 0)
    climbers = runs[runs["algorithm"] != "ga"]
    assert set(climbers["unit"]) == {"swaps"} and (climbers["work"] <= 200).all()
    assert 0 < climbers["solved"].sum() < len(climbers)  # some runs unsolved, some solved
    by_name = runs.drop(columns="seconds").set_index(["algorithm", "board", "seed"])
    assert by_name.loc["interval-climber"].equals(by_name.loc["climber-by-path"])
    return runs.drop(columns="seconds")


@pytest.fixture(scope="module")
def climbed(site, tmp_path_factory) -> Path:
    """SOLVER_EXPERIMENT swept on two local workers: its output folder."""
    folder = tmp_path_factory.mktemp("climbed")
    file, out = folder / "climb.yaml", folder / "out"
    file.write_text(SOLVER_EXPERIMENT)
    done = run_python(site, sweep_code(file, out, "--workers", "2"), folder)
    assert done.returncode == 0, done.stderr  # on N-Queens' verifier: exit 1 on the first unsolved
    return out


def test_a_plugin_solver_of_a_plugin_problem_runs_through_sweep_verify_and_export(site, climbed):
    check_intervals(climbed)
    recorded = json.loads((climbed / "manifest.json").read_text())["settings"]["algorithms"]
    assert recorded["interval-climber"]["problem"] == "all-interval"
    verified = command(site, "verify", climbed, cwd=climbed.parent)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "36 stored runs pass the verifier" in verified.stdout
    exported = command(site, "export", climbed, cwd=climbed.parent)
    assert exported.returncode == 0, exported.stderr
    assert (climbed / "ioh" / "ga" / "IOHprofiler_f1_Allintervalseries.json").exists()


def test_report_writes_the_page_of_a_plugin_solver_of_a_plugin_problem(site, climbed):
    reported = command(site, "report", climbed, cwd=climbed.parent)
    assert reported.returncode == 0, reported.stderr
    assert "index.html" in reported.stdout


@pytest.mark.parametrize("text, check", [(EXPERIMENT, check_rows),
                                         (SOLVER_EXPERIMENT, check_intervals)],
                         ids=["nqueens-solver-and-operator", "problem-and-its-solver"])
def test_plugins_run_on_a_dask_cluster_whose_workers_import_them(text, check, site, tmp_path):
    pytest.importorskip("distributed")
    file = tmp_path / "plugged.yaml"
    file.write_text(text)
    done = run_python(site, dask_sweep_code(file, tmp_path / "dask"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert run_python(site, sweep_code(file, tmp_path / "local", "--workers", "1"),
                      tmp_path).returncode == 0
    pd.testing.assert_frame_equal(check(tmp_path / "dask"), check(tmp_path / "local"))


BY_PATH_SOLVER = textwrap.dedent("""\
    from gaqueens_example_plugin.interval_search import Settings, UNIT, run

    PROBLEMS = ("gaqueens_example_plugin.problem",)
    """)


def test_a_problem_is_one_problem_by_its_entry_point_or_its_import_path(site, tmp_path):
    (tmp_path / "path_solver.py").write_text(BY_PATH_SOLVER)
    outs = {}
    for named, problem in (("entry-point", "all-interval"),
                           ("import-path", "{plugin: gaqueens_example_plugin.problem}")):
        file = tmp_path / f"{named}.yaml"
        file.write_text(f"problem: {problem}\nboards: [7]\nseeds: {{first: 1, last: 4}}\n"
                        "baselines:\n  interval-climber: {budget: 50}\n"
                        "  by-path: {plugin: path_solver, budget: 50}\n")
        outs[named] = tmp_path / named
        done = run_python(site, sweep_code(file, outs[named]), tmp_path)
        assert done.returncode == 0, done.stderr  # PROBLEMS by name and by path match either
    settings = [json.loads((out / "manifest.json").read_text())["settings"] for out in outs.values()]
    assert settings[0]["problem"] == settings[1]["problem"] == "all-interval"
    assert settings[0]["algorithms"] == settings[1]["algorithms"]
    runs = [pd.read_csv(out / "runs.csv").drop(columns="seconds") for out in outs.values()]
    pd.testing.assert_frame_equal(*runs)


def readme_problem() -> str:
    """The README's example problem, as a user copies it into a file of its own."""
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    return next(block for block in re.findall(r"```python\n(.*?)```", text, re.S)
                if "class AllInterval" in block)


def test_a_single_module_problem_runs_as_a_plugin_by_its_import_path(tmp_path):
    (tmp_path / "intervals.py").write_text(readme_problem())
    file = tmp_path / "alone.yaml"
    file.write_text("problem: {plugin: intervals}\nboards: [6]\nseeds: {first: 1, last: 3}\n")
    done = subprocess.run([sys.executable, "-m", "gaqueens.sweep", "alone.yaml", "--out", "out",
                           "--quiet"], cwd=tmp_path, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "CI": "true"})
    assert done.returncode == 0, done.stderr
    recorded = json.loads((tmp_path / "out" / "manifest.json").read_text())["settings"]
    assert recorded["problem"] == "intervals:PROBLEM"  # loads it again in any process
    verified = subprocess.run([sys.executable, "-m", "gaqueens.verify", "out"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=240)
    assert verified.returncode == 0, verified.stdout


def test_run_refuses_a_solver_of_another_problem_and_runs_it_from_a_file(site, tmp_path):
    done = command(site, "run", "--algorithm", "interval-climber", "--board", "6", cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "--algorithm interval-climber solves all-interval, not N-Queens" in lines[0]
    file = tmp_path / "climb.yaml"
    file.write_text(SOLVER_EXPERIMENT)
    unsolved = command(site, "run", file, "--algorithm", "interval-climber", "--board", "9",
                       "--seed", "1", cwd=tmp_path)  # unsolved: checked by its problem's verifier
    assert unsolved.returncode == 0, unsolved.stderr
    said, columns = unsolved.stdout.splitlines()[:2]
    series = json.loads(columns.removeprefix("columns "))
    assert said == f"{repeated_gaps(series)} conflicts after 200 swaps" and repeated_gaps(series)


ODD = textwrap.dedent("""\
    from intervals import AllInterval


    class Odd(AllInterval):
        name, title = "odd-series", "Odd series"

        def has_solution(self, size):
            return size % 2 == 1


    PROBLEM = Odd()
    """)


def test_sizes_without_a_solution_are_refused_in_the_problems_own_words(tmp_path, monkeypatch,
                                                                        capsys):
    from gaqueens import run
    from gaqueens.experiment import BadInput, load

    (tmp_path / "odd_series.py").write_text(ODD)
    (tmp_path / "intervals.py").write_text(readme_problem())
    monkeypatch.syspath_prepend(str(tmp_path))
    file = tmp_path / "odd.yaml"
    file.write_text("problem: {plugin: odd_series}\nboards: [5, 6]\n")
    with pytest.raises(BadInput) as refused:
        load(file)
    assert str(refused.value).endswith("boards[1] is 6, which has no solution (Odd series has "
                                       "none on size 6): ga cannot reach 0 repeated gaps")
    file.write_text("problem: {plugin: odd_series}\nboards: [5]\n")
    assert run.main([str(file), "--board", "6"]) == 2
    line = capsys.readouterr().err.strip()
    assert line == "error: --board 6 has no solution (Odd series has none on size 6)"


# ---- the plug-in code each run records ---------------------------------------------------------

PACKAGE = {
    "mypkg/__init__.py": "",
    "mypkg/problem.py": textwrap.dedent("""\
        import numpy as np
        from gaqueens.problems import Problem
        from otherpkg.gaps import repeats
        from . import helpers


        class Intervals(Problem):
            name, title = "my-intervals", "My intervals"
            measures, conflicts_label = ("repeats",), "repeated gaps"

            def evaluate(self, size, genomes, measure):
                return repeats(np.asarray(genomes))

            def reject(self, size, solution, conflicts, solved, solved_at, measure):
                return helpers.rejection(solution, conflicts, solved, solved_at)


        PROBLEM = Intervals()
        """),
    "mypkg/helpers.py": textwrap.dedent("""\
        def rejection(solution, conflicts, solved, solved_at):
            gaps = [abs(b - a) for a, b in zip(solution, solution[1:])]
            repeats = len(gaps) - len(set(gaps))
            if repeats != conflicts or bool(solved) != (repeats <= solved_at):
                return f"it reports {conflicts} repeated gaps, the verifier counts {repeats}"
        """),
    "mypkg/unused.py": "ANSWER = 42\n",
    "otherpkg/__init__.py": '"""Another package the plug-in imports from."""\n',
    "otherpkg/gaps.py": textwrap.dedent("""\
        import numpy as np


        def repeats(genomes):
            gaps = np.sort(np.abs(np.diff(genomes, axis=1)), axis=1)
            return (gaps[:, 1:] == gaps[:, :-1]).sum(axis=1)
        """),
}


def install(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def sweep_from(cwd: Path, site: Path, file: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gaqueens.sweep", str(file), "--out", str(out),
                           "--quiet"], cwd=cwd, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "CI": "true", "PYTHONPATH": os.pathsep.join(
                              [str(site), os.environ.get("PYTHONPATH", "")])})


def test_runs_record_the_plugin_code_they_import_and_a_refusal_names_the_module(tmp_path):
    site = install(tmp_path / "site", PACKAGE)
    file, out = tmp_path / "mine.yaml", tmp_path / "out"
    file.write_text("problem: {plugin: mypkg.problem}\nboards: [6]\nseeds: {first: 1, last: 3}\n")
    assert sweep_from(tmp_path, site, file, out).returncode == 0
    code = json.loads((out / "manifest.json").read_text())["code"]["ga"]
    assert [part.split()[0] for part in code.split("; plug-in ")[1:]] == [
        "mypkg.helpers", "mypkg.problem", "otherpkg.gaps"]  # no empty __init__, nor unused
    (site / "mypkg" / "unused.py").write_text("ANSWER = 42  # a module no run imports\n")
    done = sweep_from(tmp_path, site, file, out)
    assert done.returncode == 0, done.stderr
    for module, edit in (("mypkg.helpers", "mypkg/helpers.py"), ("otherpkg.gaps", "otherpkg/gaps.py")):
        (site / edit).write_text(PACKAGE[edit] + "# edited\n")
        done = sweep_from(tmp_path, site, file, out)
        assert done.returncode == 2, done.stderr
        assert f"plug-in module {module} changed (source digest" in done.stderr
        assert "mypkg.problem" not in done.stderr
        (site / edit).write_text(PACKAGE[edit])
    assert sweep_from(tmp_path, site, file, out).returncode == 0


def test_plugin_code_is_the_same_from_any_working_folder(tmp_path):
    # a namespace package (no __init__.py), as the folder above a checkout makes of it: run
    # from there, the folder of the same name there is a portion of it too
    files = {name.replace("mypkg/", "nsplug/"): text.replace("from . import helpers",
                                                            "from nsplug import helpers")
             for name, text in PACKAGE.items() if name != "mypkg/__init__.py"}
    site = install(tmp_path / "site", files)
    above = install(tmp_path / "above", {"nsplug/notes.py": "NOTES = 'not a module any run imports'\n"})
    file, out = tmp_path / "mine.yaml", tmp_path / "out"
    file.write_text("problem: {plugin: nsplug.problem}\nboards: [6]\nseeds: {first: 1, last: 3}\n")
    assert sweep_from(tmp_path, site, file, out).returncode == 0
    done = sweep_from(above, site, file, out)
    assert done.returncode == 0, done.stderr  # not "3 of its stored runs ... by other code"
