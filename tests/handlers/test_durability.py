"""Durability: the list survives a restart, a redelivered update books nothing, a closed list
stays exportable but takes no more games."""

from __future__ import annotations

import time
from typing import Any

from telegram import Update

from tests.helpers import Bot, export_json, refused, replies

CHAT = -1001


async def export(bot: Bot, chat_id: int = CHAT) -> dict[str, Any]:
    return await export_json(bot, chat_id)


def message_update(
    update_id: int, text: str, *, message_id: int, chat_id: int = CHAT
) -> dict[str, Any]:
    command = text.split()[0]
    return {
        "update_id": update_id,
        "message": {
            "message_id": message_id,
            "from": {"id": 7, "is_bot": False, "first_name": "Carla", "language_code": "de"},
            "chat": {"id": chat_id, "type": "group", "title": "Skatrunde"},
            "date": int(time.time()),
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        },
    }


async def deliver(bot: Bot, raw: dict[str, Any]) -> list[str]:
    """Process one update directly (as the polling loop would) and return the reply texts."""
    before = len(bot.api.calls)
    await bot.app.process_update(Update.de_json(raw, bot.app.bot))
    await bot.delivered(CHAT)
    return [r.text for r in replies(bot.api.calls[before:], CHAT)]


async def test_the_list_survives_a_restart(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")  # 3 × 24 = 72 → +72
    await bot.say("/spiel Bernd herz mit 1 verloren")  # 2 × 10 = 20 → −40
    await bot.say("/korrigieren 2 Bernd herz mit 2 verloren")  # 3 × 10 = 30 → −60
    await bot.say("/umbenennen Carla Carlotta")
    stand = await bot.text("/stand")
    data = await export(bot)
    # Anna      72 + 50 × (1 − 0) + 40 × 1 =  72 +  50 + 40 = 162
    # Bernd    −60 + 50 × (0 − 1) + 40 × 0 = −60 −  50      = −110
    # Carlotta   0 + 50 × (0 − 0) + 40 × 1 =                   40
    assert "72 + 50 × (1 − 0) + 40 × 1 = 162" in stand
    assert "−60 + 50 × (0 − 1) + 40 × 0 = −110" in stand
    assert "0 + 50 × (0 − 0) + 40 × 1 = 40" in stand
    assert "Spiel 3/36 · Geber Carlotta · Vorhand Anna" in stand

    await bot.shutdown()
    b2 = Bot(bot.api, bot.db)
    await b2.start()
    try:
        assert await b2.text("/stand") == stand
        assert await export(b2) == data
        # and the list goes on where it stopped: Carlotta deals game 3
        reply = await b2.text("/spiel Anna karo mit 1 gewonnen")
        assert "Spiel 3/36" in reply
        assert "Spiel 4/36 · Geber Anna · Vorhand Bernd" in reply
    finally:
        await b2.shutdown()


async def test_a_redelivered_update_books_nothing(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    raw = message_update(90001, "/spiel Anna grand ohne 1 hand gewonnen", message_id=500)

    first = await deliver(bot, raw)
    second = await deliver(bot, raw)
    assert len(first) == 1 and "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72" in first[0]
    assert second == []  # answered once (the outbox delivered it), nothing booked twice

    data = await export(bot)
    assert [g["nr"] for g in data["games"]] == [1]
    assert data["totals"]["Anna"]["game_points"] == 72

    # A different update with the same text is a new game.
    await deliver(bot, message_update(90002, raw["message"]["text"], message_id=501))
    data = await export(bot)
    assert [g["nr"] for g in data["games"]] == [1, 2]
    assert data["totals"]["Anna"]["game_points"] == 144  # 72 + 72


async def test_redelivery_of_a_correction_and_a_cancellation(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna kreuz mit 1 gewonnen")  # 2 × 12 = 24
    await bot.say("/spiel Bernd kreuz mit 1 gewonnen")
    await bot.say("/spiel Carla kreuz mit 1 gewonnen")
    fix = message_update(90010, "/korrigieren 1 Anna kreuz mit 2 gewonnen", message_id=600)
    cancel = message_update(90011, "/storno 2 ja", message_id=601)
    assert await deliver(bot, fix) and await deliver(bot, fix) == []
    assert await deliver(bot, cancel) and await deliver(bot, cancel) == []
    data = await export(bot)
    # one struck row + its correction, one cancelled row; games move up: Carla's game is nr 2
    assert [(g["nr"], g["status"], g["declarer"]) for g in data["games"]] == [
        (None, "struck", "Anna"),
        (1, "valid", "Anna"),
        (None, "cancelled", "Bernd"),
        (2, "valid", "Carla"),
    ]
    assert data["totals"]["Anna"]["game_points"] == 36  # (2 + 1) × 12


async def test_redelivery_after_a_restart_books_nothing(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    raw = message_update(90020, "/spiel Bernd null gewonnen", message_id=700)
    first = await deliver(bot, raw)
    await bot.shutdown()  # "crash" before Telegram saw the confirmation
    b2 = Bot(bot.api, bot.db)
    await b2.start()
    try:
        # Telegram delivers the same update again, this time through the polling loop.
        before = len(b2.api.calls)
        update_id = b2.api.push_update(raw)
        await b2.api.wait_confirmed(update_id, timeout=15)
        again = [r.text for r in replies(b2.api.calls[before:], CHAT)]
        assert first and again == []  # answered before the "crash": not again
        data = await export(b2)
        assert [g["nr"] for g in data["games"]] == [1]
        assert data["totals"]["Bernd"]["game_points"] == 23
    finally:
        await b2.shutdown()


async def test_a_closed_list_takes_no_games_but_is_exported(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")  # +72
    await bot.say("/spiel Carla pik mit 1 verloren")  # 2 × 11 = 22 → −44
    closing = await bot.text("/abschluss ja")
    assert "Liste abgeschlossen" in closing
    # Anna 72 + 50 × 1 + 40 × 1 = 162; Bernd 0 + 0 + 40 × 1 = 40; Carla −44 − 50 + 0 = −94
    assert "72 + 50 × (1 − 0) + 40 × 1 = 162" in closing
    assert "−44 + 50 × (0 − 1) + 40 × 0 = −94" in closing

    refusal = await refused(bot, "/spiel Bernd grand mit 1 gewonnen")
    assert refusal.startswith("⚠️ ")
    assert "👉" in refusal and "/neu" in refusal

    data = await export(bot)
    assert data["status"] == "closed"
    assert [g["nr"] for g in data["games"]] == [1, 2]
    assert data["totals"]["Anna"]["score"] == 162
    assert data["totals"]["Bernd"]["score"] == 40
    assert data["totals"]["Carla"]["score"] == -94

    # still there after a restart
    await bot.shutdown()
    b2 = Bot(bot.api, bot.db)
    await b2.start()
    try:
        assert await export(b2) == data
        # a new list may start now; /export then shows the new one
        assert "Neue Liste" in await b2.text("/neu Dora Emil Fritz")
        fresh = await export(b2)
        assert fresh["players"] == ["Dora", "Emil", "Fritz"] and fresh["games"] == []
    finally:
        await b2.shutdown()


def test_a_stored_reply_keeps_the_booking_message_it_answers(db: Any) -> None:
    """The link of a booking's message (an edit of it edits the answer) is part of the outbox
    row: a reply resumed after a restart still records its id for that message."""
    from skatbot.handlers import durable
    from skatbot.storage import outbox
    from skatbot.usecases.common.reply import Reply

    link = durable.Link(place=-1001, message_id=17, update_id=4242)

    def store(session: Any) -> list[durable.Stored]:
        return durable.store(session, -1001, None, 4242, Reply("✅ Spiel 1"), link)

    stored = db.run_write(store)
    assert [row.link for row in stored] == [link]
    (row,) = db.run_read(outbox.pending)
    reply, pin, resumed = durable.decode(row.payload, row.blob)
    assert (reply.text, pin, resumed) == ("✅ Spiel 1", False, link)
    # a reply that answers no booking carries none
    db.run_write(lambda s: durable.store(s, -1001, None, 4243, Reply("Stand")))
    assert [durable.decode(r.payload, r.blob)[2] for r in db.run_read(outbox.pending)] == [
        link,
        None,
    ]
