"""The hall's live page as a projector shows it: ``docs/leinwand.png`` (1920×1080).

A Preisskat of 22 players played through the real bot on the strict stand-in (the same
steps as tests/web/test_live_page.py): series 1 reported, series 2 with two tables reported,
two playing on their own lists and one waiting for its list. The page is served by the web
application and photographed by Debian's Chromium through Playwright.

    python bench/leinwand_screenshot.py [OUT.png]
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's skatbot, tests/

from playwright.async_api import async_playwright, expect

from skatbot.web.context import WebContext
from skatbot.web.server import build_web_app, serving
from tests.helpers import fresh_database, running_bot
from tests.web import hall
from tests.web.conftest import CHROMIUM

PLAYERS = [
    "Gisela Hoffmann", "Werner Krause", "Ursula Becker", "Horst Schulz", "Renate Wagner",
    "Dieter Braun", "Helga Zimmermann", "Manfred Richter", "Inge Wolf", "Klaus Neumann",
    "Brigitte Schröder", "Jürgen Lange", "Monika Hartmann", "Günter Krüger", "Erika Fuchs",
    "Heinz Lehmann", "Karin Schmitt", "Rolf Meier", "Waltraud Koch", "Bernd Vogel",
    "Christa Keller", "Peter Albrecht",
]  # fmt: skip
PLAYING = {3: 26, 4: 14}  # table -> games booked on its list in series 2
OUT = Path(__file__).resolve().parents[1] / "docs" / "leinwand.png"


def results(rng: random.Random, names: list[str]) -> dict[str, tuple[int, int, int]]:
    return {n: (rng.randint(300, 1300), rng.randint(2, 9), rng.randint(0, 4)) for n in names}


async def main(out: Path) -> None:
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        db = fresh_database(Path(tmp))
        async with running_bot(db) as bot:
            token = await hall.desk(bot, "Preisskat Vereinsheim", PLAYERS)
            tables, _ = await hall.draw(bot, 4711)
            await hall.report(bot, results(rng, [n for t in tables for n in t]))
            tables, codes = await hall.draw(bot, 4712)
            await hall.report(bot, results(rng, tables[0] + tables[1]))
            for no, games in PLAYING.items():
                chat = -1100 - no
                await hall.open_table(bot, codes[no], chat)
                seats = tables[no - 1]
                for i in range(games):  # the dealer at a 4-table sits out: the next seat plays
                    declarer = seats[(i + 1) % len(seats)].split()[0]
                    await hall.book(bot, chat, declarer, won=rng.random() < 0.8)
            async with serving(build_web_app(WebContext.of(bot.app))) as url:
                await shoot(f"{url}/leinwand/{token}", out)
                await measure(f"{url}/leinwand/{token}/stand")
    print(out)


async def measure(url: str, n: int = 50) -> None:
    """What one poll costs on this board: the JSON's size, the median time of a full answer
    and of a 304 (over a real socket, SQLite)."""
    async with httpx.AsyncClient() as web:
        first = await web.get(url)
        tag = first.headers["etag"]
        full, same = [], []
        for _ in range(n):
            t0 = time.perf_counter()
            await web.get(url)
            full.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            assert (await web.get(url, headers={"If-None-Match": tag})).status_code == 304
            same.append(time.perf_counter() - t0)
    ms = lambda xs: f"{1000 * statistics.median(xs):.1f} ms"  # noqa: E731
    print(
        f"/stand: {len(first.content)} bytes; 200 in {ms(full)}, 304 in {ms(same)} (median of {n})"
    )


async def shoot(url: str, out: Path) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await browser.new_page(viewport={"width": 1920, "height": 1080}, locale="de-DE")
        await page.goto(url)
        await expect(page.locator("#ranking li").first).to_be_visible()
        await page.screenshot(path=str(out))
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
