"""The pages in a real browser (headless Chromium through Playwright, tests/browser.py): no
console error, no request beyond file: and data:, the summary's figures shown, and the player's
board telling the truth: its conflicts are the attacking pairs of the queens it shows, at the
first and the last frame, and its last frame is the stored run's placement; on another problem,
its genome drawn plainly and its conflicts that problem's count of it."""

import math

import pandas as pd
import pytest

import browser
import plugged
from gaqueens import run as run_command
from gaqueens.problems.nqueens.verifier import attacking_pairs
from test_page import make_sweep


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    browser.require()
    return make_sweep(tmp_path_factory.mktemp("browser"))


def shown(tab) -> dict:
    """The board as the page shows it: its data attributes and its queens' placement."""
    board = tab.locator("#board")
    queens = [tuple(map(int, q.split(","))) for q in
              tab.locator("#board [data-queen]").evaluate_all(
                  "nodes => nodes.map(n => n.getAttribute('data-queen'))")]
    placement = [None] * int(board.get_attribute("data-board"))
    for row, column in queens:
        assert placement[row] is None  # one queen a row
        placement[row] = column
    return {"algorithm": board.get_attribute("data-algorithm"),
            "board": int(board.get_attribute("data-board")),
            "seed": int(board.get_attribute("data-seed")),
            "frame": int(board.get_attribute("data-frame")),
            "conflicts": int(board.get_attribute("data-conflicts")), "placement": placement}


def go_to(tab, frame: int) -> None:
    tab.eval_on_selector("#frame", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }",
                         str(frame))


def check_player(tab, runs) -> None:
    last = int(tab.get_attribute("#frame", "max"))
    for frame in (0, last):
        go_to(tab, frame)
        board = shown(tab)
        assert board["frame"] == frame
        assert board["conflicts"] == attacking_pairs(board["placement"])
        readout = tab.get_attribute("#readout [data-conflicts]", "data-conflicts")
        assert int(readout) == board["conflicts"]
    stored = runs[(runs["algorithm"] == board["algorithm"]) & (runs["board"] == board["board"])
                  & (runs["seed"] == board["seed"])].iloc[0]
    assert " ".join(map(str, board["placement"])) == stored["solution"]
    assert int(tab.get_attribute("#readout [data-evaluations]", "data-evaluations")
               .replace(",", "")) == stored["work"]


def test_the_folders_page(swept):
    runs = pd.read_csv(swept / "runs.csv").rename(columns={"evaluations": "work"})
    summary = pd.read_csv(swept / "summary.csv")
    with browser.page(swept / "index.html") as opened:
        tab = opened.page
        rows = tab.locator("#summary-table tbody tr")
        assert rows.count() == len(summary)
        medians = tab.locator("#summary-table td[data-column=median]").all_inner_texts()
        for median in summary["median"]:
            assert any(text != "∞" and math.isclose(float(text.replace(",", "")), median,
                                                    rel_tol=5e-3) for text in medians)
        assert tab.locator("figure[data-plot]").count() >= 1
        check_player(tab, runs)
        # another entry, board and seed, chosen as a reader would
        tab.select_option("#pick-algorithm", "uniform-parents")
        tab.select_option("#pick-board", "10")
        seeds = tab.locator("#pick-seed option").all_inner_texts()
        tab.select_option("#pick-seed", seeds[-1])
        board = shown(tab)
        assert (board["algorithm"], board["board"], board["seed"]) == (
            "uniform-parents", 10, int(seeds[-1]))
        check_player(tab, runs)
        # played from the first frame, it ends at the last
        go_to(tab, 0)
        tab.click("#play")
        last = tab.get_attribute("#frame", "max")
        for _ in range(200):  # the page's CSP forbids evaluating strings: poll from here
            if tab.get_attribute("#board", "data-frame") == last:
                break
            tab.wait_for_timeout(100)
        assert tab.get_attribute("#board", "data-frame") == last
        assert tab.inner_text("#play") == "Play"
        assert opened.errors == [] and opened.requests == []


def test_the_standalone_run_page(tmp_path):
    browser.require()
    path = tmp_path / "run.html"
    assert run_command.main(["--board", "20", "--seed", "5", "--html", str(path)]) == 0
    from gaqueens.ga import GaSettings, run

    result = run(GaSettings(), 20, 5)
    runs = pd.DataFrame([{"algorithm": "ga", "board": 20, "seed": 5, "work": result.work,
                          "solution": " ".join(map(str, result.solution))}])
    with browser.page(path) as opened:
        check_player(opened.page, runs)
        assert opened.errors == [] and opened.requests == []


def test_a_plugin_problems_page_draws_its_genome_and_counts_its_conflicts(tmp_path_factory):
    """Another problem's player (tests/plugged.py: the all-interval series): its genome drawn
    plainly, a bar per entry, no queens; the conflicts it shows are the problem's own count of
    the genome drawn, and its words are the problem's."""
    browser.require()
    with plugged.on_path():
        out = plugged.make_sweep(tmp_path_factory.mktemp("plugged"))
    runs = pd.read_csv(out / "runs.csv")
    with browser.page(out / "index.html") as opened:
        tab = opened.page
        assert "genome" in tab.get_attribute("#board", "class").split()
        assert tab.inner_text("label:has(#pick-board)").startswith("size")
        for frame in (0, int(tab.get_attribute("#frame", "max"))):
            go_to(tab, frame)
            assert tab.locator("#board [data-queen]").count() == 0
            entries = tab.locator("#board [data-entry]").evaluate_all(
                "nodes => nodes.map(n => n.getAttribute('data-entry'))")
            genome = [int(e.split(",")[1]) for e in entries]
            assert [int(e.split(",")[0]) for e in entries] == list(range(len(genome)))
            assert len(genome) == int(tab.get_attribute("#board", "data-board"))
            conflicts = int(tab.get_attribute("#board", "data-conflicts"))
            assert conflicts == plugged.repeats(genome)
            assert int(tab.get_attribute("#readout [data-conflicts]", "data-conflicts")) == conflicts
            label = tab.get_attribute("#board", "aria-label")
            assert label.endswith(f": {conflicts} repeated gaps") and " on size " in label
        board, seed = (int(tab.get_attribute("#board", a)) for a in ("data-board", "data-seed"))
        stored = runs[(runs["algorithm"] == tab.get_attribute("#board", "data-algorithm"))
                      & (runs["board"] == board) & (runs["seed"] == seed)].iloc[0]
        assert " ".join(map(str, genome)) == stored["solution"]
        assert opened.errors == [] and opened.requests == []


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception),
                                         ("", pytest.skip.Exception)])
def test_without_a_browser_ci_fails_and_elsewhere_skips_saying_why(monkeypatch, ci, outcome):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="no Chromium at /nonexistent/chromium"):
        browser.require()
