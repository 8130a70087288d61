"""Each algorithm of a sweep against the first entry (the published GA), per board: written to
comparisons.csv and to summary.md when a sweep has more than one algorithm.

Per board and algorithm: the ratio of its median to the first entry's, with a 95% bootstrap
interval, and the two-sided Mann-Whitney U test (gaqueens.reports.stats), unsolved runs ranked
as the worst. The p-values of the whole table are corrected together by Holm's step-down
method; the verdict says "fewer" or "more" where the corrected p is below ALPHA (0.01), and "no
difference detected" otherwise. Work is compared in its unit when both count the same unit
(evaluations between GA variants); work in different units (swaps, moves, nodes) is compared
in processor time only, and the unit column says "seconds". A ratio whose either median is
infinite (its reference's included: work over infinite work is no measure of either) reads "-",
and so does an interval that reaches such resamples (gaqueens.reports.stats.median_ratio).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports import stats
from gaqueens.reports.tables import GROUPED, in_parallel_later, markdown, number

COLUMNS = ("board", "algorithm", "reference", "unit", "median_ratio", "ci_low", "ci_high",
           "p_value", "p_holm", "verdict")
SAME = "no difference detected"


def comparisons(runs: pd.DataFrame) -> pd.DataFrame:
    """A row per board and algorithm other than the first in ``runs`` (in the experiment's
    order), on the boards both ran, with COLUMNS."""
    return comparisons_later(runs)()


def comparisons_later(runs: pd.DataFrame, workers=None):
    """``comparisons``, its tests handed out to ``workers`` (gaqueens.runtime.workers:
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
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["p_holm"] = stats.holm(frame["p_value"])
    frame["verdict"] = [
        SAME if not p < stats.ALPHA else ("more" if share > 0.5 else "fewer")
        for p, share in zip(frame["p_holm"], shares)
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
    return unit if unit == reference and unit != "none" else "seconds"


def _work(rows: pd.DataFrame, column: str) -> np.ndarray:
    """The work (or wall time) of each run; infinite for a run that stopped short."""
    return np.where(rows["solved"], rows[column].astype(float), np.inf)


def _p_text(p: float) -> str:
    return "" if np.isnan(p) else f"{p:.2g}"


def ratio_text(ratio: float) -> str:
    """A ratio of medians to two decimals; "-" where it is infinite or none (a median is
    infinite)."""
    return "-" if not np.isfinite(ratio) else number(ratio, 2)


def table(frame: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    """The comparisons as markdown, the column of sizes headed in the problem's words."""
    size = problems.get(problem).size_label
    rows = []
    for row in frame.itertuples(index=False):
        interval = ("" if np.isnan(row.ci_low)
                    else f" ({ratio_text(row.ci_low)} to {ratio_text(row.ci_high)})")
        rows.append({
            size: row.board,
            "algorithm": row.algorithm,
            "compared in": row.unit,
            f"median / median of {row.reference} (95% CI)": ratio_text(row.median_ratio) + interval,
            "p": _p_text(row.p_value),
            "p, Holm": _p_text(row.p_holm),
            "verdict": row.verdict,
        })
    return markdown(pd.DataFrame(rows))


NOTE = (
    "Each algorithm against {first} on the same {size}: the ratio of the medians with its 95% "
    "percentile-bootstrap interval, and the two-sided Mann-Whitney U test with unsolved runs "
    "ranked as the worst (\"-\": an infinite median). The verdict, fewer or more {what} than "
    "{first}, holds where Holm's correction over the whole table leaves p below {alpha}; "
    "otherwise no difference is detected.{seconds}"
)


def note(frame: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    first = frame["reference"].iloc[0] if len(frame) else "the first entry"
    in_seconds = (frame["unit"] == "seconds").any()
    units = sorted(set(frame["unit"]) - {"seconds"})
    what = " or ".join(units + (["seconds"] if in_seconds else [])) or "work"
    seconds = (" Work in different units (swaps, moves, nodes, or none) is compared in wall "
               "time only: those rows say seconds. A GA run made with others in one array ("
               "engine: numpy, gaqueens.ga.numpy_engine) counts its share of its batch's wall "
               "time: a cost per run, whose spread is narrower than one run's own time."
               if in_seconds else "")
    return NOTE.format(first=first, what=what, alpha=stats.ALPHA, seconds=seconds,
                       size=problems.get(problem).size_label)
