"""Summary tables from stored runs: medians, quartiles, bootstrap intervals, the verdict
against a published median with the shift it can detect (gaqueens.reports.resampling); the
growth with the size is gaqueens.reports.growth's.

A run that did not solve its board counts as needing infinite work: medians and quartiles are
those of the runtime distribution, censored where runs stop short, and shown as "-" where the
censored runs reach them. When any run is unsolved, the summary also gives the success rate and
the expected running time (ERT: the work of all runs over the solved ones, as COCO and
IOHanalyzer count it).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports import resampling
from gaqueens.reports.resampling import CENSORED, ert, median_interval, uncensor

SUMMARY_COLUMNS = (
    "algorithm", "board", "unit", "runs", "solved", "median", "q1", "q3", "max", "ci_low",
    "ci_high", "reference", "verdict", "detects", "median_seconds", "placements", "solutions",
    "random_exact", "random_measured",
)
UNSOLVED_COLUMNS = ("success_rate", "ert")  # added after "solved" when a run is unsolved


def summarize(runs: pd.DataFrame, traces: pd.DataFrame | None = None, reference=None,
              problem: str = problems.DEFAULT) -> pd.DataFrame:
    """A row per algorithm and board with SUMMARY_COLUMNS, and UNSOLVED_COLUMNS when any run is
    unsolved. ``reference`` maps a board to the published median of the GA; ``traces`` give the
    measured attacking pairs of the GA's random first populations."""
    return summarize_later(runs, reference, problem)(traces)


# the columns the summary, the comparisons and the runtime plots read: the groups and filters
# they make are copies, here without the placements (on the 100,000-run sweep, the larger part
# of a run's row)
GROUPED = ("algorithm", "board", "unit", "solved", "work", "seconds")


def summarize_later(runs: pd.DataFrame, reference=None, problem: str = problems.DEFAULT,
                    workers=None):
    """``summarize``, its resampling handed out to ``workers`` (gaqueens.runtime.executors:
    Workers, which the caller starts; by default, in_parallel's), returns a function of the
    traces that gives the summary, so that the caller can read the traces meanwhile."""
    reference = reference or {}
    groups = [(key, group, reference.get(key[1]) if key[0] == "ga" else None)
              for key, group in runs[list(GROUPED)].groupby(["algorithm", "board"], sort=True)]
    pending = in_parallel_later(_resampled, [(group, published) for _, group, published in groups],
                                len(runs), workers)
    return lambda traces=None: _summary(runs, groups, pending(), traces, problem)


def _summary(runs, groups, resampled, traces, problem) -> pd.DataFrame:
    solved_by = problems.get(problem)
    first_populations = _initial_pairs(traces, solved_by.measures[0])
    unsolved = not runs["solved"].all()
    rows = []
    for ((algorithm, board), group, published), numbers in zip(groups, resampled):
        facts = solved_by.facts(board)
        q1, median, q3, ci_low, ci_high, verdict, detects = numbers
        solved = group.loc[group["solved"], "work"]
        row = {
            "algorithm": algorithm,
            "board": board,
            "unit": group["unit"].iloc[0],
            "runs": len(group),
            "solved": int(group["solved"].sum()),
            "median": median,
            "q1": q1,
            "q3": q3,
            "max": solved.max() if group["solved"].all() else math.inf,
            "ci_low": ci_low,
            "ci_high": ci_high,
            "reference": published,
            "verdict": verdict,
            "detects": detects,
            "median_seconds": group["seconds"].median(),
            "placements": facts["placements"],
            "solutions": facts["solutions"],
            "random_exact": math.nan if facts["random_conflicts"] is None else facts["random_conflicts"],
            "random_measured": first_populations.get((algorithm, board), math.nan),
        }
        if unsolved:
            row["success_rate"] = row["solved"] / row["runs"]
            row["ert"] = ert(group["work"], group["solved"])
        rows.append(row)
    return pd.DataFrame(rows, columns=_columns(unsolved))


def _resampled(group: pd.DataFrame, published) -> tuple:
    """A group's quartiles, the bootstrap interval of its median and its verdict against the
    ``published`` median (if any), each group from a generator of its own seeded 0, so that
    the same runs give the same tables, however the groups are shared among processes."""
    rng = np.random.default_rng(0)
    work = np.where(group["solved"], group["work"], CENSORED).astype(float)
    q1, median, q3 = uncensor(np.quantile(work, [0.25, 0.5, 0.75]))
    ci_low, ci_high = median_interval(work, rng)
    verdict, detects = ("", math.nan) if published is None else resampling.verdict(
        work, published, rng)
    return q1, median, q3, ci_low, ci_high, verdict, detects


PARALLEL_FROM = 20_000  # runs from which the groups' resampling is shared among the cores


def in_parallel(function, tasks: list[tuple], runs: int) -> list:
    """``function(*task)`` for each task, in order: on every core for tables of PARALLEL_FROM
    runs or more (the exports of a 100,000-run sweep would resample long on one), here
    otherwise."""
    if runs < PARALLEL_FROM or len(tasks) < 2:
        return [function(*task) for task in tasks]
    from gaqueens.runtime.executors import starmap

    return starmap(function, tasks, min(len(tasks), os.cpu_count() or 1))


def in_parallel_later(function, tasks: list[tuple], runs: int, workers=None):
    """The tasks handed out to ``workers`` (gaqueens.runtime.executors.Workers) now, or, with
    none, to ``in_parallel`` when the returned function is called; it gives the results."""
    if workers is not None:
        return workers.later(function, tasks)
    return lambda: in_parallel(function, tasks, runs)


def _columns(unsolved: bool) -> list[str]:
    columns = list(SUMMARY_COLUMNS)
    if unsolved:
        at = columns.index("solved") + 1
        columns[at:at] = UNSOLVED_COLUMNS
    return columns


def verdict_text(row) -> str:
    """The verdict with the shift it detects: "reproduced (detects shifts of 25% or more)"."""
    if not row.verdict or pd.isna(row.verdict):
        return ""
    if row.verdict.startswith(("not comparable", "too few runs")):
        return row.verdict
    if pd.isna(row.detects):
        return f"{row.verdict} (detects no shift below 100%)"
    return f"{row.verdict} (detects shifts of {row.detects:.0%} or more)"


def _initial_pairs(traces, conflicts: str = "pairs") -> dict:
    """The mean conflicts of the first, random populations, per (algorithm, board), from the
    runs whose fitness is the problem's ``conflicts`` measure (a trace's ``fitness`` column;
    that measure without one): another measure counts something else."""
    if traces is None or traces.empty:
        return {}
    first = traces[traces["generation"] == 0]
    if "fitness" in first.columns:
        first = first[first["fitness"] == conflicts]
    return first.groupby(["algorithm", "board"])["mean"].mean().to_dict()


# ---- markdown ------------------------------------------------------------------------------


def number(value, digits: int = 0) -> str:
    """A number for a table: thousands separated, "-" for a censored one, "" for none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if value == math.inf:
        return "-"
    if digits == 0 and float(value) != round(float(value)):
        return f"{value:,.1f}"
    return f"{value:,.{digits}f}"


def seconds_text(value: float) -> str:
    if value >= 1:
        return f"{value:,.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3g} ms"
    return f"{value * 1e6:.3g} µs"


def markdown(frame: pd.DataFrame) -> str:
    """A DataFrame of strings as a markdown table."""
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def results_table(summary: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    """Per algorithm and board (the problem's size_label heads the column): solved runs (with
    the ERT when any run is unsolved), median work with its 95% interval, quartiles, max,
    median processor time, the published median and the verdict."""
    has_reference = summary["reference"].notna().any()
    unsolved = "ert" in summary.columns
    size = problems.get(problem).size_label
    rows = []
    for row in summary.itertuples(index=False):
        cells = {
            "algorithm": row.algorithm,
            size: row.board,
            "solved": f"{row.solved}/{row.runs}",
        }
        if unsolved:
            cells["ERT"] = ert_text(row)
        cells |= {
            "median work": f"{number(row.median)} {row.unit}" if row.unit != "none" else "no search",
            "95% CI": f"{number(row.ci_low)} to {number(row.ci_high)}",
            "quartiles": f"{number(row.q1)} to {number(row.q3)}",
            "max": number(row.max),
            "median time": seconds_text(row.median_seconds),
        }
        if has_reference:
            cells["published"] = number(row.reference)
            cells["verdict"] = verdict_text(row)
        rows.append(cells)
    return markdown(pd.DataFrame(rows))


def ert_text(row) -> str:
    """The expected running time in the algorithm's unit, rounded; "-" when none solved."""
    if row.unit == "none":
        return "no search"
    return f"{number(round(row.ert))} {row.unit}" if math.isfinite(row.ert) else "-"


def boards_table(summary: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    """The facts of each board (size) beside what the GA measured, in the problem's words."""
    solved_by = problems.get(problem)
    genome = solved_by.genome_label
    ga = summary[summary["algorithm"] == "ga"].set_index("board")
    rows = []
    for board in sorted(summary["board"].unique()):
        row = summary[summary["board"] == board].iloc[0]
        rows.append({
            solved_by.size_label: board,
            f"{genome}s (N!)": row.placements,
            "solutions": "not counted" if pd.isna(row.solutions) else f"{int(row.solutions):,}",
            f"{solved_by.conflicts_label} of a random {genome}, exact": (
                "not known" if pd.isna(row.random_exact) else f"{row.random_exact:.1f}"),
            "measured over the GA's first populations": (
                f"{ga.loc[board, 'random_measured']:.2f}" if board in ga.index
                and not pd.isna(ga.loc[board, "random_measured"]) else ""
            ),
        })
    return markdown(pd.DataFrame(rows))
