"""The hall's live page over a real socket: the page, its JSON with ETag and 304, the German
404 of an unknown or revoked link; and in a real browser, a result reported, a game booked at
a table and the tournament's end appearing without a reload. /leinwand itself:
tests/usecases/tournament/test_leinwand.py."""

from __future__ import annotations

import httpx

from skatbot.web.context import WebContext
from skatbot.web.server import build_web_app, serving
from tests.helpers import Bot, ok
from tests.web import hall

NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav"]  # a 4- and a 3-table
TABLE_CHAT = -1002


async def test_the_page_its_json_and_the_404(bot: Bot) -> None:
    token = await hall.desk(bot, "Winterskat", NAMES)
    async with serving(build_web_app(WebContext.of(bot.app))) as url, httpx.AsyncClient() as web:
        page = await web.get(f"{url}/leinwand/{token}")
        assert page.status_code == 200 and "Rangliste" in page.text
        assert page.headers["content-type"].startswith("text/html")
        assert '<body data-poll-ms="3000">' in page.text  # a hall's page asks every 3 s
        for asset in ("live.js", "live.css"):  # served by us: a hall may reach no CDN
            assert (await web.get(f"{url}/leinwand-dateien/{asset}")).status_code == 200
            assert f"/leinwand-dateien/{asset}" in page.text
        assert "http" not in (await web.get(f"{url}/leinwand-dateien/live.js")).text

        stand = await web.get(f"{url}/leinwand/{token}/stand")
        assert stand.status_code == 200 and stand.json()["name"] == "Winterskat"
        tag = stand.headers["etag"]
        again = await web.get(f"{url}/leinwand/{token}/stand", headers={"If-None-Match": tag})
        assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)

        tables, _ = await hall.draw(bot, 4711)
        await hall.report(bot, {n: (100, 1, 0) for n in tables[0]})
        changed = await web.get(f"{url}/leinwand/{token}/stand", headers={"If-None-Match": tag})
        assert changed.status_code == 200 and changed.headers["etag"] != tag
        shown = changed.json()
        assert sorted(r["name"] for r in shown["ranking"]) == sorted(tables[0])
        assert str(hall.DESK) not in changed.text  # no chat ids (nor any other id)

        for wrong in ("x", "A" * 22, "../../etc/passwd"):
            gone = await web.get(f"{url}/leinwand/{wrong}")
            assert gone.status_code == 404, wrong
        gone = await web.get(f"{url}/leinwand/{'A' * 22}")
        assert "Diese Leinwand gibt es nicht" in gone.text and 'lang="de"' in gone.text

        await ok(bot, "/leinwand aus", chat_id=hall.DESK, **hall.ORGANISER)
        assert (await web.get(f"{url}/leinwand/{token}")).status_code == 404
        assert (await web.get(f"{url}/leinwand/{token}/stand")).status_code == 404


async def test_a_booking_and_a_report_appear_without_a_reload(bot: Bot, page: object) -> None:
    from playwright.async_api import Page, expect

    assert isinstance(page, Page)
    await page.set_viewport_size({"width": 1920, "height": 1080})
    token = await hall.desk(bot, "Winterskat", NAMES)
    tables, codes = await hall.draw(bot, 4711)
    four = next(i for i, t in enumerate(tables) if len(t) == 4)
    three = 1 - four
    await hall.report(bot, {n: (100 + 10 * i, 1, 0) for i, n in enumerate(tables[four])})
    async with serving(build_web_app(hall.quick_web(bot))) as url:
        await page.goto(f"{url}/leinwand/{token}")
        ranking, board = page.locator("#ranking"), page.locator("#tables")
        await expect(ranking).to_contain_text(tables[four][0])
        await expect(page.locator("#progress")).to_have_text("Serie 1: 1 von 2 Tischen gemeldet")
        await expect(board).to_contain_text(f"Tisch {three + 1}")
        await page.evaluate("window.notReloaded = true")

        await hall.open_table(bot, codes[three + 1], TABLE_CHAT)
        await hall.book(bot, TABLE_CHAT, tables[three][0])
        await expect(board.locator("li.playing")).to_contain_text("1/36")

        await hall.report(bot, {n: (90, 1, 0) for n in tables[three]})
        await expect(page.locator("#progress")).to_have_text("Serie 1: 2 von 2 Tischen gemeldet")
        await expect(ranking.locator("li")).to_have_count(len(NAMES))

        # the end: the final ranking under a banner, the tables gone
        await ok(bot, "/turnier ende", chat_id=hall.DESK, **hall.ORGANISER)
        await ok(bot, "/turnier ende ja", chat_id=hall.DESK, **hall.ORGANISER)
        await expect(page.locator("#over")).to_have_text("Turnier beendet – Endstand")
        await expect(page.locator("#tables-box")).to_be_hidden()
        assert await page.evaluate("window.notReloaded === true")
