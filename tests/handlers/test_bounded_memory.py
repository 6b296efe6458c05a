"""Per-chat memory is bounded: the pacer, the coalesced edits' times, the forum places and
the fairness state keep the chats used last; remembered update ids are forgotten once
Telegram can no longer deliver them again."""

from __future__ import annotations

import asyncio
import datetime as dt

from skatbot.handlers import fairness, runtime
from skatbot.handlers.outbox import coalesce, pacer, queues
from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database
from tests.helpers import Bot


async def test_the_pacer_forgets_groups_idle_for_a_window(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(pacer, "PACED_CHATS", 10)
    paced = pacer.Pacer(group_limit=20, group_window=0.01, per_second=None)
    for chat in range(-1, -50, -1):
        await paced.slot(chat)
        if chat % 5 == 0:
            await asyncio.sleep(0.02)  # older groups' windows pass
    assert len(paced._sent) <= 15


async def test_coalesced_edit_times_are_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(coalesce, "EDIT_TIMES_KEPT", 8)
    outbox = queues.Outbox()

    async def nothing() -> None:
        pass

    for message_id in range(100):
        assert outbox.edits.due(-1, message_id, 5.0, nothing)
    assert len(outbox.edits._last_edit) == 8


async def test_forum_places_are_remembered_for_the_topics_used_last(bot: Bot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(runtime, "PLACES_KEPT", 5)
    for thread in range(1, 13):
        bot.api.create_topic(-1002, f"Tisch {thread}")
    for thread in bot.api.topics[-1002]:
        uid = bot.api.push_message("/stand", chat_id=-1002, thread_id=thread)
        await bot.api.wait_confirmed(uid)
    assert len(bot.app.bot_data.places) == 5


def test_fairness_keeps_the_chats_used_last(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(fairness, "CHATS_KEPT", 100)
    gate = fairness.Fairness()
    for chat in range(1000):
        gate.admit(-chat, -chat, 1, "/vordruck 4", 0)
    assert len(gate._chats) == 100


def test_old_update_ids_are_forgotten(db: Database) -> None:
    now = dt.datetime.now(dt.UTC)

    def fill(session) -> None:  # type: ignore[no-untyped-def]
        lists_store.mark_processed(session, 1, -1, "alt")
        lists_store.mark_processed(session, 2, -1, "neu")

    db.run_write(fill)
    later = now + lists_store.PROCESSED_KEPT + dt.timedelta(minutes=1)
    assert db.run_write(lambda s: lists_store.prune_processed(s, now)) == 0
    assert db.run_write(lambda s: lists_store.prune_processed(s, later)) == 2
    assert db.run_read(lambda s: lists_store.processed(s, 1)) is None
