"""The solutions page (``python -m gaqueens.count N --html FILE``) in a real browser: headless
Chromium driven by Playwright. The page opens from file:// with no console error and no request
beyond file: and data:, shows the count of the listing, and picking a row shows that solution's
queens on the board.

Outside CI, with no browser (or no Playwright) found, these tests skip and say why; with
CI=true they fail instead. The browser is Debian's ``chromium`` package (tests/browser.py launches it)."""

import subprocess
import sys
from pathlib import Path

import pytest

import browser as chromium
from gaqueens.problems.nqueens.solutions import listing


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium from the shared launcher (tests/browser.py), which skips outside CI
    and fails in CI where none is found."""
    chromium.require()
    with chromium.browser() as launched:
        yield launched


class Opened:
    """A page opened from a file, with every console error, page error and request it made."""

    def __init__(self, browser, path: Path):
        self.errors, self.requests = [], []
        self.page = browser.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")

    def outside(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(("file:", "data:"))]

    def queens(self) -> list[tuple[int, int]]:
        cells = self.page.locator("[data-board] [data-queen]")
        return sorted(tuple(map(int, v.split(","))) for v in
                      (cells.nth(i).get_attribute("data-queen") for i in range(cells.count())))


def written(n: int, folder: Path) -> Path:
    path = folder / f"solutions-{n}.html"
    done = subprocess.run([sys.executable, "-m", "gaqueens.count", str(n), "--html", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize("n", [1, 3, 6, 8])
def test_the_page_counts_the_listing_and_shows_each_picked_solution(browser, tmp_path, n):
    listed = listing(n)
    opened = Opened(browser, written(n, tmp_path))
    page = opened.page
    assert page.locator("#count").inner_text() == f"{len(listed):,}"
    assert page.locator("#fundamental").inner_text() == f"{sum(s for _, s in listed):,}"
    rows = page.locator("#list li")
    assert rows.count() == len(listed)
    assert page.locator("#list li[data-fundamental]").count() == sum(s for _, s in listed)
    assert page.locator("[data-board]").get_attribute("data-board") == str(n)
    if not listed:  # 2 x 2 and 3 x 3: an empty board, and the page says why
        assert opened.queens() == [] and "no solution" in page.inner_text("body")
    for index in sorted({0, len(listed) // 2, len(listed) - 1} if listed else ()):
        rows.nth(index).click()
        columns = listed[index][0]
        assert opened.queens() == list(enumerate(columns))
        assert rows.nth(index).get_attribute("aria-selected") == "true"
        assert page.locator("#list li[aria-selected=true]").count() == 1
    assert opened.errors == [] and opened.outside() == []


def test_the_filter_and_the_arrow_keys_of_the_page_of_12(browser, tmp_path):
    """The largest page (14,200 rows) loads without error; with "fundamental only" ticked the
    arrow keys step from one fundamental solution to the next."""
    listed = listing(12)
    opened = Opened(browser, written(12, tmp_path))
    page = opened.page
    assert page.locator("#count").inner_text() == f"{len(listed):,}"
    page.locator("#only").check()
    assert page.locator("#list li:not(.hidden)").count() == sum(s for _, s in listed)
    fundamental = [p for p, s in listed if s]
    page.locator("#list li:not(.hidden)").nth(0).click()
    assert opened.queens() == list(enumerate(fundamental[0]))
    page.locator("#list").press("ArrowDown")
    assert opened.queens() == list(enumerate(fundamental[1]))
    page.screenshot(path=str(tmp_path / "solutions-12.png"))
    assert opened.errors == [] and opened.outside() == []
