"""Each algorithm of a sweep against the first entry (the published GA), per board: written to
comparisons.csv and to summary.md when a sweep has more than one algorithm.

Per board and algorithm, the effect first: the ratio of its median to the first entry's, with
a 95% bootstrap interval; then the two-sided Mann-Whitney U test, unsolved runs ranked as the
worst. Where the runs are too few for the test ever to reach ALPHA however far apart they lie
(``least_p``), the verdict is "too few runs (n)" and the row stays out of Holm's correction,
which it could not pass (as Tarone's refinement leaves out the tests that cannot reject). The
other rows are corrected together by Holm's method: "fewer" or "more" where the corrected p is
below ALPHA, "no difference detected" otherwise. Work in different units (swaps, moves, nodes)
is compared in processor time, the unit column saying "seconds". A ratio with an infinite
median reads "-", and so does an interval that reaches such resamples.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports import stats
from gaqueens.reports.tables import GROUPED, in_parallel_later, markdown, number

COLUMNS = ("board", "algorithm", "reference", "unit", "median_ratio", "ci_low", "ci_high",
           "p_value", "p_holm", "verdict")
SAME = "no difference detected"
TOO_FEW = "too few runs"


def least_p(n: int, m: int) -> float:
    """The least two-sided p-value of the exact Mann-Whitney U test on samples of ``n`` and
    ``m`` runs: that of the two samples lying wholly apart, 2 / C(n + m, n), at most 1."""
    return min(1.0, 2 / math.comb(n + m, n))


def too_few(n: int, m: int) -> str | None:
    """The verdict "too few runs (n)" where n against m runs cannot reach ALPHA, else None."""
    if least_p(n, m) < stats.ALPHA:
        return None
    return f"{TOO_FEW} ({n})" if n == m else f"{TOO_FEW} ({n} and {m})"


def comparisons(runs: pd.DataFrame) -> pd.DataFrame:
    """A row per board and algorithm other than the first in ``runs`` (in the experiment's
    order), on the boards both ran, with COLUMNS."""
    return comparisons_later(runs)()


def comparisons_later(runs: pd.DataFrame, workers=None):
    """``comparisons``, its tests handed out to ``workers`` (gaqueens.runtime.executors:
    Workers, which the caller starts; by default, in_parallel's): returns a function that
    waits for them and gives the table."""
    names = list(dict.fromkeys(runs["algorithm"]))
    first = names[0]
    pairs = []
    for board, group in runs[list(GROUPED)].groupby("board", sort=True):
        reference = group[group["algorithm"] == first]
        if reference.empty:
            continue
        for name in names[1:]:
            other = group[group["algorithm"] == name]
            if other.empty:
                continue
            unit = _unit(other["unit"].iloc[0], reference["unit"].iloc[0])
            column = "seconds" if unit == "seconds" else "work"
            pairs.append(((board, name, first, unit), _work(other, column),
                          _work(reference, column)))
    pending = in_parallel_later(_compared, [(theirs, ours) for _, theirs, ours in pairs],
                                len(runs), workers)
    return lambda: _table(pairs, pending())


def _table(pairs: list, tested: list) -> pd.DataFrame:
    rows = [dict(zip(COLUMNS, (*key, ratio, low, high, p)))
            for (key, _, _), (ratio, low, high, p, _) in zip(pairs, tested)]
    shares = [share for *_, share in tested]
    few = [too_few(len(theirs), len(ours)) for _, theirs, ours in pairs]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["p_holm"] = stats.holm(frame["p_value"].where([verdict is None for verdict in few]))
    frame["verdict"] = [
        verdict or (SAME if not p < stats.ALPHA else ("more" if share > 0.5 else "fewer"))
        for verdict, p, share in zip(few, frame["p_holm"], shares)
    ]
    return frame


def _compared(theirs: np.ndarray, ours: np.ndarray) -> tuple:
    """The ratio of the medians with its interval, and the Mann-Whitney test: (ratio, low,
    high, p, share), from a generator seeded 0 for each pair (the same table from the same
    runs, however the pairs are shared among processes)."""
    ratio, low, high = stats.median_ratio(theirs, ours, np.random.default_rng(0))
    p, share = stats.mann_whitney(theirs, ours)
    return ratio, low, high, p, share


def _unit(unit: str, reference: str) -> str:
    """The unit two entries are compared in: their unit of work if they share one, else
    "seconds" (processor time)."""
    return unit if unit == reference and unit != "none" else "seconds"


def _work(rows: pd.DataFrame, column: str) -> np.ndarray:
    """The work (or processor time) of each run; infinite for a run that stopped short."""
    return np.where(rows["solved"], rows[column].astype(float), np.inf)


def _p_text(p: float) -> str:
    return "" if np.isnan(p) else f"{p:.2g}"


def ratio_text(ratio: float) -> str:
    """A ratio of medians to two decimals; "-" where it is infinite or none (a median is
    infinite)."""
    return "-" if not np.isfinite(ratio) else number(ratio, 2)


def _interval(row) -> str:
    return "" if np.isnan(row.ci_low) else (
        f" ({ratio_text(row.ci_low)} to {ratio_text(row.ci_high)})")


def effect_text(row) -> str:
    """The ratio of a comparison's medians with its interval: "1.17 x ga (0.92 to 1.42)";
    "- x ga" where a median is infinite."""
    return f"{ratio_text(row.median_ratio)} x {row.reference}{_interval(row)}"


def table(frame: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    """The comparisons as markdown, the effect first, the column of sizes headed in the
    problem's words."""
    size = problems.get(problem).size_label
    rows = []
    for row in frame.itertuples(index=False):
        rows.append({
            size: row.board,
            "algorithm": row.algorithm,
            f"median / median of {row.reference} (95% CI)": (ratio_text(row.median_ratio)
                                                              + _interval(row)),
            "verdict": row.verdict,
            "compared in": "processor time" if row.unit == "seconds" else row.unit,
            "p": _p_text(row.p_value),
            "p, Holm": _p_text(row.p_holm),
        })
    return markdown(pd.DataFrame(rows))


NOTE = (
    "Each algorithm against {first} on the same {size}: the ratio of the medians with its 95% "
    "percentile-bootstrap interval (\"-\": an infinite median), then the two-sided Mann-Whitney "
    "U test with unsolved runs ranked as the worst. The verdict, fewer or more {what} than "
    "{first}, holds where Holm's correction over the table leaves p below {alpha}; otherwise no "
    "difference is detected. \"Too few runs (n)\": so few runs that the test cannot go below "
    "{alpha} however far apart they lie (its least p, 2 / C(n + m, n), is 0.1 for 3 runs "
    "against 3); such rows stay out of the correction.{seconds}"
)


def note(frame: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    first = frame["reference"].iloc[0] if len(frame) else "the first entry"
    in_seconds = (frame["unit"] == "seconds").any()
    units = sorted(set(frame["unit"]) - {"seconds"})
    what = " or ".join(units + (["processor time"] if in_seconds else [])) or "work"
    seconds = (" Work in different units (swaps, moves, nodes, or none) is compared in "
               "processor time only: those rows say processor time, and more or fewer means "
               "more or less of it. A GA run made with others in one array (engine: numpy, "
               "gaqueens.ga.numpy_engine) counts its share of its batch's processor time: a "
               "cost per run, whose spread is narrower than one run's own time."
               if in_seconds else "")
    return NOTE.format(first=first, what=what, alpha=stats.ALPHA, seconds=seconds,
                       size=problems.get(problem).size_label)
