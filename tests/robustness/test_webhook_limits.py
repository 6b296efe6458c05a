"""The webhook server holds against slow and hostile clients: the secret and the declared
length are checked from the headers before the body is read, a slow head or body is dropped
after its timeout, connections over the cap are refused, and a real update is answered
while 40 slow bodies without the secret hang on the server (bench/webhook_attack.py runs
300 of them against the real process). One address holding every connection cannot keep
another's update out, an idle kept-alive connection is closed, and optionally only listed
source addresses (Telegram's ranges) are served."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from ipaddress import ip_network

import pytest

from skatbot.app import build_application
from skatbot.storage.database import Database
from skatbot.web.webhook import WebhookServer, parse_sources, serve_webhook
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
        await ws.app.bot_data.outbox.wait_idle(None, 10)
        assert any("Neue Liste" in (m.text or "") for m in api.messages(CHAT))


# -- idle connections from one address ---------------------------------------------------------
# All of loopback (127.0.0.0/8) is local: the attacker connects from 127.0.0.2, Telegram's
# stand-in from 127.0.0.1, so the server sees two client addresses.
ATTACKER = "127.0.0.2"


async def connect_from(
    address: str, port: int
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


class IdleAttacker:
    """``count`` connections from ``ATTACKER`` that say nothing and connect again whenever
    the server drops them (bench/webhook_attack.py --attack idle on the real process)."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.count = count
        self.connects = 0
        self.dropped = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def _one(self) -> None:
        while True:
            try:
                reader, writer = await connect_from(ATTACKER, self.port)
            except OSError:
                await asyncio.sleep(0.01)
                continue
            self.connects += 1
            try:
                await reader.read()  # until the server answers (503) or closes
            except ConnectionError:
                pass
            finally:
                writer.close()
            self.dropped += 1

    async def __aenter__(self) -> IdleAttacker:
        self._tasks = [asyncio.create_task(self._one()) for _ in range(self.count)]
        for _ in range(500):  # until every connection was made once
            if self.connects >= self.count:
                break
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def post_from(address: str, ws: WebhookServer, update: dict[str, object]) -> int | None:
    """Post ``update`` from ``address`` on a new connection: the status, or None when the
    connection was closed without an answer."""
    body = json.dumps(update).encode()
    reader, writer = await connect_from(address, ws.port)
    try:
        writer.write(head(len(body)) + body)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 30)
    except ConnectionError:
        return None
    finally:
        writer.close()
    return int(line.split()[1]) if line else None


async def test_one_address_cannot_keep_an_update_out(db: Database) -> None:
    """An address holding every connection (idle, and coming back when dropped) gives one up
    for an update from another address: answered on the first try, not after the attacker's
    connections time out (they never do here: 30 s)."""
    async with (
        server(db, max_connections=20, head_timeout=30) as (api, ws),
        IdleAttacker(ws.port, 25) as attacker,
    ):
        statuses = []
        for _ in range(5):
            statuses.append(await post_from("127.0.0.1", ws, message(1, "/neu Anna Bernd Carla")))
            if statuses[-1] == 200:
                break
            await asyncio.sleep(0.05)
        assert statuses == [200]
        assert attacker.dropped >= 5  # the 5 over the cap were refused and keep trying
        await ws.app.bot_data.outbox.wait_idle(None, 10)
        assert any("Neue Liste" in (m.text or "") for m in api.messages(CHAT))


async def test_the_attacker_does_not_take_back_the_updates_connections(db: Database) -> None:
    """Several updates from another address, one after the other on kept-alive and new
    connections, while the attacker keeps reconnecting: every one is answered at once."""
    async with (
        server(db, max_connections=20, head_timeout=30) as (_api, ws),
        IdleAttacker(ws.port, 40),
    ):
        statuses = [
            await post_from("127.0.0.1", ws, message(n, f"/neu Anna Bernd Carla{n}"))
            for n in range(1, 6)
        ]
        assert statuses == [200] * 5


async def test_a_kept_alive_connection_that_idles_is_closed(db: Database) -> None:
    async with server(db, head_timeout=30, keepalive_timeout=0.3) as (_api, ws):
        body = json.dumps(message(1, "/neu Anna Bernd Carla")).encode()
        reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
        writer.write(head(len(body)) + body)
        assert await status_of(reader, 30) == 200
        assert await closed(reader)  # no second request: closed after 0.3 s, not 30
        assert ws.dropped == 1
        writer.close()


async def test_only_the_listed_sources_are_served(db: Database) -> None:
    async with server(db, sources=parse_sources("127.0.0.1/32")) as (_api, ws):
        assert await post_from(ATTACKER, ws, message(1, "/neu Anna Bernd Carla")) is None
        assert await post_from("127.0.0.1", ws, message(2, "/neu Anna Bernd Carla")) == 200
        assert ws.refused == 1


def test_sources_name_telegrams_ranges_or_networks() -> None:
    telegram = (ip_network("149.154.160.0/20"), ip_network("91.108.4.0/22"))
    assert parse_sources("") == ()
    assert parse_sources("telegram") == telegram
    assert parse_sources(" Telegram , 10.0.0.0/8, 192.0.2.7") == (
        *telegram,
        ip_network("10.0.0.0/8"),
        ip_network("192.0.2.7/32"),
    )
    for wrong in ("quatsch", "10.0.0.1/8", "telegram,,"):
        with pytest.raises(ValueError):
            parse_sources(wrong)


def test_wrong_sources_stop_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skatbot.cli import main

    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "4242:TEST")
    monkeypatch.setenv("SKATBOT_WEBHOOK_SECRET", SECRET)
    monkeypatch.setenv("SKATBOT_WEBHOOK_SOURCES", "telegram,quatsch")
    assert main(["webhook", "--url", "https://x/y"]) == 2
    err = capsys.readouterr().err
    assert "SKATBOT_WEBHOOK_SOURCES" in err and "quatsch" in err


# -- what h11 alone would let through -------------------------------------------------------------


async def test_content_length_with_transfer_encoding_is_refused(db: Database) -> None:
    """The framing request smuggling lives on: 400, closed, nothing processed."""
    async with server(db) as (api, ws):
        body = json.dumps(message(1, "/neu Anna Bernd Carla")).encode()
        chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
        lines = [
            f"POST {PATH} HTTP/1.1",
            "Host: x",
            f"Content-Length: {len(body)}",
            "Transfer-Encoding: chunked",
            f"X-Telegram-Bot-Api-Secret-Token: {SECRET}",
        ]
        reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + chunked)
        assert await status_of(reader) == 400
        assert await closed(reader)
        writer.close()
        assert not [c for c in api.calls if c.method == "sendMessage"]
        assert await post_update(ws, message(2, "/neu Anna Bernd Carla")) == 200


async def test_a_chunked_body_over_the_limit_is_refused(db: Database) -> None:
    async with server(db, max_body=1024) as (_api, ws):
        lines = [
            f"POST {PATH} HTTP/1.1",
            "Host: x",
            "Transfer-Encoding: chunked",
            f"X-Telegram-Bot-Api-Secret-Token: {SECRET}",
        ]
        reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        for _ in range(3):  # 3 chunks of 512 bytes: the third passes the limit
            writer.write(b"200\r\n" + b"x" * 512 + b"\r\n")
        await writer.drain()
        assert await status_of(reader) == 413
        assert await closed(reader)
        writer.close()


async def test_two_secret_headers_are_refused(db: Database) -> None:
    """Which of two would be meant? Neither: 403, whatever their order."""
    async with server(db) as (_api, ws):
        body = json.dumps(message(1, "/neu Anna Bernd Carla")).encode()
        for first, second in ((SECRET, "wrong"), ("wrong", SECRET)):
            reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
            extra = f"X-Telegram-Bot-Api-Secret-Token: {second}\r\n".encode()
            writer.write(head(len(body), first)[:-2] + extra + b"\r\n" + body)
            assert await status_of(reader) == 403
            writer.close()


async def gone(reader: asyncio.StreamReader, timeout: float = 5) -> bytes | None:
    """What the server sent before it closed the connection (None: still open after
    ``timeout``). Closing with our bytes unread resets the connection (or breaks our pipe):
    that is closed too."""
    received = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), timeout):
            received += chunk
    except ConnectionError:
        pass
    except TimeoutError:
        return None
    return received


async def test_an_oversized_head_is_refused(db: Database) -> None:
    async with server(db) as (api, ws):
        reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
        body = json.dumps(message(1, "/neu Anna Bernd Carla")).encode()
        padding = b"X-Padding: " + b"p" * (32 << 10) + b"\r\n"
        with contextlib.suppress(ConnectionError):
            writer.write(head(len(body))[:-2] + padding + b"\r\n" + body)
            await writer.drain()
        answer = await gone(reader)
        assert answer is not None  # closed, at once
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431 ")  # the 431 unless reset
        writer.close()
        assert not [c for c in api.calls if c.method == "sendMessage"]


async def test_a_head_trickling_in_on_a_kept_alive_connection_is_dropped(db: Database) -> None:
    """The next head's deadline runs from the end of the last answer, not from the last byte."""
    async with server(db, head_timeout=30, keepalive_timeout=0.5) as (_api, ws):
        body = json.dumps(message(1, "/neu Anna Bernd Carla")).encode()
        reader, writer = await asyncio.open_connection("127.0.0.1", ws.port)
        writer.write(head(len(body)) + body)
        assert await status_of(reader, 30) == 200
        trickle = f"POST {PATH} HTTP/1.1\r\nHost: x\r\n".encode()
        for byte in trickle:  # a byte every 0.1 s: 3 s in all, were it not dropped
            try:
                writer.write(bytes([byte]))
                await writer.drain()
            except ConnectionError:
                break
            await asyncio.sleep(0.1)
        assert await gone(reader) == b""
        assert ws.dropped == 1
        writer.close()
