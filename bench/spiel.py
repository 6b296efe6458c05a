"""In-process cost of one /spiel (update in → reply out), SQLite on disk.

Runs the real Application and handlers; the Bot API answers instantly in-process, so the
figure is our own work: parse, one write transaction (replay + insert + update id), reply.
Usage: python bench/spiel.py [N]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import InstantRequest, message_update, summary
from telegram.ext import Application

from skatbot.handlers.bot_state import CONTEXT_TYPES
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.registry import register
from skatbot.storage.database import Database

GAMES = [
    "/spiel Anna grand ohne 1 hand gewonnen",
    "/spiel Bernd kreuz mit 2 reiz 36 augen 75",
    "/spiel Carla null ouvert verloren",
    "/spiel Anna herz ohne 3 schneider gewonnen",
]


async def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'bench.db'}")
        db.migrate()
        app = (
            Application.builder()
            .token("1:BENCH")
            .context_types(CONTEXT_TYPES)
            .request(InstantRequest())
            .updater(None)
            .build()
        )
        app.bot_data.database = db
        app.bot_data.outbox = outbox = Outbox(Pacer(group_limit=None, per_second=None))
        register(app)
        samples: list[float] = []
        uid = 1
        async with app:
            chat = -100
            for i in range(n):
                if i % 36 == 0:  # a fresh list every 36 games, like a real series
                    chat -= 1
                    await app.process_update(
                        message_update(uid, chat, "/neu Anna Bernd Carla", app.bot)
                    )
                    uid += 1
                update = message_update(uid, chat, GAMES[i % len(GAMES)], app.bot)
                uid += 1
                t0 = time.perf_counter()
                await app.process_update(update)
                await outbox.wait_idle(chat)  # the reply sent, as before the outbox
                samples.append((time.perf_counter() - t0) * 1000)
        db.dispose()
    median, p99 = summary(samples)
    floor_median, floor_p99 = summary(await echo_floor(n))
    print(
        f"echo handler in-process (the PTB floor): median {floor_median:.3f} ms, p99 {floor_p99:.3f} ms"
    )
    print(
        f"/spiel in-process (SQLite on disk, {n} games): median {median:.3f} ms, p99 {p99:.3f} ms "
        f"(goal: median < 1 ms); our own share: {median - floor_median:.3f} ms"
    )


async def echo_floor(n: int) -> list[float]:
    """The same PTB path with a handler that only replies (same text size, four buttons)."""
    from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
    from telegram.ext import CommandHandler, ContextTypes

    keys = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("Neues Spiel", callback_data="v1:n")],
            [
                InlineKeyboardButton(t, callback_data=d)
                for t, d in (
                    ("Korrigieren", "v1:k:1"),
                    ("Stornieren", "v1:s:1"),
                    ("Stand", "v1:st"),
                )
            ],
        ]
    )
    text = "✅ <b>Spiel 12/36</b> · Anna: Grand ohne 1 Hand – gewonnen\n" * 4

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_message(
            update.effective_chat.id, text, parse_mode="HTML", reply_markup=keys
        )

    app = Application.builder().token("1:BENCH").request(InstantRequest()).updater(None).build()
    app.add_handler(CommandHandler("spiel", echo))
    samples = []
    async with app:
        for i in range(n):
            update = message_update(i + 1, -5, GAMES[i % len(GAMES)], app.bot)
            t0 = time.perf_counter()
            await app.process_update(update)
            samples.append((time.perf_counter() - t0) * 1000)
    return samples


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 720))
