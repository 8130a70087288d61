"""What every plot shares: figures (matplotlib Figures, no pyplot and no global state), each
saved twice, NAME.png and NAME.svg beside it; the colours and line styles of boards and of
algorithms; log axes whose tick labels do not run into each other.

Powers on a log axis are labelled as plain text with superscript digits (10⁴),
not matplotlib's mathtext: each new process (each plot is drawn in one) parses every
mathtext label anew, which cost a third of a plot's drawing.

Styles of algorithms (``entry_styles``): the published GA (``PUBLISHED``) is drawn black, solid
and thicker, above the rest; the others take a few colours told apart by colour-blind readers
too (Okabe and Ito's), and past as many algorithms as colours, a new line style for each
round of them. A grid's cells (names such as ``population=5,select.tournament=2``) take a
colour per value of their first setting and a line style per value of the rest, so that a
line's look says its settings. Boards, which are ordered, take shades of one sequential map.

The SVG keeps its text as text (``svg.fonttype: none``: a few KB, not a path per glyph), and
no date, so the same figure writes the same file; its coordinates keep two decimals (a
hundredth of a point) and its lines no indentation, which takes a third off its size.
"""

from __future__ import annotations

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
SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "gaqueens"}
NO_LAYOUT = {"figure.autolayout": False, "figure.constrained_layout.use": False}  # see save_figure
DPI = 120


def new_figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def svg_path(path) -> Path:
    """Where the SVG of the plot at ``path`` (NAME.png) goes: NAME.svg beside it."""
    return Path(path).with_suffix(".svg")


def save_figure(figure: Figure, path: Path) -> Figure:
    """Writes the figure as ``path`` (PNG) and as its SVG beside it, each whole or not at all
    (never a half-written file), its unlabelled minor ticks drawn as lines of marks
    (gaqueens.reports.minor_ticks); returns the figure."""
    minor_ticks.lighten(figure)
    with replacing(path) as partial:
        figure.savefig(partial, dpi=DPI)
    text = io.StringIO()
    with matplotlib.rc_context({**SVG_RC, **NO_LAYOUT}):
        # the SVG keeps the layout just made: without a layout engine (None, which the user's
        # settings could otherwise turn into one), savefig draws the figure once, not a second
        # time to lay it out; "none" still drew it twice, a tenth of each plot's time
        figure.set_layout_engine(None)
        figure.savefig(text, format="svg", metadata={"Date": None})
    write_text(svg_path(path), compact_svg(text.getvalue()))
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


def _cell_settings(name: str) -> list[tuple[str, str]] | None:
    """A grid cell's name split into (setting, value) pairs, or None for another name."""
    pairs = [part.split("=", 1) for part in name.split(",")]
    return [(k, v) for k, v in pairs] if all(len(p) == 2 for p in pairs) else None


def entry_styles(names, published: str = PUBLISHED) -> dict[str, dict]:
    """Each algorithm's line style (keyword arguments of matplotlib's plot): see the module's
    docstring. Every name gets a (colour, line style) pair of its own unless there are more
    than COLOURS x LINE_STYLES others."""
    names = list(dict.fromkeys(names))
    others = [name for name in names if name != published]
    out = {published: {"color": "black", "ls": "-", "lw": 2.2, "zorder": 3}} \
        if published in names else {}
    cells = [_cell_settings(name) for name in others]
    keys = {tuple(k for k, _ in cell) for cell in cells if cell}
    if others and all(cells) and len(keys) == 1 and len(next(iter(keys))) > 1:
        firsts = list(dict.fromkeys(cell[0][1] for cell in cells))
        rests = list(dict.fromkeys(tuple(v for _, v in cell[1:]) for cell in cells))
        if len(firsts) <= len(COLOURS) and len(rests) <= len(LINE_STYLES):
            for name, cell in zip(others, cells):
                out[name] = {"color": COLOURS[firsts.index(cell[0][1])],
                             "ls": LINE_STYLES[rests.index(tuple(v for _, v in cell[1:]))],
                             "lw": 1.3, "zorder": 2}
            return out
    for i, name in enumerate(others):
        out[name] = {"color": COLOURS[i % len(COLOURS)],
                     "ls": LINE_STYLES[(i // len(COLOURS)) % len(LINE_STYLES)],
                     "lw": 1.3, "zorder": 2}
    return out


def log_x(axes) -> None:
    """A log x axis labelled at powers of ten alone, or, spanning less than two decades (once
    the lines are drawn), at 1, 2 and 5 times them in plain numbers; minor ticks unlabelled
    (on a short axis matplotlib labels them too, and the labels run into each other)."""
    axes.set_xscale("log")
    low, high = axes.get_xlim()
    if high / max(low, 1e-300) < 100:
        axes.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1, 2, 5)))
        axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(_plain))
    else:
        powers(axes.xaxis)
    axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())


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


def board_ticks(axes, boards) -> None:
    """A log x axis of board sizes labelled at each size (up to 12 of them), in plain numbers:
    boards 8 and 12 on a base-2 axis would otherwise show 2^3 alone."""
    boards = sorted(set(int(b) for b in boards))
    if len(boards) <= 12:
        axes.set_xticks(boards, [f"{b:,}" for b in boards])
        axes.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())


def legend_once(figure, panels, **options):
    """One legend for the figure with each label of its panels once, in their first order."""
    handles = {}
    for axes in np.ravel(panels):
        for handle, label in zip(*axes.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    if handles:
        figure.legend(list(handles.values()), list(handles), loc="outside right upper",
                      fontsize=8 if len(handles) <= 12 else 7, title_fontsize=8, **options)
    return handles
