"""The plots' logic, and of their pixels only that the minor tick marks drawn as one line
(gaqueens/reports/minor_ticks.py) are matplotlib's own (rules: gaqueens/reports/plots.py and
figures.py): every PNG has its SVG, with text kept as text; the y axis of the convergence
reaches above its band; short log axes label no minor tick; board sizes label the seconds axis;
every algorithm gets a style of its own, the published GA emphasised; the work ECDF names what
it leaves out; a convergence line is drawn from its steps alone, the same line."""

import itertools
import xml.etree.ElementTree as ElementTree

import hypothesis
import hypothesis.strategies as st
import matplotlib.ticker
import numpy as np
import pandas as pd
import pytest

from gaqueens.reports import figures, plots
from gaqueens.reports.folded import Line
from gaqueens.sweep import main


def traces(bests: dict, population: int = 20) -> pd.DataFrame:
    """A table of traces: ``bests`` maps (algorithm, board) to a best per generation for each
    seed (lists of equal length within a run); median and worst above the best."""
    rows = []
    for (algorithm, board), seeds in bests.items():
        for seed, best in enumerate(seeds, 1):
            for generation, value in enumerate(best):
                rows.append((algorithm, board, seed, generation, population * (generation + 1),
                             value, value + 1, value + 3, value + 1.5))
    return pd.DataFrame(rows, columns=["algorithm", "board", "seed", "generation", "evaluations",
                                       "best", "median", "worst", "mean"])


def lines_of(axes):
    return [line for line in axes.get_lines() if line.get_label() and
            not line.get_label().startswith("_")]


def test_the_convergence_axis_reaches_above_the_band_of_the_8_board(tmp_path):
    """results/n8: the upper quartile of the first generations is 2, the median 1; the axis
    once ended near 1.3 and cut the band off."""
    seeds = [[2, 2, 1, 0]] * 4 + [[1, 1, 0]] * 3 + [[1, 0]]
    figure = plots.convergence(traces({("ga", 8): seeds}), tmp_path / "c.png", "t")
    axes = figure.axes[0]
    band = max(path.vertices[:, 1].max() for collection in axes.collections
               for path in collection.get_paths())
    assert band == 2 and axes.get_ylim()[0] == 0 and axes.get_ylim()[1] > band
    assert 2 in axes.get_yticks()


@hypothesis.settings(max_examples=15, deadline=None)
@hypothesis.given(st.lists(st.lists(st.integers(0, 40), min_size=1, max_size=6), min_size=1,
                           max_size=6))
def test_the_convergence_axis_holds_every_band_and_line(tmp_path_factory, seeds):
    path = tmp_path_factory.mktemp("c") / "c.png"
    figure = plots.convergence(traces({("ga", 16): seeds}), path, "t")
    axes = figure.axes[0]
    drawn = [line.get_ydata().max() for line in lines_of(axes)]
    drawn += [p.vertices[:, 1].max() for c in axes.collections for p in c.get_paths()]
    assert max(drawn) < axes.get_ylim()[1]


def test_a_short_log_axis_labels_no_minor_tick_and_several_major_ones(tmp_path):
    """20 to 700 evaluations: matplotlib would label minor ticks ("3x10^1 4x10^1" overprinted)."""
    seeds = [[3, 2, 1, 1, 0], [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]]
    figure = plots.convergence(traces({("ga", 8): seeds}), tmp_path / "c.png", "t")
    for axis in (figure.axes[0].xaxis, figure.axes[0].yaxis):  # marks alone (minor_ticks)
        assert isinstance(axis.get_minor_formatter(), matplotlib.ticker.NullFormatter)
    low, high = figure.axes[0].get_xlim()
    shown = [t for t in figure.axes[0].get_xticks() if low <= t <= high]
    labels = figure.axes[0].xaxis.get_major_formatter().format_ticks(shown)
    assert len(shown) >= 3 and len(set(labels)) == len(labels) and "" not in labels


def test_compared_gas_get_a_panel_per_board_and_a_style_each(tmp_path):
    """results/ablation drew ga and deap-tournament both solid in one panel."""
    names = ["ga", "uniform-parents", "parents-first", "deap-selbest", "deap-tournament"]
    data = {(name, board): [[4, 2, 1, 0], [3, 3, 0]] for name in names for board in (8, 16)}
    figure = plots.convergence(traces(data), tmp_path / "c.png", "t")
    panels = [axes for axes in figure.axes if axes.get_visible()]
    assert len(panels) == 2
    for axes in panels:
        drawn = lines_of(axes)
        assert [line.get_label() for line in drawn] == names
        looks = {(line.get_color(), line.get_linestyle()) for line in drawn}
        assert len(looks) == len(names)
        published = drawn[0]
        assert published.get_linewidth() > max(line.get_linewidth() for line in drawn[1:])
        assert len(axes.collections) == 1  # the band of the published GA alone


def test_a_grid_of_cells_takes_a_colour_per_first_setting_and_a_style_per_second():
    cells = [f"population={p},select.tournament={t}" for p in (5, 10, 20, 40, 80) for t in (2, 3, 5)]
    styles = figures.entry_styles(["ga", *cells])
    assert styles["ga"]["color"] == "black"
    looks = [(styles[c]["color"], styles[c]["ls"]) for c in cells]
    assert len(set(looks)) == len(cells)
    for p, t in itertools.product((5, 10), (2, 3)):
        same_p = styles[f"population={p},select.tournament=5"]
        assert styles[f"population={p},select.tournament={t}"]["color"] == same_p["color"]
        same_t = styles[f"population=20,select.tournament={t}"]
        assert styles[f"population={p},select.tournament={t}"]["ls"] == same_t["ls"]


@pytest.mark.parametrize("count", [1, 2, 7, 16, 28])
def test_every_algorithm_gets_a_look_of_its_own(count):
    names = [f"algorithm-{i}" for i in range(count)]
    styles = figures.entry_styles(names)
    assert len({(s["color"], s["ls"]) for s in styles.values()}) == count
    assert all(s["color"] != "black" for s in styles.values())  # no published GA among them


def runs_table(algorithms, boards=(8,), seeds=4):
    rows = []
    for algorithm, unit in algorithms:
        for board in boards:
            for seed in range(1, seeds + 1):
                work = 0 if unit == "none" else 10 * seed * board
                rows.append((algorithm, board, seed, True, work, unit, 1e-4 * seed * board))
    return pd.DataFrame(rows, columns=["algorithm", "board", "seed", "solved", "work", "unit",
                                       "seconds"])


def test_the_work_ecdf_names_the_algorithms_it_leaves_out(tmp_path):
    runs = runs_table([("ga", "evaluations"), ("min-conflicts", "moves"), ("construction", "none")])
    figure = plots.ecdf(runs, tmp_path / "e.png", "t")
    assert "not drawn" in figure.get_suptitle() and "construction" in figure.get_suptitle()
    assert [a.get_title() for a in figure.axes if a.get_visible()] == ["ga", "min-conflicts"]
    drawn_all = plots.ecdf(runs[runs["unit"] != "none"], tmp_path / "f.png", "t")
    assert "not drawn" not in drawn_all.get_suptitle()


def test_seconds_labels_each_board_of_a_short_axis(tmp_path):
    """Boards 8 and 12 on a base-2 axis were labelled 2^3 alone."""
    summary = pd.DataFrame({"algorithm": ["ga", "ga", "min-conflicts", "min-conflicts"],
                            "board": [8, 12, 8, 12], "solved": [4, 4, 4, 4], "runs": [4] * 4,
                            "median_seconds": [1e-4, 3e-4, 2e-5, 3e-5]})
    figure = plots.seconds(summary, tmp_path / "s.png", "t")
    axes = figure.axes[0]
    low, high = axes.get_xlim()
    shown = {tick.get_text() for tick, at in zip(axes.get_xticklabels(), axes.get_xticks())
             if low <= at <= high}
    assert {"8", "12"} <= shown
    assert not axes.xaxis.get_minorticklocs().size or all(
        text == "" for text in axes.xaxis.get_minor_formatter().format_ticks(
            axes.xaxis.get_minorticklocs()))


def test_save_figure_writes_a_small_svg_with_text_as_text_beside_the_png(tmp_path):
    figure = figures.new_figure(3, 2)
    figure.subplots().plot([1, 2, 3], label="a line")
    figures.save_figure(figure, tmp_path / "x.png")
    svg = tmp_path / "x.svg"
    root = ElementTree.parse(svg).getroot()
    texts = [e.text for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "a line" not in texts  # no legend was drawn
    figure.axes[0].set_title("a title")
    figures.save_figure(figure, tmp_path / "x.png")
    again = svg.read_text()
    assert "a title" in again and "DejaVuSans-" not in again  # no glyphs drawn as paths
    figures.save_figure(figure, tmp_path / "y.png")
    assert (tmp_path / "y.svg").read_text() == again  # no date, ids salted alike
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.png", "x.svg", "y.png", "y.svg"]


@pytest.mark.parametrize("asked", [{"figure.constrained_layout.use": True},
                                   {"figure.autolayout": True}])
def test_the_svg_keeps_the_pngs_layout_whatever_layout_the_users_settings_ask_for(tmp_path,
                                                                                 asked):
    def saved(name):
        figure = figures.new_figure(3, 2)
        figure.subplots().set_title("a title")
        figures.save_figure(figure, tmp_path / f"{name}.png")
        return (tmp_path / f"{name}.svg").read_text()

    plain = saved("plain")
    with matplotlib.rc_context(asked):
        assert saved("asked") == plain


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
                           min_size=1, max_size=40))
def test_a_convergence_line_keeps_only_its_steps_and_stays_the_same_line(values):
    """plots.steps: every generation's value is the one of the last point kept at or before
    it (a step drawn where="post"); the first and last points are kept, and no point whose
    three values equal the previous point's."""
    low, median, high = (np.array(column, dtype=float) for column in zip(*values))
    evaluations = 20 * np.arange(1, len(values) + 1)
    line = Line("ga", 8, evaluations, low, median, high)
    x, *kept = plots.steps(line)
    assert x[0] == evaluations[0] and x[-1] == evaluations[-1]
    at = np.searchsorted(x, evaluations, side="right") - 1  # the last kept point at or before
    for every, few in zip((low, median, high), kept):
        assert (few[at] == every).all()
    inner = np.vstack(kept)[:, 1:-1]
    before = np.vstack(kept)[:, :-2]
    assert (inner != before).any(axis=0).all()


def test_a_sweep_writes_an_svg_for_every_png(tmp_path):
    (tmp_path / "x.yaml").write_text("boards: [6, 8]\nseeds: {first: 1, last: 3}\n"
                                     "variants: {uniform-parents: {select: uniform}}\n"
                                     "baselines: [min-conflicts, construction]\n")
    out = tmp_path / "out"
    assert main([str(tmp_path / "x.yaml"), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    pngs = {p.stem for p in out.glob("*.png")}
    assert {"convergence", "ecdf", "fixed-target", "seconds", "ecdf-seconds"} <= pngs
    assert {p.stem for p in out.glob("*.svg")} == pngs
    for stem in pngs:
        ElementTree.parse(out / f"{stem}.svg")  # well-formed


def test_log_x_keeps_powers_of_ten_on_a_long_axis():
    figure = figures.new_figure(3, 2)
    axes = figure.subplots()
    axes.plot([1, 1e6], [0, 1])
    figures.log_x(axes)
    assert isinstance(axes.xaxis.get_minor_formatter(), matplotlib.ticker.NullFormatter)
    low, high = axes.get_xlim()
    shown = [t for t in axes.get_xticks() if low <= t <= high]
    assert all(np.isclose(np.log10(t), round(np.log10(t))) for t in shown)


def test_compact_svg_cuts_coordinates_but_leaves_text_and_styles():
    text = ('<svg>\n   <path d="M 12.345678 9.87654 L 1.5 2" style="stroke-width: 0.812345"/>\n'
            '  <g transform="translate(3.14159 2.71828) rotate(-90)">'
            '<text x="1.23456" y="7.891011">0.123456</text></g>\n</svg>')
    out = figures.compact_svg(text)
    assert 'd="M 12.34 9.87 L 1.5 2"' in out and "stroke-width: 0.812345" in out
    assert 'transform="translate(3.14 2.71) rotate(-90)"' in out
    assert 'x="1.23" y="7.89">0.123456</text>' in out
    assert "\n " not in out
    ElementTree.fromstring(out)


def test_one_board_and_several_gas_get_one_panel_titled_beside_the_legend(tmp_path):
    data = {(name, 20): [[6, 3, 1, 0], [5, 2, 2, 0]] for name in ("ga", "numpy-engine", "published")}
    figure = plots.convergence(traces(data), tmp_path / "c.png", "the title")
    (axes,) = [a for a in figure.axes if a.get_visible()]
    assert axes.get_title() == "the title" and not figure.get_suptitle()
    assert [line.get_label() for line in lines_of(axes)] == ["ga", "numpy-engine", "published"]


@pytest.mark.parametrize("base, value, label", [
    (10, 1, "10⁰"), (10, 1000, "10³"), (10, 1e-2, "10⁻²"), (10, 1e12, "10¹²"),
    (2, 8, "2³"), (2, 1024, "2¹⁰"), (10, 2000, "2,000"), (10, 0.5, "0.5"), (2, 12, "12")])
def test_log_axis_powers_are_plain_text_with_superscript_digits(base, value, label):
    # not mathtext ($10^{3}$), which every drawing process would parse again
    axes = figures.new_figure(3, 2).add_subplot()
    axes.set_xscale("log", base=base)
    figures.powers(axes.xaxis, base)
    assert axes.xaxis.get_major_formatter()(value) == label


def _pixels(figure) -> np.ndarray:
    figure.canvas.draw()
    return np.asarray(figure.canvas.buffer_rgba()).copy()


def _panels_with_log_axes(low: float, high: float, top: float):
    """Three panels sharing a log x axis from ``low`` to ``high`` (figures.log_x), one with the
    symlog y axis of the convergence up to ``top`` (figures.conflicts_y)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = figures.new_figure(7, 3)
    FigureCanvasAgg(figure)
    panels = figure.subplots(1, 3, sharex=True)
    for i, axes in enumerate(panels):
        axes.step([low, np.sqrt(low * high), high], [top, top / 2 + i, 0], where="post")
        figures.log_x(axes)
    figures.conflicts_y(panels[0], top)
    return figure


@hypothesis.settings(max_examples=8, deadline=None)
@hypothesis.given(st.floats(1, 1e3), st.floats(1.5, 1e5), st.floats(1, 500))
@hypothesis.example(20, 1e4, 50)  # four decades: minor ticks on every panel
def test_minor_ticks_drawn_as_marks_give_matplotlibs_own_pixels(low, span, top):
    """The marks of minor_ticks.lighten land on the very pixels of matplotlib's Tick objects,
    on short and long log axes and on the convergence's symlog axis."""
    from gaqueens.reports import minor_ticks

    plain = _panels_with_log_axes(low, low * span, top)
    light = _panels_with_log_axes(low, low * span, top)
    minor_ticks.lighten(light)
    assert all(isinstance(axes.xaxis.get_minor_locator(), matplotlib.ticker.NullLocator)
               for axes in light.axes)
    marks = [artist for axes in light.axes for artist in axes.get_children()
             if isinstance(artist, minor_ticks.MinorMarks)]
    assert len(marks) == 4  # three x axes and the symlog y axis
    assert np.array_equal(_pixels(plain), _pixels(light))
    for axes, lightened in zip(plain.axes, light.axes):  # the x marks: where matplotlib drew
        [mark] = [m for m in marks if m.axes is lightened and m.is_x]
        left, right = axes.get_xlim()
        drawn = [x for x in axes.xaxis.get_minorticklocs() if left <= x <= right]
        np.testing.assert_allclose(mark.get_xdata(), drawn)
