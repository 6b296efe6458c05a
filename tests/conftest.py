"""Shared fixtures: a real database file (or PostgreSQL) and the real bot on a fake Bot API.

Set ``SKATBOT_TEST_DATABASE_URL`` (e.g. ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``)
to run the whole suite against PostgreSQL instead of SQLite files.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import text

from skatbot.app import build_application
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from skatbot.storage.models import Base
from tests.standin.fake_telegram import FakeBotApi, html_to_text

PG_URL = os.environ.get("SKATBOT_TEST_DATABASE_URL", "")

# The stand-in refuses a 21st message per group within GROUP_WINDOW seconds (429), as Telegram
# does within a minute, and the bot paces its replies to the same window. Telegram's real
# minute would make every evening test wait minutes; tests/handlers/test_flood.py runs the
# real one.
GROUP_WINDOW = 0.5


def fresh_database(tmp_path: Path) -> Database:
    if PG_URL:
        db = Database(PG_URL)
        with db.write_engine.begin() as conn:
            Base.metadata.drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    else:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    return db


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = fresh_database(tmp_path)
    yield database
    database.dispose()


@dataclass
class Reply:
    method: str
    text: str  # plain text as a Telegram user would see it
    html: str
    document: tuple[str, bytes] | None = None


class Bot:
    """The real Application with all handlers, polling a loopback fake Bot API."""

    def __init__(self, api: FakeBotApi, db: Database) -> None:
        self.api = api
        self.db = db
        self.stop = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.stop = asyncio.Event()
        app = build_application(
            self.api.token,
            self.db,
            base_url=f"{self.api.url}/bot",
            group_window=GROUP_WINDOW,
        )
        self.app = app
        self.task = asyncio.create_task(run_polling(app, stop=self.stop, timeout=2))
        # An update is confirmed once committed; its replies follow from the outbox. Tests
        # that wait for a confirmation mean "and answered", so wait for the outbox too.
        confirmed = self.api.wait_confirmed

        async def wait_answered(update_id: int, timeout: float = 10) -> None:
            await confirmed(update_id, timeout)
            await self.delivered(None, timeout)

        self.api.wait_confirmed = wait_answered  # type: ignore[method-assign]

    async def shutdown(self) -> None:
        self.stop.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)

    async def say(
        self, text: str, *, chat_id: int = -1001, user_id: int = 1, name: str = "Spieler"
    ) -> list[Reply]:
        """Send a group message and return what the bot answered to it."""
        before = len(self.api.calls)
        update_id = self.api.push_message(text, chat_id=chat_id, user_id=user_id, first_name=name)
        await self.api.wait_confirmed(update_id, timeout=15)
        return replies(self.api.calls[before:], chat_id)

    async def delivered(self, chat_id: int | None = None, timeout: float = 15) -> None:
        """Wait until the replies queued for ``chat_id`` (or for every chat) are sent."""
        await self.app.bot_data["outbox"].wait_idle(chat_id, timeout)

    async def text(self, message: str, **kw: int | str) -> str:
        """The text of all replies to ``message``, joined."""
        return "\n".join(r.text for r in await self.say(message, **kw))  # type: ignore[arg-type]


def replies(calls: list, chat_id: int) -> list[Reply]:  # type: ignore[type-arg]
    out = []
    for call in calls:
        if call.params.get("chat_id") != chat_id or not call.ok:  # refused: not in the chat
            continue
        if call.method in ("sendMessage", "editMessageText"):
            html = str(call.params.get("text", ""))
            out.append(Reply(call.method, html_to_text(html), html))
        elif call.method == "sendDocument":
            doc = next(iter(call.files.values()), None)
            caption = str(call.params.get("caption", ""))
            if str(call.params.get("parse_mode", "")).upper() == "HTML":
                out.append(Reply(call.method, html_to_text(caption), caption, doc))
            else:
                out.append(Reply(call.method, caption, "", doc))
    return out


@pytest.fixture
async def bot(db: Database) -> AsyncIterator[Bot]:
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        b = Bot(api, db)
        await b.start()
        try:
            yield b
        finally:
            await b.shutdown()
