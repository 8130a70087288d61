"""What every plot shares: figures (matplotlib Figures, no pyplot and no global state), each
saved twice, NAME.png and NAME.svg beside it; their size and text; the looks of boards and of
algorithms; panels that wrap into rows; log axes whose tick labels do not run into each other.

Made to be read on the page, which shows a plot at up to its natural width: a figure is at
most MAX_WIDTH inches wide, panels wrap into rows of at most MAX_COLUMNS, and no text is
smaller than SMALLEST_TEXT points (STYLE, applied by ``drawn``). Powers on a log axis are
plain text with superscript digits (10⁴), not mathtext, which each process would parse again.

Looks (``looks``): the published GA (``PUBLISHED``) black, solid and thicker, above the rest;
the others in colours colour-blind readers tell apart (Okabe and Ito's), a new line style for
each round of them. Where a grid makes more entries than colours, the panel's best cell is
drawn in a colour of its own and named in its title, the other cells thin and grey. Boards
take shades of one sequential map.

The SVG keeps its text as text and no date, so the same figure writes the same file; its
coordinates keep two decimals and its lines no indentation.
"""

from __future__ import annotations

import functools
import io
import math
import re
from pathlib import Path

import matplotlib
import matplotlib.ticker
import numpy as np
from matplotlib.figure import Figure

from gaqueens.core.files import replacing, write_text
from gaqueens.reports import minor_ticks

PUBLISHED = "ga"  # the published GA's entry name (gaqueens.experiment)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C6D31")
LINE_STYLES = ("-", "--", ":", "-.")
BEST = {"color": "#D55E00", "ls": "-", "lw": 1.8, "zorder": 2}  # a grid's best cell
CONTEXT = {"color": "0.72", "ls": "-", "lw": 0.8, "zorder": 1}  # the grid's other cells
BEST_LABEL, CONTEXT_LABEL = "the board's best grid cell (named above)", "the other grid cells"
SMALLEST_TEXT = 9  # points
STYLE = {"font.size": 10, "axes.titlesize": 10, "axes.labelsize": 10, "xtick.labelsize": 9,
         "ytick.labelsize": 9, "legend.fontsize": 9, "legend.title_fontsize": 9,
         "figure.titlesize": 11}
MAX_WIDTH, MAX_COLUMNS = 13.5, 3  # inches; panels to a row
SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "gaqueens"}
NO_LAYOUT = {"figure.autolayout": False, "figure.constrained_layout.use": False}  # see save_figure
DPI = 120


def drawn(function):
    """A plot function made within STYLE (matplotlib reads its settings as each text is
    made, so the whole function runs within them)."""
    @functools.wraps(function)
    def draw(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return function(*args, **kwargs)
    return draw


def new_figure(width: float, height: float) -> Figure:
    """A figure of ``width`` (at most MAX_WIDTH) by ``height`` inches."""
    return Figure(figsize=(min(width, MAX_WIDTH), height), layout="constrained")


def save_figure(figure: Figure, path: Path) -> Figure:
    """Writes the figure as ``path`` (PNG) and as its SVG beside it, each whole or not at all
    (never a half-written file), its unlabelled minor ticks drawn as lines of marks
    (gaqueens.reports.minor_ticks)."""
    minor_ticks.lighten(figure)
    with replacing(path) as partial:
        figure.savefig(partial, dpi=DPI)
    text = io.StringIO()
    with matplotlib.rc_context({**SVG_RC, **NO_LAYOUT}):
        figure.set_layout_engine(None)  # the layout just made, drawn once
        figure.savefig(text, format="svg", metadata={"Date": None})
    write_text(Path(path).with_suffix(".svg"), compact_svg(text.getvalue()))
    return figure


_PLACES = re.compile(r'( (?:d|x|y|transform)="[^"]*")')
_DECIMALS = re.compile(r"\.\d{3,}")  # a point and more than two decimals


def compact_svg(text: str) -> str:
    """An SVG of matplotlib's with the numbers of its coordinates (d, x, y and transform
    attributes) cut to two decimals and the indentation of its lines dropped; text, styles
    and everything else as they were."""
    cut = _PLACES.sub(lambda m: _DECIMALS.sub(lambda d: d[0][:3], m[1]), text)
    return re.sub(r"\n[ \t]+", "\n", cut)


def palette(keys) -> dict:
    """A shade of viridis for each of ``keys`` (ordered, such as boards), dark to light."""
    keys = list(keys)
    colormap = matplotlib.colormaps["viridis"]
    return {key: colormap(i / max(1, len(keys) - 1) * 0.85) for i, key in enumerate(keys)}


def is_cell(name: str) -> bool:
    """Whether ``name`` is a grid cell's (``population=5,select.tournament=2``)."""
    return all(len(part.split("=", 1)) == 2 for part in name.split(","))


def crowded(names) -> bool:
    """Whether a grid's cells are drawn as context (the module's docstring): more entries
    than the published GA and the colours."""
    names = list(dict.fromkeys(names))
    return len(names) > len(COLOURS) + 1 and any(map(is_cell, names))


def looks(names, best=None) -> dict[str, tuple[dict, str]]:
    """Each algorithm's line style (keyword arguments of matplotlib's plot) and legend label:
    see the module's docstring; ``best``, the cell drawn as the panel's best."""
    names = list(dict.fromkeys(names))
    context = crowded(names)
    out = {}
    others = [n for n in names if n != PUBLISHED and not (context and is_cell(n))]
    for i, name in enumerate(others):
        out[name] = ({"color": COLOURS[i % len(COLOURS)], "lw": 1.4, "zorder": 2,
                      "ls": LINE_STYLES[(i // len(COLOURS)) % len(LINE_STYLES)]}, name)
    for name in names:
        if name == PUBLISHED:
            out[name] = ({"color": "black", "ls": "-", "lw": 2.2, "zorder": 3}, name)
        elif context and is_cell(name):
            out[name] = (BEST, BEST_LABEL) if name == best else (CONTEXT, CONTEXT_LABEL)
    return {name: out[name] for name in names}


def grid_shape(count: int) -> tuple[int, int]:
    """Rows and columns for ``count`` panels: up to MAX_COLUMNS in a row, as square as it
    goes beyond (4 panels: 2 x 2)."""
    columns = count if count <= MAX_COLUMNS else min(MAX_COLUMNS, math.ceil(math.sqrt(count)))
    return -(-count // columns), max(1, columns)


def panels(count: int, width: float = 4.0, height: float = 3.3, sharey: bool = False):
    """A figure of ``count`` panels of about width x height inches each, in rows
    (grid_shape), room below for the legend; unused places hidden; a single panel larger.
    Returns (figure, panels), panels a 2-D array."""
    if count == 1:
        width, height = 6.5, 4.4
    rows, columns = grid_shape(count)
    figure = new_figure(width * columns + 0.6, height * rows + 1.2)
    axes = figure.subplots(rows, columns, squeeze=False, sharey=sharey)
    for unused in axes.flat[count:]:
        unused.set_visible(False)
    return figure, axes


def single(width: float = 8.0, height: float = 5.0):
    """A figure of one panel: (figure, panels), panels a 1 x 1 array as ``panels`` gives."""
    figure = new_figure(width, height)
    return figure, np.array([[figure.subplots()]])


def log_axis(axis) -> None:
    """A log axis labelled at powers of ten alone, or, spanning less than two decades (once
    the lines are drawn), at 1, 2 and 5 times them in plain numbers; minor ticks unlabelled
    (on a short axis matplotlib labels them too, and the labels run into each other)."""
    (axis.axes.set_xscale if axis.axis_name == "x" else axis.axes.set_yscale)("log")
    low, high = axis.get_view_interval()
    if high / max(low, 1e-300) < 100:
        axis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1, 2, 5)))
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(_plain))
    else:
        powers(axis)
    axis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def powers(axis, base: int = 10) -> None:
    """A log axis's major ticks labelled base to the power, in superscript digits (the module
    docstring); a tick between powers, in plain numbers."""
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(
        lambda value, _position=None: _power(value, base)))


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power(value: float, base: int) -> str:
    exponent = round(math.log(value, base)) if value > 0 else 0
    if value <= 0 or not math.isclose(value, float(base) ** exponent):
        return _plain(value)
    return f"{base}{str(exponent).translate(_SUPERSCRIPT)}"


def _plain(value: float, _position=None) -> str:
    return f"{value:,.0f}" if value >= 1 else f"{value:g}"


def conflicts_y(axes, top: float) -> None:
    """The y axis of best conflicts: symlog (linear below 1, so 0 shows), from 0 to above
    ``top`` (the highest line or band drawn), labelled at 0, 1, 2, 5, 10, 20, 50... up to
    1,000, and at powers of ten above."""
    axes.set_yscale("symlog", linthresh=1)
    upper = max(1.0, float(top)) * 1.25
    axes.set_ylim(0, upper)
    if upper < 1000:  # 0, 1, 2, 5, 10, 20, 50...: evenly spread on the log part
        steps = [0] + [m * 10**e for e in range(3) for m in (1, 2, 5)]
        axes.yaxis.set_major_locator(matplotlib.ticker.FixedLocator(
            [t for t in steps if t <= upper]))
    axes.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_plain))
    axes.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


def board_axis(axes, boards) -> None:
    """A log x axis of sizes: base 10 labelled at powers across more than three decades,
    else base 2 labelled at each size (up to 12 of them) in plain numbers (boards 8 and 12 on
    a base-2 axis would otherwise show 2^3 alone)."""
    boards = sorted(set(int(b) for b in boards))
    wide = boards[-1] / boards[0] > 1000
    axes.set_xscale("log", base=10 if wide else 2)
    powers(axes.xaxis, 10 if wide else 2)
    if not wide and len(boards) <= 12:
        axes.set_xticks(boards, [f"{b:,}" for b in boards])
        axes.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())


def legend(figure, axes, **options):
    """One legend below the panels, each label of ``axes`` once in its first order, in as
    many columns as fit the figure's width."""
    handles = {}
    for each in np.ravel(axes):
        for handle, label in zip(*each.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    if handles:
        longest = max(len(label) for label in handles)  # about 0.55 em a character
        width = figure.get_figwidth() * 72 / (STYLE["legend.fontsize"] * (0.55 * longest + 4))
        figure.legend(list(handles.values()), list(handles), loc="outside lower center",
                      ncols=max(1, min(len(handles), int(width))), **options)
    return handles
