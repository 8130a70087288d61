"""Unlabelled minor ticks drawn as one line of tick marks per axis, the same pixels as
matplotlib's own.

matplotlib keeps a Tick object (two lines, two texts) per minor tick and lays each out at every
pass of the layout and of each drawing, which on log axes makes the plots of the main job
measurably slower. ``lighten`` draws an axis's unlabelled minor ticks instead as one Line2D of
the markers a Tick draws (its ``tick1line``), where the axis would put them (its minor
locator's places, without those on a major tick, within the view). tests/test_plots.py
compares the pixels of both ways.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import NullFormatter, NullLocator

# matplotlib's tolerances, relative to the view's width: a minor tick on a major one, and a
# tick at the edge of the view (transforms._interval_contains_close)
CLOSE, INSIDE = 1e-5, 1e-10
AFTER = 1e-6  # drawn just after their axis, in matplotlib's order (``lighten``)


class MinorMarks(Line2D):
    """The marks of an axis's minor ticks, placed by ``locator`` when drawn."""

    def __init__(self, axis, locator, tick):
        super().__init__([], [])
        self.update_from(tick.tick1line)
        self.set_transform(tick.tick1line.get_transform())
        self.set_visible(tick.tick1line.get_visible())
        self.set_clip_on(False)
        self.set_in_layout(False)  # as a Tick's marks: no part of the layout
        self.set_zorder(axis.get_zorder() + AFTER)  # where marks touch, as antialiased
        self.axis, self.locator = axis, locator
        self.is_x = axis.axis_name == "x"

    def places(self) -> np.ndarray:
        """Where the axis would draw its minor ticks now."""
        axis = self.axis
        self.locator.set_axis(axis)  # shared axes share one locator: read for this one
        minor = np.asarray(self.locator(), dtype=float)
        scale = axis.get_transform()
        low, high = sorted(scale.transform(axis.get_view_interval()))
        at = scale.transform(minor)
        major = scale.transform(np.asarray(axis.get_majorticklocs(), dtype=float))
        if axis.remove_overlapping_locs and len(major) and len(at):
            on_major = np.isclose(at[:, None], major[None, :], atol=(high - low) * CLOSE,
                                  rtol=0).any(axis=1)
            minor, at = minor[~on_major], at[~on_major]
        margin = (high - low) * INSIDE
        return minor[(at >= low - margin) & (at <= high + margin)]

    def draw(self, renderer):
        places = self.places()
        zeros = np.zeros(len(places))
        self.set_data((places, zeros) if self.is_x else (zeros, places))
        super().draw(renderer)


def lighten(figure) -> None:
    """Each axis of ``figure`` whose minor ticks are unlabelled draws them as MinorMarks (the
    module's docstring). Shared axes share their locators, so every axis is read first. The
    marks are drawn in matplotlib's order, where antialiased pixels of two artists meet: an
    axis draws its minor ticks after its major ones, and the x axis before the y axis."""
    found = []
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            locator = axis.get_minor_locator()
            if not isinstance(locator, NullLocator) and isinstance(
                    axis.get_minor_formatter(), NullFormatter) and axis.get_visible():
                found.append((axes, axis, locator, axis.get_minor_ticks(1)[0]))
    for axes, axis, locator, tick in found:
        if axis is axes.xaxis and axes.yaxis.get_zorder() == axis.get_zorder():
            axes.yaxis.set_zorder(axis.get_zorder() + 2 * AFTER)  # the y axis after x's marks
        axes.add_artist(MinorMarks(axis, locator, tick))
        axis.set_minor_locator(NullLocator())
