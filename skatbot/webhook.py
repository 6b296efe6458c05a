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
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from telegram import Update
from telegram.ext import Application, ContextTypes

from skatbot.handlers.registry import transient
from skatbot.handlers.resilience import parse_update, tell_unreadable
from skatbot.httpio import BadRequest, read_request
from skatbot.runner import close_outbox

log = logging.getLogger(__name__)

AnyApplication = Application[Any, Any, Any, Any, Any, Any]
SECRET_HEADER = "x-telegram-bot-api-secret-token"
MAX_BODY = 1 << 20  # Telegram updates are small; refuse anything above 1 MiB
_PHRASES = {
    200: "OK",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    500: "Internal Server Error",
}


def valid_secret(secret: str) -> bool:
    """Telegram's rule for ``secret_token``: 1-256 characters ``A-Z a-z 0-9 _ -``."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret) is not None


class WebhookServer:
    """Feeds POSTed updates to ``app.process_update`` and answers after processing."""

    def __init__(self, app: AnyApplication, *, secret: str, path: str = "/") -> None:
        self.app = app
        self.secret = secret
        self.path = path or "/"
        self.port = 0
        self._server: asyncio.Server | None = None
        self._chat_locks: dict[int, tuple[asyncio.Lock, int]] = {}  # lock, users
        self._failed: set[int] = set()
        self._connections: set[asyncio.Task[Any]] = set()
        app.add_error_handler(self._note_failure)
        app.bot_data["redelivered_on_failure"] = True

    async def _note_failure(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        # Only a transient failure is answered 500 (Telegram delivers the update again); a
        # deterministic one would fail again on every retry, and the chat has been told.
        if isinstance(update, Update) and transient(context.error):
            self._failed.add(update.update_id)

    async def start(self, listen: str, port: int) -> None:
        self._server = await asyncio.start_server(self._serve, listen, port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        # Let running requests finish: their updates are being committed right now.
        if self._connections:
            await asyncio.wait(self._connections, timeout=10)
        for task in self._connections:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 1)

    # -- processing -----------------------------------------------------------------------

    async def handle(self, headers: dict[str, str], body: bytes) -> int:
        """Process one webhook request; returns the HTTP status to answer."""
        given = headers.get(SECRET_HEADER, "")
        if not self.secret or not hmac.compare_digest(given.encode(), self.secret.encode()):
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
        lock, users = self._chat_locks.get(key, (asyncio.Lock(), 0)) if key else (None, 0)
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

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        try:
            while True:
                try:
                    request = await read_request(reader, max_body=MAX_BODY)
                except BadRequest:
                    await _respond(writer, 400, keep_alive=False)
                    break
                if request is None:
                    break
                verb, target, headers, body = request
                keep_alive = headers.get("connection", "").lower() != "close"
                if urlsplit(target).path.rstrip("/") != self.path.rstrip("/"):
                    status = 404
                elif verb != "POST":
                    status = 405
                else:
                    status = await self.handle(headers, body)
                await _respond(writer, status, keep_alive=keep_alive)
                if not keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            if task is not None:
                self._connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


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
    app: AnyApplication,
    *,
    listen: str,
    port: int,
    url: str,
    secret: str,
    set_webhook: bool = True,
    stop: asyncio.Event,
    on_ready: Callable[[WebhookServer], Awaitable[None] | None] | None = None,
) -> None:
    """Initialize and start ``app``, (optionally) setWebhook, serve until ``stop``."""
    server = WebhookServer(app, secret=secret, path=urlsplit(url).path or "/")
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
                    allowed_updates=app.bot_data.get("allowed_updates") or Update.ALL_TYPES,
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
    token: str, *, listen: str, port: int, url: str, secret: str, set_webhook: bool = True
) -> int:
    from skatbot.app import run_until_signal

    async def serve(app: AnyApplication, stop: asyncio.Event) -> None:
        await serve_webhook(
            app,
            listen=listen,
            port=port,
            url=url,
            secret=secret,
            set_webhook=set_webhook,
            stop=stop,
        )

    return run_until_signal(token, serve)
