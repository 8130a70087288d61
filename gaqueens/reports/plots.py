"""Plots from stored runs and traces, drawn on matplotlib Figures (no pyplot, no global state;
matplotlib is imported here only).

convergence  the GA's best conflicts against evaluations: the median over seeds and the
             interquartile band, a line per board
ecdf         the fraction of runs solved against work, a panel per algorithm, a line per board
seconds      median wall time against board size, a line per algorithm (several boards)
ecdf_seconds the fraction of runs solved against wall time, a line per algorithm, a panel per
             board (several algorithms)
fixed_target the fraction of (run, target) pairs reached against evaluations, targets every
             conflict level from the first populations' median to 0 (gaqueens.reports.runtimes)
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.ticker
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from gaqueens.core.files import replacing
from gaqueens.reports import folded


def new_figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def save_figure(figure: Figure, path: Path) -> None:
    """Writes the figure whole or not at all: never a half-written PNG."""
    with replacing(path) as partial:
        figure.savefig(partial, dpi=120)


def _in_order(column: pd.Series) -> list:
    """The distinct values of a column in their order of appearance (pandas' unique: iterating
    a column of a hundred thousand trace rows in Python takes a quarter of a second)."""
    return list(column.unique())


def palette(keys):
    cycle = matplotlib.colormaps["viridis"]
    return {key: cycle(i / max(1, len(keys) - 1) * 0.9) for i, key in enumerate(keys)}


def _folded(traces):
    """The traces folded (gaqueens.reports.folded), from a table of traces or as given."""
    return folded.from_frame(traces) if isinstance(traces, pd.DataFrame) else traces


def convergence(traces, path: Path, title: str, label: str = "attacking pairs") -> None:
    """Best conflicts against evaluations, a line per board (and a line style per GA when
    variants run beside the published GA); a run that has stopped keeps its last best, so the
    band covers every seed to the longest run. ``traces``: folded.Folded, or a table of
    traces."""
    data = _folded(traces)
    lines = data.convergence()
    excess = sorted(name for name, measures in data.fitness().items() if "excess" in measures)
    figure = new_figure(8.5, 4.8)
    axes = figure.subplots()
    boards = sorted({line.board for line in lines})
    names = list(dict.fromkeys(line.algorithm for line in lines))
    colors = palette(boards)
    styles = dict(zip(names, ["-", "--", ":", "-."] * len(names)))
    for line in lines:
        x, board, name = line.evaluations, line.board, line.algorithm
        label = f"{board} x {board}" + (f", {name}" if len(names) > 1 else "")
        if len(names) == 1:
            axes.fill_between(x, line.low, line.high, step="post", color=colors[board],
                              alpha=0.2, lw=0)
        axes.step(x, line.median, where="post", ls=styles[name], color=colors[board], lw=1.5,
                  label=label)
    axes.set_xscale("log")
    axes.set_yscale("symlog", linthresh=1)
    axes.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    axes.set_ylim(bottom=0)
    axes.set_xlabel("evaluations")
    axes.set_ylabel(f"best {label} in the population" if not excess else
                    f"best fitness in the population\n({label}; excess for "
                    + ", ".join(excess) + ")")
    axes.set_title(title)
    axes.grid(True, which="major", alpha=0.3)
    band = "\nand interquartile band" if len(names) == 1 else ""
    figure.legend(title=f"median over seeds{band}", fontsize=8, title_fontsize=8,
                  loc="outside right upper")
    save_figure(figure, path)


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
    """Lines and columns for ``count`` panels: three to a line, four past nine panels."""
    columns = min(count, 3 if count <= 9 else 4)
    return -(-count // columns), columns


def _panels(width: float, height: float, count: int):
    """A figure of ``count`` panels of about width x height inches sharing the y axis."""
    lines, columns = _grid(count)
    figure = new_figure(width * columns + 1.5, height * lines + 0.5)
    panels = figure.subplots(lines, columns, squeeze=False, sharey=True)
    for axes in panels.flat[count:]:
        axes.set_visible(False)
    return figure, panels


def ecdf(runs: pd.DataFrame, path: Path, title: str) -> None:
    """The runtime distribution: the fraction of runs solved within a given amount of work, a
    panel per algorithm that searches (the construction does no work to plot)."""
    runs = runs[runs["unit"] != "none"]
    algorithms = _in_order(runs["algorithm"])
    figure, panels = _panels(3.9, 3.4, len(algorithms))
    colors = palette(sorted(runs["board"].unique()))
    for axes, algorithm in zip(panels.flat, algorithms):
        rows = runs[runs["algorithm"] == algorithm]
        for board, group in rows.groupby("board"):
            _ecdf(axes, group["work"].to_numpy(), group["solved"].to_numpy(), len(group),
                  color=colors[board], lw=1.5, label=f"{board}")
        axes.set_xscale("log")
        axes.set_xlabel(rows["unit"].iloc[0])
        axes.set_title(algorithm, fontsize=10)
        axes.grid(True, alpha=0.3)
    for axes in panels[:, 0]:
        axes.set_ylabel("fraction of runs solved")
    panels[0, 0].set_ylim(0, 1.02)
    figure.legend(*panels[0, 0].get_legend_handles_labels(), title="board", fontsize=8,
                  title_fontsize=8, loc="outside right upper")
    figure.suptitle(title)
    save_figure(figure, path)


def seconds(summary: pd.DataFrame, path: Path, title: str) -> None:
    """Median wall time per run against the board size, log-log, a line per algorithm."""
    figure = new_figure(7.5, 4.8)
    axes = figure.subplots()
    algorithms = _in_order(summary["algorithm"])
    colors = palette(algorithms)
    for algorithm in algorithms:
        rows = summary[summary["algorithm"] == algorithm].sort_values("board")
        solved = rows[rows["solved"] * 2 > rows["runs"]]
        axes.plot(solved["board"], solved["median_seconds"], "o-", color=colors[algorithm],
                  label=algorithm, ms=4)
        failed = rows[rows["solved"] * 2 <= rows["runs"]]
        if len(failed):
            axes.plot(failed["board"], failed["median_seconds"], "x", color=colors[algorithm], ms=7)
    wide = summary["board"].max() / summary["board"].min() > 1000
    axes.set_xscale("log", base=10 if wide else 2)
    axes.set_yscale("log")
    axes.set_xlabel("board size N")
    axes.set_ylabel("median wall time per run (s)")
    axes.set_title(title + "\n(x: most runs unsolved within their budget)", fontsize=10)
    axes.grid(True, which="major", alpha=0.3)
    axes.legend(fontsize=8)
    save_figure(figure, path)


def ecdf_seconds(runs: pd.DataFrame, path: Path, title: str) -> None:
    """The fraction of runs solved within a given wall time, per algorithm, a panel per board."""
    boards = sorted(runs["board"].unique())
    figure, panels = _panels(3.9, 3.3, len(boards))
    colors = palette(_in_order(runs["algorithm"]))
    for axes, board in zip(panels.flat, boards):
        for algorithm, group in runs[runs["board"] == board].groupby("algorithm", sort=False):
            _ecdf(axes, group["seconds"].to_numpy(), group["solved"].to_numpy(), len(group),
                  color=colors[algorithm], lw=1.4, label=algorithm)
        axes.set_xscale("log")
        axes.set_title(f"{board:,} x {board:,}", fontsize=10)
        axes.set_xlabel("wall time (s)")
        axes.grid(True, alpha=0.3)
    for axes in panels[:, 0]:
        axes.set_ylabel("fraction solved")
    handles = {}  # every algorithm once, though not every one runs on every board
    for axes in panels.flat:
        for handle, label in zip(*axes.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    figure.legend(list(handles.values()), list(handles), fontsize=8, loc="outside right upper")
    figure.suptitle(title)
    save_figure(figure, path)


def fixed_target(traces, path: Path, title: str, label: str = "attacking pairs") -> None:
    """The fixed-target ECDF of the GA's runs: the fraction of (run, target) pairs whose best
    so far has reached the target within a given number of evaluations. One GA: one panel, a
    line per board; several: a panel per board, a line per GA. ``traces``: folded.Folded, or
    a table of traces."""
    groups = _folded(traces).runtimes()
    names = list(dict.fromkeys(name for name, _ in groups))
    boards = sorted({board for _, board in groups})
    single = len(names) == 1
    if single:
        figure = new_figure(8.5, 4.8)
        panels = np.array([[figure.subplots()]])
    else:
        figure, panels = _panels(3.9, 3.4, len(boards))
    colors = palette(boards if single else names)
    for (name, board), (levels, times) in groups.items():
        axes = panels.flat[0 if single else boards.index(board)]
        _ecdf(axes, times, np.isfinite(times), len(times), lw=1.5,
              color=colors[board if single else name],
              label=f"{board} (targets {levels} to 0)" if single else name)
        if not single:
            axes.set_title(f"{board} x {board}: targets {levels} to 0", fontsize=10)
    for axes in panels.flat:
        axes.set_xscale("log")
        axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        axes.set_xlabel("evaluations")
        axes.grid(True, alpha=0.3)
    for axes in panels[:, 0]:
        axes.set_ylabel("fraction of (run, target) pairs reached")
    panels[0, 0].set_ylim(0, 1.02)
    handles = {}
    for axes in panels.flat:
        for handle, label in zip(*axes.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    figure.legend(list(handles.values()), list(handles), title="board" if single else None,
                  fontsize=8, title_fontsize=8, loc="outside right upper")
    explained = f"targets: every level of {label} from the first populations' median to 0"
    if single:
        panels[0, 0].set_title(explained, fontsize=9)
        figure.suptitle(title)
    else:
        figure.suptitle(f"{title}\n{explained}", fontsize=10)
    save_figure(figure, path)
