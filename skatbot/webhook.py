"""``skatbot webhook``: serve Telegram webhooks, for several instances behind a load balancer.

A deliberately small HTTP/1.1 server on asyncio streams (stdlib only; PTB's own webhook
server needs tornado). For each ``POST``:

1. the ``X-Telegram-Bot-Api-Secret-Token`` header must equal the secret (else 403);
2. the body is parsed as an Update (bad JSON: 400 - redelivering it would not help);
3. ``await app.process_update(update)`` runs the handlers - the effect is committed and the
   replies queued - and only then the answer is 200. If processing failed for a transient
   reason (database or network away), the answer is 500, so Telegram delivers the update
   again; redelivery books nothing twice (runtime.execute). A deterministic failure (a bug)
   is answered 200: a retry would fail the same way and repeat the error notice.

Within one instance the updates of a chat are processed one at a time (in arrival order);
across instances, the database serialises a chat's writes (row lock on PostgreSQL).

The server holds against slow or hostile clients (it is reachable without the secret): the
path, method, secret and declared length are checked from the headers, before a byte of the
body is read (a refused request is answered and the connection closed); a new connection's
request head must arrive within ``head_timeout`` seconds, a kept-alive connection's next one
within ``keepalive_timeout``, and a body within ``body_timeout``; a body over ``max_body`` is
refused (413; updates are a few kilobytes). At most ``max_connections`` connections are open
(Telegram opens at most 100, 40 by default). When all are taken, a connection from another
address takes the place of the longest-waiting idle one (no request under way) of the
address that holds the most, if that address holds more than its fair share
(``fair_share``); otherwise it is answered 503 and closed. So one address (an attacker
without the secret) cannot keep Telegram out, while a load balancer that alone connects may
still use every connection. Optionally only ``sources`` (e.g. Telegram's published ranges)
are served; other addresses are closed unanswered. Chosen over aiohttp's server,
which would hold as well: importing it costs ~300 ms CPU and ~10 MB more peak RSS at every
start (bench/webhook_attack.py), this server nothing measurable.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network
from typing import Any
from urllib.parse import urlsplit

from telegram import Update

from skatbot.handlers.bot_state import SkatApplication, SkatContext
from skatbot.handlers.registry import transient
from skatbot.handlers.resilience import parse_update, tell_unreadable
from skatbot.httpio import BadRequest, TooLarge, declared_length, read_body, read_head
from skatbot.runner import close_outbox

log = logging.getLogger(__name__)

SECRET_HEADER = "x-telegram-bot-api-secret-token"
MAX_BODY = 256 << 10  # Telegram updates are a few kilobytes; refuse anything above 256 KiB
MAX_CONNECTIONS = 100  # Telegram's setWebhook max_connections is 1-100 (40 by default)
# Telegram sends a request as soon as it has connected, and its next one on a kept-alive
# connection whenever an update is due: a connection silent longer is not worth its slot.
HEAD_TIMEOUT = 3.0  # seconds from connecting to a request's complete head
KEEPALIVE_TIMEOUT = 5.0  # seconds a kept-alive connection may wait for its next request
BODY_TIMEOUT = 10.0  # seconds for the whole body
# Where Telegram's webhook requests come from ("Marvin's Marvellous Guide to All Things
# Webhook", core.telegram.org/bots/webhooks; IPv4 only). The guide says they may change.
TELEGRAM_SOURCES = (ip_network("149.154.160.0/20"), ip_network("91.108.4.0/22"))
HEAD_LIMIT = 16 << 10  # bytes of a request's head
_PHRASES = {
    200: "OK",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


Network = IPv4Network | IPv6Network


def valid_secret(secret: str) -> bool:
    """Telegram's rule for ``secret_token``: 1-256 characters ``A-Z a-z 0-9 _ -``."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret) is not None


def parse_sources(text: str) -> tuple[Network, ...]:
    """The networks of ``SKATBOT_WEBHOOK_SOURCES``: comma-separated addresses or networks,
    ``telegram`` for Telegram's published ranges; empty: every address (``()``). Raises
    ``ValueError`` naming the first item that is neither."""
    if not text.strip():
        return ()
    found: list[Network] = []
    for item in (part.strip() for part in text.split(",")):
        if item.lower() == "telegram":
            found.extend(TELEGRAM_SOURCES)
            continue
        try:
            found.append(ip_network(item))
        except ValueError:
            raise ValueError(item) from None
    return tuple(found)


def fair_share(max_connections: int) -> int:
    """The connections one address may keep when others need them."""
    return max(4, max_connections // 8)


@dataclass
class _Connection:
    address: str
    writer: asyncio.StreamWriter
    idle_since: float | None  # waiting for a request's head since (None: one under way)


class WebhookServer:
    """Feeds POSTed updates to ``app.process_update`` and answers after processing."""

    def __init__(
        self,
        app: SkatApplication,
        *,
        secret: str,
        path: str = "/",
        max_connections: int = MAX_CONNECTIONS,
        max_body: int = MAX_BODY,
        head_timeout: float = HEAD_TIMEOUT,
        keepalive_timeout: float = KEEPALIVE_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
        sources: Iterable[Network] = (),
    ) -> None:
        self.app = app
        self.secret = secret
        self.path = path or "/"
        self.max_connections = max_connections
        self.max_body = max_body
        self.head_timeout = head_timeout
        self.keepalive_timeout = keepalive_timeout
        self.body_timeout = body_timeout
        self.sources = tuple(sources)
        self.dropped = 0
        """Connections closed for being too slow or over the cap."""
        self.evicted = 0
        """Idle connections closed to make room for another address."""
        self.refused = 0
        """Connections from addresses outside ``sources``, closed unanswered."""
        self.port = 0
        self._server: asyncio.Server | None = None
        self._chat_locks: dict[int, tuple[asyncio.Lock, int]] = {}  # lock, users
        self._failed: set[int] = set()
        self._connections: dict[asyncio.Task[Any], _Connection] = {}
        app.add_error_handler(self._note_failure)
        app.bot_data.redelivered_on_failure = True

    async def _note_failure(self, update: object, context: SkatContext) -> None:
        # Only a transient failure is answered 500 (Telegram delivers the update again); a
        # deterministic one would fail again on every retry, and the chat has been told.
        if isinstance(update, Update) and transient(context.error):
            self._failed.add(update.update_id)

    async def start(self, listen: str, port: int) -> None:
        self._server = await asyncio.start_server(self._serve, listen, port, limit=HEAD_LIMIT)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        # Idle connections go at once; running requests may finish: their updates are being
        # committed right now.
        for connection in list(self._connections.values()):
            if connection.idle_since is not None:
                connection.writer.close()
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=10)
        for task in list(self._connections):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 1)

    # -- processing -----------------------------------------------------------------------

    def allowed(self, headers: dict[str, str]) -> bool:
        given = headers.get(SECRET_HEADER, "")
        return bool(self.secret) and hmac.compare_digest(given.encode(), self.secret.encode())

    def refusal(self, verb: str, target: str, headers: dict[str, str]) -> int | None:
        """The status that refuses a request from its head alone (None: read the body)."""
        if urlsplit(target).path.rstrip("/") != self.path.rstrip("/"):
            return 404
        if verb != "POST":
            return 405
        if not self.allowed(headers):
            return 403
        length = declared_length(headers)
        if length is not None and length > self.max_body:
            return 413
        return None

    async def handle(self, headers: dict[str, str], body: bytes) -> int:
        """Process one webhook request; returns the HTTP status to answer."""
        if not self.allowed(headers):
            return 403
        try:
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
                raise ValueError("not an update")
        except Exception as err:
            log.warning("webhook: unreadable update (%s)", err.__class__.__name__)
            return 400
        parsed = parse_update(data, self.app.bot)
        if parsed is None:
            # An update PTB cannot read fails the same way on every redelivery: confirm it
            # (200) and tell its chat once.
            tell_unreadable(self.app.bot, self.app.bot_data, data)
            return 200
        update = parsed
        chat = update.effective_chat
        key = chat.id if chat is not None else None
        lock, users = (
            self._chat_locks.get(key, (asyncio.Lock(), 0)) if key is not None else (None, 0)
        )
        if key is not None and lock is not None:
            self._chat_locks[key] = (lock, users + 1)
        try:
            async with lock or contextlib.nullcontext():
                await self.app.process_update(update)
        except Exception as err:
            log.exception("webhook: processing update %s failed", update.update_id)
            return 500 if transient(err) else 200  # a bug would fail again on every retry
        finally:
            if key is not None:
                lock, users = self._chat_locks[key]
                if users <= 1:
                    del self._chat_locks[key]
                else:
                    self._chat_locks[key] = (lock, users - 1)
        if update.update_id in self._failed:
            self._failed.discard(update.update_id)
            return 500  # a handler raised: let Telegram deliver it again
        return 200

    # -- HTTP -----------------------------------------------------------------------------

    def served(self, address: str) -> bool:
        """Whether ``address`` is one of ``sources`` (always, without ``sources``)."""
        if not self.sources:
            return True
        try:
            ip = ip_address(address)
        except ValueError:
            return False
        if ip.version == 6 and ip.ipv4_mapped is not None:  # a dual-stack socket's IPv4 peer
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.sources)

    def _make_room(self, address: str) -> bool:
        """All connections are taken: close the longest-idle connection of the address that
        holds the most, if that is another address holding more than its fair share."""
        held: dict[str, int] = {}
        for connection in self._connections.values():
            held[connection.address] = held.get(connection.address, 0) + 1
        idle = [
            (held[c.address], -c.idle_since, task)
            for task, c in self._connections.items()
            if c.idle_since is not None and c.address != address
        ]
        if not idle:
            return False
        count, _, task = max(idle, key=lambda item: item[:2])
        if count <= fair_share(self.max_connections):
            return False
        victim = self._connections.pop(task)
        victim.writer.close()  # its read ends (EOF); the task cleans up
        self.evicted += 1
        return True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.served(address):
            self.refused += 1
            writer.close()
            return
        if len(self._connections) >= self.max_connections and not self._make_room(address):
            self.dropped += 1
            with contextlib.suppress(Exception):
                await self._respond(writer, 503, keep_alive=False)
            writer.close()
            return
        connection = _Connection(address, writer, time.monotonic())
        if task is not None:
            self._connections[task] = connection
        timeout = self.head_timeout
        try:
            while True:
                connection.idle_since = time.monotonic()
                try:
                    head = await asyncio.wait_for(read_head(reader), timeout)
                except TimeoutError:
                    self.dropped += 1  # too slow, or idle for too long
                    break
                except BadRequest:
                    await self._respond(writer, 400, keep_alive=False)
                    break
                if head is None:
                    break
                connection.idle_since = None  # a request is under way: never evicted
                timeout = self.keepalive_timeout
                verb, target, headers = head
                keep_alive = headers.get("connection", "").lower() != "close"
                try:
                    status = self.refusal(verb, target, headers)
                except BadRequest:
                    status = 400
                if status is not None:
                    # Refused from the head: the body is never read, so the connection
                    # cannot carry another request.
                    await self._respond(writer, status, keep_alive=False)
                    break
                try:
                    body = await asyncio.wait_for(
                        read_body(reader, headers, max_body=self.max_body), self.body_timeout
                    )
                except TimeoutError:
                    self.dropped += 1
                    break
                except TooLarge:
                    await self._respond(writer, 413, keep_alive=False)
                    break
                except BadRequest:
                    await self._respond(writer, 400, keep_alive=False)
                    break
                status = await self.handle(headers, body)
                await self._respond(writer, status, keep_alive=keep_alive)
                if not keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except TimeoutError:  # the client does not read our answer
            self.dropped += 1
        finally:
            if task is not None:
                self._connections.pop(task, None)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _respond(
        self, writer: asyncio.StreamWriter, status: int, *, keep_alive: bool
    ) -> None:
        await asyncio.wait_for(_respond(writer, status, keep_alive=keep_alive), self.head_timeout)


async def _respond(writer: asyncio.StreamWriter, status: int, *, keep_alive: bool) -> None:
    payload = b"" if status == 200 else _PHRASES.get(status, "Error").encode()
    head = (
        f"HTTP/1.1 {status} {_PHRASES.get(status, 'Error')}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(payload)}\r\n"
        f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + payload)
    await writer.drain()


async def serve_webhook(
    app: SkatApplication,
    *,
    listen: str,
    port: int,
    url: str,
    secret: str,
    set_webhook: bool = True,
    stop: asyncio.Event,
    on_ready: Callable[[WebhookServer], Awaitable[None] | None] | None = None,
    **limits: Any,
) -> None:
    """Initialize and start ``app``, (optionally) setWebhook, serve until ``stop``.
    ``limits`` are ``WebhookServer``'s (connections, body size, timeouts)."""
    server = WebhookServer(app, secret=secret, path=urlsplit(url).path or "/", **limits)
    async with app:
        # PTB's own run_* call post_init; with our loop we must (it registers the command menu).
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()
        try:
            await server.start(listen, port)
            if set_webhook:
                await app.bot.set_webhook(
                    url,
                    secret_token=secret,
                    allowed_updates=app.bot_data.allowed_updates or Update.ALL_TYPES,
                )
            log.info("skatbot webhook listening on %s:%s", listen, server.port)
            if on_ready is not None:
                result = on_ready(server)
                if result is not None:
                    await result
            await stop.wait()
        finally:
            await server.stop()
            await close_outbox(app)
            if app.running:
                await app.stop()


def run_webhook_mode(
    token: str,
    *,
    listen: str,
    port: int,
    url: str,
    secret: str,
    set_webhook: bool = True,
    sources: tuple[Network, ...] = (),
) -> int:
    from skatbot.app import run_until_signal

    async def serve(app: SkatApplication, stop: asyncio.Event) -> None:
        await serve_webhook(
            app,
            listen=listen,
            port=port,
            url=url,
            secret=secret,
            set_webhook=set_webhook,
            stop=stop,
            sources=sources,
        )

    return run_until_signal(token, serve)
