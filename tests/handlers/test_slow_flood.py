"""Flood control is often slow, not a 429: Telegram holds a send for up to about 8 s and then
delivers it. The bot's sends wait longer than that, so no message arrives twice. The stand-in
holds every send (``hold_sends``) and executes it even when the client gave up meanwhile."""

from __future__ import annotations

import asyncio
from collections import Counter

from skatbot.app import SEND_READ_TIMEOUT, build_application
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from tests.helpers import GROUP_WINDOW
from tests.standin.fake_telegram import FakeBotApi

CHAT = -1001
TELEGRAM_HOLD = 8.0  # seconds Telegram may hold a send before it delivers it
# The behaviour at a tenth of the real times: a hold longer than PTB's default read timeout
# scaled the same way (0.5 s), shorter than the bot's read timeout (here 1.5 s, really 15 s).
HOLD = 0.8
READ_TIMEOUT = 1.5


def duplicates(api: FakeBotApi) -> list[str]:
    counts = Counter(m.text for m in api.messages(CHAT))
    return [text or "" for text, n in counts.items() if n > 1]


def test_the_bot_waits_longer_for_a_send_than_telegram_holds_one() -> None:
    assert SEND_READ_TIMEOUT > TELEGRAM_HOLD
    # the scaled test below leaves no more room than the real times do
    assert HOLD < READ_TIMEOUT and READ_TIMEOUT / HOLD <= SEND_READ_TIMEOUT / TELEGRAM_HOLD


async def test_held_sends_arrive_once(db: Database) -> None:
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        app = build_application(
            api.token,
            db,
            base_url=f"{api.url}/bot",
            request_timeout=READ_TIMEOUT,
            group_window=GROUP_WINDOW,
        )
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
        api.hold_sends(HOLD)
        for command in ("/neu Anna Bernd Carla", "/spiel Anna grand ohne 1 hand gewonnen"):
            uid = api.push_message(command, chat_id=CHAT)
            await api.wait_confirmed(uid, timeout=15)
            await app.bot_data.outbox.wait_idle(None, 20)
        await asyncio.sleep(2 * HOLD)  # a repeated send would land by now
        stop.set()
        await asyncio.wait_for(task, 15)
    sends = [c for c in api.calls if c.method == "sendMessage"]
    assert len(sends) == len(api.messages(CHAT)) == 2  # one try each, nothing repeated
    assert duplicates(api) == []
    assert "Anna +72" in (api.messages(CHAT)[-1].text or "")


async def test_a_short_read_timeout_would_send_twice(db: Database) -> None:
    """The counter-check: with a read timeout below the hold, the retry duplicates (this is
    why the bot's read timeout is above Telegram's hold)."""
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        app = build_application(
            api.token, db, base_url=f"{api.url}/bot", request_timeout=1.0, group_window=GROUP_WINDOW
        )
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
        api.hold_sends(1.5)
        uid = api.push_message("/neu Anna Bernd Carla", chat_id=CHAT)
        await api.wait_confirmed(uid, timeout=15)
        await app.bot_data.outbox.wait_idle(None, 20)
        await asyncio.sleep(2)  # the last held send lands
        stop.set()
        await asyncio.wait_for(task, 15)
    assert duplicates(api), [m.text for m in api.messages(CHAT)]
