"""Closing a series through the real bot: the Serienabschluss PDF (heading read back with
pypdf, file names), /abschluss asking first before the series is full (buttons tapped),
/oeffnen (who may, when it is refused, the log row), /stand and /liste on a closed list, and
redelivered updates that book nothing twice."""

from __future__ import annotations

import datetime as dt
import io
import re
import time
from typing import Any

from pypdf import PdfReader
from sqlalchemy import select
from telegram import Update

from skatbot.storage.lists_models import Row, SheetList
from tests import helpers
from tests.helpers import Bot, refused, replies

CHAT = -1001
CREATOR, ADMIN, MEMBER = 1, 7, 9
AS_GROUP = {"id": CHAT, "type": "supergroup", "title": "Skatrunde"}  # an anonymous admin


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def german_today() -> str:
    d = dt.datetime.now(dt.UTC).date()
    return f"{d.day:02d}.{d.month:02d}.{d.year}"


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


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


def status(bot: Bot, chat_id: int = CHAT) -> list[str]:
    """The status of the chat's lists, oldest first."""
    return bot.db.run_read(
        lambda s: list(
            s.scalars(
                select(SheetList.status).where(SheetList.chat_id == chat_id).order_by(SheetList.id)
            )
        )
    )


def log_marks(bot: Bot) -> list[tuple[str, int | None]]:
    """(kind, user id) of the close/reopen rows of all lists, in log order."""
    return bot.db.run_read(
        lambda s: [
            (r.kind, r.user_id)
            for r in s.execute(
                select(Row.kind, Row.user_id)
                .where(Row.kind.in_(("close", "reopen")))
                .order_by(Row.id)
            )
        ]
    )


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


# --- item 1: the Serienabschluss PDF and the file names ----------------------------------------


async def test_a_full_series_closes_at_once_with_the_serienabschluss_pdf(bot: Bot) -> None:
    await table(bot, 0, chat_id=-2002)  # another chat's list: the numbers are per chat
    await table(bot, 2)
    await ok(bot, "/serie 2")  # the series is full now
    text, docs = await say(bot, "/pdf")
    assert "Zwischenstand, 2 Spiele" in text
    [(name, data)] = docs
    assert name == f"skatliste-1-zwischenstand-{today()}.pdf"
    assert "Zwischenstand" in pdf_text(data)

    text, docs = await say(bot, "/abschluss")  # full: no question
    assert "Liste abgeschlossen" in text and "/oeffnen" in text
    [(name, data)] = docs
    assert name == f"skatliste-1-abschluss-{today()}.pdf"
    assert name.isascii()
    content = pdf_text(data)
    assert "Serienabschluss" in content
    assert f"Serie abgeschlossen am {german_today()}." in content
    assert "Zwischenstand" not in content
    assert "noch nicht abgeschlossen" not in content
    assert status(bot) == ["closed"]

    # /pdf of the closed list is the same document under the same name
    text, [(again, data)] = await say(bot, "/pdf")
    assert again == name
    assert f"Serienabschluss, 2 Spiele, abgeschlossen am {german_today()}" in text
    assert "Zwischenstand" not in pdf_text(data)

    # the next series of the same chat is number 2
    await ok(bot, "/weiter")
    _, [(name, _)] = await say(bot, "/pdf")
    assert name == f"skatliste-2-zwischenstand-{today()}.pdf"


# --- item 2: /abschluss asks first while the series is not full -------------------------------


async def test_abschluss_before_the_end_asks_and_nein_keeps_playing(bot: Bot) -> None:
    await table(bot, 2)
    text, docs = await say(bot, "/abschluss")
    assert docs == []
    assert "Serie jetzt abschließen?" in text and "Gespielt: 2 von 36 Spielen." in text
    assert "/abschluss ja" in text
    assert status(bot) == ["open"]
    msg = question(bot)
    [[yes, no]] = msg.buttons
    assert yes["text"] == "🏁 Ja, abschließen" and no["text"] == "Nein, weiterspielen"
    for button in (yes, no):
        assert re.fullmatch(r"v1:(close|keep):\d+:[0-9a-f]{16}", button["callback_data"])
        assert len(button["callback_data"].encode()) <= 64

    notice, sent = await tap(bot, msg.message_id, no["callback_data"])
    assert "läuft weiter" in notice and sent == ""
    msg = bot.api.message(CHAT, msg.message_id)
    assert msg.buttons == [] and "Nicht abgeschlossen" in (msg.text or "")
    assert "Spiel 3/36" in (msg.text or "")
    assert status(bot) == ["open"]
    await ok(bot, "/spiel Carla kreuz mit 1 gewonnen")  # the series goes on
    assert log_marks(bot) == []


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


async def test_abschluss_with_an_unknown_word_is_refused(bot: Bot) -> None:
    await table(bot, 1)
    text, docs = await say(bot, "/abschluss vielleicht")
    assert text.startswith("⚠️ Das verstehe ich nicht.") and "/abschluss ja" in text
    assert docs == [] and status(bot) == ["open"]


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


async def test_oeffnen_is_refused_without_a_closed_latest_list(bot: Bot) -> None:
    text, _ = await say(bot, "/oeffnen", user_id=CREATOR)
    assert text.startswith("⚠️ In diesem Chat gibt es noch keine Liste.") and "/neu" in text
    await table(bot, 1)
    text, _ = await say(bot, "/oeffnen", user_id=CREATOR)
    assert text.startswith("⚠️ Die Liste ist gar nicht abgeschlossen – sie läuft (1 Spiel).")
    await ok(bot, "/abschluss ja")
    await ok(bot, "/weiter")
    text, _ = await say(bot, "/oeffnen", user_id=CREATOR)
    assert text.startswith("⚠️ Es läuft schon eine neuere Liste (0 Spiele)"), text
    assert "die abgeschlossene bleibt gespeichert" in text
    assert status(bot) == ["closed", "open"]
    assert log_marks(bot) == [("close", 1)]


# --- /stand and /liste on a closed list --------------------------------------------------------


async def test_stand_and_liste_show_the_final_state_of_a_closed_list(bot: Bot) -> None:
    await table(bot, 2)
    open_stand = await ok(bot, "/stand")
    await ok(bot, "/abschluss ja")
    closed_line = f"🏁 Serie abgeschlossen am {german_today()} (2 Spiele)."

    stand = await ok(bot, "/stand")
    assert stand.startswith(open_stand.split("\nSpiel 3/36")[0])  # the same totals
    assert closed_line in stand and "/weiter" in stand and "/oeffnen" in stand
    assert "Spiel 3/36" not in stand

    liste = await ok(bot, "/liste")
    assert "Grand ohne 1 Hand" in liste and closed_line in liste
    assert closed_line in await ok(bot, "/liste alle")

    # the Stand button under an old booking too
    booking = next(m for m in bot.api.messages(CHAT) if "Spiel 2/36" in (m.text or ""))
    _, sent = await tap(bot, booking.message_id, "v1:st")
    assert closed_line in sent

    # booking is still refused
    refusal, _ = await say(bot, "/spiel Anna grand mit 1 gewonnen")
    assert refusal.startswith("⚠️ Die Liste ist abgeschlossen.")

    # an empty list is no series: it is not closed, and /liste says it has no games yet
    await ok(bot, "/weiter")
    await refused(bot, "/abschluss ja", "noch kein Spiel")
    liste = await ok(bot, "/liste")
    assert liste.startswith("Noch keine Spiele.")


async def test_oeffnen_is_in_the_menu_and_the_help(bot: Bot) -> None:
    assert "/oeffnen" in await ok(bot, "/hilfe")
    names = {c["command"] for c in bot.api.sent("setMyCommands")[0].params["commands"]}
    assert "oeffnen" in names


def test_close_and_reopen_rows_change_nothing_on_the_sheet() -> None:
    from skatbot.rules.sheet import LogRow, RowKind, replay

    plays = [
        LogRow(1, RowKind.GAME, 0, 0, "grand ohne 1 hand gewonnen"),
        LogRow(4, RowKind.GAME, 1, 1, "herz mit 1 verloren"),
    ]
    marks = [LogRow(2, RowKind.CLOSE), LogRow(3, RowKind.REOPEN), LogRow(5, RowKind.CLOSE)]
    rows = sorted([*plays, *marks], key=lambda r: r.id)
    names = ["Anna", "Bernd", "Carla"]
    with_marks, without = replay(names, rows), replay(names, plays)
    assert [(e.nr, e.points) for e in with_marks.entries] == [
        (e.nr, e.points) for e in without.entries
    ]
    assert with_marks.next_dealer == without.next_dealer == 2
