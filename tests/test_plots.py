"""The plots (rules: gaqueens/reports/plots.py, ecdfs.py, growth.py, sensitivity.py and
figures.py), on hand-built runs and on the outputs of real sweeps: each is at most MAX_WIDTH
wide with no text below SMALLEST_TEXT points (what the page needs to show it readable, issue
48), its SVG beside its PNG with text kept as text; entries are compared on one board, one
measure to an axis, a crowded grid's cells grey but for each board's best, every panel's x axis
labelled, the legend below the panels and clear of the title; each plot's question and caption
are in the problem's words; and of their pixels only that the minor tick marks drawn as one
line (gaqueens/reports/minor_ticks.py) are matplotlib's own."""

import itertools
import re
import xml.etree.ElementTree as ElementTree

import hypothesis
import hypothesis.strategies as st
import matplotlib.ticker
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import plugged
from gaqueens.reports import ecdfs, figures, outputs, plots
from gaqueens.reports.folded import Line
from gaqueens.sweep import main

SVG = "{http://www.w3.org/2000/svg}"
MIXED = """\
boards: [8, 10, 12]
seeds: {first: 1, last: 4}
variants: {uniform-parents: {select: uniform}, excess: {fitness: excess}}
baselines: [min-conflicts, construction]
reference: {8: 100, 12: 300}
"""
GRID = """\
boards: [8, 10]
seeds: {first: 1, last: 3}
grid: {population: [5, 10, 20], select.tournament: [2, 3, 5]}
"""
WIDE = """\
boards: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
seeds: {first: 1, last: 2}
ga: none
baselines: [min-conflicts, construction]
"""


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


def visible(figure):
    return [axes for axes in figure.axes if axes.get_visible() and axes.get_label() != "<colorbar>"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The outputs of three sweeps: GA variants of two fitness measures beside baselines of
    other units; a grid crowding its panels; thirteen boards."""
    folders = {}
    for name, text in (("mixed", MIXED), ("grid", GRID), ("wide", WIDE)):
        folder = tmp_path_factory.mktemp(name)
        (folder / "x.yaml").write_text(text)
        assert main([str(folder / "x.yaml"), "--out", str(folder / "out"), "--quiet"]) == 0
        folders[name] = folder / "out"
    return folders


def svg_size_and_smallest_text(path):
    root = ElementTree.parse(path).getroot()
    width = float(root.get("width").removesuffix("pt"))
    sizes = [float(size) for element in root.iter() if element.tag in (f"{SVG}text", f"{SVG}tspan")
             for size in re.findall(r"font-size: ([\d.]+)px", element.get("style", ""))]
    return width, min(sizes)


def test_every_plot_is_at_most_1300_px_wide_with_no_text_below_9_points(swept):
    """matplotlib's SVG gives sizes in points, 3/4 of a CSS px: a plot shown at its natural
    width (the page's, issue 48) shows its smallest text at 12 px."""
    seen = set()
    for folder in swept.values():
        for svg in folder.glob("*.svg"):
            width, smallest = svg_size_and_smallest_text(svg)
            assert width * 4 / 3 <= 1300, (svg, width)
            assert smallest >= figures.SMALLEST_TEXT, (svg, smallest)
            seen.add(svg.stem)
    assert seen == set(outputs.PLOTS)  # every plot a sweep draws was measured


def test_every_png_has_its_svg_and_the_plots_are_those_the_outputs_list(swept):
    for folder in swept.values():
        pngs = {p.stem for p in folder.glob("*.png")}
        assert {p.stem for p in folder.glob("*.svg")} == pngs and pngs <= set(outputs.PLOTS)
    assert {"growth", "convergence", "ecdf", "fixed-target", "seconds", "ecdf-seconds"} <= {
        p.stem for p in swept["mixed"].glob("*.png")}
    assert set(plots.QUESTIONS) == set(plots.CAPTIONS) == set(outputs.PLOTS)
    assert plots.PLOT_ORDER[:2] == ("growth", "sensitivity-heatmap")  # the grid's heatmap first


def test_the_questions_and_captions_are_in_the_problems_words():
    question, caption = plots.described("seconds")
    assert "processor time" in question + caption and "wall" not in question + caption
    assert "board size" in question
    _, caption = plots.described("fixed-target")
    assert "attacking pairs" in caption and "placements" in caption
    with plugged.on_path() as problem:
        question, caption = plots.described("growth", problem)
        assert "board" not in question + caption and "size" in question
    for stem in plots.QUESTIONS:  # the page formats QUESTIONS with these two alone
        plots.QUESTIONS[stem].format(genome="g", size="s")


def drawn_again(folder, stem):
    """A plot of a sweep's folder drawn again here, to look into its Figure."""
    from gaqueens.experiment import load
    from gaqueens.reports import folded, growth
    from gaqueens.runtime.claims import entry_claims
    from gaqueens.runtime.store import Store

    experiment = load(folder.parent / "x.yaml")
    claims = entry_claims(experiment.entries)  # each entry's fitness measure
    with Store(folder) as store:
        runs = outputs.in_entry_order(store.runs(), experiment)
        traced = folded.from_store(store, None, list(claims), claims)
    best = plots.best_cells(runs)
    summary = pd.read_csv(folder / "summary.csv")
    path = folder.parent / f"again-{stem}.png"
    return {"ecdf": lambda: ecdfs.ecdf(runs, path, "t", best=best),
            "ecdf-seconds": lambda: ecdfs.ecdf_seconds(runs, path, "t", best=best),
            "fixed-target": lambda: ecdfs.fixed_target(traced, path, "t", best=best),
            "convergence": lambda: plots.convergence(traced, path, "t", best=best),
            "growth": lambda: growth.plot(summary, path, "t"),
            "seconds": lambda: plots.seconds(summary, path, "t")}[stem]()


@pytest.mark.parametrize("stem", ["ecdf", "ecdf-seconds", "fixed-target", "convergence",
                                  "growth", "seconds"])
def test_every_panel_labels_its_x_axis_and_the_legend_clears_the_title_and_panels(swept, stem):
    """deap-example's ECDF once left two panels without x tick labels, and its ecdf-seconds
    title ran under the legend."""
    for folder in (swept["mixed"], swept["grid"]):
        figure = drawn_again(folder, stem)
        FigureCanvasAgg(figure).draw()
        renderer = figure.canvas.get_renderer()
        (legend,) = figure.legends
        box = legend.get_window_extent(renderer)
        title = figure._suptitle.get_window_extent(renderer)
        assert not box.overlaps(title)
        for axes in visible(figure):
            assert not box.overlaps(axes.get_window_extent(renderer))
            low, high = axes.get_xlim()
            shown = [label.get_text() for label, at in zip(axes.get_xticklabels(),
                                                           axes.get_xticks())
                     if min(low, high) <= at <= max(low, high) and label.get_visible()]
            assert [text for text in shown if text], (stem, axes.get_title())


def test_entries_are_compared_on_one_board_each_axis_one_measure(swept):
    """A panel per board (and fitness measure), a line per entry; the ECDF of work draws one
    unit and names the algorithms counting another."""
    figure = drawn_again(swept["mixed"], "ecdf")
    panels = visible(figure)
    assert len(panels) == 3 and [a.get_xlabel() for a in panels] == ["evaluations"] * 3
    for axes in panels:
        assert [line.get_label() for line in lines_of(axes)] == ["ga", "uniform-parents", "excess"]
    assert "min-conflicts" in figure.get_suptitle() and "construction" in figure.get_suptitle()
    for stem in ("convergence", "fixed-target"):
        figure = drawn_again(swept["mixed"], stem)
        panels = visible(figure)
        assert len(panels) == 6  # three boards, two measures
        for axes in panels:
            names = {line.get_label() for line in lines_of(axes)}
            excess = "excess" in axes.get_title()
            assert names == ({"excess"} if excess else {"ga", "uniform-parents"}), axes.get_title()
            if stem == "convergence":
                assert axes.get_ylabel() == f"best {'excess' if excess else 'attacking pairs'} in the population"
    figure = drawn_again(swept["mixed"], "growth")
    assert sorted(a.get_ylabel() for a in visible(figure)) == [
        "median evaluations per run (95% CI)", "median moves per run (95% CI)"]


def test_a_crowded_grid_draws_each_boards_best_cell_in_colour_and_the_others_grey(swept):
    """sensitivity once drew 16 curves in 5 colours x 3 dashes."""
    runs = pd.read_csv(swept["grid"] / "runs.csv")
    best = plots.best_cells(runs)
    for stem in ("ecdf", "fixed-target", "convergence", "ecdf-seconds"):
        figure = drawn_again(swept["grid"], stem)
        for axes, board in zip(visible(figure), (8, 10)):
            assert f"best cell: {best[board]}" in axes.get_title()
            looks = {(line.get_label(), line.get_color()) for line in lines_of(axes)}
            assert looks == {("ga", "black"), (figures.BEST_LABEL, figures.BEST["color"]),
                             (figures.CONTEXT_LABEL, figures.CONTEXT["color"])}, stem
            assert sum(line.get_label() == figures.CONTEXT_LABEL for line in lines_of(axes)) == 8


def test_the_best_cell_of_a_board_has_the_least_median_work():
    runs = pd.DataFrame({"algorithm": ["ga"] * 3 + ["p=1,q=2"] * 3 + ["p=2,q=2"] * 3,
                         "board": 8, "solved": [True] * 7 + [False, False],
                         "work": [100, 100, 100, 300, 400, 500, 10, 10, 10]})
    assert plots.best_cells(runs) == {8: "p=1,q=2"}  # p=2's median is an unsolved run


def test_every_ecdf_line_has_its_band_but_the_grey_ones(tmp_path):
    runs = pd.DataFrame({"algorithm": np.repeat(["ga", "v"], 20), "board": 8, "unit": "evaluations",
                         "solved": True, "work": np.tile(np.arange(1, 21) * 20, 2),
                         "seconds": 0.001})
    figure = ecdfs.ecdf(runs, tmp_path / "e.png", "t")
    (axes,) = visible(figure)
    assert len(axes.collections) == 2  # a band per line
    colours = {tuple(c.get_facecolor()[0][:3]) for c in axes.collections}
    assert colours == {matplotlib.colors.to_rgb(line.get_color()) for line in lines_of(axes)}


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


@pytest.mark.parametrize("count", [1, 2, 7, 16])
def test_every_algorithm_gets_a_look_of_its_own(count):
    names = [f"algorithm-{i}" for i in range(count)]
    looks = figures.looks(names)
    assert len({(s["color"], s["ls"]) for s, _ in looks.values()}) == count
    assert all(s["color"] != "black" for s, _ in looks.values())  # no published GA among them


def test_a_few_cells_are_coloured_and_many_crowd_into_grey():
    few = [f"population={p}" for p in (5, 10)]
    assert not figures.crowded(["ga", *few])
    assert {label for _, label in figures.looks(["ga", *few]).values()} == {"ga", *few}
    many = [f"population={p},select.tournament={t}" for p, t in itertools.product(
        (5, 10, 20), (2, 3, 5))]
    assert figures.crowded(["ga", *many]) and not figures.crowded(["ga", *map(str, range(9))])
    looks = figures.looks(["ga", "named", *many], best=many[4])
    assert looks["ga"][0]["color"] == "black" and looks["named"][1] == "named"
    assert looks[many[4]] == (figures.BEST, figures.BEST_LABEL)
    assert all(looks[c] == (figures.CONTEXT, figures.CONTEXT_LABEL) for c in many if c != many[4])


@pytest.mark.parametrize("count, shape", [(1, (1, 1)), (2, (1, 2)), (3, (1, 3)), (4, (2, 2)),
                                          (5, (2, 3)), (13, (5, 3)), (20, (7, 3))])
def test_panels_wrap_into_rows_of_at_most_three(count, shape):
    assert figures.grid_shape(count) == shape
    figure, _ = figures.panels(count)
    assert figure.get_figwidth() <= figures.MAX_WIDTH


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


def test_log_axis_keeps_powers_of_ten_on_a_long_axis():
    figure = figures.new_figure(3, 2)
    axes = figure.subplots()
    axes.plot([1, 1e6], [0, 1])
    figures.log_axis(axes.xaxis)
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
    """Three panels sharing a log x axis from ``low`` to ``high`` (figures.log_axis), one with the
    symlog y axis of the convergence up to ``top`` (figures.conflicts_y)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = figures.new_figure(7, 3)
    FigureCanvasAgg(figure)
    panels = figure.subplots(1, 3, sharex=True)
    for i, axes in enumerate(panels):
        axes.step([low, np.sqrt(low * high), high], [top, top / 2 + i, 0], where="post")
        figures.log_axis(axes.xaxis)
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
