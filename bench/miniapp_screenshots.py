"""Screenshots of the Mini App for docs/miniapp.md, from a real list in a real browser.

    python bench/miniapp_screenshots.py [--out docs] [--chromium /usr/bin/chromium]

Plays a four-table's evening (ten games, a correction, an overbid Karo) through the bot and
the console's in-process Bot API on a fresh SQLite file, serves the web app on 127.0.0.1,
signs a login for the console's user as Telegram would, and photographs with Debian's
Chromium (Playwright): the form with a game put together and its value shown
(``miniapp-form.png``), the list in portrait (``miniapp-list-portrait.png``) and landscape
(``miniapp-list-landscape.png``), and the chart (``miniapp-chart.png``). The landscape
shot uses a dark Telegram theme (``tgWebAppThemeParams``), the others the light defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skatbot.app import build_application  # noqa: E402
from skatbot.runner import run_polling  # noqa: E402
from skatbot.standin.botapi import BotApi  # noqa: E402
from skatbot.storage.database import Database  # noqa: E402
from skatbot.web.context import WebContext  # noqa: E402
from skatbot.web.offline import local_login, login_url  # noqa: E402
from skatbot.web.server import build_web_app, serving  # noqa: E402

CHAT = -1001
EVENING = [
    "/neu Anna Bernd Carla Dora",
    "/spiel Bernd grand ohne 1 hand gewonnen",
    "/spiel Carla kreuz mit 2 gewonnen",
    "/spiel Dora herz ohne 1 verloren",
    "/spiel Anna null gewonnen",
    "/spiel Bernd pik mit 1 schneider gewonnen",
    "/spiel Dora karo mit 1 reiz 30 gewonnen",
    "/spiel Anna grand mit 2 gewonnen",
    "/spiel Carla null ouvert verloren",
    "/korrigieren 2 Carla kreuz mit 3 gewonnen",
    "/spiel Carla herz mit 1 hand gewonnen",
    "/spiel Anna kreuz ohne 2 verloren",
]
DARK = {
    "bg_color": "#17212b",
    "secondary_bg_color": "#232e3c",
    "section_bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#a3b1c2",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "destructive_text_color": "#ff6b6b",
}


async def play(api: BotApi, app: object) -> None:
    outbox = app.bot_data.outbox  # type: ignore[attr-defined]
    for line in EVENING:
        update_id = api.push_message(line, chat_id=CHAT, user_id=1, first_name="Spieler")
        await api.wait_confirmed(update_id, 30)
        await outbox.wait_idle(None, 30)


async def put_together(page: object) -> None:
    for selector in (
        "[data-name=Anna]",
        "[data-spiel=grand]",
        "[data-mit=ohne]",
        "[data-zahl='1']",
        "[data-stufe=hand]",
        "[data-ergebnis=gewonnen]",
    ):
        await page.click(selector)  # type: ignore[attr-defined]
    await page.wait_for_selector("#eintragen:enabled")  # type: ignore[attr-defined]


async def shoot(out: Path, chromium: str) -> None:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{tmp}/shots.db")
        db.migrate()
        api = BotApi(first_update_id=1)
        api.chat_owner = 1
        app = build_application(api.token, db, bot_api=api, rate_limit=False)
        stop = asyncio.Event()
        poller = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
        try:
            while not app.running:
                await asyncio.sleep(0.02)
            await play(api, app)
            login = local_login(app, chat_id=CHAT, user_id=1, first_name="Spieler")
            async with serving(build_web_app(WebContext(app))) as base, async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                page = await browser.new_page(
                    viewport={"width": 420, "height": 860}, locale="de-DE"
                )
                await page.goto(login_url(base, login))
                await page.wait_for_selector("#verlauf:not([hidden])")
                await put_together(page)
                # the form with the page's head (the chat, the game's number, the dealer)
                await page.evaluate("window.scrollTo(0, 0)")
                box = await page.locator("#formular").bounding_box()
                assert box is not None
                await page.screenshot(
                    path=out / "miniapp-form.png",
                    full_page=True,
                    clip={"x": 0, "y": 0, "width": 420, "height": box["y"] + box["height"] + 8},
                )
                await page.locator("#liste").screenshot(path=out / "miniapp-list-portrait.png")
                await page.locator("#verlauf").screenshot(path=out / "miniapp-chart.png")
                await page.close()

                wide = await browser.new_page(
                    viewport={"width": 900, "height": 420}, locale="de-DE"
                )
                theme = quote(json.dumps(DARK), safe="")
                await wide.goto(login_url(base, login) + "&tgWebAppThemeParams=" + theme)
                await wide.wait_for_selector("#liste:not([hidden])")
                await wide.locator("#liste").screenshot(path=out / "miniapp-list-landscape.png")
                await browser.close()
        finally:
            stop.set()
            await poller
            db.dispose()
    for name in ("form", "list-portrait", "list-landscape", "chart"):
        print(out / f"miniapp-{name}.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    asyncio.run(shoot(args.out, args.chromium))


if __name__ == "__main__":
    main()
