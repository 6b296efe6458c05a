"""A real browser for the web pages: Debian's ``chromium`` driven by Playwright's Python API
(no browser download is reachable here, so the system browser's executable is used).

``page`` fails its test on any error in the browser's console or any uncaught page error;
a test that expects one takes ``console_errors`` and empties it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import pytest

CHROMIUM = os.environ.get("SKATBOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    playwright_api = pytest.importorskip("playwright.async_api")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)")
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    async with playwright_api.async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            await b.close()


@pytest.fixture
def console_errors() -> list[str]:
    return []


@pytest.fixture
async def page(browser: object, console_errors: list[str]) -> AsyncIterator[object]:
    from playwright.async_api import Browser

    assert isinstance(browser, Browser)
    context = await browser.new_context(locale="de-DE", viewport={"width": 420, "height": 860})
    p = await context.new_page()
    p.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: console_errors.append(str(e)))
    try:
        yield p
    finally:
        await context.close()
    assert console_errors == [], f"errors in the browser's console: {console_errors}"
