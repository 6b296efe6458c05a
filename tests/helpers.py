"""Helpers shared by the tests: a fresh database, the real bot on the strict stand-in
(``Bot``, driven by the ``bot`` fixture of conftest.py), its replies, and the assertions
most tests need (``ok``, ``refused``, ``export_raw``, ``game_rows``).

A refusal is recognised by the bot's own mark (``Reply.refusal`` of the product, recorded by
the outbox), not by the "⚠️" in its text.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import inspect, select, text

from skatbot.app import build_application
from skatbot.handlers.fairness import Fairness
from skatbot.handlers.registry import ERROR_NOTICE
from skatbot.runner import run_polling
from skatbot.standin.rich import parse_rich
from skatbot.storage.database import Database
from skatbot.storage.lists_models import Row, SheetList
from skatbot.storage.migrate import HEAD, current_revision
from skatbot.storage.schema import metadata
from tests.standin.fake_telegram import ApiCall, FakeBotApi, html_to_text

PG_URL = os.environ.get("SKATBOT_TEST_DATABASE_URL", "")

# The stand-in refuses a 21st message per group within GROUP_WINDOW seconds (429), as Telegram
# does within a minute, and the bot paces its replies to the same window. Telegram's real
# minute would make every evening test wait minutes; tests/handlers/test_flood.py runs the
# real one.
GROUP_WINDOW = 0.5

IN_PROCESS = os.environ.get("SKATBOT_TEST_BOT_API", "").strip().lower() == "in-process"
"""``SKATBOT_TEST_BOT_API=in-process``: the ``bot`` fixture's bot calls the strict stand-in
in process (``InProcessRequest``, as the console does) instead of over loopback HTTP; the
stand-in refuses the same either way."""


def connected_to(api: FakeBotApi) -> dict[str, Any]:
    """``build_application``'s keywords that connect the bot to ``api`` (``IN_PROCESS``)."""
    return {"bot_api": api} if IN_PROCESS else {"base_url": f"{api.url}/bot"}


def fresh_database(tmp_path: Path) -> Database:
    """An empty database at the head revision: on SQLite a copy of one migrated file (made
    once per test process), on PostgreSQL the test database emptied (its tables truncated
    if it is at the head already, else dropped and migrated)."""
    if PG_URL:
        db = Database(PG_URL)
        _empty_postgres(db)
        return db
    path = tmp_path / "skatbot.db"
    shutil.copyfile(_sqlite_template(), path)
    path.chmod(0o600)  # as the bot creates its file
    db = Database(f"sqlite:///{path}")
    db.migrate()  # at the head already: one read of its revision
    return db


_TEMPLATE: list[Path] = []


def _sqlite_template() -> Path:
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="skatbot-template-"))
        atexit.register(shutil.rmtree, folder, True)
        db = Database(f"sqlite:///{folder / 'template.db'}")
        db.migrate()
        db.dispose()  # checkpointed: the file alone holds the schema
        _TEMPLATE.append(folder / "template.db")
    return _TEMPLATE[0]


def _empty_postgres(db: Database) -> None:
    tables = metadata().sorted_tables
    with db.write_engine.begin() as conn:
        at_head = current_revision(conn.engine) == HEAD and set(
            inspect(conn).get_table_names()
        ) == {t.name for t in tables} | {"alembic_version"}
        if at_head:
            names = ", ".join(f'"{t.name}"' for t in tables)
            conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            return
        metadata().drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    db.migrate()


@dataclass
class Reply:
    method: str
    text: str  # plain text as a Telegram user would see it
    html: str
    document: tuple[str, bytes] | None = None
    refusal: bool = False  # the bot marked it a refusal (``Outbox.refusals``), not the "⚠️"


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
            group_window=GROUP_WINDOW,
            **connected_to(self.api),
        )
        self.app = app
        # Tests ask for /export and documents far more often than a member may (the limits
        # have their own tests: tests/handlers/test_fair_heavy.py).
        app.bot_data.fairness = Fairness(repeat_seconds=0, per_member=10**6, pending=10**6)
        self.task = asyncio.create_task(run_polling(app, stop=self.stop, timeout=2))
        # Started (post_init queued what the outbox held from before) before the test goes on.
        for _ in range(1000):
            if app.running or self.task.done():
                break
            await asyncio.sleep(0.01)
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
        return replies(self.api.calls[before:], chat_id, self.refusals)

    @property
    def refusals(self) -> Collection[tuple[int, int]]:
        """(chat id, message id) of the messages the bot sent as refusals."""
        return self.app.bot_data.outbox.refusals

    async def delivered(self, chat_id: int | None = None, timeout: float = 15) -> None:
        """Wait until the replies queued for ``chat_id`` (or for every chat) are sent."""
        await self.app.bot_data.outbox.wait_idle(chat_id, timeout)

    async def text(self, message: str, **kw: int | str) -> str:
        """The text of all replies to ``message``, joined."""
        return "\n".join(r.text for r in await self.say(message, **kw))  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def running_bot(db: Database, **stand_in: Any) -> AsyncIterator[Bot]:
    """The ``bot`` fixture's bot on a stand-in made with ``stand_in`` (e.g.
    ``api_version=API_10_1`` for a server before ephemeral messages, ``rich_messages=True``)."""
    async with FakeBotApi(group_window=GROUP_WINDOW, **stand_in) as api:
        bot = Bot(api, db)
        await bot.start()
        try:
            yield bot
        finally:
            await bot.shutdown()


async def deliver_after_restart(bot: Bot, chat_id: int) -> None:
    """A new start of the bot on ``bot``'s stand-in and database (as after a crash or a
    deploy): it resumes the durable outbox, delivers what is left for ``chat_id`` and stops."""
    restarted = Bot(bot.api, bot.db)
    await restarted.start()
    try:
        await restarted.delivered(chat_id)
    finally:
        await restarted.shutdown()


@contextlib.asynccontextmanager
async def bot_at(
    db: Database, api_version: tuple[int, int], *, rich_messages: bool = False
) -> AsyncIterator[Bot]:
    """The ``bot`` fixture's bot on a stand-in that plays Bot API ``api_version``
    (``skatbot.standin.versions``), for the fallbacks on an older server."""
    async with running_bot(db, api_version=api_version, rich_messages=rich_messages) as b:
        yield b


class Talker(Protocol):
    """What ``ok``/``refused``/``export_raw`` need: ``Bot`` (through Telegram) or
    ``tests.harness.Harness`` (the use cases alone)."""

    async def say(
        self, text: str, *, chat_id: int = ..., user_id: int = ..., name: str = ...
    ) -> list[Reply]: ...


def replies(
    calls: list[ApiCall], chat_id: int, refusals: Collection[tuple[int, int]] = ()
) -> list[Reply]:
    """What the bot sent to ``chat_id`` in ``calls``, as the group sees it (not a message only
    one member sees: ``api.ephemeral_messages``); a message listed in ``refusals``
    (``Bot.refusals``) is marked as a refusal."""
    out = []
    for call in calls:
        if call.params.get("chat_id") != chat_id or not call.ok:  # refused: not in the chat
            continue
        result = call.result if isinstance(call.result, dict) else {}
        if "receiver_user" in result:  # an ephemeral message: its one reader's, not the chat's
            continue
        refusal = (chat_id, result.get("message_id")) in refusals
        rich = call.params.get("rich_message")
        if call.method in ("sendRichMessage", "editMessageText") and isinstance(rich, dict):
            plain = parse_rich(rich).plain()  # a table as aligned columns
            out.append(Reply(call.method, plain, str(rich.get("html", "")), refusal=refusal))
        elif call.method in ("sendMessage", "editMessageText"):
            html = str(call.params.get("text", ""))
            out.append(Reply(call.method, html_to_text(html), html, refusal=refusal))
        elif call.method in ("sendDocument", "sendPhoto"):
            doc = next(iter(call.files.values()), None)
            caption = str(call.params.get("caption", ""))
            if str(call.params.get("parse_mode", "")).upper() == "HTML":
                out.append(Reply(call.method, html_to_text(caption), caption, doc, refusal))
            else:
                out.append(Reply(call.method, caption, "", doc, refusal))
    return out


async def ok(bot: Talker, message: str, *expected: str, **kw: int | str) -> str:
    """Send ``message``: no reply may be a refusal (or the internal-error notice), and the
    replies' text must contain each of ``expected``. Returns that text."""
    out = await bot.say(message, **kw)  # type: ignore[arg-type]
    reply = "\n".join(r.text for r in out)
    assert not any(r.refusal for r in out), (message, reply)
    assert html_to_text(ERROR_NOTICE) not in reply, (message, reply)
    for part in expected:
        assert part in reply, (message, part, reply)
    return reply


async def refused(bot: Talker, message: str, *expected: str, **kw: int | str) -> str:
    """Send ``message``: a reply must be a refusal whose text contains each of ``expected``.
    Returns the replies' text."""
    out = await bot.say(message, **kw)  # type: ignore[arg-type]
    reply = "\n".join(r.text for r in out)
    assert any(r.refusal for r in out), (message, reply)
    for part in expected:
        assert part in reply, (message, part, reply)
    return reply


async def export_raw(bot: Talker, chat_id: int = -1001) -> bytes:
    """The /export document of the chat (or the refusal text when there is no list)."""
    out = await bot.say("/export", chat_id=chat_id)
    docs = [r.document for r in out if r.document]
    if docs:
        return docs[0][1]
    return "\n".join(r.text for r in out).encode()


async def export_json(
    bot: Talker, chat_id: int = -1001, filename: str | None = None
) -> dict[str, Any]:
    """The /export document of the chat as JSON (exactly one document; named ``filename``
    if given)."""
    out = await bot.say("/export", chat_id=chat_id)
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1, out
    assert filename is None or docs[0][0] == filename, docs[0][0]
    data = json.loads(docs[0][1])
    assert isinstance(data, dict)
    return data


def game_rows(db: Database, chat_id: int | None = None) -> list[tuple[int, str, int | None]]:
    """(row id, announcement, update id) of all game rows, optionally of one chat, by row id."""

    def read(session):  # type: ignore[no-untyped-def]
        query = (
            select(Row.id, Row.announcement, Row.update_id)
            .join(SheetList, Row.list_id == SheetList.id)
            .where(Row.kind == "game")
            .order_by(Row.id)
        )
        if chat_id is not None:
            query = query.where(SheetList.chat_id == chat_id)
        return [tuple(r) for r in session.execute(query)]

    return db.run_read(read)
