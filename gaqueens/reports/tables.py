"""Summary tables from stored runs: medians, quartiles, bootstrap intervals and the verdict
against a published median.

A run that did not solve its board counts as needing infinite work: medians and quartiles are
those of the runtime distribution, censored where runs stop short, and shown as "-" where the
censored runs reach them.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from gaqueens.board import known_solutions, mean_attacking_pairs

PUBLISHED_RUNS = 100  # the published medians are over seeds 1 to 100
RESAMPLES = 10_000
_CENSORED = 1e300  # stands for the infinite work of an unsolved run inside quantiles
_REACHED = 1e200  # a quantile at least this large interpolates toward an unsolved run

SUMMARY_COLUMNS = (
    "algorithm", "board", "unit", "runs", "solved", "median", "q1", "q3", "max", "ci_low",
    "ci_high", "reference", "verdict", "median_seconds", "placements", "solutions",
    "pairs_exact", "pairs_measured",
)


def _uncensor(values):
    values = np.asarray(values, dtype=float)
    return np.where(values >= _REACHED, np.inf, values)


def _medians(work: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
    """The medians of RESAMPLES samples of ``size`` drawn from ``work`` with replacement (each
    row sorted: numpy's sort is several times faster here than np.median's partition)."""
    rows = np.sort(rng.choice(work, (RESAMPLES, size)), axis=1)
    return (rows[:, (size - 1) // 2] + rows[:, size // 2]) / 2


def median_interval(work: np.ndarray, rng: np.random.Generator, level: float = 0.95):
    """The percentile-bootstrap interval of the median of ``work``."""
    medians = _medians(work, rng, len(work))
    tail = (1 - level) / 2
    return tuple(_uncensor(np.quantile(medians, [tail, 1 - tail])))


def reproduced(work: np.ndarray, published: float, rng: np.random.Generator) -> bool:
    """Whether ``published`` is a median that our runs could have given, as the
    project defines it: bootstrap from our runs the difference between the medians of two independent samples
    of the published size, and accept when published - ours lies within its central 99%."""
    ours = np.median(work)
    if ours >= _REACHED:
        return False
    difference = _medians(work, rng, PUBLISHED_RUNS) - _medians(work, rng, PUBLISHED_RUNS)
    low, high = np.quantile(difference, [0.005, 0.995])
    return bool(low <= published - ours <= high)


def summarize(runs: pd.DataFrame, traces: pd.DataFrame | None = None, reference=None) -> pd.DataFrame:
    """A row per algorithm and board with SUMMARY_COLUMNS. ``reference`` maps a board to the
    published median of the GA; ``traces`` give the measured attacking pairs of the GA's
    random first populations."""
    reference = reference or {}
    first_populations = _initial_pairs(traces)
    rows = []
    for (algorithm, board), group in runs.groupby(["algorithm", "board"], sort=True):
        rng = np.random.default_rng(0)  # the same tables from the same runs
        work = np.where(group["solved"], group["evaluations"], _CENSORED).astype(float)
        q1, median, q3 = _uncensor(np.quantile(work, [0.25, 0.5, 0.75]))
        ci_low, ci_high = median_interval(work, rng)
        published = reference.get(board) if algorithm == "ga" else None
        verdict = ""
        if published is not None:
            verdict = "reproduced" if reproduced(work, published, rng) else "not reproduced"
        solved = group.loc[group["solved"], "evaluations"]
        rows.append({
            "algorithm": algorithm,
            "board": board,
            "unit": group["unit"].iloc[0],
            "runs": len(group),
            "solved": int(group["solved"].sum()),
            "median": median,
            "q1": q1,
            "q3": q3,
            "max": solved.max() if len(solved) else math.nan,
            "ci_low": ci_low,
            "ci_high": ci_high,
            "reference": published,
            "verdict": verdict,
            "median_seconds": group["seconds"].median(),
            "placements": placements_text(board),
            "solutions": (known_solutions(board) or (None,))[0],
            "pairs_exact": mean_attacking_pairs(board),
            "pairs_measured": first_populations.get((algorithm, board), math.nan),
        })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _initial_pairs(traces) -> dict:
    """The mean attacking pairs of the first, random populations, per (algorithm, board)."""
    if traces is None or traces.empty:
        return {}
    first = traces[traces["generation"] == 0]
    return first.groupby(["algorithm", "board"])["mean"].mean().to_dict()


def placements_text(n: int) -> str:
    """n! as the published table writes it: exact up to 15!, else like 2.1e13."""
    if n <= 15:
        return f"{math.factorial(n):,}"
    exponent = math.lgamma(n + 1) / math.log(10)
    whole = math.floor(exponent)
    return f"{10 ** (exponent - whole):.1f}e{whole}"


def growth(summary: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm: the exponent k of a least-squares fit of median work and of median wall
    time to c N^k on log scales, over the larger half of the boards it solved at the median
    (at least three), where fixed costs no longer hide the growth; no work exponent for an
    algorithm that does no search."""
    rows = []
    for algorithm, group in summary.groupby("algorithm", sort=False):
        group = group[np.isfinite(group["median"])].sort_values("board")
        group = group.iloc[len(group) // 2:] if len(group) >= 6 else group
        if len(group) < 3:
            continue
        logn = np.log(group["board"].astype(float))
        work = group["median"].astype(float)
        rows.append({
            "algorithm": algorithm,
            "boards": f"{group['board'].min():,} to {group['board'].max():,}",
            "work_exponent": np.polyfit(logn, np.log(work), 1)[0] if (work > 0).all() else math.nan,
            "seconds_exponent": np.polyfit(logn, np.log(group["median_seconds"]), 1)[0],
        })
    return pd.DataFrame(rows, columns=["algorithm", "boards", "work_exponent", "seconds_exponent"])


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


def results_table(summary: pd.DataFrame) -> str:
    """Per algorithm and board: solved runs, median work with its 95% interval, quartiles, max,
    the published median and the verdict, median wall time."""
    has_reference = summary["reference"].notna().any()
    rows = []
    for row in summary.itertuples(index=False):
        cells = {
            "algorithm": row.algorithm,
            "board": row.board,
            "solved": f"{row.solved}/{row.runs}",
            "median work": f"{number(row.median)} {row.unit}" if row.unit != "none" else "no search",
            "95% CI": f"{number(row.ci_low)} to {number(row.ci_high)}",
            "quartiles": f"{number(row.q1)} to {number(row.q3)}",
            "max": number(row.max),
            "median time": seconds_text(row.median_seconds),
        }
        if has_reference:
            cells["published"] = number(row.reference)
            cells["verdict"] = row.verdict
        rows.append(cells)
    return markdown(pd.DataFrame(rows))


def boards_table(summary: pd.DataFrame) -> str:
    """The facts of each board beside what the GA measured."""
    ga = summary[summary["algorithm"] == "ga"].set_index("board")
    rows = []
    for board in sorted(summary["board"].unique()):
        row = summary[summary["board"] == board].iloc[0]
        rows.append({
            "board": board,
            "placements (N!)": row.placements,
            "solutions": "not counted" if pd.isna(row.solutions) else f"{int(row.solutions):,}",
            "attacking pairs, exact (2N-1)/3": f"{row.pairs_exact:.1f}",
            "measured over the GA's first populations": (
                f"{ga.loc[board, 'pairs_measured']:.2f}" if board in ga.index
                and not pd.isna(ga.loc[board, "pairs_measured"]) else ""
            ),
        })
    return markdown(pd.DataFrame(rows))


def growth_table(summary: pd.DataFrame) -> str:
    fits = growth(summary)
    if fits.empty:
        return ""
    return markdown(pd.DataFrame({
        "algorithm": fits["algorithm"],
        "boards": fits["boards"],
        "median work grows as": ["" if math.isnan(k) else f"N^{k:.2f}" for k in fits["work_exponent"]],
        "median time grows as": [f"N^{k:.2f}" for k in fits["seconds_exponent"]],
    }))
