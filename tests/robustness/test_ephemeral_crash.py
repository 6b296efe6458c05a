"""kill -9 with an answer for one reader in flight: the real bot (``python -m skatbot run`` on
the strict stand-in) resumes a stored reply for Bernd alone (two messages long), is ended by a
fault point right after Telegram accepted its first message and the outbox recorded it, and
is started again: each message of it arrives exactly once and the outbox is empty.

Telegram takes an ephemeral answer within 15 s of the tap, and a message sent after that goes
to the group instead (docs/ephemeral.md). The bot's start takes seconds on a busy machine, so
here time stands still: the stand-in's clock is fixed and the tap is dated ahead, and both
messages must reach Bernd alone.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from skatbot.faults import EXIT_CODE
from skatbot.handlers import durable
from skatbot.standin.botapi import BotMessage
from skatbot.storage.database import Database
from skatbot.usecases.common.reply import Asker, Reply
from tests.robustness.outbox_crash import (
    GROUP,
    Driver,
    outbox_rows,
    settle,
    start_bot,
    stop_bot,
)
from tests.standin.fake_telegram import FakeBotApi, html_to_text

BERND = 2
FIRST, SECOND = "Erster Teil für Bernd.", "Zweiter Teil für Bernd."
# two messages: each part near Telegram's 4,096 characters
TEXT = FIRST + "\n" + "x" * 4090 + "\n" + SECOND


def store(db_url: str, update_id: int, query_id: str) -> None:
    db = Database(db_url)
    try:
        asker = Asker(BERND, query_id, time.time() + 3600)  # still fresh after any start
        reply = Reply(TEXT, refusal=True, for_asker=True, asker=asker)
        db.run_write(lambda s: durable.store(s, GROUP, None, update_id, reply))
    finally:
        db.dispose()


def arrived(api: FakeBotApi, part: str) -> tuple[int, int]:
    """How often ``part`` reached Bernd alone, and the group."""
    alone = [m for m in api.ephemeral_messages(GROUP, BERND) if part in (m.text or "")]
    group = [m for m in api.messages(GROUP) if part in (m.text or "")]
    return len(alone), len(group)


def texts(messages: list[BotMessage]) -> list[str]:
    return [html_to_text(m.text or "")[:30] for m in messages]


@pytest.mark.timeout(300)
async def test_a_kill_after_the_first_message_for_one_reader_sends_the_rest_once(
    tmp_path: Path,
) -> None:
    db_url = f"sqlite:///{tmp_path / 'bot.db'}"
    log = tmp_path / "bot.log"
    async with FakeBotApi(group_limit=None, clock=lambda: 1000.0) as api:
        proc = await start_bot(api, db_url, log)
        try:
            await Driver(api, db_url).say("/neu Anna Bernd Carla")
        finally:
            await stop_bot(proc)
        opened = api.messages(GROUP)[-1]
        # Bernd taps (on nothing the bot answers); the reply for him alone is in the outbox
        uid = api.push_callback("-", message_id=opened.message_id, chat_id=GROUP, user_id=BERND)
        update = next(u for u in api.pending_updates if u["update_id"] == uid)
        store(db_url, uid, str(update["callback_query"]["id"]))
        proc = await start_bot(api, db_url, log, f"recorded@{uid}")
        try:
            assert await asyncio.wait_for(proc.wait(), 120) == EXIT_CODE, log.read_text()
        finally:
            await stop_bot(proc)
        assert (arrived(api, FIRST), arrived(api, SECOND)) == ((1, 0), (0, 0))
        proc = await start_bot(api, db_url, log)
        try:
            await api.wait_confirmed(uid, timeout=60)
            await settle(api, db_url)
        finally:
            await stop_bot(proc)
        counts = (arrived(api, FIRST), arrived(api, SECOND))
        shown = (texts(api.messages(GROUP)), texts(api.ephemeral_messages(GROUP, BERND)))
        assert counts == ((1, 0), (1, 0)), shown
        assert outbox_rows(db_url) == 0
