"""The growth of the median work and time with the size, fitted as a power law on log scales
(gaqueens/reports/growth.py), checked against scipy.stats.linregress on known power laws, and
its plot, growth.png (the published table's picture)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from gaqueens.reports import growth, tables
from gaqueens.sweep import main


def runs_frame(work, board, algorithm="local-search", unit="swaps", seconds=0.001):
    return pd.DataFrame({
        "algorithm": algorithm, "board": board, "seed": range(1, len(work) + 1), "solved": True,
        "conflicts": 0, "generations": 0, "work": work, "unit": unit, "seconds": seconds,
        "solution": "",
    })


def timed(boards, seconds, work=None, runs=3, algorithm="local-search"):
    """A summary: per board, ``runs`` runs of the given median time and work."""
    return tables.summarize(pd.concat([
        runs_frame([work(board) if work else board] * runs, board, algorithm, seconds=time)
        for board, time in zip(boards, seconds)]))


def row(found, measure, algorithm="local-search"):
    return found[(found["measure"] == measure) & (found["algorithm"] == algorithm)].iloc[0]


def test_an_exact_power_law_has_a_point_interval_and_a_band_of_no_width():
    boards = [1000, 2000, 4000, 8000]
    summary = timed(boards, [1e-5 * n ** 1.5 for n in boards], work=lambda n: 3 * n * n)
    found = growth.growth(summary)
    time, work = row(found, "time"), row(found, "work")
    assert time["exponent"] == pytest.approx(1.5) and time["fitted"] == 4
    assert time["low"] == pytest.approx(1.5) and time["high"] == pytest.approx(1.5)
    assert work["exponent"] == pytest.approx(2) and work["boards"] == "1,000 to 8,000"
    fit = growth.fits(summary, "work")["local-search"]
    centre, low, high = fit.at([500, 3000, 16000])
    assert centre == pytest.approx(3 * np.array([500, 3000, 16000]) ** 2.0)
    assert low == pytest.approx(centre) and high == pytest.approx(centre)


def test_a_noisy_power_law_is_fitted_as_scipy_fits_it_and_its_band_as_by_hand():
    """The slope, its interval (t quantile times the standard error) and the confidence band
    of the fitted line, t s sqrt(1/n + (x - mean)^2 / Sxx), on a power law N^1.3 with noise."""
    rng = np.random.default_rng(3)
    boards = np.array([2 ** k for k in range(3, 10)])
    values = 7 * boards ** 1.3 * rng.lognormal(0, 0.15, len(boards))
    fit = growth.fit(boards, values)
    x, y = np.log(boards), np.log(values)
    line = stats.linregress(x, y)
    t = stats.t.ppf(0.975, len(x) - 2)
    assert fit.slope == pytest.approx(line.slope) and fit.intercept == pytest.approx(line.intercept)
    assert fit.high - fit.slope == pytest.approx(t * line.stderr) == pytest.approx(fit.slope - fit.low)
    assert fit.low < 1.3 < fit.high
    residuals = y - (line.intercept + line.slope * x)
    s = np.sqrt(residuals @ residuals / (len(x) - 2))
    at = np.array([8.0, 40.0, 512.0])
    half = t * s * np.sqrt(1 / len(x) + (np.log(at) - x.mean()) ** 2 / ((x - x.mean()) ** 2).sum())
    centre, low, high = fit.at(at)
    assert np.log(high) - np.log(centre) == pytest.approx(half)
    assert np.log(centre) - np.log(low) == pytest.approx(half)
    assert half[1] < half[0] and half[1] < half[2]  # narrowest near the middle of the sizes


def test_the_time_leaves_out_sizes_below_the_overhead_threshold_and_the_work_does_not():
    """Fast boards measure overhead: 10 us on every board below the threshold would pull the
    time's exponent toward 0; the work counts no timer and is fitted over every board."""
    boards = [8, 16, 32, 1000, 2000, 4000]
    seconds = [1e-5, 1e-5, 1e-5] + [growth.MIN_SECONDS * n / 1000 for n in boards[3:]]
    found = growth.growth(timed(boards, seconds))
    time, work = row(found, "time"), row(found, "work")
    assert time["boards"] == "1,000 to 4,000" and time["fitted"] == 3
    assert time["exponent"] == pytest.approx(1)
    assert work["boards"] == "8 to 4,000" and work["fitted"] == 6
    assert work["exponent"] == pytest.approx(1)


def test_a_fit_needs_three_sizes_of_three_runs_each():
    boards = [1000, 2000, 4000]
    assert growth.growth(timed(boards, [1.0, 2.0, 4.0], runs=2)).empty
    assert growth.growth(timed(boards[:2], [1.0, 2.0])).empty
    assert not growth.growth(timed(boards, [1.0, 2.0, 4.0])).empty
    table = growth.growth_table(timed(boards, [1.0, 2.0, 4.0]))
    assert table.count("N^1.00 (1.00 to 1.00)") == 2  # the work and the time


def test_no_work_fit_for_an_algorithm_that_does_no_search():
    summary = tables.summarize(pd.concat([
        runs_frame([0] * 3, board, "construction", "none", seconds=0.1 * board)
        for board in (1000, 2000, 4000)]))
    assert growth.growth(summary)["measure"].tolist() == ["time"]


def test_a_sweep_of_several_boards_draws_the_tables_picture(tmp_path):
    """growth.png beside the published medians, on every sweep with several boards; a single
    board draws none."""
    (tmp_path / "x.yaml").write_text("boards: [8, 10, 12]\nseeds: {first: 1, last: 4}\n"
                                     "reference: {8: 100}\n")
    out = tmp_path / "out"
    assert main([str(tmp_path / "x.yaml"), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    assert (out / "growth.png").exists() and (out / "growth.svg").exists()
    assert "## Growth with the board size" in (out / "summary.md").read_text()
    (tmp_path / "y.yaml").write_text("boards: [8]\nseeds: {first: 1, last: 4}\n")
    assert main([str(tmp_path / "y.yaml"), "--out", str(tmp_path / "one"), "--quiet"]) == 0
    assert not (tmp_path / "one" / "growth.png").exists()


def test_the_growth_plot_draws_ours_the_published_and_the_fit(tmp_path):
    boards = [8, 16, 32, 64]
    summary = timed(boards, [0.001] * 4, work=lambda n: 2 * n ** 2, algorithm="ga")
    summary["unit"] = "evaluations"
    summary["reference"] = [100.0, 500.0, np.nan, 8000.0]
    figure = growth.plot(summary, tmp_path / "growth.png", "t")
    (axes,) = [a for a in figure.axes if a.get_visible()]
    labels = [line.get_label() for line in axes.get_lines()
              if line.get_label() and not line.get_label().startswith("_")]
    assert labels == ["ga: N^2.00 (2.00 to 2.00)", "published median"]
    published = next(line for line in axes.get_lines() if line.get_label() == "published median")
    assert published.get_xdata().tolist() == [8, 16, 64]
    assert axes.get_yscale() == "log" and axes.get_xscale() == "log"
