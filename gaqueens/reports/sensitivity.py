"""How the work depends on the settings of a grid: the cells' medians, and their plots.

    sensitivity.png          a panel per grid setting: median evaluations with their 95%
                             interval against the setting's values, a line per board, the other
                             settings held at the ga's values when the grid has them, else at
                             the best cell's on the largest board; the ga's value marked
    sensitivity-heatmap.png  for a grid of two settings: a panel per board, each cell the median
                             evaluations relative to the ga's (ratio on a log colour scale),
                             the ga's cell framed; "-" where either median is infinite

A median is of the runtime distribution (gaqueens.reports.tables): where most runs of a cell
are unsolved it is infinite, and drawn as a gap (lines) or a grey cell (heatmap).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from gaqueens import problems

SETTING_AXIS_LOG = 4  # a numeric setting whose values span this factor or more gets a log axis


def ga_values(ga_settings: dict, paths) -> dict[str, object]:
    """The ga's value of each grid path, from its settings in the file's terms (None where the
    path leads nowhere in them)."""
    out = {}
    for path in paths:
        value = ga_settings
        for key in path.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        out[path] = value
    return out


def cells(summary: pd.DataFrame, grid, ga_name: str | None) -> pd.DataFrame:
    """A row per (cell, board): each path's value, board, median, ci_low, ci_high, solved,
    runs, and ratio (the cell's median over the ga's on that board, nan without a ga)."""
    by_name = dict(grid.cells)
    rows = summary[summary["algorithm"].isin(by_name)].copy()
    for i, path in enumerate(grid.paths):  # objects: values as the grid gives them (0, not 0.0)
        rows[path] = pd.Series([by_name[name][i] for name in rows["algorithm"]], index=rows.index,
                               dtype=object)
    reference = {}
    if ga_name is not None:
        ga = summary[summary["algorithm"] == ga_name]
        reference = dict(zip(ga["board"], ga["median"]))
    rows["ratio"] = [m / reference[b] if b in reference and np.isfinite(reference[b]) else math.nan
                     for m, b in zip(rows["median"], rows["board"])]
    return rows.reset_index(drop=True)


def _numeric(values) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _key(value) -> str:
    """A value as a cell's name writes it, so that a mapping (an operator) can be looked up."""
    from gaqueens.experiment.grid import cell_text

    return cell_text(value)


def held(table: pd.DataFrame, grid, fixed: dict) -> dict:
    """The value each path is held at while another varies: the ga's where the grid has it,
    else the best cell's on the largest board (the least median work there)."""
    largest = table[table["board"] == table["board"].max()]
    best = largest.loc[largest["median"].astype(float).idxmin()] if len(largest) else None
    values = dict(grid.values)
    return {path: fixed.get(path) if _key(fixed.get(path)) in map(_key, values[path])
            else (None if best is None else best[path]) for path in grid.paths}


def _line_rows(rows: pd.DataFrame, grid, path: str, at: dict) -> pd.DataFrame:
    """The cells along ``path``, the other paths at their values ``at``."""
    for other in grid.paths:
        if other != path:
            rows = rows[[_key(v) == _key(at[other]) for v in rows[other]]]
    return rows


def lines_plot(table: pd.DataFrame, grid, fixed: dict, path: Path, title: str,
               problem: str = problems.DEFAULT) -> None:
    """sensitivity.png (plots.CAPTIONS["sensitivity"]): a panel per grid path, a line per
    board, the other paths held (``held``), in the words of ``problem``."""
    from gaqueens.reports import figures

    figures.drawn(_lines_plot)(table, grid, fixed, path, title, problem)


def _lines_plot(table, grid, fixed, path, title, problem):
    from gaqueens.reports.figures import legend, log_axis, palette, panels, save_figure

    solved_by = problems.get(problem)
    at = held(table, grid, fixed)
    figure, axes_of = panels(len(grid.paths), 4.4, 3.6, sharey=True)
    boards = sorted(table["board"].unique())
    colors = palette(boards)
    for axes, setting in zip(axes_of.flat, grid.paths):
        values = list(dict(grid.values)[setting])
        numeric = _numeric(values)
        position = {_key(v): (v if numeric else i) for i, v in enumerate(values)}
        chosen = _line_rows(table, grid, setting, at)
        for board in boards:
            rows = chosen[chosen["board"] == board]
            rows = rows.assign(x=[position[_key(v)] for v in rows[setting]]).sort_values("x")
            median = rows["median"].where(np.isfinite(rows["median"]))
            low = (median - rows["ci_low"]).clip(lower=0)
            high = (rows["ci_high"] - median).where(np.isfinite(rows["ci_high"]), 0)
            axes.errorbar(rows["x"], median, yerr=[low, high], color=colors[board], marker="o",
                          ms=4, lw=1.4, capsize=2, label=solved_by.size_text(board))
        marked = _key(fixed.get(setting)) in position
        if marked:
            axes.axvline(position[_key(fixed[setting])], color="0.5", ls=":", lw=1)
        if numeric and min(values) > 0 and max(values) / min(values) >= SETTING_AXIS_LOG:
            axes.set_xscale("log")
        axes.set_xticks(list(position.values()), list(position))
        axes.minorticks_off()
        log_axis(axes.yaxis)
        axes.set_xlabel(setting + (" (dotted: the ga's)" if marked else ""))
        others = [f"{o}={_key(at[o])}" for o in grid.paths if o != setting]
        if others:
            axes.set_title("held: " + ", ".join(others))
        axes.set_ylabel("median evaluations (95% CI)")
        axes.grid(True, which="major", alpha=0.3)
    legend(figure, axes_of, title=solved_by.size_label)
    figure.suptitle(title)
    save_figure(figure, path)


def heatmap(table: pd.DataFrame, grid, fixed: dict, path: Path, title: str,
            problem: str = problems.DEFAULT) -> None:
    """sensitivity-heatmap.png (plots.CAPTIONS["sensitivity-heatmap"]): for a grid of two
    paths, a panel per board (size) of ``problem``."""
    from gaqueens.reports import figures

    figures.drawn(_heatmap)(table, grid, fixed, path, title, problem)


def _heatmap(table, grid, fixed, path, title, problem):
    import matplotlib

    from gaqueens.reports.figures import grid_shape, new_figure, save_figure

    rows_path, columns_path = grid.paths
    against = "the ga's"
    if table["ratio"].isna().all():  # no ga: each board's cells against its best
        least = table.groupby("board")["median"].transform("min")
        with np.errstate(invalid="ignore"):
            table = table.assign(ratio=np.where(np.isfinite(least), table["median"] / least,
                                                math.nan))
        against = "the board's best cell's"
    row_values, column_values = (list(dict(grid.values)[p]) for p in grid.paths)
    row_keys, column_keys = [_key(v) for v in row_values], [_key(v) for v in column_values]
    boards = sorted(table["board"].unique())
    lines, columns = grid_shape(len(boards))
    figure = new_figure((0.75 * len(column_values) + 1.2) * columns + 1.6,
                        (0.5 * len(row_values) + 1.2) * lines + 0.6)
    panels = figure.subplots(lines, columns, squeeze=False, sharey=True)
    for axes in panels.flat[len(boards):]:
        axes.set_visible(False)
    ratios = np.log2(table["ratio"].replace([np.inf, 0], np.nan).dropna())
    span = max(1.0, float(np.nanmax(np.abs(ratios)))) if len(ratios) else 1.0
    norm = matplotlib.colors.Normalize(-span, span)
    colormap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="0.8")
    for axes, board in zip(panels.flat, boards):
        grid_ratio = np.full((len(row_values), len(column_values)), np.nan)
        rows = table[table["board"] == board]
        for first, second, ratio in zip(rows[rows_path], rows[columns_path], rows["ratio"]):
            grid_ratio[row_keys.index(_key(first)), column_keys.index(_key(second))] = ratio
        with np.errstate(divide="ignore"):
            axes.imshow(np.log2(grid_ratio), cmap=colormap, norm=norm, aspect="auto")
        for (i, j), ratio in np.ndenumerate(grid_ratio):
            text = "-" if not np.isfinite(ratio) else f"{ratio:.2f}"
            dark = np.isfinite(ratio) and abs(math.log2(ratio)) > 0.6 * span
            axes.text(j, i, text, ha="center", va="center", fontsize=9,
                      color="white" if dark else "black")
        framed = (fixed.get(rows_path), fixed.get(columns_path))
        if against != "the ga's" and rows["median"].notna().any():
            best = rows.loc[rows["median"].astype(float).idxmin()]
            framed = (best[rows_path], best[columns_path])
        if _key(framed[0]) in row_keys and _key(framed[1]) in column_keys:
            i, j = row_keys.index(_key(framed[0])), column_keys.index(_key(framed[1]))
            axes.add_patch(matplotlib.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                                                        lw=2, ec="black"))
        axes.set_xticks(range(len(column_values)), column_keys)
        axes.set_yticks(range(len(row_values)), row_keys)
        axes.set_xlabel(columns_path)
        axes.set_title(problems.get(problem).size_text(board))
    for axes in panels[:, 0]:
        axes.set_ylabel(rows_path)
    mappable = matplotlib.cm.ScalarMappable(norm=norm, cmap=colormap)
    bar = figure.colorbar(mappable, ax=panels, shrink=0.8)
    ticks = np.arange(-math.floor(span), math.floor(span) + 1)
    bar.set_ticks(ticks, labels=[f"{2.0 ** t:g}" for t in ticks])
    bar.set_label(f"median evaluations / {against} (framed)")
    figure.suptitle(title)
    save_figure(figure, path)


BEST_NOTE = ("Best: the cell with the lowest median evaluations on that board (the runtime "
             "distribution's median, unsolved runs as infinite work); ratio: its median over "
             "the ga's, with its 95% bootstrap interval where compared; compared: the "
             "comparison of the cell with the ga (Mann-Whitney, Holm over the whole table, "
             "alpha 0.01: comparisons.csv).")


def best_cells(table: pd.DataFrame, summary: pd.DataFrame, comparisons,
               problem: str = problems.DEFAULT) -> pd.DataFrame:
    """Per board (the problem's size_label heads the column): the ga's median, the best cell
    with its median and interval, the ratio, and the verdict of its comparison with the ga
    where there is one."""
    from gaqueens.reports.tables import number

    verdicts, effects = {}, {}
    for row in (comparisons.itertuples() if comparisons is not None else ()):
        held_out = str(row.verdict).startswith("too few runs")  # no Holm p
        verdicts[row.board, row.algorithm] = (row.verdict if held_out else
                                              f"{row.verdict} (Holm p {row.p_holm:.2g})")
        if not math.isnan(row.ci_low):
            effects[row.board, row.algorithm] = (f" ({number(row.ci_low, 2)} to "
                                                 f"{number(row.ci_high, 2)})")
    ga = summary[summary["algorithm"] == "ga"].set_index("board")["median"]
    rows = []
    for board, cells_of in table.groupby("board", sort=True):
        best = cells_of.loc[cells_of["median"].idxmin()]
        rows.append({
            problems.get(problem).size_label: board,
            "ga median": number(ga.get(board, math.nan)),
            "best cell": best["algorithm"],
            "its median (95% CI)": f"{number(best['median'])} ({number(best['ci_low'])} to "
                                   f"{number(best['ci_high'])})",
            "ratio to the ga (95% CI)": "" if math.isnan(best["ratio"]) else (
                number(best["ratio"], 2) + effects.get((board, best["algorithm"]), "")),
            "compared with the ga": verdicts.get((board, best["algorithm"]), ""),
        })
    return pd.DataFrame(rows)
