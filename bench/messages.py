"""How many messages a 36-game evening sends into the group, and the longest reply.

Plays /neu, 36 games, /stand, /liste alle, /pdf and /abschluss through the real bot on the
strict stand-in and counts the Bot API calls that put a message into the chat (Telegram's
~20 a minute per group counts these). Run: python bench/messages.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the Bot API server

from skatbot.app import build_application
from skatbot.handlers.html_split import plain_length
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from tests.standin.server import BotApiServer

CHAT = -1001
NAMES = ["Anna", "Bernd", "Carla"]


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'm.db'}")
        db.migrate()
        async with BotApiServer() as api:
            app = build_application(api.token, db, base_url=f"{api.url}/bot", rate_limit=False)
            stop = asyncio.Event()
            task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
            lines = ["/neu Anna Bernd Carla"]
            for n in range(36):
                suit = ["karo", "herz", "pik", "kreuz", "grand"][n % 5]
                outcome = "gewonnen" if n % 4 else "verloren"
                lines.append(f"/spiel {NAMES[n % 3]} {suit} mit {1 + n % 3} {outcome}")
            lines += ["/stand", "/liste alle", "/pdf", "/abschluss"]
            counts: dict[str, int] = {}
            for line in lines:
                before = len(api.calls)
                uid = api.push_message(line, chat_id=CHAT)
                await api.wait_confirmed(uid, 15)
                await app.bot_data.outbox.wait_idle(CHAT, 15)
                sent = [
                    c
                    for c in api.calls[before:]
                    if c.ok and c.method in ("sendMessage", "sendDocument")
                ]
                key = line.split()[0]
                counts[key] = counts.get(key, 0) + len(sent)
            stop.set()
            await task
            longest = max(
                (plain_length(str(c.params.get("text") or c.params.get("caption") or "")), c.method)
                for c in api.calls
                if c.ok and c.method in ("sendMessage", "sendDocument", "editMessageText")
            )
        db.dispose()
    total = sum(counts.values())
    print(f"messages into the group: {total}  " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"longest message: {longest[0]} characters ({longest[1]}; Telegram allows 4,096)")


if __name__ == "__main__":
    asyncio.run(main())
