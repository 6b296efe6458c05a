"""What the durable outbox costs per /spiel: rows and statements in the booking's own
transaction, write transactions after sending, bytes stored, and time (update in -> reply
accepted, in-process, SQLite on disk, the Bot API answering at once).

Usage: python bench/outbox_cost.py [N]

For the figures without the outbox, run this script with PYTHONPATH set to the tree of the
commit before it (``git archive``); bench/README.md has both.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import InstantRequest, message_update, summary
from sqlalchemy import event
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
        statements: list[str] = []

        def seen(sql: str) -> None:
            word = sql.split(None, 1)[0].upper() if sql.strip() else ""
            if word in ("INSERT", "UPDATE", "DELETE", "SELECT"):
                statements.append(f"{word} {_table(sql)}")

        for engine in db._engines:

            @event.listens_for(engine, "connect")
            def trace(dbapi_conn: Any, _record: Any) -> None:
                dbapi_conn.set_trace_callback(seen)

        db.migrate()

        writes = [0]
        real_write = db.write

        async def counted(fn: Any, **kw: Any) -> Any:
            writes[0] += 1
            return await real_write(fn, **kw)

        db.write = counted  # type: ignore[method-assign]
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
        cpu: list[float] = []
        per_game: list[tuple[int, list[str]]] = []
        payload = [0]
        uid = 1
        async with app:
            chat = -100
            for i in range(n):
                if i % 36 == 0:
                    chat -= 1
                    await app.process_update(
                        message_update(uid, chat, "/neu Anna Bernd Carla", app.bot)
                    )
                    await outbox.wait_idle(chat)
                    uid += 1
                update = message_update(uid, chat, GAMES[i % len(GAMES)], app.bot)
                uid += 1
                statements.clear()
                writes[0] = 0
                t0, c0 = time.perf_counter(), time.process_time()
                await app.process_update(update)
                await outbox.wait_idle(chat)
                samples.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
                per_game.append((writes[0], list(statements)))
            try:
                from skatbot.handlers.durable import encode
                from skatbot.usecases.common.reply import Reply

                payload[0] = len(encode(Reply("x" * 300))[0])
            except ImportError:  # a tree before the outbox
                pass
        db.dispose()
    median, p99 = summary(samples)
    w, s = per_game[len(per_game) // 2]
    outbox_statements = [x for x in s if "outbox" in x]
    print(
        f"/spiel, {n} games: median {median:.3f} ms, p99 {p99:.3f} ms; CPU median "
        f"{statistics.median(cpu[50:]):.3f} ms"
    )
    print(f"write transactions per /spiel: {w} (the booking's own, and one after sending)")
    print(
        f"statements per /spiel: {len(s)}, of them on the outbox: {len(outbox_statements)}: "
        f"{outbox_statements}"
    )
    print(
        f"outbox rows per /spiel: 1 inserted in the booking's transaction, deleted with the "
        f"after-send write; payload of a 300-character reply: {payload[0]} bytes"
    )


def _table(sql: str) -> str:
    words = sql.replace("(", " ").split()
    for key in ("INTO", "FROM", "UPDATE"):
        if key in (w.upper() for w in words):
            i = [w.upper() for w in words].index(key)
            return words[i + 1].strip('"') if i + 1 < len(words) else ""
    return ""


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 360))
