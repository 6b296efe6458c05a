"""The webhook server holds against slow and hostile clients: the secret and the declared
length are checked from the headers before the body is read, a slow head or body is dropped
after its timeout, connections over the cap are refused, and a real update is answered
while 40 slow bodies without the secret hang on the server (bench/webhook_attack.py runs
300 of them against the real process)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from skatbot.app import build_application
from skatbot.storage.database import Database
from skatbot.webhook import WebhookServer, serve_webhook
from tests.helpers import GROUP_WINDOW
from tests.robustness.test_webhook import CHAT, SECRET, message
from tests.standin.fake_telegram import FakeBotApi

PATH = "/tg/hook"
LIMITS = {"max_connections": 50, "head_timeout": 0.5, "body_timeout": 0.5}


@asynccontextmanager
async def server(db: Database, **limits: object) -> AsyncIterator[tuple[FakeBotApi, WebhookServer]]:
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        api.add_chat(CHAT)
        app = build_application(api.token, db, base_url=f"{api.url}/bot", group_window=GROUP_WINDOW)
        stop = asyncio.Event()
        ready: asyncio.Future[WebhookServer] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(
            serve_webhook(
                app,
                listen="127.0.0.1",
                port=0,
                url=f"https://bot.example.org{PATH}",
                secret=SECRET,
                stop=stop,
                on_ready=ready.set_result,
                **{**LIMITS, **limits},
            )
        )
        try:
            yield api, await asyncio.wait_for(ready, 15)
        finally:
            stop.set()
            await asyncio.wait_for(task, 15)


def head(length: int, secret: str | None = SECRET) -> bytes:
    lines = [f"POST {PATH} HTTP/1.1", "Host: x", f"Content-Length: {length}"]
    if secret is not None:
        lines.append(f"X-Telegram-Bot-Api-Secret-Token: {secret}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def status_of(reader: asyncio.StreamReader, timeout: float = 5) -> int:
    line = await asyncio.wait_for(reader.readline(), timeout)
    return int(line.split()[1])


async def closed(reader: asyncio.StreamReader, timeout: float = 5) -> bool:
    """The server closed the connection (everything it sends read, then EOF)."""
    try:
        while await asyncio.wait_for(reader.read(65536), timeout):
            pass
    except (ConnectionError, TimeoutError):
        return False
    return True


async def post_update(ws: WebhookServer, update: dict[str, object]) -> int:
    body = json.dumps(update).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
    writer.write(head(len(body)) + body)
    await writer.drain()
    status = await status_of(reader, 30)
    writer.close()
    return status


async def test_refused_from_the_headers_before_the_body(db: Database) -> None:
    async with server(db) as (_api, ws):
        for secret, expected in ((None, 403), ("wrong", 403), (SECRET, 413)):
            reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
            writer.write(head(1 << 20, secret))  # a 1 MiB body announced, not a byte sent
            await writer.drain()
            assert await status_of(reader) == expected
            assert await closed(reader)
            writer.close()


async def test_slow_heads_and_bodies_are_dropped(db: Database) -> None:
    async with server(db) as (_api, ws):
        slow_head = await asyncio.open_connection("127.0.0.1", ws.port)
        slow_head[1].write(b"POST /tg/hook HTTP/1.1\r\nHost: x\r\n")  # never ends
        slow_body = await asyncio.open_connection("127.0.0.1", ws.port)
        slow_body[1].write(head(1000) + b"{" * 10)  # 10 of 1,000 bytes
        idle = await asyncio.open_connection("127.0.0.1", ws.port)  # says nothing
        for reader, _ in (slow_head, slow_body, idle):
            assert await closed(reader, timeout=5)  # the server's timeouts are 0.5 s
        assert ws.dropped == 3  # dropped by those timeouts, not by the client's give-up


async def test_connections_over_the_cap_are_refused(db: Database) -> None:
    async with server(db, max_connections=5, head_timeout=30) as (_api, ws):
        held = [await asyncio.open_connection("127.0.0.1", ws.port) for _ in range(5)]
        await asyncio.sleep(0.1)
        reader, _ = await asyncio.open_connection("127.0.0.1", ws.port)
        assert await status_of(reader) == 503
        assert await closed(reader)
        for _, w in held:
            w.close()
        await asyncio.sleep(0.2)
        assert await post_update(ws, message(1, "/neu Anna Bernd Carla")) == 200


async def test_an_update_is_answered_during_a_slow_body_attack(db: Database) -> None:
    async with server(db, head_timeout=30, body_timeout=30) as (api, ws):
        attackers = []
        for _ in range(40):
            reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
            writer.write(head(1 << 20, None) + b"x" * 4096)  # no secret, 1 MiB announced
            attackers.append((reader, writer))
        refused = [await status_of(r) for r, _ in attackers]
        assert refused == [403] * 40  # at once, from the headers
        assert all([await closed(r) for r, _ in attackers])
        assert await post_update(ws, message(1, "/neu Anna Bernd Carla")) == 200
        await ws.app.bot_data["outbox"].wait_idle(None, 10)
        assert any("Neue Liste" in (m.text or "") for m in api.messages(CHAT))
