"""Closing a series on the use cases (the ``chat`` harness): the Serienabschluss PDF (heading
read back with pypdf, file names), /abschluss asking first before the series is full (buttons
tapped), /oeffnen when it is refused, /stand and /liste on a closed list.

Through the real bot (tests/handlers/test_closing.py): stale and forged buttons, redelivered
updates that book nothing twice, who may /oeffnen (the admin check asks Telegram) and the
command menu."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from sqlalchemy import select

from skatbot.storage.lists_models import Row, SheetList
from tests import helpers
from tests.harness import Harness, Message
from tests.helpers import Bot, refused
from tests.pdf.helpers import all_text

CHAT = -1001
CREATOR, MEMBER = 1, 9


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def german_today() -> str:
    d = dt.datetime.now(dt.UTC).date()
    return f"{d.day:02d}.{d.month:02d}.{d.year}"


pdf_text = all_text  # the text of every page


async def say(chat: Harness, text: str, **kw: Any) -> tuple[str, list[tuple[str, bytes]]]:
    """The reply texts (joined) and the documents the bot answered ``text`` with (photos,
    e.g. /abschluss's picture of the running scores, are not documents)."""
    out = await chat.say(text, chat_id=kw.pop("chat_id", CHAT), **kw)
    docs = [r.document for r in out if r.document and r.method == "sendDocument"]
    return "\n".join(r.text for r in out), docs


async def ok(chat: Harness, text: str, **kw: Any) -> str:
    return await helpers.ok(chat, text, **{"chat_id": CHAT, **kw})


async def table(chat: Harness, games: int = 2, **kw: Any) -> None:
    await ok(chat, "/neu Anna Bernd Carla", user_id=CREATOR, name="Anna", **kw)
    plays = ["/spiel Anna grand ohne 1 hand gewonnen", "/spiel Bernd herz mit 1 verloren"]
    for i in range(games):
        await ok(chat, plays[i % 2], user_id=CREATOR, name="Anna", **kw)


def status(chat: Harness | Bot, chat_id: int = CHAT) -> list[str]:
    """The status of the chat's lists, oldest first."""
    return chat.db.run_read(
        lambda s: list(
            s.scalars(
                select(SheetList.status).where(SheetList.chat_id == chat_id).order_by(SheetList.id)
            )
        )
    )


def log_marks(chat: Harness | Bot) -> list[tuple[str, int | None]]:
    """(kind, user id) of the close/reopen rows of all lists, in log order."""
    return chat.db.run_read(
        lambda s: [
            (r.kind, r.user_id)
            for r in s.execute(
                select(Row.kind, Row.user_id)
                .where(Row.kind.in_(("close", "reopen")))
                .order_by(Row.id)
            )
        ]
    )


def question(chat: Harness) -> Message:
    msg = chat.last(CHAT)
    assert "Serie jetzt abschließen?" in msg.text, msg.text
    return msg


async def tap(chat: Harness, message_id: int, data: str, user_id: int = MEMBER) -> tuple[str, str]:
    """Press a button; returns (the callback answer's notice, new message texts)."""
    tapped = await chat.tap(message_id, data, chat_id=CHAT, user_id=user_id)
    sent = "\n".join(r.text for r in tapped.replies if r.method != "editMessageText")
    return tapped.notice, sent


# --- item 1: the Serienabschluss PDF and the file names ----------------------------------------


async def test_a_full_series_closes_at_once_with_the_serienabschluss_pdf(chat: Harness) -> None:
    await table(chat, 0, chat_id=-2002)  # another chat's list: the numbers are per chat
    await table(chat, 2)
    await ok(chat, "/serie 2")  # the series is full now
    text, docs = await say(chat, "/pdf")
    assert "Zwischenstand, 2 Spiele" in text
    [(name, data)] = docs
    assert name == f"skatliste-1-zwischenstand-{today()}.pdf"
    assert "Zwischenstand" in pdf_text(data)

    text, docs = await say(chat, "/abschluss")  # full: no question
    assert "Liste abgeschlossen" in text and "/oeffnen" in text
    [(name, data)] = docs
    assert name == f"skatliste-1-abschluss-{today()}.pdf"
    assert name.isascii()
    content = pdf_text(data)
    assert "Serienabschluss" in content
    assert f"Serie abgeschlossen am {german_today()}." in content
    assert "Zwischenstand" not in content
    assert "noch nicht abgeschlossen" not in content
    assert status(chat) == ["closed"]

    # /pdf of the closed list is the same document under the same name
    text, [(again, data)] = await say(chat, "/pdf")
    assert again == name
    assert f"Serienabschluss, 2 Spiele, abgeschlossen am {german_today()}" in text
    assert "Zwischenstand" not in pdf_text(data)

    # the next series of the same chat is number 2
    await ok(chat, "/weiter")
    _, [(name, _)] = await say(chat, "/pdf")
    assert name == f"skatliste-2-zwischenstand-{today()}.pdf"


# --- item 2: /abschluss asks first while the series is not full -------------------------------


async def test_abschluss_before_the_end_asks_and_nein_keeps_playing(chat: Harness) -> None:
    await table(chat, 2)
    text, docs = await say(chat, "/abschluss")
    assert docs == []
    assert "Serie jetzt abschließen?" in text and "Gespielt: 2 von 36 Spielen." in text
    assert "/abschluss ja" in text
    assert status(chat) == ["open"]
    msg = question(chat)
    [[yes, no]] = msg.buttons
    assert yes[0] == "🏁 Ja, abschließen" and no[0] == "Nein, weiterspielen"
    for _, data in (yes, no):
        assert re.fullmatch(r"v1:(close|keep):\d+:[0-9a-f]{16}", data)
        assert len(data.encode()) <= 64

    notice, sent = await tap(chat, msg.message_id, no[1])
    assert "läuft weiter" in notice and sent == ""
    msg = chat.messages[(CHAT, msg.message_id)]
    assert msg.buttons == () and "Nicht abgeschlossen" in msg.text
    assert "Spiel 3/36" in msg.text
    assert status(chat) == ["open"]
    await ok(chat, "/spiel Carla kreuz mit 1 gewonnen")  # the series goes on
    assert log_marks(chat) == []


async def test_abschluss_with_an_unknown_word_is_refused(chat: Harness) -> None:
    await table(chat, 1)
    text, docs = await say(chat, "/abschluss vielleicht")
    assert text.startswith("⚠️ Das verstehe ich nicht.") and "/abschluss ja" in text
    assert docs == [] and status(chat) == ["open"]


# --- /oeffnen --------------------------------------------------------------------------------


async def test_oeffnen_is_refused_without_a_closed_latest_list(chat: Harness) -> None:
    text, _ = await say(chat, "/oeffnen", user_id=CREATOR)
    assert text.startswith("⚠️ In diesem Chat gibt es noch keine Liste.") and "/neu" in text
    await table(chat, 1)
    text, _ = await say(chat, "/oeffnen", user_id=CREATOR)
    assert text.startswith("⚠️ Die Liste ist gar nicht abgeschlossen – sie läuft (1 Spiel).")
    await ok(chat, "/abschluss ja")
    await ok(chat, "/weiter")
    text, _ = await say(chat, "/oeffnen", user_id=CREATOR)
    assert text.startswith("⚠️ Es läuft schon eine neuere Liste (0 Spiele)"), text
    assert "die abgeschlossene bleibt gespeichert" in text
    assert status(chat) == ["closed", "open"]
    assert log_marks(chat) == [("close", 1)]


# --- /stand and /liste on a closed list --------------------------------------------------------


async def test_stand_and_liste_show_the_final_state_of_a_closed_list(chat: Harness) -> None:
    await table(chat, 2)
    open_stand = await ok(chat, "/stand")
    await ok(chat, "/abschluss ja")
    closed_line = f"🏁 Serie abgeschlossen am {german_today()} (2 Spiele)."

    stand = await ok(chat, "/stand")
    # the same totals, now the Serienabschluss instead of the Zwischenstand
    totals = open_stand.split("\nSpiel 3/36")[0]
    assert totals.startswith("Zwischenstand (")
    assert stand.startswith(totals.replace("Zwischenstand", "Serienabschluss", 1))
    assert closed_line in stand and "/weiter" in stand and "/oeffnen" in stand
    assert "Spiel 3/36" not in stand

    liste = await ok(chat, "/liste")
    assert "Grand ohne 1 Hand" in liste and closed_line in liste
    assert closed_line in await ok(chat, "/liste alle")

    # the Stand button under an old booking too
    booking = next(m for m in chat.messages.values() if "Spiel 2/36" in m.text)
    _, sent = await tap(chat, booking.message_id, "v1:st")
    assert closed_line in sent

    # booking is still refused
    refusal, _ = await say(chat, "/spiel Anna grand mit 1 gewonnen")
    assert refusal.startswith("⚠️ Die Liste ist abgeschlossen.")

    # an empty list is no series: it is not closed, and /liste says it has no games yet
    await ok(chat, "/weiter")
    await refused(chat, "/abschluss ja", "noch kein Spiel")
    liste = await ok(chat, "/liste")
    assert liste.startswith("Noch keine Spiele.")


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
