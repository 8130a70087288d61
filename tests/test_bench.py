"""The benchmark's smoke run and its sections' behaviour without genoxide."""

from __future__ import annotations

import os
import subprocess
import sys

from gaqueens.bench import boards, command, common, engine


def test_quick_bench_prints_its_sections(tmp_path):
    """The smoke run, with genoxide or without it; its scratch files go under tmp_path."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "gaqueens.bench", "--quick", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    for section in ("### (a) Engine cost", "### (b) The whole table", "### (c) The main job",
                    "### (d) Per board"):
        assert section in done.stdout
    assert "skipped" not in done.stdout  # every section found what it measures
    assert (out / "bench.md").read_text(encoding="utf-8").startswith("**gaqueens benchmark**")
    header = (out / "bench.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == ",".join(common.CSV_COLUMNS)


def test_without_genoxide_the_bench_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(command, "genoxide_module", lambda: None)
    report = common.Report()
    plan = common.Plan(repeats=1, engine_boards=(8,), engine_seeds=range(1, 3),
                       alone_seeds=range(1, 2), deap_seeds=range(1, 2))
    engine.engine_cost(plan, report, None)
    assert any(common.INSTALL in line for line in report.lines)
    assert {row["engine"] for row in report.rows} == {common.NUMPY, engine.ALONE, common.DEAP}
    assert command.main(["--genoxide-table", "8", "--seeds", "1..3"]) == 2


def test_per_board_compares_the_local_search_and_both_engines():
    report = common.Report()
    boards.per_board(common.Plan(boards=(8,), board_seeds=range(1, 3)), report)
    header = next(line for line in report.lines if line.startswith("| board"))
    assert f"{common.NUMPY} / local-search" in header and f"{common.DEAP} / {common.NUMPY}" in header
    assert {row["engine"] for row in report.rows} == {"local-search", common.NUMPY, common.DEAP}
