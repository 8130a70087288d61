"""The README's result sections and results/'s site, generated from the committed outputs in
results/.

    python -m gaqueens.readme           # rewrites the sections of README.md and the site
    python -m gaqueens.readme --check   # exit 1 if either differs from what results/ gives

A section sits between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``; NAME is one of
SECTIONS. Nothing in them is typed by hand. The site (gaqueens.reports.site): results/index.html
listing every folder in the README's order, a page for each folder of reports in markdown
(fidelity, agreement, bench, scale), and a link home on each sweep's page.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path

import pandas as pd

from gaqueens.reports.compare import SAME, effect_text
from gaqueens.reports.tables import markdown, number, seconds_text, verdict_text


def _summary(results: Path, name: str, file: str = "summary.csv") -> pd.DataFrame | None:
    path = results / name / file
    return pd.read_csv(path) if path.exists() else None


def _missing(name: str) -> str:
    return f"(no results yet: run `python -m gaqueens.sweep experiments/{name}.yaml`)"


def _interval(row) -> str:
    return f"{number(row.median)} ({number(row.ci_low)} to {number(row.ci_high)})"


def table(results: Path) -> str:
    """The published table beside ours."""
    summary = _summary(results, "table")
    if summary is None:
        return _missing("table")
    rows = []
    for row in summary[summary["algorithm"] == "ga"].itertuples():
        rows.append({
            "board": row.board,
            "placements (N!)": row.placements,
            "solutions": "not counted" if pd.isna(row.solutions) else f"{int(row.solutions):,}",
            "attacking pairs of a random placement: exact / measured": (
                f"{row.random_exact:.1f} / {row.random_measured:.2f}"),
            "published median evaluations": number(row.reference),
            "ours (95% CI)": _interval(row),
            "solved": f"{row.solved}/{row.runs}",
            "verdict": verdict_text(row) if hasattr(row, "detects") else row.verdict,
        })
    return markdown(pd.DataFrame(rows))


def fidelity(results: Path) -> str:
    """The engine against genoxide over 1,000 seeds per board (python -m gaqueens.fidelity)."""
    rows = _summary(results, "fidelity", "fidelity.csv")
    if rows is None:
        return "(no results yet: run `python -m gaqueens.fidelity`)"
    return markdown(pd.DataFrame({
        "board": rows["board"],
        "seeds": rows["seeds"],
        "median evaluations: gaqueens / genoxide": [
            f"{number(a)} / {number(b)}" for a, b in zip(rows["gaqueens_median"], rows["genoxide_median"])],
        "ratio (95% CI)": [f"{r:.3f} ({lo:.3f} to {hi:.3f})" for r, lo, hi in zip(
            rows["median_ratio"], rows["ci_low"], rows["ci_high"])],
        "p: KS / AD / MW": [f"{a:.2g} / {b:.2g} / {c:.2g}" for a, b, c in zip(
            rows["ks_p"], rows["ad_p"], rows["mw_p"])],
        "verdict": rows["verdict"],
    }))


def _by_board(summary: pd.DataFrame, cell, verdicts=None) -> str:
    """A line per board and a column per algorithm, in the sweep's order; ``cell(row)`` gives
    the text of one algorithm on one board, followed by its unsolved runs and, from
    ``verdicts`` (comparisons.csv), its verdict against the first entry."""
    names = list(dict.fromkeys(summary["algorithm"]))
    said = {} if verdicts is None else {
        (row.board, row.algorithm): _verdict(row) for row in verdicts.itertuples()}
    rows = []
    for board, group in summary.groupby("board"):
        cells = {"board": board}
        for row in group.set_index("algorithm").loc[names].itertuples():
            unsolved = "" if row.solved == row.runs else f"; {row.solved}/{row.runs} solved"
            cells[row.Index] = cell(row) + unsolved + said.get((board, row.Index), "")
        rows.append(cells)
    return markdown(pd.DataFrame(rows))


def _verdict(row) -> str:
    """A comparison, the effect first: "; 1.17 x ga (0.92 to 1.42): no difference detected
    (Holm p 0.43)"."""
    if row.verdict in ("more", "fewer"):
        said = f"**{row.verdict}** (Holm p {row.p_holm:.1g})"
    elif row.verdict == SAME:
        said = f"{SAME} (Holm p {row.p_holm:.2g})"
    else:  # too few runs (n)
        said = row.verdict
    return f"; {effect_text(row)}: {said}"


def ablation(results: Path) -> str:
    """Median evaluations with their interval, per GA variant (columns) and board (lines), and
    each variant's verdict against the published GA."""
    summary = _summary(results, "ablation")
    if summary is None:
        return _missing("ablation")
    return _by_board(summary, _interval, _summary(results, "ablation", "comparisons.csv"))


def baselines(results: Path) -> str:
    """Per board and algorithm: median processor time per run, median work in its unit,
    solved runs."""
    summary = _summary(results, "baselines")
    if summary is None:
        return _missing("baselines")

    def cell(row):
        work = "no search" if row.unit == "none" else f"{number(row.median)} {row.unit}"
        return f"{seconds_text(row.median_seconds)}; {work}"

    return _by_board(summary, cell)


def scaling(results: Path) -> str:
    """The largest board each algorithm solved, its median time there, and the growth fit."""
    summary = _summary(results, "scaling")
    if summary is None:
        return _missing("scaling")
    from gaqueens.reports.growth import MIN_SECONDS, exponent_text, growth

    fits = growth(summary)
    fits = fits[fits["measure"] == "time"].set_index("algorithm")
    rows = []
    for name, group in summary.groupby("algorithm", sort=False):
        solved = group[group["solved"] == group["runs"]]
        largest = solved.loc[solved["board"].idxmax()] if len(solved) else None
        fit = fits.loc[name] if name in fits.index else None
        rows.append({
            "algorithm": name,
            "largest board solved in every run": "" if largest is None else f"{largest.board:,}",
            "its median time": "" if largest is None else seconds_text(largest.median_seconds),
            "median time grows as (95% CI)": (
                f"too few boards of {MIN_SECONDS * 1e3:.0f} ms or more" if fit is None
                else exponent_text(fit.exponent, fit.low, fit.high)),
            "fitted over boards": "" if fit is None else f"{fit.boards} ({fit.fitted} sizes)",
        })
    return markdown(pd.DataFrame(rows))


def sensitivity(results: Path) -> str:
    """Per board, the grid's best cell beside the published GA, with its comparison."""
    from gaqueens.experiment.grid import grid_of
    from gaqueens.runtime.manifest import read
    from gaqueens.reports import sensitivity as grids

    summary = _summary(results, "sensitivity")
    record = read(results / "sensitivity")
    if summary is None or record is None:
        return _missing("sensitivity")
    grid = grid_of(record["settings"]["grid"])
    table = grids.cells(summary, grid, "ga")
    return markdown(grids.best_cells(table, summary, _summary(results, "sensitivity",
                                                              "comparisons.csv")))


def deap_example(results: Path) -> str:
    """DEAP's N-Queens example on each engine beside the published GA: success rate, median
    evaluations and ERT, and the comparisons with the example on engine: deap."""
    summary = _summary(results, "deap-example")
    if summary is None:
        return _missing("deap-example")
    def cell(row):
        ert = f"; ERT {number(row.ert)}" if "ert" in summary.columns and row.solved < row.runs else ""
        return f"median {_interval(row)}{ert}"

    return _by_board(summary, cell, _summary(results, "deap-example", "comparisons.csv"))


def agreement(results: Path) -> str:
    """engine: numpy against engine: deap, scheme by variation (python -m gaqueens.bench.agreement):
    its summary line, its table, and the check of DEAP's own example; agreement.md says how."""
    path = results / "agreement" / "agreement.md"
    if not path.exists():
        return "(no results yet: run `python -m gaqueens.bench.agreement`)"
    lines = path.read_text(encoding="utf-8").strip().splitlines()
    summary = next(line for line in lines if line.startswith("Board "))
    table = [line for line in lines if line.startswith("|")]
    example = lines[-1]
    return "\n".join([summary, "", *table, "",
                      f"DEAP's own N-Queens example, run by DEAP alone, against engine: deap: {example}."])


def _median_of(measured: str) -> str:
    """A goal's median from its measured text (gaqueens.bench.common.spread: "median M
    (LOW..HIGH) UNIT; ...", or the one value and its unit), without its unit: the goal's."""
    return re.match(r"(?:median )?([^ ;]*)", measured)[1]


def performance(results: Path) -> str:
    """A row per goal of the benchmark and of the 100,000-run sweep, from the goals.csv each
    writes beside its report (python -m gaqueens.bench, python -m gaqueens.bench.scale): its
    medians and whether it was met. The rows of one figure and goal measured on several boards
    or executors (KEY: FIGURE, such as "board 8: ..." and "Dask loopback: ...") are one row."""
    lines = ["| goal | median | at most | met |", "|---|---|---|---|"]
    for name, command in (("bench", "gaqueens.bench"), ("scale", "gaqueens.bench.scale")):
        path = results / name / "goals.csv"
        if not path.exists():
            lines.append(f"| (no results yet: run `python -m {command} --out results/{name}`) | "
                         "| | |")
            continue
        merged: dict[tuple[str, str], list] = {}
        for row in pd.read_csv(path, keep_default_na=False, dtype=str).itertuples():
            key, _, figure = row.figure.partition(": ") if ": " in row.figure else (
                "", "", row.figure)
            merged.setdefault((figure, row.goal), []).append((key, row.measured, row.met))
        for (figure, goal), cells in merged.items():
            if len(cells) == 1 and cells[0][0]:  # one key: the figure as written
                figure, cells = f"{cells[0][0]}: {figure}", [("", *cells[0][1:])]
            medians = "; ".join(f"{key}: {_median_of(text)}" if key else _median_of(text)
                                for key, text, _ in cells)
            verdicts: dict[str, list[str]] = {}
            for key, _, met in cells:
                verdicts.setdefault(met, []).append(key)
            met = "; ".join(met if len(verdicts) == 1 else f"{met}: {', '.join(keys)}"
                            for met, keys in verdicts.items())
            lines.append(f"| {figure} | {medians} | {goal.removeprefix('at most ')} | {met} |")
    return "\n".join(lines)


SECTIONS = {"table": table, "fidelity": fidelity, "ablation": ablation,
            "deap-example": deap_example, "agreement": agreement, "sensitivity": sensitivity,
            "baselines": baselines, "scaling": scaling, "performance": performance}


SITE_ORDER = (*SECTIONS, "bench", "scale")  # the folders as the README shows them


def wrapped(section: str) -> str:
    """A section's prose lines wrapped at the README's 100 characters; table rows stay whole."""
    return "\n".join(line if line.startswith("|") else
                     textwrap.fill(line, 100, break_long_words=False, break_on_hyphens=False)
                     for line in section.split("\n"))


def render(text: str, results: Path) -> str:
    """README text with every generated section rebuilt from ``results``."""
    def section(match):
        name = match[1]
        return (f"<!-- generated: {name} -->\n{wrapped(SECTIONS[name](results))}\n"
                f"<!-- end: {name} -->")

    pattern = r"<!-- generated: ([\w-]+) -->\n.*?<!-- end: \1 -->"
    return re.sub(pattern, section, text, flags=re.DOTALL)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gaqueens.readme", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that README.md is current")
    parser.add_argument("--readme", default="README.md")
    parser.add_argument("--results", default="results")
    args = parser.parse_args(argv)
    from gaqueens.reports import site

    readme, results = Path(args.readme), Path(args.results)
    text = readme.read_text(encoding="utf-8")
    fresh = render(text, results)
    if args.check:
        stale = [str(path) for path, page in site.pages(results, SITE_ORDER).items()
                 if not path.exists() or path.read_text(encoding="utf-8") != page]
        if fresh != text or stale:
            print(f"{readme if fresh != text else stale[0]}: differs from what {results}/ "
                  f"gives{f' (and {len(stale)} site pages)' if stale else ''}; run "
                  "python -m gaqueens.readme", file=sys.stderr)
            return 1
        return 0
    readme.write_text(fresh, encoding="utf-8")
    site.write(results, SITE_ORDER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
