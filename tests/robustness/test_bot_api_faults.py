"""Bot API faults (429 with retry_after, 5xx, timeouts, Forbidden): bookings stay intact and
replies arrive after the retry."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest
from telegram.ext import Application

from skatbot.app import build_application
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from tests.helpers import game_rows
from tests.standin.fake_telegram import FakeBotApi

CHAT = -1001
TIMEOUT = 0.5  # the bot's Bot API request timeout in these tests


class FaultyBot:
    def __init__(self, api: FakeBotApi, db: Database, app: Application) -> None:  # type: ignore[type-arg]
        self.api, self.db, self.app = api, db, app

    async def send(self, text: str) -> int:
        """Push a message; return once it is committed and its replies have left the outbox."""
        uid = self.api.push_message(text, chat_id=CHAT)
        await self.api.wait_confirmed(uid, timeout=20)
        await self.app.bot_data.outbox.wait_idle(CHAT, 20)
        return uid

    def replies(self) -> list[str]:
        return [str(c.params["text"]) for c in self.api.sent("sendMessage", chat_id=CHAT)]


@pytest.fixture
async def faulty(db: Database) -> AsyncIterator[FaultyBot]:
    async with FakeBotApi() as api:
        app = build_application(
            api.token, db, base_url=f"{api.url}/bot", rate_limit=True, request_timeout=TIMEOUT
        )
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
        bot = FaultyBot(api, db, app)
        await bot.send("/neu Anna Bernd Carla")
        try:
            yield bot
        finally:
            stop.set()
            await asyncio.wait_for(task, 15)


def _attempts(api: FakeBotApi) -> list:  # type: ignore[type-arg]
    return [c for c in api.calls if c.method == "sendMessage"]


async def test_429_retry_after_is_honoured(faulty: FaultyBot) -> None:
    faulty.api.fail_next("sendMessage", status=429, retry_after=1)
    n = len(_attempts(faulty.api))
    await faulty.send("/spiel Anna grand ohne 1 hand gewonnen")
    calls = _attempts(faulty.api)[n:]
    assert [c.status for c in calls] == [429, 200]
    assert calls[1].time - calls[0].time >= 1.0  # waited as Telegram asked
    assert "Spiel 1" in faulty.replies()[-1]
    assert len(game_rows(faulty.db)) == 1


async def test_502_is_retried(faulty: FaultyBot) -> None:
    faulty.api.fail_next("sendMessage", status=502, times=2)
    n = len(_attempts(faulty.api))
    await faulty.send("/spiel Anna grand ohne 1 hand gewonnen")
    assert [c.status for c in _attempts(faulty.api)[n:]] == [502, 502, 200]
    assert "Spiel 1" in faulty.replies()[-1]
    assert len(game_rows(faulty.db)) == 1


async def test_timeout_may_duplicate_the_reply_never_the_booking(faulty: FaultyBot) -> None:
    # Telegram executes the call but answers too late: the bot times out and sends again.
    faulty.api.fail_next("sendMessage", status=200, delay=TIMEOUT * 3)
    await faulty.send("/spiel Anna grand ohne 1 hand gewonnen")
    await asyncio.sleep(TIMEOUT * 3)  # let the slow call finish on the server
    booked = [r for r in faulty.replies() if "Grand ohne 1 Hand" in r]
    assert 1 <= len(booked) <= 2
    assert len(game_rows(faulty.db)) == 1
    await faulty.send("/spiel Bernd herz mit 2 verloren")
    assert len(game_rows(faulty.db)) == 2


async def test_reply_lost_for_good_keeps_the_booking(faulty: FaultyBot) -> None:
    faulty.api.fail_next("sendMessage", status=500, times=3)
    await faulty.send("/spiel Anna grand ohne 1 hand gewonnen")
    assert len(game_rows(faulty.db)) == 1
    await faulty.send("/stand")
    assert "Anna" in faulty.replies()[-1]


async def test_forbidden_is_logged_not_fatal(
    faulty: FaultyBot, caplog: pytest.LogCaptureFixture
) -> None:
    faulty.api.fail_next(
        "sendMessage", status=403, description="Forbidden: bot was kicked from the group chat"
    )
    with caplog.at_level(logging.INFO):
        await faulty.send("/spiel Anna grand ohne 1 hand gewonnen")
    assert len(game_rows(faulty.db)) == 1
    assert any("not allowed" in r.getMessage() for r in caplog.records)
    assert not any(r.exc_info for r in caplog.records if r.levelno >= logging.ERROR)
    # exactly one attempt: Forbidden is not retried
    assert [c.status for c in _attempts(faulty.api)][-1] == 403
    await faulty.send("/spiel Bernd herz mit 2 verloren")
    assert len(game_rows(faulty.db)) == 2


async def test_get_updates_faults_lose_nothing(faulty: FaultyBot) -> None:
    faulty.api.fail_next("getUpdates", status=502)
    faulty.api.fail_next("getUpdates", status=429, retry_after=1)
    await faulty.send("/spiel Anna grand ohne 1 hand gewonnen")
    await faulty.send("/spiel Bernd herz mit 2 verloren")
    assert [a for _, a, _ in game_rows(faulty.db)] == [
        "Grand ohne 1 Hand gewonnen",
        "Herz mit 2 verloren",
    ]
