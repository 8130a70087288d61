"""Headless Chromium for the browser tests, driven by Playwright: ``page(path)`` opens a local
file and records every console error and every request that is not file: or data:;
``opened(launched, path)`` does the same in a browser already running (``browser()``), so
that a module's tests share one.

Chromium is Debian's package (/usr/bin/chromium, .ci/run installs it). Outside CI, without
Playwright or the browser, the tests that ask for it skip and say why; with CI=true set, they
fail instead.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def executable() -> str | None:
    """The browser to drive, or None."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if executable() is None:
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def require() -> None:
    """Skips the calling test, saying why, where the browser cannot run; in CI, fails."""
    reason = missing()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests must run in CI: {reason}")
        pytest.skip(reason)


class Opened:
    """A page opened in the browser, with what it logged and asked for."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", self._request)

    def _request(self, request):
        if not request.url.startswith(("file:", "data:")):
            self.requests.append(request.url)


@contextmanager
def browser():
    """A running headless Chromium (require() first)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable(), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextmanager
def opened(launched, path, viewport=(1366, 800)):
    """``path`` opened in a fresh page of the running browser ``launched``: an Opened."""
    context = launched.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        tab = context.new_page()
        found = Opened(tab)
        tab.goto(Path(path).resolve().as_uri())
        tab.wait_for_load_state("load")
        yield found
    finally:
        context.close()


@contextmanager
def page(path, viewport=(1366, 800)):
    """``path`` opened in a fresh page of a headless Chromium: an Opened."""
    with browser() as launched, opened(launched, path, viewport) as found:
        yield found
