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
        db = Database(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        db.migrate()
        app = Application.builder().token("1:BENCH").request(InstantRequest()).updater(None).build()
        app.bot_data["db"] = db
        register(app)
        samples: list[float] = []
        uid = 1
        async with app:
            chat = -100
            for i in range(n):
                if i % 36 == 0:  # a fresh list every 36 games, like a real series
                    chat -= 1
                    await app.process_update(message_update(uid, chat, "/neu Anna Bernd Carla", app.bot))
                    uid += 1
                update = message_update(uid, chat, GAMES[i % len(GAMES)], app.bot)
                uid += 1
                t0 = time.perf_counter()
                await app.process_update(update)
                samples.append((time.perf_counter() - t0) * 1000)
        db.dispose()
    median, p99 = summary(samples)
    print(f"/spiel in-process (SQLite on disk, {n} games): median {median:.3f} ms, p99 {p99:.3f} ms (goal: median < 1 ms)")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 720))
