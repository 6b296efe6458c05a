"""kill -9 mid-burst: the bot (a real `python -m skatbot run` subprocess on the fake Bot API)
is killed while working through 40 queued games and restarted; every game is booked exactly
once and in order."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from skatbot.storage.database import Database
from tests.helpers import game_rows
from tests.standin.fake_telegram import FakeBotApi, html_to_text

CHAT = -1001
NAMES = ["Anna", "Bernd", "Carla"]
GAMES = [
    f"{NAMES[i % 3]} {['karo', 'herz', 'pik', 'kreuz', 'grand'][i % 5]} "
    f"{'mit' if i % 2 else 'ohne'} {1 + i % 3} {'gewonnen' if i % 4 else 'verloren'}"
    for i in range(40)
]


async def _start_bot(api: FakeBotApi, db_url: str, log: Path) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    env.update(
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_BASE_URL=api.url,
        SKATBOT_DATABASE_URL=db_url,
        SKATBOT_RATE_LIMIT="0",  # Telegram's 20 messages/min per group would take minutes
    )
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "skatbot",
        "run",
        env=env,
        stdout=log.open("ab"),
        stderr=asyncio.subprocess.STDOUT,
    )


async def test_sigkill_mid_burst_books_every_game_exactly_once(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'crash.db'}"
    log = tmp_path / "bot.log"
    # No flood limit here: the bot runs with SKATBOT_RATE_LIMIT=0, and this test is about
    # crashes (pacing is tested in tests/handlers/test_flood.py).
    async with FakeBotApi(group_limit=None) as api:
        api.push_message("/neu Anna Bernd Carla", chat_id=CHAT)
        api.push_message("/serie 60", chat_id=CHAT)
        ids = [
            api.push_message(f"/spiel {g}", chat_id=CHAT, user_id=1 + i % 3)
            for i, g in enumerate(GAMES)
        ]
        # Updates are confirmed once committed, replies follow from the outbox: slow
        # getUpdates answers keep the confirmations behind the bookings, so the kill lands
        # while Telegram still holds updates the bot has booked already.
        api.fail_next("getUpdates", status=200, delay=0.3, times=1000)
        proc = await _start_bot(api, db_url, log)
        try:
            # /neu, /serie and 13 games answered: kill -9 in the middle of the burst
            await api.wait_for_call("sendMessage", count=15, timeout=60)
        finally:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        assert proc.returncode == -signal.SIGKILL
        done_before = api.confirmed_offset
        assert done_before <= ids[-1], "the burst finished before the kill"
        api._faults.clear()  # getUpdates answers at full speed again
        proc = await _start_bot(api, db_url, log)
        try:
            await api.wait_confirmed(ids[-1], timeout=90)
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 20)

    db = Database(db_url)
    try:
        rows = game_rows(db, CHAT)
    finally:
        db.dispose()
    assert [u for _, _, u in rows] == ids, log.read_text()[-3000:]  # once each, in order
    assert len(rows) == 40
    booked = [a for _, a, _ in rows]
    assert booked[0] == "Karo ohne 1 verloren"
    assert booked[4] == "Grand ohne 2 verloren"
    # every game Telegram still held at the kill got an answer after the restart (a
    # redelivered update that was booked before gets its stored reply again)
    answers = [html_to_text(str(c.params["text"])) for c in api.sent("sendMessage", chat_id=CHAT)]
    for n, uid in enumerate(ids, 1):
        if uid >= done_before:
            assert any(a.startswith(f"✅ Spiel {n}/60 ") for a in answers), n
