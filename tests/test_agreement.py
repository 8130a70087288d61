"""python -m gaqueens.bench.agreement (gaqueens/bench/agreement.py's docstring): both engines
over the same seeds, scheme by variation, and DEAP's own example against engine: deap."""

import csv

from gaqueens.bench import agreement
from gaqueens.executors import starmap
from gaqueens.ga import SCHEMES, VARIATIONS


def test_a_small_agreement_writes_a_row_per_comparison_and_compares_deaps_example(tmp_path, capsys):
    out = tmp_path / "agreement"
    argv = ["--seeds", "1..8", "--board", "6", "--example-seeds", "2", "--workers", "2",
            "--out", str(out)]
    assert agreement.main(argv) == 0
    with open(out / "agreement.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == len(SCHEMES) * len(VARIATIONS) + 2  # and the two controls
    assert {(r["scheme"], r["variation"]) for r in rows[:-2]} == {
        (s, v) for s in SCHEMES for v in VARIATIONS}
    for row in rows:
        assert row["verdict"] == ("agree" if float(row["p_holm"]) >= agreement.ALPHA else "differ")
        assert 0 <= int(row["numpy_solved"]) <= 8 and 0 <= int(row["deap_solved"]) <= 8
    text = (out / "agreement.md").read_text()
    assert "2 of 2 seeds equal" in text  # DEAP's example, run by DEAP, is engine: deap's run
    assert text in capsys.readouterr().out


def test_the_runs_do_not_depend_on_the_number_of_processes():
    tasks = [(agreement.settings("simple", "and", engine), 6, [1, 2, 3]) for engine in ("numpy", "deap")]
    assert starmap(agreement._runs, tasks, 2) == starmap(agreement._runs, tasks, 1)


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert agreement.main(["--board", "3", "--out", str(tmp_path / "a")]) == 2
    assert capsys.readouterr().err == "error: --board must be at least 4, got 3\n"
    assert not (tmp_path / "a").exists()
