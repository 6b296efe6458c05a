"""Builds the bot Application and runs it (Telegram long polling or the console)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

from telegram.ext import AIORateLimiter, Application

from skatbot.handlers.registry import post_init, register
from skatbot.storage.database import DEFAULT_URL, Database

log = logging.getLogger(__name__)


def database_from_env() -> Database:
    db = Database(os.environ.get("SKATBOT_DATABASE_URL") or DEFAULT_URL)
    db.migrate()
    return db


def build_application(
    token: str, db: Database, *, base_url: str | None = None, rate_limit: bool = True
) -> Application:  # type: ignore[type-arg]
    """The one Application used by Telegram, the console and the tests."""
    builder = Application.builder().token(token).updater(None).post_init(post_init)
    if base_url:
        root = base_url.rstrip("/")
        if not root.endswith("/bot"):
            root += "/bot"
        builder = builder.base_url(root).base_file_url(root[: -len("/bot")] + "/file/bot")
    if rate_limit:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=3))  # type: ignore[arg-type]
    app = builder.build()
    app.bot_data["db"] = db
    register(app)
    return app


def run_console_mode(out_dir: str | Path) -> int:
    from skatbot.standin.console import run_console

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    db = database_from_env()
    try:
        return asyncio.run(
            run_console(
                lambda token, url: build_application(token, db, base_url=url, rate_limit=False),
                stdin=sys.stdin,
                stdout=sys.stdout,
                out_dir=Path(out_dir),
            )
        )
    finally:
        db.dispose()


def run_telegram_mode(token: str) -> int:
    from skatbot.runner import run_polling

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # httpx logs every request URL, and the URL contains the token: keep it out of the logs.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    db = database_from_env()
    app = build_application(token, db, base_url=os.environ.get("TELEGRAM_API_BASE_URL"))

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        log.info("skatbot polling started")
        await run_polling(app, stop=stop)

    try:
        asyncio.run(main())
    finally:
        db.dispose()
    return 0
