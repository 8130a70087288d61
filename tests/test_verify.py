"""python -m gaqueens.verify on folders altered by hand, and the exports' own re-verification
(gaqueens/verify.py, gaqueens/runtime/claims.py)."""

import ast
import json
import shutil
import sqlite3
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from gaqueens.core.algorithms import ALGORITHMS
from gaqueens.problems import PROBLEMS, Problem, get
from gaqueens.problems.nqueens.verifier import attacking_pairs
from gaqueens.runtime.claims import (
    Claims, entry_claims, row_problem, rows_problems, run_problem, runs_problems, stored_claims,
)
from gaqueens.runtime.store import pack, unpack
from gaqueens.sweep import main as sweep
from gaqueens.reports import tables
from gaqueens.reports.verify_checks import trace_problem
from gaqueens.verify import main as verify
from sweeps import experiment_file

REPOSITORY = Path(__file__).resolve().parent.parent
FOLDER = """\
boards: [8, 10]
seeds: {first: 1, last: 6}
reference: {8: 100}
variants:
  near: {stop: {target: 2}}
baselines: [construction, min-conflicts]
"""


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("swept")
    out = folder / "out"
    assert sweep([experiment_file(folder, FOLDER), "--out", str(out), "--workers", "1",
                  "--quiet"]) == 0
    return out


@pytest.fixture
def folder(swept, tmp_path):
    """A copy of the swept folder to alter."""
    return Path(shutil.copytree(swept, tmp_path / "out"))


def verified(capsys, folder):
    code = verify([str(folder)])
    out, err = capsys.readouterr()
    return code, out.strip().splitlines(), err.strip()


def alter(folder, sql, *parameters):
    with sqlite3.connect(folder / "runs.sqlite") as db:
        db.execute(sql, parameters)


def test_an_untouched_folder_is_verified_in_one_line(capsys, folder):
    code, lines, err = verified(capsys, folder)
    assert code == 0 and err == "" and len(lines) == 1
    runs = len(pd.read_csv(folder / "runs.csv"))
    assert lines[0] == (f"{folder}: verified: {runs} stored runs pass the verifier; runs.csv, "
                        "summary.csv and manifest.json match the store")


def test_a_stored_count_altered_by_hand_is_found_in_the_store_and_the_export(capsys, folder):
    alter(folder, "UPDATE runs SET conflicts = 1 WHERE algorithm = 'ga' AND board = 8 AND seed = 2")
    code, lines, _ = verified(capsys, folder)
    assert code == 1 and lines[0] == f"{folder}: 2 problems:"
    assert lines[1:] == [
        "  runs.sqlite: ga on board 8, seed 2: it reports 1 conflicts (solved: True), the "
        "verifier counts 0",
        "  runs.csv: ga on board 8, seed 2: conflicts is '0', expected '1'",
    ]


def test_an_unsolved_placement_that_is_no_permutation_is_refused(capsys, folder):
    columns = "0 1 2 3 4 5 6 6"  # two queens in column 6, its pairs counted honestly
    alter(folder, "UPDATE runs SET solution = ?, conflicts = ?, solved = 0 WHERE algorithm = "
          "'ga' AND board = 8 AND seed = 1", columns, attacking_pairs(columns.split()))
    code, lines, _ = verified(capsys, folder)
    assert code == 1
    assert "  runs.sqlite: ga on board 8, seed 1: its placement is not a permutation of 0 to 7" in lines


def test_min_conflicts_may_leave_queens_sharing_a_column_but_not_off_the_board():
    shared = [0, 0, 2, 5, 7, 1, 3, 6]
    pairs = attacking_pairs(shared)
    min_conflicts, ga = stored_claims("min-conflicts", {}), stored_claims("ga", {})
    assert run_problem(min_conflicts, shared, 8, pairs, False) is None
    assert "not a permutation" in run_problem(ga, shared, 8, pairs, False)
    assert "outside 0 to 7" in run_problem(min_conflicts, [0, 8, 2, 5, 7, 1, 3, 6], 8, 9, False)
    assert "columns on a board" in run_problem(stored_claims("local-search", {}), [0, 1], 8, 0, False)


def test_a_target_above_zero_is_taken_from_the_stored_settings(capsys, folder):
    # the variant "near" stops at 2 conflicts: a run with 1 is solved for it, not for the GA
    with sqlite3.connect(folder / "runs.sqlite") as db:
        solved = db.execute("SELECT count(*) FROM runs WHERE algorithm = 'near' AND "
                            "conflicts > 0 AND solved = 1").fetchone()[0]
    assert solved > 0
    assert verified(capsys, folder)[0] == 0


def test_an_altered_trace_is_found(capsys, folder):
    trace = np.array([[0, 20, 3, 5, 9, 5.1], [1, 40, 1, 4, 8, 4.0]])  # ends at 1 conflict
    alter(folder, "UPDATE runs SET trace = ? WHERE algorithm = 'ga' AND board = 10 AND seed = 6",
          pack(trace))
    code, lines, _ = verified(capsys, folder)
    assert code == 1
    assert lines[1].startswith("  runs.sqlite: ga on board 10, seed 6: its trace ends at generation 1")
    assert lines[2].startswith("  summary.csv: ga on board 10: random_measured is ")  # its mean


def test_worker_processes_find_what_this_process_finds(capsys, folder, monkeypatch):
    """Large stores are checked by two worker processes (a group of runs a task, beside the
    summary's resampling): the same lines as checked here."""
    alter(folder, "UPDATE runs SET conflicts = 3 WHERE algorithm = 'ga' AND board = 8 AND seed = 2")
    alter(folder, "UPDATE runs SET trace = ? WHERE algorithm = 'near' AND board = 10 AND seed = 4",
          pack(np.array([[0, 20, 3, 5, 9, 5.1]])))
    here = verified(capsys, folder)
    monkeypatch.setattr(tables, "PARALLEL_FROM", 1)
    assert verified(capsys, folder) == here
    assert here[0] == 1 and len(here[1]) >= 4


def test_a_trace_must_reach_the_runs_conflicts_but_may_end_above_them():
    trace = np.array([[0, 20, 3, 5, 9, 5.1], [1, 40, 1, 4, 8, 4.0], [2, 60, 2, 4, 8, 4.2]])
    assert trace_problem(trace, 2, 60, 1) is None  # its best child was not kept
    assert trace_problem(trace, 2, 60, 0) is None  # a solution among the last children
    assert trace_problem(trace, 2, 60, 2) == "its trace reaches 1 conflicts, the run reports 2 at best"


def test_a_run_whose_survivors_lost_its_best_verifies(capsys, tmp_path):
    """Survivors by tournament can drop the solution a child found: the run is solved, its
    trace's last population is not (the ablation's deap-tournament did so on board 8)."""
    out = tmp_path / "out"
    text = "boards: [8]\nseeds: {first: 1, last: 20}\nga: {survivors: {tournament: 2}}\n"
    assert sweep([experiment_file(tmp_path, text), "--out", str(out), "--workers", "1",
                  "--quiet"]) == 0
    with sqlite3.connect(out / "runs.sqlite") as db:
        ends = [(unpack(blob)[-1, 2], conflicts) for blob, conflicts
                in db.execute("SELECT trace, conflicts FROM runs")]
    assert any(last > conflicts for last, conflicts in ends)  # the case arises here
    assert verified(capsys, out)[0] == 0


def test_altered_csv_files_and_manifest_are_found(capsys, folder):
    runs = (folder / "runs.csv").read_text().splitlines()
    runs[3] = runs[3].replace(",evaluations,", ",nodes,")
    (folder / "runs.csv").write_text("\n".join(runs) + "\n")
    summary = pd.read_csv(folder / "summary.csv")
    summary.loc[0, "median"] += 1
    summary.to_csv(folder / "summary.csv", index=False)
    record = json.loads((folder / "manifest.json").read_text())
    record["settings"]["algorithms"]["ga"]["population"] = 30
    (folder / "manifest.json").write_text(json.dumps(record))
    code, lines, _ = verified(capsys, folder)
    assert code == 1 and lines[0] == f"{folder}: 3 problems:"
    assert lines[1] == "  manifest.json: ga.population is 30, runs.sqlite has 20"
    assert lines[2].startswith("  runs.csv: ga on board 8, seed 3: unit is 'nodes', expected 'evaluations'")
    assert lines[3].startswith("  summary.csv: ga on board 8: median is ")


def test_a_sweep_that_did_not_complete_is_not_verified(capsys, folder):
    record = json.loads((folder / "manifest.json").read_text())
    record["status"] = "interrupted"
    (folder / "manifest.json").write_text(json.dumps(record))
    alter(folder, "DELETE FROM runs WHERE algorithm = 'ga' AND seed = 6")
    code, lines, _ = verified(capsys, folder)
    assert code == 1
    assert "  manifest.json: the sweep's status is 'interrupted', not complete (run it again to finish it)" in lines
    assert "  runs.sqlite: 2 runs of the experiment are not stored, e.g. ga on board 8, seed 6" in lines


def test_a_damaged_store_is_found(capsys, folder):
    data = bytearray((folder / "runs.sqlite").read_bytes())
    data[4096:8192] = b"\x55" * 4096  # a page overwritten
    (folder / "runs.sqlite").write_bytes(bytes(data))
    code, lines, _ = verified(capsys, folder)
    assert code == 1 and lines[1].startswith("  runs.sqlite: ") and len(lines) == 2


# ---- without the store, from the files a repository keeps --------------------------------------


def committed(folder, tmp_path, *, compact=False) -> Path:
    kept = tmp_path / "kept"
    kept.mkdir()
    for name in ("runs.csv", "summary.csv", "manifest.json"):
        shutil.copy(folder / name, kept / name)
    if compact:
        pd.read_csv(kept / "runs.csv").drop(columns="solution").to_csv(kept / "runs.csv", index=False)
    return kept


@pytest.mark.parametrize("compact", [False, True])
def test_the_files_alone_are_verified_and_say_what_they_cannot_show(capsys, folder, tmp_path, compact):
    kept = committed(folder, tmp_path, compact=compact)
    code, lines, _ = verified(capsys, kept)
    assert code == 0 and len(lines) == 1
    assert lines[0].startswith(f"{kept}: verified: ")
    assert ("(it has no placements)" in lines[0]) == compact
    assert "without runs.sqlite here, the traces" in lines[0]


def test_the_files_alone_still_show_an_altered_row(capsys, folder, tmp_path):
    kept = committed(folder, tmp_path)
    runs = pd.read_csv(kept / "runs.csv", dtype={"solution": str})
    runs.loc[4, "solved"] = not runs.loc[4, "solved"]
    runs.to_csv(kept / "runs.csv", index=False)
    code, lines, _ = verified(capsys, kept)
    row = runs.loc[4]
    assert code == 1 and lines[1].startswith(
        f"  runs.csv: {row.algorithm} on board {row.board}, seed {row.seed}: it reports")


def test_runs_compact_csv_stands_in_for_runs_csv_when_only_it_is_kept(capsys, folder, tmp_path):
    kept = committed(folder, tmp_path, compact=True)
    (kept / "runs.csv").rename(kept / "runs-compact.csv")  # as results/scaling keeps it
    record = json.loads((kept / "manifest.json").read_text())  # and as its sweep lists it
    record["outputs"]["files"].append("runs-compact.csv")
    (kept / "manifest.json").write_text(json.dumps(record))
    code, lines, _ = verified(capsys, kept)
    assert code == 0 and "runs of runs-compact.csv (it has no placements) pass" in lines[0]
    runs = pd.read_csv(kept / "runs-compact.csv")
    runs.loc[2, "conflicts"] += 1
    runs.to_csv(kept / "runs-compact.csv", index=False)
    code, lines, _ = verified(capsys, kept)
    assert code == 1 and lines[1].startswith("  runs-compact.csv: ")


def test_the_files_alone_show_a_missing_run(capsys, folder, tmp_path):
    kept = committed(folder, tmp_path)
    lines = (kept / "runs.csv").read_text().splitlines()
    (kept / "runs.csv").write_text("\n".join(lines[:-1]) + "\n")
    code, lines, _ = verified(capsys, kept)
    assert code == 1 and "is not" not in lines[1]
    assert lines[1].startswith("  runs.csv: its ") and "runs of the experiment" in lines[1]


SWEEPS = sorted(path.parent.name for path in (REPOSITORY / "results").glob("*/manifest.json"))


@pytest.mark.parametrize("name", SWEEPS)
def test_every_committed_results_folder_is_verified(capsys, name):
    code, lines, _ = verified(capsys, REPOSITORY / "results" / name)
    assert code == 0, lines


def test_a_folder_without_runs_is_bad_input(capsys, tmp_path):
    (tmp_path / "summary.csv").write_text("algorithm\n")
    for folder in (tmp_path, tmp_path / "absent"):
        code, lines, err = verified(capsys, folder)
        assert code == 2 and lines == [] and len(err.splitlines()) == 1
    assert err == f"error: {tmp_path / 'absent'}: no such folder"
    code, lines, err = verified(capsys, tmp_path / "summary.csv")
    assert code == 2 and err == (f"error: {tmp_path / 'summary.csv'}: is a file, expected an "
                                 "output folder of a sweep")


# ---- the exports re-verify what they write -----------------------------------------------------


def test_a_sweep_refuses_to_export_a_stored_run_altered_since(capsys, folder, tmp_path):
    alter(folder, "UPDATE runs SET solution = '0 1 2 3 4 5 6 7' WHERE algorithm = 'construction'"
          " AND board = 8")
    before = (folder / "runs.csv").read_bytes()
    code = sweep([experiment_file(tmp_path, FOLDER), "--out", str(folder), "--quiet"])
    error = capsys.readouterr().err.strip()
    assert code == 1 and len(error.splitlines()) == 1
    assert error.startswith(f"error: {folder / 'runs.sqlite'}: the verifier rejects construction "
                            "on board 8, seed 1: it reports 0 conflicts")
    assert (folder / "runs.csv").read_bytes() == before  # nothing exported from it


def test_the_claims_of_a_stored_entry_are_told_apart_as_a_file_is_read():
    """A baseline by its name, a plug-in by its import path, anything else a GA with its own
    target and fitness (gaqueens/runtime/claims.py)."""
    assert stored_claims("local-search", {}).unit == "swaps"
    assert not stored_claims("min-conflicts", {}).permutation
    variant = stored_claims("population=5,select.tournament=2",
                            {"fitness": "excess", "stop": {"target": "none", "generations": 5}})
    assert (variant.unit, variant.solved_at, variant.fitness) == ("evaluations", 0, "excess")
    assert stored_claims("mine", {"plugin": "gaqueens.baselines.construction"}).unit == "none"


def test_a_baseline_limited_by_max_board_verifies(capsys, tmp_path):
    """max-board chooses runs, so the store does not keep it: the manifest alone has it."""
    from gaqueens.sweep import main

    experiment = tmp_path / "limited.yaml"
    experiment.write_text("boards: [6, 8]\nga: none\nbaselines: {backtracking: {max-board: 6}}\n")
    assert main([str(experiment), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    code, lines, _ = verified(capsys, tmp_path / "out")
    assert code == 0, lines


ALTERATIONS = st.lists(st.tuples(
    st.integers(0, 10**6),
    st.sampled_from(["conflicts", "solution", "solved", "unit", "seconds", "board", "work"]),
    st.sampled_from([-1, 0, 3, 7.5, float("nan"), "x", "0 1", "8 1 2 3 4 5 6 7", True, None])),
    max_size=6)


@settings(max_examples=60, deadline=None)
@given(ALTERATIONS, st.booleans())
def test_the_rows_checked_in_bulk_get_the_answers_one_by_one_gives(changes, compact):
    """claims.rows_problems checks a table's rows in bulk, and only those its bulk checks do
    not pass one by one: every line is row_problem's, in the rows' order, whatever a row was
    altered to (hand-made runs of two algorithms and boards, min-conflicts' placements, which
    may share a column, among them)."""
    rng = np.random.default_rng(len(changes))
    rows = []
    for algorithm, board in [("ga", 6), ("ga", 8), ("min-conflicts", 8)]:
        for seed in range(1, 5):
            columns = rng.permutation(board).tolist()
            pairs = attacking_pairs(columns)
            rows.append(dict(algorithm=algorithm, board=board, seed=seed, solved=pairs == 0,
                             conflicts=pairs, generations=3, work=80,
                             unit="evaluations" if algorithm == "ga" else "moves",
                             seconds=0.01, solution=" ".join(map(str, columns))))
    runs = pd.DataFrame(rows)
    for place, column, value in changes:
        runs[column] = runs[column].astype(object)
        runs.at[place % len(runs), column] = value
    if compact:
        runs = runs.drop(columns="solution")
    rules = {"ga": stored_claims("ga", {}), "min-conflicts": stored_claims("min-conflicts", {})}
    alone = []
    for row in runs.itertuples(index=False):
        problem = row_problem(row, rules[row.algorithm])
        if problem:
            alone.append(f"{row.algorithm} on board {row.board}, seed {row.seed}: {problem}")
    assert rows_problems(runs, rules) == alone


def alter_claim(claim: dict, how: str) -> None:
    """A run's claims (Result's fields) altered in place: ``how`` says which and how."""
    if how == "conflicts":
        claim["conflicts"] += 1
    elif how == "solved":
        claim["solved"] = not claim["solved"]
    elif how == "swap":
        claim["solution"] = np.concatenate(([claim["solution"][1]], claim["solution"][1:]))
    elif how == "short":
        claim["solution"] = claim["solution"][:5]
    else:
        claim["solution"] = claim["solution"] + 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.sampled_from(
    ["conflicts", "solved", "swap", "short", "outside"])), max_size=4))
def test_a_batch_checked_together_gets_the_answers_one_by_one_gives(changes):
    """claims.runs_problems, the sweep's check of a batch, answers run_problem's answer for
    each run, in order, whatever a run claims."""
    from gaqueens.core.result import Result

    rng = np.random.default_rng(len(changes))
    results = []
    for seed in range(8):
        columns = rng.permutation(8)
        pairs = attacking_pairs(columns)
        results.append([seed, dict(solved=pairs == 0, conflicts=pairs, work=20, solution=columns,
                                   generations=0, trace=None, seconds=0.0)])
    for place, how in changes:
        alter_claim(results[place][1], how)
    finished = [(seed, Result(**claim)) for seed, claim in results]
    rule = stored_claims("ga", {})
    expected = [run_problem(rule, r.solution, 8, r.conflicts, r.solved) for _, r in finished]
    assert runs_problems(rule, 8, finished) == expected


# ---- the problem's own verifier, for any problem and any algorithm ------------------------------


class Intervals(Problem):
    """The all-interval series (the README's example problem): not N-Queens, checked by its own
    verifier, in words of its own."""

    name, measures, conflicts_label = "test-intervals", ("repeats",), "repeated gaps"

    def evaluate(self, size, genomes, measure):
        gaps = np.sort(np.abs(np.diff(genomes, axis=1)), axis=1)
        return (gaps[:, 1:] == gaps[:, :-1]).sum(axis=1)

    def reject(self, size, solution, conflicts, solved, solved_at, measure):
        repeats = (size - 1) - len({abs(int(b) - int(a)) for a, b in zip(solution, solution[1:])})
        if repeats != conflicts or bool(solved) != (repeats <= solved_at):
            return f"it reports {conflicts} repeated gaps, the verifier counts {repeats}"
        return None


@contextmanager
def registered(problem):
    """``problem`` known by its name while the block runs, as a plug-in's would be."""
    PROBLEMS[problem.name] = problem
    try:
        yield problem
    finally:
        del PROBLEMS[problem.name]


def test_a_solvers_runs_on_a_plugin_problem_are_checked_by_that_problems_verifier():
    """A baseline's settings carry no problem: its claims take the entry's (the experiment's),
    so an unsolved run on another problem than N-Queens passes, and a false claim is refused in
    that problem's words (gaqueens/runtime/claims.py)."""
    from gaqueens.core.result import Result
    from gaqueens.experiment import Entry

    solver = ALGORITHMS["local-search"]
    with registered(Intervals()):
        entry = Entry("climber", "climber", solver.settings(), spec=solver, problem="test-intervals")
        rule = entry_claims([entry])["climber"]
        assert (rule.problem, rule.fitness, rule.unit) == ("test-intervals", "repeats", "swaps")
        unsolved = [3, 0, 1, 2, 4]  # gaps 3, 1, 1, 2: one repeated
        assert run_problem(rule, unsolved, 5, 1, False) is None
        assert run_problem(rule, unsolved, 5, 2, False) == ("it reports 2 repeated gaps, the "
                                                            "verifier counts 1")
        finished = [(1, Result(False, 1, 9, np.array(unsolved))),
                    (2, Result(True, 0, 9, np.array([0, 4, 1, 3, 2])))]
        assert runs_problems(rule, 5, finished) == [None, None]
        recorded = {"plugin": "gaqueens.baselines.local_search", "problem": "test-intervals"}
        assert stored_claims("climber", recorded) == rule
        assert stored_claims("local-search", {"problem": "test-intervals"}) == rule


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.sampled_from(
    ["conflicts", "solved", "swap", "short", "outside"])), max_size=4), st.integers(0, 3))
def test_a_plugin_problems_batch_checked_together_gets_the_answers_one_by_one_gives(changes, at):
    """runs_problems on a problem with the default reject_many (its reject row by row) answers
    run_problem's answer for each run, as for N-Queens, whatever a run claims and whatever its
    target."""
    from gaqueens.core.result import Result

    rng = np.random.default_rng(len(changes))
    with registered(Intervals()) as problem:
        results = []
        for seed in range(8):
            series = rng.permutation(7)
            repeats = int(problem.conflicts(7, series[None])[0])
            results.append(dict(solved=repeats <= at, conflicts=repeats, work=20, solution=series))
        for place, how in changes:
            alter_claim(results[place], how)
        finished = [(seed, Result(**claim)) for seed, claim in enumerate(results)]
        rule = Claims("swaps", True, at, "repeats", problem.name)
        expected = [run_problem(rule, r.solution, 7, r.conflicts, r.solved) for _, r in finished]
        assert runs_problems(rule, 7, finished) == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(0, 2**32 - 1), st.integers(0, 3), st.booleans(),
       st.sampled_from(["pairs", "excess"]))
def test_reject_many_answers_reject_row_by_row(size, seed, off, solved, measure):
    """A problem's bulk verifier (N-Queens': the numpy verifier's rejection_rows; the default:
    reject row by row) gives, for each row, its reject's answer."""
    rng = np.random.default_rng(seed)
    rows = np.array([rng.permutation(size) for _ in range(5)])
    for problem, measure in ((get("nqueens"), measure), (Intervals(), "repeats")):
        true = problem.conflicts(size, rows)
        conflicts = true + np.array([0, off, 0, off, 0])
        claimed = np.array([solved, solved, not solved, True, False])
        one_by_one = [problem.reject(size, row, int(c), bool(s), off, measure)
                      for row, c, s in zip(rows, conflicts, claimed)]
        assert list(problem.reject_many(size, rows, conflicts, claimed, off, measure)) == one_by_one


def test_the_claims_reach_a_verifier_only_through_the_problem():
    """gaqueens/runtime/claims.py imports nothing of N-Queens: every problem's claims go through
    its own reject and reject_many (issue 49's "Problem is the only door")."""
    tree = ast.parse((REPOSITORY / "gaqueens" / "runtime" / "claims.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {f"{node.module}.{alias.name}" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not [name for name in imported if "nqueens" in name]


# ---- the outputs against the manifest that speaks for them (gaqueens/reports/verify_checks.py)


def test_outputs_the_manifest_does_not_list_or_lists_but_lacks_are_found(capsys, folder):
    (folder / "ecdf.svg").unlink()
    (folder / "sensitivity.png").write_bytes(b"")  # left by a sweep of another experiment
    code, lines, _ = verified(capsys, folder)
    assert code == 1 and lines[0] == f"{folder}: 2 problems:"
    assert sorted(lines[1:]) == ["  ecdf.svg: missing, though manifest.json lists it",
                                 "  sensitivity.png: not one of the outputs manifest.json lists"]


def test_a_summary_md_of_other_runs_or_another_sweep_is_found(capsys, folder):
    text = (folder / "summary.md").read_text()
    runs = len(pd.read_csv(folder / "runs.csv"))
    (folder / "summary.md").write_text(text.replace(f"From {runs} runs", f"From {runs - 1} runs"))
    code, lines, _ = verified(capsys, folder)
    assert code == 1 and lines[1:] == [f"  summary.md: does not say it is made from the {runs} "
                                       "runs manifest.json says the outputs describe"]
    record = json.loads((folder / "manifest.json").read_text())
    (folder / "summary.md").write_text(text.replace(record["started"], "2000-01-01T00:00:00+00:00"))
    code, lines, _ = verified(capsys, folder)
    assert code == 1 and lines[1:] == ["  summary.md: names another sweep than manifest.json"]


def test_a_manifest_saying_its_outputs_describe_other_runs_is_found(capsys, folder):
    record = json.loads((folder / "manifest.json").read_text())
    record["outputs"]["runs"] += 1
    (folder / "manifest.json").write_text(json.dumps(record))
    code, lines, _ = verified(capsys, folder)
    runs = len(pd.read_csv(folder / "runs.csv"))
    assert code == 1 and lines[1:] == [f"  manifest.json: its outputs describe {runs + 1} runs, "
                                       f"its experiment has {runs}"]
