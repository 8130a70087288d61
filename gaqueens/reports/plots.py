"""The plots of a sweep and the question each answers, from stored runs, traces and the summary,
drawn on matplotlib Figures (no pyplot, no global state), each written as NAME.png and NAME.svg
beside it (gaqueens.reports.figures: their size, text and looks).

QUESTIONS gives each plot's question and CAPTIONS exactly what it draws, by the stem of its
file, in the order a page shows them (``described`` puts them in a problem's words): each
plot function here and in gaqueens.reports.ecdfs, growth and sensitivity draws what its
caption says. Several entries are compared on one size: a panel per size (and per fitness
measure, so that an axis counts one thing), a line per entry.

Each takes the name of the problem its runs solve (N-Queens by default), whose words its
axes, legends and panels use (gaqueens.problems: conflicts_label, size_label, size_text).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports import folded
from gaqueens.reports.figures import (PUBLISHED, board_axis, conflicts_y, crowded, drawn,
                                      is_cell, legend, log_axis, looks, new_figure,
                                      palette, panels, save_figure, single)
from gaqueens.reports.words import size_of

QUESTIONS = {
    "growth": "How does the median work grow with the {size}, beside the published medians?",
    "sensitivity-heatmap": "Which combination of the grid's two settings needs the least work "
                           "on each {size}?",
    "ecdf": "What share of the runs is solved within a given amount of work?",
    "fixed-target": "How much work does each algorithm need to get down to a given number of "
                    "conflicts?",
    "convergence": "How fast does each algorithm's best {genome} lose its conflicts?",
    "ecdf-seconds": "What share of the runs is solved within a given processor time?",
    "seconds": "How does the median processor time of a run grow with the {size}?",
    "sensitivity": "How does the median work change as one setting of the grid varies, the "
                   "others held?",
}
_BAND = ("with its 95% pointwise bootstrap band (the runs resampled, 1,000 times)")
_ENTRIES = ("One entry: a line per {size}; several: a panel per {size}, a line per entry "
            "(past eight entries, the grid's best cell on the {size} in colour, its other "
            "cells grey).")
CAPTIONS = {
    "growth": "Median work per run against the {size}, both log scales, a panel per unit of "
              "work: each entry's median with its 95% bootstrap interval (bars), the "
              "published medians as open diamonds, and the line fitted to the logarithms "
              "(least squares) over the {sizes} solved at the median, "
              "dashed, the published GA's (or the best grid cell's, or the first entry's) with "
              "its 95% confidence band; "
              "the legend gives each fitted exponent with its 95% interval.",
    "sensitivity-heatmap": "A panel per {size}: each cell of the grid, its median evaluations "
                           "over the ga's (the framed cell; without a ga, over the {size}'s "
                           "best cell's), on a log colour scale (blue: fewer); grey, '-', "
                           "where either median is infinite.",
    "ecdf": "The fraction of runs solved within the work on the x axis (log), " + _BAND + ". "
            + _ENTRIES + " One unit of work on an axis: entries counting another are named "
            "above the plot and compared in processor time (ecdf-seconds).",
    "fixed-target": "The fraction of (run, target) pairs whose best {conflicts} so far is at "
                    "most the target within the evaluations on the x axis (log), " + _BAND
                    + ". The targets, listed above each panel, are the same for every entry: "
                    "0 and five levels a decade (1, 2, 3, 4, 6, 10...) below the median of "
                    "random {genome}s of that {size}; a fitness measure other than "
                    "{conflicts} (DEAP's excess) has panels and levels of its own. " + _ENTRIES,
    "convergence": "The best {conflicts} in the population (y, linear to 1 and log above) "
                   "against evaluations (x, log): the median over seeds, and the "
                   "interquartile band around the published GA's line (or the one entry's); "
                   "a run that has stopped keeps its last best. A fitness measure other than "
                   "{conflicts} (DEAP's excess) has panels of its own. " + _ENTRIES,
    "ecdf-seconds": "The fraction of runs solved within the processor time on the x axis "
                    "(log; a GA run's share of its batch's), " + _BAND + "; a panel per "
                    "{size}, a line per algorithm.",
    "seconds": "The median processor time per run (log) against the {size} (log), a line per "
               "algorithm; a cross where most runs were unsolved within their budget.",
    "sensitivity": "A panel per setting of the grid: median evaluations with their 95% "
                   "interval against the setting's values, a line per {size}, the other "
                   "settings at the ga's values (dotted: the ga's own), or at the best cell's "
                   "on the largest {size} where the grid holds no ga.",
}
PLOT_ORDER = tuple(QUESTIONS)


def described(stem: str, problem: str = problems.DEFAULT) -> tuple[str, str]:
    """The question and the caption of the plot ``stem`` in the words of ``problem``."""
    solved_by = problems.get(problem)
    said = {"genome": solved_by.genome_label, "size": size_of(solved_by),
            "sizes": solved_by.sizes_label, "conflicts": solved_by.conflicts_label}
    return QUESTIONS[stem].format(**said), CAPTIONS[stem].format(**said)


def best_cells(runs: pd.DataFrame) -> dict[int, str]:
    """Per board: the grid cell with the least median work (unsolved runs as infinite
    work), drawn in colour among the grey others where cells crowd a panel (figures.looks)."""
    cells = runs[runs["algorithm"].map(is_cell).astype(bool)]
    if cells.empty:
        return {}
    work = cells["work"].where(cells["solved"], np.inf)
    medians = work.groupby([cells["board"], cells["algorithm"]], sort=False).median()
    return {int(board): group.idxmin()[1] for board, group in medians.groupby(level=0)}


def _folded(traces):
    """The traces folded (gaqueens.reports.folded), from a table of traces or as given."""
    return folded.from_frame(traces) if isinstance(traces, pd.DataFrame) else traces


def measure_label(solved_by, measure: str) -> str:
    """A fitness measure in the problem's words: its conflicts' label for the first."""
    return solved_by.conflicts_label if measure == solved_by.measures[0] else measure


def panel_keys(pairs, alone: bool) -> list:
    """The panels of (board, measure) pairs: one (None) for a single entry of one measure,
    else one per pair, boards ascending."""
    keys = sorted(set(pairs), key=lambda key: (key[0], key[1]))
    if alone and len({measure for _, measure in keys}) == 1:
        return [None]
    return keys


def panel_title(solved_by, key, measured: bool, best=None) -> str:
    """A panel's title: its size, its measure where the figure has several, its best cell."""
    board, measure = key
    text = solved_by.size_text(board) + (f", {measure_label(solved_by, measure)}" if measured
                                         else "")
    return text + (f"\nbest cell: {best}" if best else "")


@drawn
def convergence(traces, path: Path, title: str, problem: str = problems.DEFAULT,
                best: dict | None = None):
    """Best conflicts against evaluations (CAPTIONS["convergence"]); ``traces``:
    folded.Folded, or a table of traces; ``best``: best_cells of the runs."""
    solved_by, best = problems.get(problem), best or {}
    data = _folded(traces)
    lines = data.convergence()
    measure_of = {name: sorted(measures)[0] for name, measures in data.fitness().items()}
    names = list(dict.fromkeys(line.algorithm for line in lines))
    alone = len(names) == 1
    keys = panel_keys([(line.board, measure_of[line.algorithm]) for line in lines], alone)
    measured = len(set(measure_of.values())) > 1
    figure, grid = panels(len(keys)) if keys != [None] else single()
    colors = palette(sorted({line.board for line in lines}))
    banded = names[0] if alone else (PUBLISHED if PUBLISHED in names else names[0])
    for panel, key in zip(grid.flat, keys):
        top = 1.0
        style_of = looks(names, best.get(key[0]) if key else None)
        for line in lines:
            if key is not None and (line.board, measure_of[line.algorithm]) != key:
                continue
            x, low, median, high = steps(line)
            style, label = (({"color": colors[line.board], "lw": 1.5},
                             solved_by.size_text(line.board)) if alone
                            else style_of[line.algorithm])
            if line.algorithm == banded:
                panel.fill_between(x, low, high, step="post", color=style["color"], alpha=0.2,
                                   lw=0)
                top = max(top, float(np.nanmax(high)))
            top = max(top, float(np.nanmax(median)))
            panel.step(x, median, where="post", label=label, **style)
        log_axis(panel.xaxis)
        conflicts_y(panel, top)
        panel.set_xlabel("evaluations")
        panel.set_ylabel(f"best {measure_label(solved_by, key[1] if key else measure_of[names[0]])}"
                         " in the population")
        panel.grid(True, which="major", alpha=0.3)
        if key is not None:
            panel.set_title(panel_title(solved_by, key, measured,
                                        best.get(key[0]) if crowded(names) else None))
    legend(figure, grid, title=f"median over seeds; the interquartile band around {banded}'s"
           if not alone else "median over seeds, interquartile band")
    figure.suptitle(title)
    return save_figure(figure, path)


def steps(line) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A convergence line's evaluations, low, median and high at its first generation, at each
    generation where one of the three changes, and at its last: drawn as steps (where="post"),
    the same line as one with every generation, as each value holds until the next point."""
    values = np.vstack((line.low, line.median, line.high))
    keep = np.ones(values.shape[1], dtype=bool)
    keep[1:-1] = (values[:, 1:-1] != values[:, :-2]).any(axis=0)  # NaN != NaN: kept
    return line.evaluations[keep], *values[:, keep]


@drawn
def seconds(summary: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT):
    """Median processor time per run against the board size (CAPTIONS["seconds"])."""
    figure = new_figure(8.0, 5.4)
    axes = figure.subplots()
    algorithms = list(summary["algorithm"].unique())
    style_of = looks(algorithms)
    for algorithm in algorithms:
        style, label = style_of[algorithm]
        rows = summary[summary["algorithm"] == algorithm].sort_values("board")
        solved = rows[rows["solved"] * 2 > rows["runs"]]
        axes.plot(solved["board"], solved["median_seconds"], marker="o", ms=4, label=label,
                  **style)
        failed = rows[rows["solved"] * 2 <= rows["runs"]]
        if len(failed):
            axes.plot(failed["board"], failed["median_seconds"], "x", color=style["color"],
                      ms=7)
    board_axis(axes, summary["board"])
    log_axis(axes.yaxis)
    axes.set_xlabel(f"{size_of(problems.get(problem))} N")
    axes.set_ylabel("median processor time per run (s)")
    axes.set_title("x: most runs unsolved within their budget")
    axes.grid(True, which="major", alpha=0.3)
    legend(figure, [axes])
    figure.suptitle(title)
    return save_figure(figure, path)
