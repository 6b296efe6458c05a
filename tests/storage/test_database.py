"""Where units of work run on SQLite: on the event loop, in a thread when locked or heavy."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from skatbot.rules.errors import RuleError
from skatbot.storage.database import Database

from ..conftest import PG_URL

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="SQLite's event-loop path")


def add_chat(chat_id: int) -> Callable[[Session], int]:
    def unit(session: Session) -> int:
        session.execute(
            text(
                "INSERT INTO chats (id, rules, settings, created_at) VALUES (:id, 'isko', '{}', '2026-01-01')"
            ),
            {"id": chat_id},
        )
        return threading.get_ident()

    return unit


def chat_ids(db: Database) -> list[int]:
    return db.run_read(
        lambda s: [r[0] for r in s.execute(text("SELECT id FROM chats ORDER BY id"))]
    )


async def test_units_run_on_the_loop_and_heavy_ones_in_a_thread(db: Database) -> None:
    here = threading.get_ident()
    assert await db.write(add_chat(1)) == here
    assert await db.read(lambda s: threading.get_ident()) == here
    assert await db.write(add_chat(2), offload=True) != here
    assert await db.read(lambda s: threading.get_ident(), offload=True) != here
    assert chat_ids(db) == [1, 2]


async def test_a_refused_unit_rolls_back_and_the_next_one_works(db: Database) -> None:
    def refuse(session: Session) -> None:
        add_chat(3)(session)
        raise RuleError("nein")

    with pytest.raises(RuleError):
        await db.write(refuse)
    await db.write(add_chat(4))
    assert chat_ids(db) == [4]


async def test_a_database_locked_by_another_process_is_waited_for_in_a_thread(
    db: Database, tmp_path: Path
) -> None:
    """The loop keeps serving while another process holds the write lock; the unit runs
    (once) when the lock is free, and the next unit is back on the loop."""
    other = sqlite3.connect(tmp_path / "skatbot.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    tick_task = asyncio.create_task(ticker())
    write = asyncio.create_task(db.write(add_chat(5)))
    await asyncio.sleep(0.3)
    assert not write.done()
    assert ticks >= 20  # the loop was not blocked by the waiting unit
    other.execute("COMMIT")
    here = threading.get_ident()
    assert await asyncio.wait_for(write, 10) != here  # it ran in a worker thread
    tick_task.cancel()
    other.close()
    assert await db.write(add_chat(6)) == here
    assert chat_ids(db) == [5, 6]


async def test_orm_and_prepared_statements_of_a_loop_unit_commit_and_roll_back_together(
    db: Database,
) -> None:
    from skatbot.storage import lists as lists_store
    from skatbot.storage.database import ensure_chat

    def both(chat_id: int, fail: bool) -> Callable[[Session], None]:
        def unit(session: Session) -> None:
            lists_store.mark_processed(
                session, chat_id, chat_id, "ok"
            )  # prepared, on the raw cursor
            ensure_chat(session, chat_id).settings = '{"x": 1}'  # the ORM, flushed at commit
            if fail:
                raise RuleError("nein")

        return unit

    with pytest.raises(RuleError):
        await db.write(both(8, fail=True))
    await db.write(both(9, fail=False))
    assert chat_ids(db) == [9]
    assert db.run_read(lambda s: lists_store.processed(s, 8)) is None
    assert db.run_read(lambda s: lists_store.chat_settings(s, 9)) == '{"x": 1}'
