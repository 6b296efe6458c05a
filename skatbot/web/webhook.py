"""``skatbot webhook``: Telegram's updates as a route of the web application, for several
instances behind a load balancer.

For each ``POST`` to the webhook's path:

1. the ``X-Telegram-Bot-Api-Secret-Token`` header must equal the secret (else 403), and a
   declared length must be at most ``max_body`` (else 413) - both from the headers, before a
   byte of the body is read (the refusal closes the connection: ``skatbot.web.guard``);
2. the body is read (at most ``max_body`` bytes, also when chunked) and parsed as an Update
   (bad JSON: 400 - redelivering it would not help);
3. ``await app.process_update(update)`` runs the handlers - the effect is committed and the
   replies queued - and only then the answer is 200. If processing failed for a transient
   reason (database or network away), the answer is 500, so Telegram delivers the update
   again; redelivery books nothing twice (runtime.execute). A deterministic failure (a bug)
   is answered 200: a retry would fail the same way and repeat the error notice.

Within one instance the updates of a chat are processed one at a time (in arrival order);
across instances, the database serialises a chat's writes (row lock on PostgreSQL).

The server is uvicorn (h11) under a ``ConnectionGuard``: time limits for a request's head and
body, a connection cap with a fair share per address, optionally only Telegram's source
addresses (``SKATBOT_WEBHOOK_SOURCES``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from ipaddress import ip_network
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import Update

from skatbot.handlers.bot_state import SkatApplication, SkatContext
from skatbot.handlers.registry import transient
from skatbot.handlers.resilience import parse_update, tell_unreadable
from skatbot.runner import close_outbox
from skatbot.web.context import WebContext
from skatbot.web.guard import ConnectionGuard, Network
from skatbot.web.server import build_web_app, serving

log = logging.getLogger(__name__)

SECRET_HEADER = "x-telegram-bot-api-secret-token"
MAX_BODY = 256 << 10  # Telegram updates are a few kilobytes; refuse anything above 256 KiB
# Where Telegram's webhook requests come from ("Marvin's Marvellous Guide to All Things
# Webhook", core.telegram.org/bots/webhooks; IPv4 only). The guide says they may change.
TELEGRAM_SOURCES = (ip_network("149.154.160.0/20"), ip_network("91.108.4.0/22"))


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


class _TooLarge(Exception):
    pass


def _answer(status: int, *, close: bool = False) -> Response:
    text = "" if status == 200 else _PHRASES.get(status, "Error")
    headers = {"Connection": "close"} if close else None
    return Response(text, status_code=status, media_type="text/plain", headers=headers)


_PHRASES = {400: "Bad Request", 403: "Forbidden", 413: "Payload Too Large", 500: "Error"}


class Webhook:
    """The webhook route: feeds POSTed updates to ``app.process_update`` and answers after
    processing."""

    def __init__(
        self, app: SkatApplication, *, secret: str, path: str = "/", max_body: int = MAX_BODY
    ) -> None:
        self.app = app
        self.secret = secret
        self.path = "/" + path.strip("/")
        self.max_body = max_body
        self._chat_locks: dict[int, tuple[asyncio.Lock, int]] = {}  # lock, users
        self._failed: set[int] = set()
        app.add_error_handler(self._note_failure)
        app.bot_data.redelivered_on_failure = True

    def route(self) -> Route:
        return Route(self.path, self.endpoint, methods=["POST"])

    async def _note_failure(self, update: object, context: SkatContext) -> None:
        # Only a transient failure is answered 500 (Telegram delivers the update again); a
        # deterministic one would fail again on every retry, and the chat has been told.
        if isinstance(update, Update) and transient(context.error):
            self._failed.add(update.update_id)

    def allowed(self, request: Request) -> bool:
        given = request.headers.getlist(SECRET_HEADER)
        if len(given) != 1 or not self.secret:  # two secrets: which one would be meant?
            return False
        return hmac.compare_digest(given[0].encode(), self.secret.encode())

    async def endpoint(self, request: Request) -> Response:
        if not self.allowed(request):
            return _answer(403, close=True)
        declared = request.headers.get("content-length")
        if declared is not None and int(declared) > self.max_body:  # digits: h11 checked
            return _answer(413, close=True)
        try:
            body = await self._body(request)
        except _TooLarge:
            return _answer(413, close=True)
        except ClientDisconnect:
            return _answer(400, close=True)  # nobody reads it: the client is gone
        return _answer(await self.handle(body))

    async def _body(self, request: Request) -> bytes:
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge
            chunks.append(chunk)
        return b"".join(chunks)

    async def handle(self, body: bytes) -> int:
        """Process one update's body; returns the HTTP status to answer."""
        try:
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
                raise ValueError("not an update")
        except Exception as err:
            log.warning("webhook: unreadable update (%s)", err.__class__.__name__)
            return 400
        update = parse_update(data, self.app.bot)
        if update is None:
            # An update PTB cannot read fails the same way on every redelivery: confirm it
            # (200) and tell its chat once.
            tell_unreadable(self.app.bot, self.app.bot_data, data)
            return 200
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


@dataclass
class WebhookServer:
    """A running webhook: its application, route, connection guard and address."""

    app: SkatApplication
    hook: Webhook
    guard: ConnectionGuard
    url: str
    """``http://host:port`` the server listens on."""

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    @property
    def dropped(self) -> int:
        return self.guard.dropped

    @property
    def evicted(self) -> int:
        return self.guard.evicted

    @property
    def refused(self) -> int:
        return self.guard.refused


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
    max_body: int = MAX_BODY,
    **limits: Any,
) -> None:
    """Initialize and start ``app``, serve the web application with the webhook route,
    (optionally) setWebhook, serve until ``stop``. ``limits`` are ``ConnectionGuard``'s
    (connections, timeouts, sources)."""
    hook = Webhook(app, secret=secret, path=urlsplit(url).path or "/", max_body=max_body)
    guard = ConnectionGuard(**limits)
    asgi = build_web_app(WebContext.of(app), extra=[hook.route()])
    async with app:
        # PTB's own run_* call post_init; with our loop we must (it registers the command menu).
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()
        try:
            async with serving(asgi, listen, port, guard=guard) as base:
                if set_webhook:
                    await app.bot.set_webhook(
                        url,
                        secret_token=secret,
                        allowed_updates=app.bot_data.allowed_updates or Update.ALL_TYPES,
                    )
                log.info("skatbot webhook listening on %s", base)
                if on_ready is not None:
                    result = on_ready(WebhookServer(app, hook, guard, base))
                    if result is not None:
                        await result
                await stop.wait()
        finally:
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
