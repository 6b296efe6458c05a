"""Writes what a 48-game 4-table evening's ``/liste alle`` and ``/stand`` look like as rich
messages: the rich HTML the bot sends, wrapped in a page styled like a Telegram table
(borders, stripes), and the console's aligned columns. For looking at, e.g. with headless
chromium: ``chromium --headless --screenshot=liste.png --window-size=1400,2200 liste.html``.

    python bench/rich_preview.py [OUT_DIR]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the Bot API server

from skatbot.app import build_application
from skatbot.runner import run_polling
from skatbot.standin.rich import parse_rich
from skatbot.storage.database import Database
from tests.standin.server import BotApiServer

CHAT = -1001
NAMES = [
    "Annabella-Maximiliane-Hohenzolle",
    "Bernhard-Friedrich-Wilhelm-Ostho",
    "Carlotta-Henriette-Sophie-Lauten",
    "Dorothea-Wilhelmine-Charlotte-Ko",
]
GAMES = [
    "grand ohne 1 hand gewonnen",
    "kreuz mit 2 verloren",
    "herz ohne 1 gewonnen",
    "null gewonnen",
    "pik mit 1 schneider gewonnen",
    "karo mit 1 reiz 30 gewonnen",
]
PAGE = """<!doctype html><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 14px/1.35 -apple-system, "Segoe UI", Roboto, sans-serif; background: #e7ebf0;
       margin: 24px; }}
.bubble {{ background: #fff; border-radius: 12px; padding: 10px 14px; display: inline-block;
          box-shadow: 0 1px 2px rgba(0,0,0,.15); }}
h3 {{ margin: 4px 0 8px; font-size: 16px; }}
p {{ margin: 4px 0; }}
table {{ border-collapse: collapse; margin: 6px 0; }}
th, td {{ border: 1px solid #c8d0d8; padding: 3px 7px; white-space: nowrap; }}
th {{ background: #eef3f8; text-align: left; }}
tr:nth-child(even) td {{ background: #f6f8fa; }}
</style>
<div class="bubble">{html}</div>
"""


async def main(out: Path) -> None:
    db = Database(f"sqlite:///{tempfile.mkdtemp()}/preview.db")
    db.migrate()
    async with BotApiServer() as api:
        app = build_application(api.token, db, base_url=f"{api.url}/bot", rate_limit=False)
        stop = asyncio.Event()
        poller = asyncio.create_task(run_polling(app, stop=stop, timeout=1))

        async def say(text: str) -> None:
            uid = api.push_message(text, chat_id=CHAT)
            await api.wait_confirmed(uid, 30)
            await app.bot_data.outbox.wait_idle(None, 30)

        await say("/neu " + " ".join(NAMES))
        await say("/serie 48")
        for i in range(48):
            await say(f"/spiel {NAMES[(i + 1 + i % 3) % 4]} {GAMES[i % len(GAMES)]}")
        for nr in (3, 17, 30, 44):
            await say(f"/korrigieren {nr} {NAMES[(nr + nr % 3) % 4]} grand mit 2 gewonnen")
        await say("/storno 20 ja")
        await say(f"/spiel {NAMES[2]} grand ohne 2 gewonnen")
        out.mkdir(parents=True, exist_ok=True)
        for command, name in (("/liste alle", "liste"), ("/stand", "stand")):
            before = len(api.calls)
            await say(command)
            [call] = [c for c in api.calls[before:] if c.method == "sendRichMessage"]
            message = call.params["rich_message"]
            html = str(message["html"])
            content = parse_rich(message)
            (out / f"{name}.html").write_text(PAGE.format(title=command, html=html))
            (out / f"{name}.txt").write_text(content.plain() + "\n")
            print(
                f"{command}: {content.chars} characters of text, {content.block_count} blocks, "
                f"{len(html)} characters of HTML -> {out / name}.html / .txt"
            )
        stop.set()
        await poller
    db.dispose()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "rich-preview")))
