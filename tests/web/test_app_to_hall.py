"""The whole way of a game entered on a phone at a Preisskat: put together in the Mini App at
a table (its list opened with /tisch), its value seen before booking, booked, announced in
the table's chat on the strict stand-in, and showing on the hall's live page, open in a
second tab, without a reload."""

from __future__ import annotations

import datetime as dt
from typing import Any

from skatbot.handlers.app_auth import sign_init_data, sign_start, start_key
from skatbot.web.offline import login_url
from skatbot.web.server import build_web_app, serving
from tests.helpers import Bot, game_rows, ok
from tests.web import hall

NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav"]  # a 4- and a 3-table
TABLE_CHAT = -1002


async def test_a_game_booked_in_the_app_reaches_the_chat_and_the_hall(bot: Bot, page: Any) -> None:
    from playwright.async_api import expect

    token = await hall.desk(bot, "Winterskat", NAMES)
    tables, codes = await hall.draw(bot, 4711)
    three = next(i for i, t in enumerate(tables) if len(t) == 3)
    await hall.open_table(bot, codes[three + 1], TABLE_CHAT)
    declarer = tables[three][0]
    player = {"user_id": 60, "name": declarer}
    await ok(bot, "/stand", chat_id=TABLE_CHAT, **player)  # a member of the table's chat

    async with serving(build_web_app(hall.quick_web(bot))) as url:
        hall_tab = await page.context.new_page()
        await hall_tab.set_viewport_size({"width": 1920, "height": 1080})  # the projector
        await hall_tab.goto(f"{url}/leinwand/{token}")
        board = hall_tab.locator("#tables")
        await expect(board).to_contain_text(f"Tisch {three + 1}")
        await hall_tab.evaluate("window.notReloaded = true")

        start = sign_start(TABLE_CHAT, 0, 0, start_key(bot.api.token))
        init_data = sign_init_data(
            bot.api.token, 60, declarer, dt.datetime.now(dt.UTC), start_param=start
        )
        await page.bring_to_front()  # a tab in the background waits long for its clicks
        await page.goto(login_url(url, init_data))
        await page.wait_for_selector("#formular:not([hidden])")
        for selector in (
            f"[data-name={declarer}]",
            "[data-spiel=grand]",
            "[data-mit=ohne]",
            "[data-zahl='1']",
            "[data-ergebnis=gewonnen]",
        ):
            await page.click(selector)
        await page.wait_for_selector("#wert:has-text('48')")  # Grand ohne 1, Spiel 2: 2 × 24
        assert game_rows(bot.db) == []

        before = len(bot.api.calls)
        await page.click("#eintragen")
        await page.wait_for_selector("#meldung.ok")
        await bot.delivered(TABLE_CHAT)
        announced = [
            str(c.params.get("text", ""))
            for c in bot.api.calls[before:]
            if c.method == "sendMessage" and c.params.get("chat_id") == TABLE_CHAT
        ]
        assert any(f"{declarer}: Grand ohne 1" in t for t in announced), announced
        assert len(game_rows(bot.db)) == 1

        await expect(board.locator("li.playing")).to_contain_text("1/36")
        assert await hall_tab.evaluate("window.notReloaded === true")
        await hall_tab.close()
