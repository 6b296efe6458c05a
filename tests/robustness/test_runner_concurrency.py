"""runner.poll_updates: chats of a batch run concurrently, each chat strictly in order, and the
batch is confirmed only after every chat is done."""

from __future__ import annotations

import asyncio
import itertools
import time

from telegram import Update
from telegram.ext import Application, MessageHandler, filters

from skatbot.handlers.bot_state import CONTEXT_TYPES, SkatContext
from skatbot.runner import poll_updates
from tests.standin.fake_telegram import FakeBotApi

DELAY = 0.3


async def test_chats_concurrent_each_in_order() -> None:
    log: list[tuple[int, str, float, float]] = []

    async def slow(update: Update, context: SkatContext) -> None:
        start = time.monotonic()
        await asyncio.sleep(DELAY)
        assert update.effective_chat and update.effective_message
        log.append(
            (update.effective_chat.id, update.effective_message.text or "", start, time.monotonic())
        )

    async with FakeBotApi() as api:
        app = (
            Application.builder()
            .token(api.token)
            .context_types(CONTEXT_TYPES)
            .base_url(f"{api.url}/bot")
            .updater(None)
            .build()
        )
        app.add_handler(MessageHandler(filters.ALL, slow))
        ids = []
        for i in range(3):
            for chat in (-1, -2, -3):
                ids.append(api.push_message(f"m{i}", chat_id=chat))
        stop = asyncio.Event()
        async with app:
            task = asyncio.create_task(poll_updates(app, stop=stop, timeout=1))
            began = time.monotonic()
            await api.wait_confirmed(ids[-1], timeout=20)
            elapsed = time.monotonic() - began
            stop.set()
            await asyncio.wait_for(task, 10)
    assert len(log) == 9
    for chat in (-1, -2, -3):
        mine = [entry for entry in log if entry[0] == chat]
        assert [t for _, t, _, _ in mine] == ["m0", "m1", "m2"]  # in order
        for a, b in itertools.pairwise(mine):
            assert b[2] >= a[3]  # the next one starts after the previous one finished
    # three chats at once: about 3 x DELAY, not 9 x DELAY
    assert elapsed < 6 * DELAY, elapsed


async def test_stop_mid_batch_never_confirms_an_unprocessed_update() -> None:
    started = asyncio.Event()
    stop = asyncio.Event()
    seen: list[int] = []

    async def handler(update: Update, context: SkatContext) -> None:
        seen.append(update.update_id)
        if update.effective_chat and update.effective_chat.id == -1:
            started.set()
            await asyncio.sleep(0.5)  # chat -1 is slow; stop arrives meanwhile

    async with FakeBotApi() as api:
        app = (
            Application.builder()
            .token(api.token)
            .context_types(CONTEXT_TYPES)
            .base_url(f"{api.url}/bot")
            .updater(None)
            .build()
        )
        app.add_handler(MessageHandler(filters.ALL, handler))
        first = api.push_message("a", chat_id=-1)
        api.push_message("b", chat_id=-1)  # not started when stop comes
        api.push_message("c", chat_id=-2)
        async with app:
            task = asyncio.create_task(poll_updates(app, stop=stop, timeout=1))
            await started.wait()
            stop.set()
            await asyncio.wait_for(task, 10)
        # update 1 (chat -1) and 3 (chat -2) are done, 2 is not: only 1 may be confirmed
        assert api.confirmed_offset <= first + 1
        assert next(u["update_id"] for u in api.pending_updates) == first + 1
