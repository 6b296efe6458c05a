"""Memory per chat: RSS after N chats, each with a list and a few games (every tenth chat a
forum topic), in one process on SQLite; and bytes per game on disk.

In-process: the real Application and handlers, the Bot API answering at once, no pacing.
Usage: python bench/memory_chats.py [COUNTS ...]    (default 1000 10000; e.g. 1000 10000 100000)
"""

from __future__ import annotations

import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import InstantRequest
from telegram import Update
from telegram.ext import Application

from skatbot.handlers.bot_state import CONTEXT_TYPES
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.registry import register
from skatbot.storage.database import Database

GAMES_PER_CHAT = 3


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def update(uid: int, chat: int, text: str, bot: object, thread: int | None = None) -> Update:
    msg: dict[str, object] = {
        "message_id": uid,
        "date": int(time.time()),
        "chat": {"id": chat, "type": "supergroup", "title": "Bench", "is_forum": bool(thread)},
        "from": {"id": 1, "is_bot": False, "first_name": "Spieler"},
        "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
    }
    if thread:
        msg.update(message_thread_id=thread, is_topic_message=True)
    return Update.de_json({"update_id": uid, "message": msg}, bot)  # type: ignore[arg-type]


async def main(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        db = Database(f"sqlite:///{path}")
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
        app.bot_data.outbox = outbox = Outbox(
            Pacer(group_limit=20, group_window=60.0, per_second=None)
        )
        register(app)
        uid = 0
        games = 0
        size0 = games0 = 0
        began = time.monotonic()
        print(f"start: RSS {rss_mb():.0f} MB")
        async with app:
            done = 0
            for target in sorted(counts):
                while done < target:
                    chat = -1_000_000 - done
                    thread = 7 if done % 10 == 0 else None
                    texts = ["/neu Anna Bernd Carla"] + [
                        "/spiel Anna grand ohne 1 hand gewonnen"
                    ] * GAMES_PER_CHAT
                    for text in texts:
                        uid += 1
                        await app.process_update(update(uid, chat, text, app.bot, thread))
                    games += GAMES_PER_CHAT
                    done += 1
                    if done % 500 == 0:
                        await outbox.wait_idle(None, 120)
                    if done == 1000:
                        size0, games0 = path.stat().st_size, games
                await outbox.wait_idle(None, 120)
                gc.collect()
                size = path.stat().st_size + (
                    Path(f"{path}-wal").stat().st_size if Path(f"{path}-wal").exists() else 0
                )
                per_game = (size - size0) / max(1, games - games0) if done > 1000 else size / games
                print(
                    f"{done:>7} chats ({games} games, {time.monotonic() - began:.0f} s): "
                    f"RSS {rss_mb():.0f} MB; database {size / 1e6:.1f} MB, "
                    f"{per_game:.0f} bytes per game (chats, lists, players and log included)",
                    flush=True,
                )
        db.dispose()


if __name__ == "__main__":
    asyncio.run(main([int(a) for a in sys.argv[1:]] or [1000, 10000]))
