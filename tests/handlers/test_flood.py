"""One busy group never stalls another: replies leave through a per-chat outbox paced to
Telegram's ~20 messages a minute per group, and a 429 pauses only the chat it was about.

These tests run Telegram's real minute (the shared ``bot`` fixture compresses it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram.ext import Application

from skatbot.app import build_application
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.registry import ALLOWED_UPDATES
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from tests.helpers import game_rows
from tests.standin.fake_telegram import FakeBotApi, html_to_text

A, B = -1001, -2002
GAMES = [
    f"/spiel {['Bernd', 'Carla', 'Anna'][i % 3]} {['karo', 'herz', 'pik', 'kreuz'][i % 4]} "
    f"mit {1 + i % 3} {'gewonnen' if i % 4 else 'verloren'}"
    for i in range(30)
]


@asynccontextmanager
async def polling(api: FakeBotApi, db: Database, **kw: object) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    app = build_application(api.token, db, base_url=f"{api.url}/bot", **kw)  # type: ignore[arg-type]
    stop = asyncio.Event()
    task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
    try:
        yield app
    finally:
        await app.bot_data.outbox.close(0)  # what is still paced is not waited for here
        stop.set()
        await asyncio.wait_for(task, 15)


def texts(api: FakeBotApi, chat_id: int) -> list[str]:
    return [html_to_text(str(c.params["text"])) for c in api.sent("sendMessage", chat_id=chat_id)]


async def test_group_b_is_answered_at_once_during_group_a_burst(db: Database) -> None:
    async with FakeBotApi() as api, polling(api, db) as app:  # 20 a minute, both sides
        api.push_message("/neu Anna Bernd Carla", chat_id=A)
        burst = [api.push_message(g, chat_id=A) for g in GAMES[:25]]
        await api.wait_confirmed(burst[-1], timeout=15)
        # every game of A is booked at once; its replies wait for the group's minute
        assert len(game_rows(db, A)) == 25
        for _ in range(100):  # the replies follow from the outbox, 20 at once
            if len(texts(api, A)) >= 20:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        assert len(texts(api, A)) == 20
        assert app.bot_data.outbox.pending(A) > 0

        began = time.monotonic()
        uid = api.push_message("/neu Anna Bernd Carla", chat_id=B)
        await api.wait_confirmed(uid, timeout=5)
        await app.bot_data.outbox.wait_idle(B, 5)
        assert time.monotonic() - began < 1.0
        assert any("Neue Liste" in t for t in texts(api, B))
        assert api.flood_refusals == 0  # the bot paced itself, Telegram never had to refuse


async def test_a_429_pauses_only_its_chat_and_drops_nothing(db: Database) -> None:
    # The bot does not pace (rate_limit=False); the stand-in refuses the 21st message within
    # 2 s with retry_after. A's replies wait, B's do not, and A's arrive complete, in order.
    async with (
        FakeBotApi(group_limit=20, group_window=2.0) as api,
        polling(api, db, rate_limit=False) as app,
    ):
        api.push_message("/neu Anna Bernd Carla", chat_id=A)
        api.push_message("/serie 40", chat_id=A)
        burst = [api.push_message(g, chat_id=A) for g in GAMES]
        await api.wait_confirmed(burst[-1], timeout=15)
        for _ in range(100):  # the replies follow the bookings from the outbox
            if api.flood_refusals:
                break
            await asyncio.sleep(0.05)
        assert api.flood_refusals >= 1
        began = time.monotonic()
        uid = api.push_message("/hilfe", chat_id=B)
        await api.wait_confirmed(uid, timeout=5)
        await app.bot_data.outbox.wait_idle(B, 5)
        assert time.monotonic() - began < 1.0
        await app.bot_data.outbox.wait_idle(A, 20)
    numbers = [
        int(t.split("/")[0].removeprefix("✅ Spiel "))
        for t in texts(api, A)
        if t.startswith("✅ Spiel ")
    ]
    assert numbers == list(range(1, 31))  # nothing dropped, nothing doubled, in order


async def test_only_the_handled_update_types_are_asked_for(db: Database) -> None:
    async with FakeBotApi() as api, polling(api, db):
        uid = api.push_message("/hilfe", chat_id=A)
        await api.wait_confirmed(uid, timeout=5)
    # (the last, short call that confirms on shutdown names none: Telegram keeps the setting)
    asked = [c.params.get("allowed_updates") for c in api.calls if c.method == "getUpdates"]
    assert asked[:-1] and all(a == ALLOWED_UPDATES for a in asked[:-1])
    assert set(ALLOWED_UPDATES) == {
        "message",
        "edited_message",
        "callback_query",
        "inline_query",
        "my_chat_member",
        "poll_answer",  # a game night's votes
    }


async def test_pacer_waits_for_a_free_slot_in_groups_only() -> None:
    pacer = Pacer(group_limit=3, group_window=0.3, per_second=None)
    began = time.monotonic()
    for _ in range(3):
        await pacer.slot(A)
    assert time.monotonic() - began < 0.1
    await pacer.slot(A)  # the fourth waits for the first to leave the window
    assert time.monotonic() - began >= 0.29
    began = time.monotonic()
    for _ in range(10):
        await pacer.slot(42)  # a private chat: no group limit
    assert time.monotonic() - began < 0.1
    pacer.block(B, 0.2)  # a 429 for B
    began = time.monotonic()
    await pacer.slot(B)
    assert time.monotonic() - began >= 0.19
