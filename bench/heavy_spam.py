"""A booking in a quiet chat while other chats spam heavy commands (PDFs).

In-process: the real Application and handlers, SQLite on disk, the Bot API answering at
once (bench/common.py), no pacing. ``SPAMMERS`` chats each send /vordruck 4 and /vordruck 3
in turn, one after the other as fast as the bot answers but at most 4 a second (one member
per chat, as the runner works a chat's updates one at a time); meanwhile a quiet chat books a game every
100 ms. Printed: the quiet chat's booking latency (update in -> reply sent) and how many
documents the spammers got.

Usage: python bench/heavy_spam.py [SECONDS] [SPAMMERS]    (default 20 s, 8 chats)
Run it from another source tree (PYTHONPATH=DIR) for the figure before.
``SKATBOT_BENCH_DATABASE_URL`` (e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/bench``)
runs it on that database instead of a SQLite file; its tables are dropped first.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import InstantRequest, message_update
from telegram.ext import Application

from skatbot.handlers.bot_state import CONTEXT_TYPES
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.registry import register
from skatbot.storage.database import Database

QUIET = -500


def bench_database(tmp: Path) -> Database:
    """A fresh database: SQLite in ``tmp``, or ``SKATBOT_BENCH_DATABASE_URL`` emptied."""
    url = os.environ.get("SKATBOT_BENCH_DATABASE_URL", "")
    if not url:
        db = Database(f"sqlite:///{tmp / 'bench.db'}")
    else:
        from sqlalchemy import text

        from skatbot.storage.schema import metadata

        db = Database(url)
        with db.write_engine.begin() as conn:
            metadata().drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    db.migrate()
    return db


async def main(seconds: float, spammers: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = bench_database(Path(tmp))
        request = InstantRequest()
        app = (
            Application.builder()
            .token("1:BENCH")
            .context_types(CONTEXT_TYPES)
            .request(request)
            .updater(None)
            .build()
        )
        app.bot_data.database = db
        app.bot_data.outbox = outbox = Outbox(Pacer(group_limit=None, per_second=None))
        register(app)
        ids = iter(range(1, 10**9))
        stop = time.monotonic() + seconds
        asked = [0]
        async with app:
            await app.process_update(
                message_update(next(ids), QUIET, "/neu Anna Bernd Carla", app.bot)
            )
            await outbox.wait_idle(QUIET)

            async def spam(chat: int) -> None:
                n = 0
                while time.monotonic() < stop:
                    text = "/vordruck 4" if n % 2 == 0 else "/vordruck 3"
                    n += 1
                    asked[0] += 1
                    began = time.monotonic()
                    await app.process_update(message_update(next(ids), chat, text, app.bot))
                    # a member types at most ~4 commands a second
                    await asyncio.sleep(max(0.0, 0.25 - (time.monotonic() - began)))

            tasks = [asyncio.create_task(spam(-1000 - i)) for i in range(spammers)]
            samples = []
            games = ["/spiel Anna grand ohne 1 hand gewonnen", "/spiel Bernd kreuz mit 2 gewonnen"]
            i = 0
            await asyncio.sleep(0.5)
            while time.monotonic() < stop:
                update = message_update(next(ids), QUIET, games[i % 2], app.bot)
                i += 1
                t0 = time.perf_counter()
                await app.process_update(update)
                await outbox.wait_idle(QUIET, 60)
                samples.append((time.perf_counter() - t0) * 1000)
                if i % 30 == 29:  # a fresh list before the series ends
                    await app.process_update(
                        message_update(next(ids), QUIET, "/neu Anna Bernd Carla", app.bot)
                    )
                    await outbox.wait_idle(QUIET, 60)
                await asyncio.sleep(0.1)
            await asyncio.gather(*tasks)
            await outbox.wait_idle(None, 120)
        db.dispose()
    ordered = sorted(samples)
    print(
        f"{spammers} chats spamming /vordruck for {seconds:.0f} s ({asked[0]} asked, "
        f"{request.documents} documents sent); quiet chat, {len(samples)} bookings: "
        f"median {statistics.median(ordered):.1f} ms, p90 {ordered[int(len(ordered) * 0.9)]:.1f} ms, "
        f"max {ordered[-1]:.1f} ms"
    )


if __name__ == "__main__":
    asyncio.run(
        main(
            float(sys.argv[1]) if len(sys.argv) > 1 else 20.0,
            int(sys.argv[2]) if len(sys.argv) > 2 else 8,
        )
    )
