"""How the median work and the median processor time grow with the size: a power law c N^k
fitted to each algorithm's medians on log scales, its table and its plot, growth.png: the
published table's own picture.

    growth(summary)  per algorithm and measure (work, time): k with its GROWTH_LEVEL interval
    plot(...)        median work against the size, log-log: ours with their 95% intervals,
                     the published medians as points, each fit with its confidence band

The work is fitted over the sizes where the median is finite (solved at the median) and at
least three runs give it; the time only where the median run also takes at least MIN_SECONDS,
so that the timer's and the interpreter's fixed costs do not flatten its growth. An algorithm with fewer than three such sizes gets no fit; one that does no search
gets no work fit.

The fit is scipy.stats.linregress's least squares, written out in numpy (tests/test_growth.py
holds it to linregress) so that a sweep of one GA imports no scipy.stats, which nothing else it
needs; Student's t quantile comes from scipy.special.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports.tables import markdown

MIN_SECONDS = 0.05  # the time is fitted only over sizes whose median run takes this long
GROWTH_LEVEL = 0.95
COLUMNS = ("algorithm", "measure", "boards", "fitted", "exponent", "low", "high")


@dataclass(frozen=True)
class Fit:
    """log y = intercept + slope log N by least squares over ``n`` sizes, the slope's
    GROWTH_LEVEL interval (low, high), and what its confidence band needs: the mean of log N,
    its sum of squared deviations and Student's t quantile times the residuals' spread."""

    slope: float
    low: float
    high: float
    intercept: float
    n: int
    mean: float
    sxx: float
    spread: float

    def at(self, sizes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The fitted values at ``sizes`` and the GROWTH_LEVEL confidence band of the fitted
        line there (of the mean of log y at log N)."""
        x = np.log(np.asarray(sizes, dtype=float))
        centre = self.intercept + self.slope * x
        half = self.spread * np.sqrt(1 / self.n + (x - self.mean) ** 2 / self.sxx)
        return np.exp(centre), np.exp(centre - half), np.exp(centre + half)


def fit(sizes, values) -> Fit:
    """The power law through ``values`` at ``sizes`` (three or more, values above 0)."""
    from scipy.special import stdtrit  # Student's t quantile

    x, y = np.log(np.asarray(sizes, dtype=float)), np.log(np.asarray(values, dtype=float))
    mean, n = float(x.mean()), len(x)
    sxx = float(((x - mean) ** 2).sum())
    slope = float(((x - mean) * (y - y.mean())).sum() / sxx)
    intercept = float(y.mean() - slope * mean)
    residuals = y - (intercept + slope * x)
    spread = float(stdtrit(n - 2, (1 + GROWTH_LEVEL) / 2)) * math.sqrt(
        float(residuals @ residuals) / (n - 2))
    half = spread / math.sqrt(sxx)  # t times the slope's standard error
    return Fit(slope, slope - half, slope + half, intercept, n, mean, sxx, spread)


def fitted_rows(group: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The rows of one algorithm's summary that its ``measure`` (work or time) is fitted
    over (the module's docstring), by size."""
    median = group["median"].astype(float)
    keep = np.isfinite(median) & (group["runs"] >= 3) & (
        group["median_seconds"] >= MIN_SECONDS if measure == "time"
        else (group["unit"] != "none") & (median > 0))
    return group[keep].sort_values("board")


def fits(summary: pd.DataFrame, measure: str) -> dict[str, Fit]:
    """Per algorithm with three sizes or more to fit over: the fit of its median ``measure``
    (work: the median column; time: median_seconds)."""
    column = "median" if measure == "work" else "median_seconds"
    out = {}
    for algorithm, group in summary.groupby("algorithm", sort=False):
        rows = fitted_rows(group, measure)
        if len(rows) >= 3:
            out[algorithm] = fit(rows["board"], rows[column])
    return out


def growth(summary: pd.DataFrame) -> pd.DataFrame:
    """A row per algorithm and measure (work, time) fitted, with COLUMNS: the sizes fitted
    over ("1,024 to 10,000") and their count, the exponent and its GROWTH_LEVEL interval."""
    rows = []
    for measure in ("work", "time"):
        for algorithm, found in fits(summary, measure).items():
            sizes = fitted_rows(summary[summary["algorithm"] == algorithm], measure)["board"]
            rows.append(dict(zip(COLUMNS, (algorithm, measure,
                                           f"{sizes.min():,} to {sizes.max():,}", len(sizes),
                                           found.slope, found.low, found.high))))
    return pd.DataFrame(rows, columns=COLUMNS)


def exponent_text(k: float, low: float, high: float) -> str:
    """"N^1.04 (0.95 to 1.12)": the exponent and its interval."""
    if math.isnan(k):
        return ""
    return f"N^{k:.2f} ({low:.2f} to {high:.2f})"


def growth_table(summary: pd.DataFrame, problem: str = problems.DEFAULT) -> str:
    """Per algorithm with a fit: how its median work and its median time grow, each with the
    sizes it is fitted over; "" where none is fitted."""
    found = growth(summary)
    if found.empty:
        return ""
    sizes = problems.get(problem).sizes_label
    rows = []
    for algorithm in dict.fromkeys(found["algorithm"]):
        row = {"algorithm": algorithm}
        for measure, what in (("work", "median work"), ("time", "median time")):
            match = found[(found["algorithm"] == algorithm) & (found["measure"] == measure)]
            one = match.iloc[0] if len(match) else None
            row[f"{what} grows as (95% CI)"] = "" if one is None else exponent_text(
                one.exponent, one.low, one.high)
            row[f"{what}: fitted over {sizes}"] = "" if one is None else (
                f"{one.boards} ({one.fitted} sizes)")
        rows.append(row)
    return markdown(pd.DataFrame(rows))


def growth_note(problem: str = problems.DEFAULT) -> str:
    """What the growth table rests on, in the problem's words."""
    sizes, ms = problems.get(problem).sizes_label, MIN_SECONDS * 1e3
    return (f"Fitted by least squares on log scales (as scipy.stats.linregress): the work over the "
            f"{sizes} solved at the median by at least three runs, the time over those whose "
            f"median run also takes at least {ms:.0f} ms ({sizes} below that measure mostly "
            "the timer's and the interpreter's fixed costs); the interval is the slope's "
            "standard error times Student's t quantile. growth.png draws the work's.")


def plot(summary: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT):
    """growth.png (plots.CAPTIONS["growth"]): a panel per unit of work, a line per entry."""
    from gaqueens.reports import figures

    return figures.drawn(_plot)(summary, path, title, problem)


def _plot(summary, path, title, problem):
    from gaqueens.reports.figures import (BEST, CONTEXT, PUBLISHED, board_axis, crowded,
                                          legend, log_axis, looks, panels,
                                          save_figure, single)
    from gaqueens.reports.words import size_of

    searched = summary[(summary["unit"] != "none") & np.isfinite(summary["median"].astype(float))]
    units = list(searched["unit"].unique())
    figure, grid = single(8.0, 5.6) if len(units) == 1 else panels(len(units))
    names = list(summary["algorithm"].unique())
    found = fits(summary, "work")
    best = _best_cell(searched) if crowded(names) else None
    style_of = looks(names, best)
    banded = PUBLISHED if PUBLISHED in names else (best or names[0])
    for axes, unit in zip(grid.flat, units):
        rows = searched[searched["unit"] == unit]
        for name, group in rows.groupby("algorithm", sort=False):
            style, label = style_of[name]
            group = group.sort_values("board")
            median = group["median"].astype(float)
            if style is CONTEXT:
                axes.plot(group["board"], median, label=label, **style)
                continue
            if name in found:
                one = found[name]
                label = f"{label}: N^{one.slope:.2f} ({one.low:.2f} to {one.high:.2f})"
                sizes = np.geomspace(group["board"].min(), group["board"].max(), 50)
                centre, band_low, band_high = one.at(sizes)
                if name == banded:
                    axes.fill_between(sizes, band_low, band_high, color=style["color"],
                                      alpha=0.15, lw=0)
                axes.plot(sizes, centre, color=style["color"], ls="--", lw=1)
            high = np.where(np.isfinite(group["ci_high"]), group["ci_high"] - median, 0)
            axes.errorbar(group["board"], median, yerr=[median - group["ci_low"], high],
                          fmt="none", ecolor=style["color"], capsize=2, lw=1)
            axes.plot(group["board"], median, marker="o", ms=5, label=label,
                      **{**style, "ls": "none"})
        published = rows[rows["reference"].notna()] if "reference" in rows else rows[:0]
        if len(published):
            axes.plot(published["board"], published["reference"], "D", mfc="none",
                      color="0.25", ms=7, mew=1.3, label="published median", zorder=4)
        board_axis(axes, summary["board"])
        log_axis(axes.yaxis)
        axes.set_xlabel(f"{size_of(problems.get(problem))} N")
        axes.set_ylabel(f"median {unit} per run (95% CI)")
        axes.grid(True, which="major", alpha=0.3)
        if best is not None and style_of[best][0] is BEST:
            axes.set_title(f"best cell on the largest {problems.get(problem).size_label}: {best}")
    legend(figure, grid, title=textwrap.fill(
        f"dashed: the power law fitted to each; shaded: the 95% confidence band of {banded}'s; "
        "bars: 95% intervals of the medians", 80))
    figure.suptitle(title)
    return save_figure(figure, path)


def _best_cell(summary: pd.DataFrame) -> str | None:
    """The grid cell of least median work on the largest size (figures.looks' best)."""
    from gaqueens.reports.figures import is_cell

    cells = summary[summary["algorithm"].map(is_cell).astype(bool)]
    if cells.empty:
        return None
    largest = cells[cells["board"] == cells["board"].max()]
    return largest.loc[largest["median"].astype(float).idxmin(), "algorithm"]
