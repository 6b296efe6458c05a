"""Builds the bot Application and runs it (Telegram long polling or the console)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from telegram.request import BaseRequest, HTTPXRequest

from skatbot.handlers.bot_state import CONTEXT_TYPES, SkatApplication
from skatbot.handlers.metrics import MeasuredApplication, Metrics, ObservedRequest
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.registry import post_init, register
from skatbot.storage.database import DEFAULT_URL, Database, legacy_notice

if TYPE_CHECKING:
    from skatbot.handlers.route import Route
    from skatbot.standin.botapi import BotApi

log = logging.getLogger(__name__)


def database_from_env() -> Database:
    url = os.environ.get("SKATBOT_DATABASE_URL") or DEFAULT_URL
    db = Database(url)
    notice = legacy_notice(url)
    if notice:
        log.warning("%s", notice)
    db.migrate()
    return db


SEND_READ_TIMEOUT = 15.0  # seconds; above Telegram's internal flood wait (about 8 s)


def bot_api_requests(timeout: float | None = None) -> tuple[HTTPXRequest, HTTPXRequest]:
    """PTB's two Bot API clients (replies and edits; getUpdates), as ApplicationBuilder makes
    them, but sharing one TLS context: each client would load the CA bundle itself, measured
    ~55 ms each here, a tenth of the start-up (bench/README.md)."""
    shared = {"verify": httpx.create_ssl_context()}  # httpx's default: certifi's CAs, verified
    # Under flood control Telegram may hold a send for up to ~8 s and then deliver it; a send
    # that timed out sooner would be sent again and arrive twice. So sends wait longer.
    timeouts: dict[str, Any] = {"read_timeout": SEND_READ_TIMEOUT}
    if timeout is not None:
        timeouts = {
            "connect_timeout": timeout,
            "read_timeout": timeout,
            "write_timeout": timeout,
            "pool_timeout": timeout,
        }
    requests = HTTPXRequest(connection_pool_size=256, httpx_kwargs=shared, **timeouts)
    get_updates = HTTPXRequest(connection_pool_size=1, httpx_kwargs=shared)
    return requests, get_updates


def in_process_requests(
    api: BotApi, timeout: float | None = None
) -> tuple[BaseRequest, BaseRequest]:
    """The two clients of ``bot_api_requests`` with their read timeouts, but calling a Bot
    API in this process (the console's): no socket, no TLS context."""
    from skatbot.standin.request import InProcessRequest

    send_timeout = SEND_READ_TIMEOUT if timeout is None else timeout
    return InProcessRequest(api, read_timeout=send_timeout), InProcessRequest(api)


def build_application(
    token: str,
    db: Database,
    *,
    base_url: str | None = None,
    bot_api: BotApi | None = None,
    rate_limit: bool = True,
    request_timeout: float | None = None,
    group_limit: int | None = 20,
    group_window: float = 60.0,
    routes: Sequence[Route] | None = None,
) -> SkatApplication:
    """The one Application used by Telegram, the console and the tests.

    ``request_timeout`` (seconds) overrides PTB's connect/read/write/pool timeouts of the Bot
    API requests (default 5 s, reading 15 s: ``SEND_READ_TIMEOUT``); the tests use short
    ones to provoke timeouts. Replies are
    paced per group chat to ``group_limit`` messages per ``group_window`` seconds (Telegram's
    ~20 a minute) and to 30 a second overall; ``rate_limit=False`` paces nothing, and a 429
    answer still pauses the chat it was about (``handlers.outbox``). ``routes`` replaces
    the route table (``handlers.routes.ROUTES``), for tests. With ``bot_api`` (the
    console's) the bot calls that Bot API in process (``in_process_requests``) instead of
    over HTTP (``base_url``, default Telegram's).
    """
    if bot_api is not None:
        calls, get_updates = in_process_requests(bot_api, request_timeout)
    else:
        calls, get_updates = bot_api_requests(request_timeout)
    metrics = Metrics()  # every Bot API call's outcome counted (health, /metrics)
    builder = (
        MeasuredApplication.builder()
        .application_class(MeasuredApplication)
        .token(token)
        .context_types(CONTEXT_TYPES)
        .updater(None)
        .post_init(post_init)
        .request(ObservedRequest(calls, metrics))
        .get_updates_request(ObservedRequest(get_updates, metrics))
    )
    if base_url:
        root = base_url.rstrip("/")
        if not root.endswith("/bot"):
            root += "/bot"
        builder = builder.base_url(root).base_file_url(root[: -len("/bot")] + "/file/bot")
    app = builder.build()
    app.bot_data.metrics = metrics
    app.bot_data.database = db
    pacer = (
        Pacer(group_limit, group_window) if rate_limit else Pacer(group_limit=None, per_second=None)
    )
    app.bot_data.outbox = Outbox(pacer, metrics)
    # the Mini App's button, made per chat when a reply is sent (handlers.miniapp)
    from skatbot.handlers.miniapp import AppLinks

    app.bot_data.outbox.buttons.app_link = AppLinks(app.bot_data, app.bot)
    if routes is None:
        register(app)
    else:
        register(app, routes)
    return app


WEB_OFF = ("0", "aus", "off", "no", "nein")
"""The values of ``SKATBOT_WEB_PORT`` that mean: no web pages."""


def console_web_port(interactive: bool) -> int | None:
    """``SKATBOT_WEB_PORT``: the port of the web app beside the console (``0``, ``aus`` or
    ``off``: none, as for ``skatbot run``). Unset: a free port in a terminal, none when the
    input is piped (tests and the README's transcript print nothing about it)."""
    raw = os.environ.get("SKATBOT_WEB_PORT", "").strip().lower()
    if not raw:
        return 0 if interactive else None
    if raw in WEB_OFF:
        return None
    if raw.isascii() and raw.isdigit() and int(raw) <= 65535:
        return int(raw)
    print(
        f"SKATBOT_WEB_PORT={raw!r} ist keine Portnummer – die Konsole läuft ohne Web-Seite "
        "(z. B. SKATBOT_WEB_PORT=8080, oder aus für keine).",
        file=sys.stderr,
    )
    return None


def run_console_mode(out_dir: str | Path) -> int:
    from skatbot.standin.console import CHAT_ID, DEFAULT_USER, run_console

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    db = database_from_env()
    interactive = bool(getattr(sys.stdin, "isatty", lambda: False)())
    port = console_web_port(interactive)
    beside = None
    if port is not None:
        from skatbot.web.offline import beside_console

        def beside(app: SkatApplication) -> contextlib.AbstractAsyncContextManager[str]:
            # The console's own user ("Spieler", user 1) in its first chat
            return beside_console(
                app, port=port, out=sys.stderr, chat_id=CHAT_ID, user_id=1, first_name=DEFAULT_USER
            )

    try:
        return asyncio.run(
            run_console(
                lambda api: build_application(api.token, db, bot_api=api, rate_limit=False),
                stdin=sys.stdin,
                stdout=sys.stdout,
                out_dir=Path(out_dir),
                beside=beside,
            )
        )
    finally:
        db.dispose()


def public_url_from_env() -> str | None:
    """``SKATBOT_PUBLIC_URL``: where the world reaches the web application (https://…)."""
    raw = os.environ.get("SKATBOT_PUBLIC_URL", "").strip().rstrip("/")
    return raw or None


def miniapp_name_from_env() -> str | None:
    """``SKATBOT_MINIAPP``: the Mini App's short name registered with @BotFather."""
    raw = os.environ.get("SKATBOT_MINIAPP", "").strip()
    return raw or None


def rate_limit_from_env() -> bool:
    """``SKATBOT_RATE_LIMIT=0`` switches the client-side rate limiter off (tests, benches)."""
    return os.environ.get("SKATBOT_RATE_LIMIT", "1").strip().lower() not in ("0", "off", "no")


def poll_timeout_from_env() -> int:
    """``SKATBOT_POLL_TIMEOUT``: seconds a long poll (getUpdates) may wait for updates
    (default 30; tests that restart the bot use 1, so a quiet poll ends soon)."""
    raw = os.environ.get("SKATBOT_POLL_TIMEOUT", "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() else 30


def setup_telegram_logging(token: str) -> None:
    from skatbot.logging_filter import install_token_filter

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # httpx logs every request URL, and the URL contains the token: keep it out of the logs.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    install_token_filter(token)  # and mask it wherever else it might show up


def run_until_signal(
    token: str,
    serve: Callable[[SkatApplication, asyncio.Event], Awaitable[None]],
) -> int:
    """Build the Telegram-facing app from the environment and run ``serve`` until SIGINT/TERM.

    Shared by long polling and the webhook server, so both set up logging (token masked),
    storage (migrated) and the Bot API client the same way.
    """
    from skatbot.backups import ScheduleError, run_schedule, schedule_from_env

    try:
        schedule = schedule_from_env()
    except ScheduleError as err:
        print(err, file=sys.stderr)
        return 2
    setup_telegram_logging(token)
    db = database_from_env()
    app = build_application(
        token,
        db,
        base_url=os.environ.get("TELEGRAM_API_BASE_URL"),
        rate_limit=rate_limit_from_env(),
    )
    app.bot_data.public_url = public_url_from_env()
    app.bot_data.miniapp_name = miniapp_name_from_env()

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        if schedule is None:
            await serve(app, stop)
            return
        url = db.url.render_as_string(hide_password=False)
        backups = asyncio.create_task(run_schedule(schedule, url, stop))
        try:
            await serve(app, stop)
        finally:
            stop.set()
            await backups  # a backup under way is finished (or fails) before the exit

    from telegram.error import InvalidToken, TelegramError

    from skatbot.logging_filter import TokenFilter

    masked = TokenFilter(token).mask
    try:
        asyncio.run(main())
    except InvalidToken:
        # PTB's exception chain quotes the request URL, which holds the token: one line only.
        print(
            "Telegram lehnt den Bot-Token ab (401 Unauthorized) – TELEGRAM_BOT_TOKEN prüfen "
            "(den Token nennt @BotFather).",
            file=sys.stderr,
        )
        return 2
    except TelegramError as err:
        print(
            "Telegram antwortet nicht wie erwartet: "
            f"{masked(str(err))} – TELEGRAM_API_BASE_URL und die Verbindung prüfen.",
            file=sys.stderr,
        )
        return 2
    except Exception as err:  # anything else: its text and traceback masked, never raw
        log.error("skatbot stopped: %s", masked(repr(err)), exc_info=True)
        print(f"skatbot ist mit einem Fehler beendet: {masked(str(err))[:300]}", file=sys.stderr)
        return 1
    finally:
        db.dispose()
    return 0


WEB_PORT = 8080


def web_address_from_env() -> tuple[str, int] | None:
    """Where ``skatbot run`` serves the web application (health, Mini App, live pages):
    ``SKATBOT_WEB_LISTEN`` (default 127.0.0.1) and ``SKATBOT_WEB_PORT`` (default 8080;
    ``0`` or ``off``: not at all). Raises ``ValueError`` with a German message."""
    raw = os.environ.get("SKATBOT_WEB_PORT", "").strip().lower()
    if raw in WEB_OFF:
        return None
    listen = os.environ.get("SKATBOT_WEB_LISTEN", "").strip() or "127.0.0.1"
    if not raw:
        return listen, WEB_PORT
    if not (raw.isascii() and raw.isdigit() and 0 < int(raw) < 65536):
        raise ValueError(
            f"SKATBOT_WEB_PORT: „{raw}“ ist kein Port. Eine Zahl von 1 bis 65535 angeben "
            "(z. B. 8080) oder „off“, um die Web-Seiten abzuschalten."
        )
    return listen, int(raw)


@contextlib.asynccontextmanager
async def serve_web_beside(app: SkatApplication, listen: str, port: int) -> AsyncIterator[None]:
    """The web application on ``listen:port`` while the bot polls; a port that cannot be
    bound is one German warning on stderr, and the bot polls without its pages."""
    from skatbot.web.context import WebContext
    from skatbot.web.server import build_web_app, serving

    async with contextlib.AsyncExitStack() as stack:
        try:
            url = await stack.enter_async_context(
                serving(build_web_app(WebContext.of(app)), listen, port)
            )
        except OSError as err:
            print(
                f"Die Web-Seiten (Mini-App, Leinwand) starten nicht: {listen}:{port} ist nicht "
                f"frei ({err.strerror or err}). Der Bot läuft trotzdem. Einen anderen Port mit "
                "SKATBOT_WEB_PORT wählen oder die Seiten mit SKATBOT_WEB_PORT=off abschalten.",
                file=sys.stderr,
            )
        else:
            log.info("web application on %s", url)
        yield


def run_telegram_mode(token: str) -> int:
    from skatbot.runner import run_polling

    try:
        address = web_address_from_env()
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2

    async def serve(app: SkatApplication, stop: asyncio.Event) -> None:
        async with contextlib.AsyncExitStack() as stack:
            if address is not None:
                await stack.enter_async_context(serve_web_beside(app, *address))
            log.info("skatbot polling started")
            await run_polling(app, stop=stop, timeout=poll_timeout_from_env())

    return run_until_signal(token, serve)
