"""Flood control is often slow, not a 429: Telegram holds a send for up to about 8 s and then
delivers it. The bot's sends wait longer than that, so no message arrives twice. The stand-in
holds every send (``hold_sends``) and executes it even when the client gave up meanwhile."""

from __future__ import annotations

import asyncio
from collections import Counter

from skatbot.app import SEND_READ_TIMEOUT, build_application
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from tests.helpers import GROUP_WINDOW, Bot
from tests.standin.fake_telegram import FakeBotApi

CHAT = -1001
HOLD = 6.0  # seconds: longer than PTB's default 5 s read timeout, shorter than ~8 s


def duplicates(api: FakeBotApi) -> list[str]:
    counts = Counter(m.text for m in api.messages(CHAT))
    return [text or "" for text, n in counts.items() if n > 1]


async def test_held_sends_arrive_once(bot: Bot) -> None:
    assert SEND_READ_TIMEOUT >= 10
    bot.api.hold_sends(HOLD)
    for command in ("/neu Anna Bernd Carla", "/spiel Anna grand ohne 1 hand gewonnen"):
        uid = bot.api.push_message(command, chat_id=CHAT)
        await bot.api.wait_confirmed(uid, timeout=4 * HOLD)
    sends = [c for c in bot.api.calls if c.method == "sendMessage"]
    assert len(sends) == len(bot.api.messages(CHAT)) == 2  # one try each, nothing repeated
    assert duplicates(bot.api) == []
    assert "Anna +72" in (bot.api.messages(CHAT)[-1].text or "")


async def test_a_short_read_timeout_would_send_twice(db: Database) -> None:
    """The counter-check: with a read timeout below the hold, the retry duplicates."""
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        app = build_application(
            api.token, db, base_url=f"{api.url}/bot", request_timeout=1.0, group_window=GROUP_WINDOW
        )
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
        api.hold_sends(1.5)
        uid = api.push_message("/neu Anna Bernd Carla", chat_id=CHAT)
        await api.wait_confirmed(uid, timeout=15)
        await app.bot_data["outbox"].wait_idle(None, 20)
        await asyncio.sleep(2)  # the last held send lands
        stop.set()
        await asyncio.wait_for(task, 15)
    assert duplicates(api), [m.text for m in api.messages(CHAT)]
