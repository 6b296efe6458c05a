"""The Mini App's page in a real browser (Debian's Chromium), against the real API on a real
socket, the real bot and the strict stand-in: a game put together by taps, its value seen
before booking, booked, announced in the chat and standing in the page's list; a forged
login shows nothing. And offline: the console serves the page beside itself, and a booking
made in the browser is printed in the console's chat."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from skatbot.app import build_application, console_web_port
from skatbot.handlers.app_auth import sign_init_data, sign_start, start_key
from skatbot.rules.bids import BID_VALUES
from skatbot.standin.botapi import BotApi
from skatbot.storage.database import Database
from skatbot.web.context import WebContext
from skatbot.web.offline import login_url
from skatbot.web.server import build_web_app, serving
from tests.helpers import Bot, game_rows, ok

CHAT = -1001


def login(token: str, *, user_id: int, name: str, chat_id: int = CHAT) -> str:
    """A signed initData for ``user_id``, opening the current list of ``chat_id``, as Telegram
    would sign it for a direct link's ``startapp``."""
    start = sign_start(chat_id, 0, 0, start_key(token))
    return sign_init_data(token, user_id, name, dt.datetime.now(dt.UTC), start_param=start)


async def put_together(page: Any) -> None:
    """Anna, Grand ohne 1 Hand, gewonnen: by taps, as a player would."""
    for selector in (
        "[data-name=Anna]",
        "[data-spiel=grand]",
        "[data-mit=ohne]",
        "[data-zahl='1']",
        "[data-stufe=hand]",
        "[data-ergebnis=gewonnen]",
    ):
        await page.click(selector)


async def test_a_game_put_together_in_the_browser_is_booked_and_announced(
    bot: Bot, page: Any
) -> None:
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")
    async with serving(build_web_app(WebContext(bot.app))) as url:
        await page.goto(login_url(url, login(bot.api.token, user_id=1, name="Spieler")))
        await page.wait_for_selector("#formular:not([hidden])")
        assert "Geber Anna" in await page.inner_text("#fortschritt")
        bids = await page.eval_on_selector_all(
            "#reiz option[value]:not([value=''])", "o => o.map(x => +x.value)"
        )
        assert tuple(bids) == BID_VALUES  # the page's bid values are the rules' 63

        # a game the rules refuse: /spiel's German answer under the form, no booking possible
        await page.click("[data-name=Anna]")
        await page.click("[data-spiel=null]")
        await page.select_option("#reiz", "60")
        await page.click("[data-ergebnis=gewonnen]")
        await page.wait_for_selector("#vorschau.fehler")
        assert "Null" in await page.inner_text("#vorschau")
        assert await page.is_disabled("#eintragen")
        await page.select_option("#reiz", "")

        await put_together(page)
        # the value and the Seeger-Fabian effect stand there before anything is booked
        await page.wait_for_selector("#wert:has-text('122')")
        preview = await page.inner_text("#vorschau")
        assert "Grand ohne 1 Hand" in preview and "72" in preview, preview
        assert game_rows(bot.db) == []
        before = len(bot.api.calls)

        await page.click("#eintragen")
        await page.wait_for_selector("#meldung.ok")
        await bot.delivered(CHAT)
        announced = [
            str(c.params.get("text", ""))
            for c in bot.api.calls[before:]
            if c.method == "sendMessage" and c.params.get("chat_id") == CHAT
        ]
        assert any("Grand ohne 1 Hand" in t and "+72" in t for t in announced), announced
        assert len(game_rows(bot.db)) == 1

        listed = await page.inner_text("#zeilen")
        assert "Anna: Grand ohne 1 Hand" in listed, listed
        assert re.search(r"\b72\b", listed), listed
        closing = await page.inner_text("#abschluss")
        assert "122" in closing, closing
        # the chart: the bot's picture, fetched with the login, shown once there are games
        await page.wait_for_selector("#verlauf:not([hidden])")
        assert await page.evaluate("document.getElementById('bild').naturalWidth") > 100

        # a second tap books nothing twice: the form was emptied, the button is off
        assert await page.is_disabled("#eintragen")
    assert len(game_rows(bot.db)) == 1


async def test_a_forged_login_shows_no_data(bot: Bot, page: Any, console_errors: list[str]) -> None:
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")
    genuine = login(bot.api.token, user_id=1, name="Spieler")
    forged = re.sub(
        r"hash=([0-9a-f])", lambda m: "hash=" + ("1" if m.group(1) != "1" else "2"), genuine
    )
    assert forged != genuine
    theme = quote(json.dumps({"bg_color": "#17212b", "secondary_bg_color": "#232e3c"}))
    async with serving(build_web_app(WebContext(bot.app))) as url:
        await page.goto(login_url(url, forged) + "&tgWebAppThemeParams=" + theme)
        await page.wait_for_selector("#hinweis:not([hidden])")
        # Telegram's colours from the launch fragment
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(35, 46, 60)", background
        # and their change, as a mobile client announces it
        await page.evaluate(
            "Telegram.WebView.receiveEvent('theme_changed',"
            " {theme_params: {secondary_bg_color: '#ffffff'}})"
        )
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(255, 255, 255)", background
        hint = await page.inner_text("#hinweis")
        assert "Anmeldung" in hint or "neu öffnen" in hint, hint
        body = await page.inner_text("body")
        assert "Anna" not in body and "Bernd" not in body, body
        assert await page.is_hidden("#formular") and await page.is_hidden("#liste")
    # the browser logs the refused request (401) itself; nothing else went wrong
    assert all("401" in e for e in console_errors), console_errors
    console_errors.clear()


def test_the_console_serves_the_page_in_a_terminal_and_only_when_asked_with_piped_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SKATBOT_WEB_PORT", raising=False)
    assert console_web_port(interactive=True) == 0
    assert console_web_port(interactive=False) is None
    monkeypatch.setenv("SKATBOT_WEB_PORT", "8765")
    assert console_web_port(interactive=False) == 8765
    monkeypatch.setenv("SKATBOT_WEB_PORT", "aus")
    assert console_web_port(interactive=True) is None
    monkeypatch.setenv("SKATBOT_WEB_PORT", "acht")
    assert console_web_port(interactive=True) is None


async def test_a_game_booked_in_the_browser_shows_in_the_console(
    db: Database, page: Any, tmp_path: Path
) -> None:
    from skatbot.standin.console import CHAT_ID, DEFAULT_USER, run_console
    from skatbot.web.offline import beside_console

    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "r", encoding="utf-8")
    typing = os.fdopen(write_fd, "w", encoding="utf-8")
    stdout, stderr = io.StringIO(), io.StringIO()

    def build(api: BotApi) -> Any:
        return build_application(api.token, db, bot_api=api, rate_limit=False)

    def beside(app: Any) -> Any:
        return beside_console(
            app, port=0, out=stderr, chat_id=CHAT_ID, user_id=1, first_name=DEFAULT_USER
        )

    console = asyncio.create_task(
        run_console(build, stdin=stdin, stdout=stdout, out_dir=tmp_path, beside=beside)
    )

    async def until(found: Any, what: str) -> None:
        for _ in range(3000):
            if found():
                return
            assert not console.done(), (what, stdout.getvalue(), stderr.getvalue())
            await asyncio.sleep(0.01)
        raise AssertionError((what, stdout.getvalue(), stderr.getvalue()))

    try:
        typing.write("/neu Anna Bernd Carla\n")
        typing.flush()
        await until(lambda: "Neue Liste" in stdout.getvalue(), "the list")
        await until(lambda: "http://127.0.0.1:" in stderr.getvalue(), "the address")
        address = re.search(r"http://127\.0\.0\.1:\d+/app#\S+", stderr.getvalue())
        assert address is not None, stderr.getvalue()

        await page.goto(address.group(0))
        await page.wait_for_selector("#formular:not([hidden])")
        await put_together(page)
        await page.wait_for_selector("#eintragen:enabled")
        await page.click("#eintragen")
        await page.wait_for_selector("#meldung.ok")
        # printed in the console without anything typed: the bot's answer in the chat
        await until(
            lambda: "✅ Spiel 1/36 · Anna: Grand ohne 1 Hand" in stdout.getvalue(), "booking"
        )
        assert "Anna: Grand ohne 1 Hand" in await page.inner_text("#zeilen")

        # /app in the console's chat names the page's address, never a login
        typing.write("/app\n")
        typing.flush()
        await until(lambda: "auf diesem Rechner" in stdout.getvalue(), "/app")
        answer = stdout.getvalue().split("> /app", 1)[1]
        assert address.group(0).split("#", 1)[0] in answer, answer
        assert "tgWebAppData" not in stdout.getvalue() and "hash" not in answer
    finally:
        typing.close()
        assert await asyncio.wait_for(console, 30) == 0


async def test_the_page_and_its_files_come_only_from_the_bot(bot: Bot) -> None:
    import httpx

    async with serving(build_web_app(WebContext(bot.app))) as url, httpx.AsyncClient() as client:
        index = await client.get(url + "/app")
        assert index.status_code == 200 and index.headers["content-type"].startswith("text/html")
        policy = index.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert "http" not in index.text.replace("http-equiv", "")  # no CDN, nothing from outside
        script = await client.get(url + "/app/static/app.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert script.headers["content-security-policy"] == policy
        for outside in (
            "/app/static/../page.py",
            "/app/static/%2e%2e/page.py",
            "/app/static/nichts.js",
        ):
            assert (await client.get(url + outside)).status_code == 404, outside
