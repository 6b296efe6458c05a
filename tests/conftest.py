"""Shared fixtures: a real database file (or PostgreSQL); the use cases on it without
Telegram (``chat``, tests/harness.py: what a command does) and the real bot on the strict
Bot API stand-in (``bot``, tests/standin/fake_telegram.py: what is about Telegram). The
helpers live in tests/helpers.py.

Set ``SKATBOT_TEST_DATABASE_URL`` (e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/test``)
to run the whole suite against PostgreSQL instead of SQLite files.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from skatbot.storage.database import Database

# Re-exported: many tests import these from here.
from tests.harness import Harness
from tests.helpers import GROUP_WINDOW, PG_URL, Bot, Reply, fresh_database, replies
from tests.standin.fake_telegram import FakeBotApi

__all__ = ["GROUP_WINDOW", "PG_URL", "Bot", "Reply", "fresh_database", "replies"]


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = fresh_database(tmp_path)
    yield database
    database.dispose()


@pytest.fixture
def chat(db: Database) -> Iterator[Harness]:
    """The use cases without Telegram (tests/harness.py): for what a command does."""
    harness = Harness(db)
    yield harness
    harness.close()


@pytest.fixture
async def bot(db: Database) -> AsyncIterator[Bot]:
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        b = Bot(api, db)
        await b.start()
        try:
            yield b
        finally:
            await b.shutdown()
