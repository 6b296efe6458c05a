"""Closing a series through the real bot, where Telegram is part of it: stale and forged
buttons (callback data that is not on the message), redelivered updates that book nothing
twice, who may /oeffnen (the admin check asks Telegram; an anonymous admin as Telegram sends
one) and the command menu. The rest of closing: tests/usecases/place/test_closing.py."""

from __future__ import annotations

import time
from typing import Any

from telegram import Update

from tests import helpers
from tests.helpers import Bot, replies
from tests.usecases.place.test_closing import german_today, log_marks, pdf_text, status, today

CHAT = -1001
CREATOR, ADMIN, MEMBER = 1, 7, 9
AS_GROUP = {"id": CHAT, "type": "supergroup", "title": "Skatrunde"}  # an anonymous admin


async def say(bot: Bot, text: str, **kw: Any) -> tuple[str, list[tuple[str, bytes]]]:
    """The reply texts (joined) and the documents the bot answered ``text`` with (photos,
    e.g. /abschluss's picture of the running scores, are not documents)."""
    out = await bot.say(text, chat_id=kw.pop("chat_id", CHAT), **kw)
    docs = [r.document for r in out if r.document and r.method == "sendDocument"]
    return "\n".join(r.text for r in out), docs


async def ok(bot: Bot, text: str, **kw: Any) -> str:
    return await helpers.ok(bot, text, **{"chat_id": CHAT, **kw})


async def as_group(bot: Bot, text: str) -> str:
    """A message of an anonymous admin (on behalf of the supergroup itself)."""
    before = len(bot.api.calls)
    uid = bot.api.push_message(text, chat_id=CHAT, chat_type="supergroup", sender_chat=AS_GROUP)
    await bot.api.wait_confirmed(uid, timeout=15)
    return "\n".join(r.text for r in replies(bot.api.calls[before:], CHAT))


async def table(bot: Bot, games: int = 2, **kw: Any) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=CREATOR, name="Anna", **kw)
    plays = ["/spiel Anna grand ohne 1 hand gewonnen", "/spiel Bernd herz mit 1 verloren"]
    for i in range(games):
        await ok(bot, plays[i % 2], user_id=CREATOR, name="Anna", **kw)


def question(bot: Bot) -> Any:
    msg = bot.api.messages(CHAT)[-1]
    assert msg.text and "Serie jetzt abschließen?" in msg.text, msg.text
    return msg


async def tap(bot: Bot, message_id: int, data: str, user_id: int = MEMBER) -> tuple[str, str]:
    """Press a button; returns (answerCallbackQuery text, new message texts)."""
    before = len(bot.api.calls)
    uid = bot.api.push_callback(data, message_id=message_id, chat_id=CHAT, user_id=user_id)
    await bot.api.wait_confirmed(uid, timeout=15)
    calls = bot.api.calls[before:]
    notice = " ".join(
        str(c.params.get("text", "")) for c in calls if c.method == "answerCallbackQuery"
    )
    sent = "\n".join(r.text for r in replies(calls, CHAT) if r.method != "editMessageText")
    return notice, sent


async def test_the_confirm_button_closes_and_stale_or_forged_buttons_change_nothing(
    bot: Bot,
) -> None:
    await table(bot, 2)
    await say(bot, "/abschluss")
    first = question(bot)
    await say(bot, "/abschluss")  # asked again: the first question's buttons are stale
    second = question(bot)
    assert second.message_id != first.message_id

    notice, sent = await tap(bot, first.message_id, first.buttons[0][0]["callback_data"])
    assert "gilt nicht mehr" in notice and "/abschluss" in notice and sent == ""
    assert bot.api.message(CHAT, first.message_id).buttons == []
    assert status(bot) == ["open"]

    yes = second.buttons[0][0]["callback_data"]
    forged = yes[:-16] + ("0" * 16 if not yes.endswith("0" * 16) else "1" * 16)
    notice, sent = await tap(bot, second.message_id, forged)  # not on the message
    assert "gilt nicht mehr" in notice and sent == ""
    assert status(bot) == ["open"]

    before = len(bot.api.documents(CHAT))
    notice, sent = await tap(bot, second.message_id, yes, user_id=MEMBER)
    assert "abgeschlossen" in notice
    assert "Liste abgeschlossen" in sent
    docs = bot.api.documents(CHAT)[before:]
    [(name, data)] = docs
    assert name == f"skatliste-1-abschluss-{today()}.pdf"
    assert "Serienabschluss" in pdf_text(data) and "Zwischenstand" not in pdf_text(data)
    msg = bot.api.message(CHAT, second.message_id)
    assert msg.buttons == [] and "Serie abgeschlossen" in (msg.text or "")
    assert status(bot) == ["closed"]
    assert log_marks(bot) == [("close", MEMBER)]

    # the same data again (no longer on the message): nothing happens
    notice, sent = await tap(bot, second.message_id, yes)
    assert "gilt nicht mehr" in notice and sent == ""
    assert log_marks(bot) == [("close", MEMBER)]


async def test_a_redelivered_tap_or_abschluss_ja_books_nothing_twice(bot: Bot) -> None:
    await table(bot, 2)
    await say(bot, "/abschluss")
    msg = question(bot)
    uid = bot.api.push_callback(
        msg.buttons[0][0]["callback_data"], message_id=msg.message_id, chat_id=CHAT
    )
    raw = next(u for u in bot.api.pending_updates if u["update_id"] == uid)
    await bot.api.wait_confirmed(uid, timeout=15)
    documents = len(bot.api.documents(CHAT))
    await bot.app.process_update(Update.de_json(raw, bot.app.bot))  # Telegram sends it again
    await bot.delivered(CHAT)
    assert len(bot.api.documents(CHAT)) == documents
    assert log_marks(bot) == [("close", 1)]

    # reopened, then closed by a typed "/abschluss ja" that arrives twice
    await ok(bot, "/oeffnen", user_id=CREATOR)
    raw = {
        "update_id": 95001,
        "message": {
            "message_id": 950,
            "from": {"id": CREATOR, "is_bot": False, "first_name": "Anna"},
            "chat": {"id": CHAT, "type": "group", "title": "Skatrunde"},
            "date": int(time.time()),
            "text": "/abschluss ja",
            "entities": [{"type": "bot_command", "offset": 0, "length": 10}],
        },
    }
    answers = []
    for _ in range(2):
        before = len(bot.api.calls)
        await bot.app.process_update(Update.de_json(raw, bot.app.bot))
        await bot.delivered(CHAT)
        answers.append(replies(bot.api.calls[before:], CHAT))
    [first, picture] = answers[0]
    assert picture.method == "sendPhoto"  # the running scores beside the PDF
    assert first.document is not None and "Liste abgeschlossen" in first.text
    assert answers[1] == []  # answered once: no second text, PDF or picture
    assert log_marks(bot) == [("close", 1), ("reopen", CREATOR), ("close", CREATOR)]
    assert status(bot) == ["closed"]


# --- /oeffnen --------------------------------------------------------------------------------


async def test_oeffnen_by_the_creator_an_admin_and_an_anonymous_admin(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await table(bot, 2)
    await ok(bot, "/abschluss ja")

    refusal, _ = await say(bot, "/oeffnen", user_id=MEMBER)
    assert refusal.startswith(
        "⚠️ Wieder öffnen dürfen nur die Admins dieses Chats oder „Anna“ (hat die Liste angelegt)."
    ), refusal
    assert "Bitte einen Admin, /oeffnen zu schicken." in refusal
    assert status(bot) == ["closed"]
    assert bot.api.sent("getChatMember")  # the admin check asked Telegram

    opened = await ok(bot, "/oeffnen", user_id=CREATOR)
    assert f"Liste wieder geöffnet (abgeschlossen am {german_today()})." in opened
    assert "Spiel 3/36" in opened
    assert status(bot) == ["open"]
    assert "Spiel 3/36" in await ok(bot, "/spiel Carla kreuz mit 1 gewonnen")
    await ok(bot, "/abschluss ja")

    assert "wieder geöffnet" in await ok(bot, "/oeffnen", user_id=ADMIN)
    await ok(bot, "/abschluss ja")
    assert "wieder geöffnet" in await as_group(bot, "/oeffnen")
    assert status(bot) == ["open"]
    assert [kind for kind, _ in log_marks(bot)] == [
        "close",
        "reopen",
        "close",
        "reopen",
        "close",
        "reopen",
    ]
    assert [who for kind, who in log_marks(bot) if kind == "reopen"] == [CREATOR, ADMIN, CHAT]


async def test_oeffnen_is_in_the_menu_and_the_help(bot: Bot) -> None:
    assert "/oeffnen" in await ok(bot, "/hilfe")
    names = {c["command"] for c in bot.api.sent("setMyCommands")[0].params["commands"]}
    assert "oeffnen" in names
