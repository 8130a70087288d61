"""The fidelity command (gaqueens/fidelity.py): its verdict rule, its files, and bad input.
Its quick form against genoxide's stored runs is in tests/test_reference.py."""


import pandas as pd
import pytest

from gaqueens import fidelity

REFERENCE = fidelity.shipped_reference()


def row(low, high, ks=0.5, ad=0.25, mw=0.5):
    return {"ci_low": low, "ci_high": high, "ks_p": ks, "ad_p": ad, "mw_p": mw}


@pytest.mark.parametrize("values, verdict", [
    (row(0.95, 1.05), "equivalent"),
    (row(0.9, 1.1), "equivalent"),
    (row(0.95, 1.11), "inconclusive"),
    (row(0.85, 1.05), "inconclusive"),
    (row(0.95, 1.05, ks=0.009), "different"),
    (row(0.95, 1.05, ad=0.001), "different"),
    (row(1.2, 1.4, mw=0.0001), "different"),
])
def test_the_verdict_rule(values, verdict):
    assert fidelity.verdict(values) == verdict


def test_the_command_writes_its_table_and_csv(tmp_path, capsys):
    out = tmp_path / "fidelity"
    assert fidelity.main(["--seeds", "1..30", "--boards", "8,10", "--reference", str(REFERENCE),
                          "--out", str(out), "--workers", "1"]) == 2  # board 10 is not stored
    assert "board 10" in capsys.readouterr().err and not out.exists()
    assert fidelity.main(["--seeds", "1..30", "--boards", "8,16", "--reference", str(REFERENCE),
                          "--out", str(out), "--workers", "2"]) == 0
    table = pd.read_csv(out / "fidelity.csv")
    assert list(table.columns) == list(fidelity.COLUMNS)
    assert table["board"].tolist() == [8, 16] and (table["seeds"] == "1..30").all()
    assert set(table["verdict"]) <= {"equivalent", "different", "inconclusive"}
    assert (table["ci_low"] <= table["median_ratio"]).all()
    assert (table["median_ratio"] <= table["ci_high"]).all()
    text = (out / "fidelity.md").read_text()
    assert text.startswith("# Fidelity") and "| 8 | 1..30 |" in text
    assert "python -m gaqueens.fidelity --seeds 1..30" in text
    assert capsys.readouterr().out == text + "\n"


def test_the_workers_do_not_change_the_runs():
    assert (fidelity.our_evaluations([8], range(1, 61), 1)[8].tolist()
            == fidelity.our_evaluations([8], range(1, 61), 2)[8].tolist())


def one_line(capsys):
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    return err


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert fidelity.main(["--reference", str(tmp_path / "none.csv")]) == 2
    assert "none.csv" in one_line(capsys)
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    assert fidelity.main(["--reference", str(tmp_path / "bad.csv")]) == 2
    assert "columns board, seed" in one_line(capsys)
    assert fidelity.main(["--seeds", "1..2000", "--reference", str(REFERENCE)]) == 2
    assert "seed 1001" in one_line(capsys)
    assert fidelity.main(["--boards", "8,x"]) == 2
    assert "--boards" in one_line(capsys)
    assert fidelity.main(["--seeds", "9..1"]) == 2
    one_line(capsys)
    (tmp_path / "file").write_text("")
    assert fidelity.main(["--seeds", "1..2", "--boards", "8", "--reference", str(REFERENCE),
                          "--out", str(tmp_path / "file")]) == 2
    assert "is a file, expected a folder" in one_line(capsys)
    with pytest.raises(SystemExit) as stop:
        fidelity.main(["--bogus"])
    assert stop.value.code == 2
