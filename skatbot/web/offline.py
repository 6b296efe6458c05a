"""The web app beside the console (no Telegram): served on 127.0.0.1, opened with a local login.

Without a token there is no Telegram to sign a login, so the bot signs one itself, for the
console's own user in its chat, exactly as Telegram would (initData with the bot's token),
and puts it in the address's fragment as Telegram does (``#tgWebAppData=…``). The page and
the API cannot tell the difference, so the offline app is the real one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import AsyncIterator
from typing import TextIO
from urllib.parse import quote

from skatbot.handlers.app_auth import sign_init_data, sign_start, start_key
from skatbot.handlers.bot_state import SkatApplication
from skatbot.web.context import WebContext
from skatbot.web.server import build_web_app, serving

HOST = "127.0.0.1"


def local_login(
    app: SkatApplication, *, chat_id: int, user_id: int, first_name: str, topic_id: int = 0
) -> str:
    """A signed initData for ``user_id`` opening the current list of ``chat_id``."""
    token = app.bot.token
    start = sign_start(chat_id, topic_id, 0, start_key(token))
    now = dt.datetime.now(dt.UTC)
    return sign_init_data(token, user_id, first_name, now, start_param=start)


def login_url(base: str, init_data: str) -> str:
    """The page's address with the login in its fragment (never sent to a server, as in
    Telegram: the page passes it on in the API's ``Authorization`` header)."""
    return f"{base}/app#tgWebAppData={quote(init_data, safe='')}&tgWebAppPlatform=web"


@contextlib.asynccontextmanager
async def beside_console(
    app: SkatApplication,
    *,
    port: int,
    out: TextIO,
    chat_id: int,
    user_id: int,
    first_name: str,
) -> AsyncIterator[str]:
    """Serve the web app on ``127.0.0.1:port`` (0: a free port) while the console runs, and
    say on ``out`` where, with the login; yields the base URL. ``OSError`` if the port is
    taken."""
    async with serving(build_web_app(WebContext(app)), HOST, port) as base:
        app.bot_data.local_app_url = f"{base}/app"
        init_data = local_login(app, chat_id=chat_id, user_id=user_id, first_name=first_name)
        print(
            f"🌐 Die Liste im Browser (nur auf diesem Rechner, 24 Stunden gültig): "
            f"{login_url(base, init_data)}",
            file=out,
            flush=True,
        )
        yield base
