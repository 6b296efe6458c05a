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


async def test_every_route_refuses_ambiguous_framing_and_slow_heads(bot: Bot) -> None:
    """The guard is the server's, not the webhook's: /healthz gets the same refusals."""
    import asyncio

    from skatbot.web.guard import ConnectionGuard

    guard = ConnectionGuard(head_timeout=0.3)
    async with serving(build_web_app(WebContext(bot.app)), guard=guard) as url:
        port = int(url.rsplit(":", 1)[1])
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        )
        answer = await asyncio.wait_for(reader.read(), 5)  # everything, then closed
        assert answer.startswith(b"HTTP/1.1 400 ")
        writer.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /healthz HTTP/1.1\r\n")  # the head never ends
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed after 0.3 s
        writer.close()
        assert guard.dropped == 1
        async with httpx.AsyncClient() as client:  # and a proper request is served
            assert (await client.get(url + "/healthz")).status_code == 200
