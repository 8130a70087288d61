"""Plots from stored runs and traces, drawn on matplotlib Figures (no pyplot, no global state;
matplotlib is imported here and in gaqueens.reports.figures only). Each is written as NAME.png
and NAME.svg beside it, and returns its Figure; the published GA is drawn black and thicker,
the other algorithms in a few distinct colours and line styles (gaqueens.reports.figures).

convergence  the GA's best conflicts against evaluations: the median over seeds and the
             interquartile band; one GA: a line per board; several: a panel per board, a
             line per GA, the band around the published GA's line only
ecdf         the fraction of runs solved against work, a panel per algorithm, a line per board;
             algorithms without a unit of work (the construction) are named in a note, not drawn
seconds      median processor time against board size, a line per algorithm (several boards)
ecdf_seconds the fraction of runs solved against processor time, a line per algorithm, a panel per
             board (several algorithms)
fixed_target the fraction of (run, target) pairs reached against evaluations, targets every
             conflict level from the first populations' median to 0 (gaqueens.reports.runtimes)

Each takes the name of the problem its runs solve (N-Queens by default), whose words its
axes, legends and panels use (gaqueens.problems: conflicts_label, size_label, size_text).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens import problems
from gaqueens.reports import folded
from gaqueens.reports.words import size_of
from gaqueens.reports.figures import (PUBLISHED, board_ticks, conflicts_y, entry_styles,
                                      legend_once, log_x, new_figure, palette, powers,
                                      save_figure)


def _in_order(column: pd.Series) -> list:
    """The distinct values of a column in their order of appearance (pandas' unique: iterating
    a column of a hundred thousand trace rows in Python takes a quarter of a second)."""
    return list(column.unique())


def _folded(traces):
    """The traces folded (gaqueens.reports.folded), from a table of traces or as given."""
    return folded.from_frame(traces) if isinstance(traces, pd.DataFrame) else traces


def _y_label(data, label: str) -> str:
    excess = sorted(name for name, measures in data.fitness().items() if "excess" in measures)
    return (f"best {label} in the population" if not excess else
            f"best fitness in the population\n({label}; excess for " + ", ".join(excess) + ")")


def convergence(traces, path: Path, title: str, problem: str = problems.DEFAULT):
    """Best conflicts against evaluations (see the module's docstring; one board and several
    GAs: one panel, a line per GA); a run that has stopped keeps its last best, so the band
    covers every seed to the longest run. The y axis reaches above every band drawn.
    ``traces``: folded.Folded, or a table of traces."""
    solved_by = problems.get(problem)
    data = _folded(traces)
    lines = data.convergence()
    boards = sorted({line.board for line in lines})
    names = list(dict.fromkeys(line.algorithm for line in lines))
    single = len(names) == 1  # a line per board, each with its band
    if single or len(boards) == 1:
        figure = new_figure(8.5, 4.8)
        panels = np.array([[figure.subplots()]])
    else:
        figure, panels = _panels(4.2, 3.3, len(boards), sharey=False)
    colors, styles = palette(boards), entry_styles(names)
    emphasised = PUBLISHED if PUBLISHED in names else names[0]  # the experiment's first GA
    banded = set(names) if single else {emphasised}
    for axes, board in zip(panels.flat, [None] if panels.size == 1 else boards):
        top = 1.0
        for line in (line for line in lines if board in (None, line.board)):
            x, low, median, high = steps(line)
            style = ({"color": colors[line.board], "lw": 1.5} if single
                     else styles[line.algorithm])
            if line.algorithm in banded:
                axes.fill_between(x, low, high, step="post", color=style["color"], alpha=0.2,
                                  lw=0)
                top = max(top, float(np.nanmax(high)))
            top = max(top, float(np.nanmax(median)))
            axes.step(x, median, where="post", **style,
                      label=solved_by.size_text(line.board) if single else line.algorithm)
        log_x(axes)
        conflicts_y(axes, top)
        axes.set_xlabel("evaluations")
        axes.grid(True, which="major", alpha=0.3)
        if board is not None:
            axes.set_title(solved_by.size_text(board), fontsize=10)
    for axes in panels[:, 0]:
        axes.set_ylabel(_y_label(data, solved_by.conflicts_label))
    band = "the interquartile band" + ("" if single else f" around {emphasised}'s")
    legend_once(figure, panels, title=f"median over seeds;\n{band}")
    if panels.size == 1:
        panels[0, 0].set_title(title)  # beside the legend, not under it
    else:
        figure.suptitle(title)
    return save_figure(figure, path)


def steps(line) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A convergence line's evaluations, low, median and high at its first generation, at each
    generation where one of the three changes, and at its last: drawn as steps (where="post"),
    the same line as one with every generation, as each value holds until the next point. The
    100 lines of the 100,000-run sweep hold 221,851 generations and 4,403 such points; drawn
    with all of them, its convergence SVG took 4 MB."""
    values = np.vstack((line.low, line.median, line.high))
    keep = np.ones(values.shape[1], dtype=bool)
    keep[1:-1] = (values[:, 1:-1] != values[:, :-2]).any(axis=0)  # NaN != NaN: kept
    return line.evaluations[keep], *values[:, keep]


DISTINCT_ABOVE = 10_000  # values of an ECDF line beyond which it steps at distinct values only


def _ecdf(axes, values, solved, total, **style):
    """The fraction of ``total`` at or below each value of the solved runs. A line of more
    than DISTINCT_ABOVE values steps at each distinct value only: the fixed-target runtimes of
    a 100,000-run sweep are 3.3 million values but some 37,000 distinct evaluation counts, and a
    step each took 500 MB to draw. The curve is the same; its antialiasing differs in a few
    pixels by a fraction of a shade. Agg leaves such a line unsnapped to pixels (it snaps lines
    of up to 1,024 vertices only), and so does the line of distinct steps."""
    x = np.sort(np.asarray(values[solved], dtype=float))
    if not len(x):
        return
    y = np.arange(1, len(x) + 1) / total
    if len(x) > DISTINCT_ABOVE:
        last = np.r_[x[1:] != x[:-1], True]  # the last of each run of equal values
        x, y = x[last], y[last]
        style = {"snap": False, **style}
    axes.step(np.r_[x[0], x], np.r_[0, y], where="post", **style)


def _grid(count: int) -> tuple[int, int]:
    """Lines and columns for ``count`` panels: as square as it goes, at most four to a line
    (4 panels: 2 x 2; 5 or 6: 3 to a line; 10 and more: 4)."""
    columns = min(count, 4, max(1, int(np.ceil(np.sqrt(count)))))
    return -(-count // columns), columns


def _panels(width: float, height: float, count: int, sharey: bool = True, sharex: bool = False):
    """A figure of ``count`` panels of about width x height inches (sharing the y axis unless
    told otherwise, and the x axis when told)."""
    lines, columns = _grid(count)
    figure = new_figure(width * columns + 1.8, height * lines + 0.6)
    panels = figure.subplots(lines, columns, squeeze=False, sharey=sharey, sharex=sharex)
    for axes in panels.flat[count:]:
        axes.set_visible(False)
    return figure, panels


def left_out(runs: pd.DataFrame) -> list[str]:
    """The algorithms of ``runs`` that do no counted work (unit none: the construction), which
    the work ECDF cannot draw."""
    return _in_order(runs.loc[runs["unit"] == "none", "algorithm"])


def ecdf(runs: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT):
    """The runtime distribution: the fraction of runs solved within a given amount of work, a
    panel per algorithm that searches (one x axis for all when they count one unit); the title names those left out, which do no work to
    plot (the construction: its time is in ecdf-seconds.png and the tables)."""
    missing = left_out(runs)
    runs = runs[runs["unit"] != "none"]
    algorithms = _in_order(runs["algorithm"])
    same = runs["unit"].nunique() == 1  # one unit of work: one x axis, to compare the panels
    figure, panels = _panels(3.9, 3.4, len(algorithms), sharex=same)
    colors = palette(sorted(runs["board"].unique()))
    for axes, algorithm in zip(panels.flat, algorithms):
        rows = runs[runs["algorithm"] == algorithm]
        for board, group in rows.groupby("board"):
            _ecdf(axes, group["work"].to_numpy(), group["solved"].to_numpy(), len(group),
                  color=colors[board], lw=1.5, label=f"{board}")
        log_x(axes)
        axes.set_xlabel(rows["unit"].iloc[0])
        axes.set_title(algorithm, fontsize=10, fontweight="bold" if algorithm == PUBLISHED else None)
        axes.grid(True, alpha=0.3)
    for axes in panels[:, 0]:
        axes.set_ylabel("fraction of runs solved")
    panels[0, 0].set_ylim(0, 1.02)
    legend_once(figure, panels, title=problems.get(problem).size_label)
    note = ("" if not missing else "\nnot drawn, doing no counted work: " + ", ".join(missing)
            + " (time: ecdf-seconds.png)")
    figure.suptitle(title + note, fontsize=11 if missing else None)
    return save_figure(figure, path)


def seconds(summary: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT):
    """Median processor time per run against the board size, log-log, a line per algorithm, the
    x axis labelled at each board."""
    figure = new_figure(7.5, 4.8)
    axes = figure.subplots()
    algorithms = _in_order(summary["algorithm"])
    styles = entry_styles(algorithms)
    for algorithm in algorithms:
        rows = summary[summary["algorithm"] == algorithm].sort_values("board")
        solved = rows[rows["solved"] * 2 > rows["runs"]]
        axes.plot(solved["board"], solved["median_seconds"], marker="o", ms=4,
                  label=algorithm, **styles[algorithm])
        failed = rows[rows["solved"] * 2 <= rows["runs"]]
        if len(failed):
            axes.plot(failed["board"], failed["median_seconds"], "x", color=styles[algorithm]["color"],
                      ms=7)
    wide = summary["board"].max() / summary["board"].min() > 1000
    axes.set_xscale("log", base=10 if wide else 2)
    powers(axes.xaxis, 10 if wide else 2)
    if not wide:  # powers of ten are labels enough across more than three decades
        board_ticks(axes, summary["board"])
    axes.set_yscale("log")
    powers(axes.yaxis)
    axes.set_xlabel(f"{size_of(problems.get(problem))} N")
    axes.set_ylabel("median processor time per run (s)")
    axes.set_title(title + "\n(x: most runs unsolved within their budget)", fontsize=10)
    axes.grid(True, which="major", alpha=0.3)
    legend_once(figure, [axes])
    return save_figure(figure, path)


def ecdf_seconds(runs: pd.DataFrame, path: Path, title: str, problem: str = problems.DEFAULT):
    """The fraction of runs solved within a given processor time, per algorithm, a panel per board."""
    solved_by = problems.get(problem)
    boards = sorted(runs["board"].unique())
    figure, panels = _panels(3.9, 3.3, len(boards))
    styles = entry_styles(_in_order(runs["algorithm"]))
    for axes, board in zip(panels.flat, boards):
        for algorithm, group in runs[runs["board"] == board].groupby("algorithm", sort=False):
            _ecdf(axes, group["seconds"].to_numpy(), group["solved"].to_numpy(), len(group),
                  label=algorithm, **styles[algorithm])
        log_x(axes)
        axes.set_title(solved_by.size_text(board), fontsize=10)
        axes.set_xlabel("processor time (s)")
        axes.grid(True, alpha=0.3)
    for axes in panels[:, 0]:
        axes.set_ylabel("fraction solved")
    legend_once(figure, panels)  # every algorithm once, though not every one runs everywhere
    figure.suptitle(title)
    return save_figure(figure, path)


def fixed_target(traces, path: Path, title: str, problem: str = problems.DEFAULT):
    """The fixed-target ECDF of the GA's runs: the fraction of (run, target) pairs whose best
    so far has reached the target within a given number of evaluations. One GA: one panel, a
    line per board; several: a panel per board, a line per GA. ``traces``: folded.Folded, or
    a table of traces."""
    solved_by = problems.get(problem)
    data = _folded(traces)
    keys = data.keys()
    names = list(dict.fromkeys(name for name, _ in keys))
    boards = sorted({board for _, board in keys})
    single = len(names) == 1
    if single:
        figure = new_figure(8.5, 4.8)
        panels = np.array([[figure.subplots()]])
    else:
        figure, panels = _panels(3.9, 3.4, len(boards))
    colors, styles = palette(boards), entry_styles(names)
    tops = {}  # each group's highest target
    for (name, board), (top, times) in data.runtimes():  # a group at a time
        tops[name, board] = top
        axes = panels.flat[0 if single else boards.index(board)]
        style = {"color": colors[board], "lw": 1.5} if single else styles[name]
        _ecdf(axes, times, np.isfinite(times), len(times), **style,
              label=f"{board} (targets {top} to 0)" if single else name)
    for board in boards if not single else ():  # GAs of other fitness measures: other levels
        levels = sorted({top for (_, b), top in tops.items() if b == board})
        shown = " or ".join(map(str, levels))
        panels.flat[boards.index(board)].set_title(
            f"{solved_by.size_text(board)}: targets {shown} to 0", fontsize=10)
    for axes in panels.flat:
        log_x(axes)
        axes.set_xlabel("evaluations")
        axes.grid(True, alpha=0.3)
    for axes in panels[:, 0]:
        axes.set_ylabel("fraction of (run, target) pairs reached")
    panels[0, 0].set_ylim(0, 1.02)
    legend_once(figure, panels, title=solved_by.size_label if single else None)
    explained = (f"targets: every level of {solved_by.conflicts_label} from the first "
                 "populations' median to 0")
    if single:
        panels[0, 0].set_title(explained, fontsize=9)
        figure.suptitle(title)
    else:
        figure.suptitle(f"{title}\n" + explained.replace(" from", "\nfrom"), fontsize=10)
    return save_figure(figure, path)
