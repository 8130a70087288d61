"""The runtime distributions (ECDFs) of a sweep, each line with its 95% pointwise bootstrap
band (gaqueens.reports.resampling.ecdf_band; COCO's users ask for one, numbbo/coco#1019):

ecdf          the fraction of runs solved within a given work, in one unit of work
ecdf_seconds  the fraction of runs solved within a given processor time, every algorithm
fixed_target  the fraction of (run, target) pairs reached within a given number of
              evaluations, at fixed targets (gaqueens.reports.runtimes.target_levels)

One entry: one panel, a line per size; several: a panel per size (and fitness measure), a line
per entry, as plots.CAPTIONS says. A line's band is drawn where the line is in colour (the grey
cells of a crowded grid have none).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports import runtimes
from gaqueens.reports.figures import (CONTEXT, crowded, drawn, legend, log_axis, looks, palette,
                                      panels, save_figure, single)
from gaqueens.reports.plots import _folded, panel_keys, panel_title
from gaqueens.reports.resampling import BAND_RESAMPLES, ecdf_band


def line(axes, times, runs_of, band: bool = True, label=None, **style) -> None:
    """The ECDF of ``times`` (a value per (run, target) pair, inf where not reached;
    ``runs_of``: each pair's run) drawn as steps from 0, with its band where ``band``."""
    if not len(times) or not np.isfinite(times).any():
        axes.plot([], [], label=label, **style)  # in the legend: no run reached anything
        return
    x, fraction, low, high = ecdf_band(times, runs_of, resamples=BAND_RESAMPLES if band else 0)
    if low is not None:
        axes.fill_between(x, low, high, step="post", color=style["color"], alpha=0.13, lw=0,
                          zorder=style.get("zorder", 2) - 0.5)
    axes.step(np.r_[x[0], x], np.r_[0, fraction], where="post", label=label, **style)


def _finish(figure, grid, title: str, xlabel: str, ylabel: str, note: str = "",
            legend_title: str | None = None) -> None:
    for axes in grid.flat:
        if axes.get_visible():
            log_axis(axes.xaxis)
            axes.set_xlabel(xlabel)
            axes.set_ylabel(ylabel)
            axes.set_ylim(0, 1.02)
            axes.grid(True, alpha=0.3)
    legend(figure, grid, title=legend_title)
    figure.suptitle(title + note)


def _per_entry(runs: pd.DataFrame, column: str, solved_by, best: dict, boards=None):
    """A figure of the runs' ECDFs of ``column``: a line per board for one entry, else a panel
    per board, a line per entry."""
    names = list(runs["algorithm"].unique())
    boards = sorted(runs["board"].unique()) if boards is None else boards
    if len(names) == 1:
        figure, grid = single()
        colors = palette(boards)
        for board, group in runs.groupby("board"):
            line(grid[0, 0], _times(group, column), np.arange(len(group)), color=colors[board],
                 lw=1.5, label=solved_by.size_text(board))
        grid[0, 0].set_title(names[0])
        return figure, grid, solved_by.size_label
    return *_per_board(runs, column, solved_by, best, boards), None


def _per_board(runs: pd.DataFrame, column: str, solved_by, best: dict, boards):
    """A figure of the runs' ECDFs of ``column``, a panel per board, a line per entry."""
    names = list(runs["algorithm"].unique())
    figure, grid = panels(len(boards))
    for axes, board in zip(grid.flat, boards):
        style_of = looks(names, best.get(board))
        for name, group in runs[runs["board"] == board].groupby("algorithm", sort=False):
            style, label = style_of[name]
            line(axes, _times(group, column), np.arange(len(group)), band=style is not CONTEXT,
                 label=label, **style)
        axes.set_title(panel_title(solved_by, (board, None), False,
                                   best.get(board) if crowded(names) else None))
    return figure, grid


def _times(group: pd.DataFrame, column: str) -> np.ndarray:
    """A run's work (or seconds) where solved, else inf."""
    return np.where(group["solved"], group[column].astype(float), np.inf)


@drawn
def ecdf(runs: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT,
         best: dict | None = None):
    """The fraction of runs solved within a given work (plots.CAPTIONS["ecdf"]): the entries
    counting the first searching entry's unit; those counting another, or none (the
    construction), are named above the plot."""
    solved_by = problems.get(problem)
    searching = runs[runs["unit"] != "none"]
    unit = searching["unit"].iloc[0]
    counted = searching[searching["unit"] == unit]
    left = left_out(runs)
    figure, grid, legend_title = _per_entry(counted, "work", solved_by, best or {},
                                            sorted(runs["board"].unique()))
    note = "" if not left else "\n" + textwrap.fill(
        "not drawn, counting another unit of work or none (ecdf-seconds compares them): "
        + ", ".join(left), 90, break_on_hyphens=False)
    _finish(figure, grid, title, unit, "fraction of runs solved", note, legend_title)
    return save_figure(figure, path)


def left_out(runs: pd.DataFrame) -> list[str]:
    """The algorithms the work ECDF does not draw: those counting no work or another unit
    than the first searching entry's."""
    searching = runs[runs["unit"] != "none"]
    if searching.empty:
        return list(runs["algorithm"].unique())
    return list(runs.loc[runs["unit"] != searching["unit"].iloc[0], "algorithm"].unique())


@drawn
def ecdf_seconds(runs: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT,
                 best: dict | None = None):
    """The fraction of runs solved within a given processor time, a panel per board
    (plots.CAPTIONS["ecdf-seconds"])."""
    figure, grid = _per_board(runs, "seconds", problems.get(problem), best or {},
                              sorted(runs["board"].unique()))
    _finish(figure, grid, title, "processor time (s)", "fraction of runs solved")
    return save_figure(figure, path)


@drawn
def fixed_target(traces, path: Path, title: str, problem: str = problems.DEFAULT,
                 best: dict | None = None):
    """The fixed-target ECDF of the GA's runs (plots.CAPTIONS["fixed-target"]); ``traces``:
    folded.Folded, or a table of traces."""
    solved_by, best = problems.get(problem), best or {}
    data = _folded(traces)
    levels = lambda board, measure: runtimes.target_levels(problem, board, measure)  # noqa: E731
    groups = list(data.runtimes(levels))
    names = list(dict.fromkeys(name for (name, _), _, _ in groups))
    keys = panel_keys([(board, measure) for (_, board), measure, _ in groups], len(names) == 1)
    measured = len({measure for _, measure, _ in groups}) > 1
    if keys == [None]:
        figure, grid = single()
        colors = palette(sorted({board for (_, board), _, _ in groups}))
    else:
        figure, grid = panels(len(keys))
    for (name, board), measure, times in groups:
        targets = levels(board, measure)
        runs_of = np.repeat(np.arange(len(times) // len(targets)), len(targets))
        if keys == [None]:
            line(grid[0, 0], times, runs_of, color=colors[board], lw=1.5,
                 label=f"{solved_by.size_text(board)}: {_listed(targets)}")
            continue
        style, label = looks(names, best.get(board))[name]
        line(grid.flat[keys.index((board, measure))], times, runs_of,
             band=style is not CONTEXT, label=label, **style)
    for axes, key in zip(grid.flat, keys if keys != [None] else []):
        axes.set_title(panel_title(solved_by, key, measured,
                                   best.get(key[0]) if crowded(names) else None)
                       + f"\ntargets {_listed(levels(*key))}")
    if keys == [None]:
        grid[0, 0].set_title(names[0] + ": targets by size below")
    _finish(figure, grid, title, "evaluations", "fraction of (run, target) pairs reached",
            legend_title=solved_by.size_label if keys == [None] else None)
    return save_figure(figure, path)


def _listed(levels) -> str:
    return ", ".join(map(str, levels[::-1]))
