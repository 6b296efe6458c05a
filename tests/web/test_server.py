"""The web application is served by uvicorn in the bot's own event loop."""

from __future__ import annotations

import httpx
import pytest

from skatbot.web.context import WebContext
from skatbot.web.server import build_web_app, serving
from tests.helpers import Bot


async def test_healthz_answers_over_a_real_socket(bot: Bot) -> None:
    asgi = build_web_app(WebContext(bot.app))
    async with serving(asgi) as url, httpx.AsyncClient() as client:
        assert url.startswith("http://127.0.0.1:")
        answer = await client.get(url + "/healthz")
        assert (answer.status_code, answer.text) == (200, "ok\n")
        assert (await client.get(url + "/nirgends")).status_code == 404


async def test_a_taken_port_is_an_oserror(bot: Bot) -> None:
    asgi = build_web_app(WebContext(bot.app))
    async with serving(asgi) as url:
        port = int(url.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            async with serving(asgi, port=port):
                pass


async def test_healthz_in_the_browser(bot: Bot, page: object) -> None:
    from playwright.async_api import Page

    assert isinstance(page, Page)
    async with serving(build_web_app(WebContext(bot.app))) as url:
        answer = await page.goto(url + "/healthz")
        assert answer is not None and answer.status == 200
        assert (await page.content()).count("ok") == 1
