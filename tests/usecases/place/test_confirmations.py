"""A confirmation does exactly what its question showed (usecases/common/confirm.py): for
every command that asks before acting, a race - the question shown, then the thing changes
(another list started, another admin's question, a game booked, a result entered), then the
"ja" or the button - changes nothing and says in German what changed and how to ask again.
A typed "ja" confirms only its sender's own question. The normal path still works.

On the harness (SQLite, or PostgreSQL with SKATBOT_TEST_DATABASE_URL); the last test runs the
answer and the change as two concurrent transactions on PostgreSQL. The /loeschen button is
Telegram glue (the admin check): tests/handlers/test_confirmations.py.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import Any

import pytest
from sqlalchemy import select, update

from skatbot.storage.lists_models import Row, SheetList
from skatbot.storage.schema import metadata
from skatbot.storage.tournament_models import Tournament
from tests.harness import Harness
from tests.helpers import PG_URL, ok, refused

CHAT = -1001
ADMIN, OTHER_ADMIN, CREATOR, MEMBER = 7, 8, 1, 9
A = {"user_id": ADMIN, "name": "Ada"}
B = {"user_id": OTHER_ADMIN, "name": "Bea"}
ANNA = {"user_id": CREATOR, "name": "Anna"}
MAX = {"user_id": MEMBER, "name": "Max"}


def dump(chat: Harness) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the bookkeeping of updates and replies."""

    def read(session: Any) -> dict[str, list[tuple[Any, ...]]]:
        out = {}
        for table in metadata().sorted_tables:
            if table.name not in ("processed_updates", "outbox"):
                rows = session.execute(select(table)).all()
                out[table.name] = sorted((tuple(r) for r in rows), key=repr)
        return out

    return chat.db.run_read(read)  # type: ignore[no-any-return]


def lists_of(chat: Harness) -> list[tuple[int, str]]:
    def read(s: Any) -> list[tuple[int, str]]:
        return [(lst.id, lst.status.value) for lst in s.scalars(select(SheetList))]

    return chat.db.run_read(read)  # type: ignore[no-any-return]


def tournaments_of(chat: Harness) -> list[tuple[int, str, bool]]:
    def read(s: Any) -> list[tuple[int, str, bool]]:
        return [(t.number, t.name, t.closed_at is not None) for t in s.scalars(select(Tournament))]

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def a_list(chat: Harness, names: str = "Anna Bernd Carla", games: int = 2) -> None:
    await ok(chat, f"/neu {names}", **ANNA)  # type: ignore[arg-type]
    first = names.split()[0]
    for _ in range(games):
        await ok(chat, f"/spiel {first} grand ohne 1 hand gewonnen", **ANNA)  # type: ignore[arg-type]


# --- /loeschen liste ---------------------------------------------------------------------------


async def test_loeschen_liste_ja_after_the_list_was_closed_and_another_started(
    chat: Harness,
) -> None:
    """The reproduced attack: the question names list 1; someone closes it and starts the
    next list; the admin's "ja" must not delete that one."""
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat)
    asked = await ok(chat, "/loeschen liste", "Liste Nr. 1 (Anna, Bernd, Carla; laufend)", **A)  # type: ignore[arg-type]
    assert "/loeschen liste ja" in asked
    await ok(chat, "/abschluss ja", **MAX)  # type: ignore[arg-type]
    await ok(chat, "/neu Xaver Yvonne Zora", **MAX)  # type: ignore[arg-type]
    before = dump(chat)
    answer = await refused(
        chat,
        "/loeschen liste ja",
        "nichts gelöscht",
        "Gefragt war: Liste Nr. 1 (Anna, Bernd, Carla; laufend) mit 2 Spielen",
        "Jetzt wäre es: Liste Nr. 2 (Xaver, Yvonne, Zora; laufend) mit 0 Spielen",
        "👉 Neu fragen: /loeschen liste",
        **A,  # type: ignore[arg-type]
    )
    assert dump(chat) == before, answer
    # asked again, it names list 2 and deletes exactly that
    await ok(chat, "/loeschen liste", "Liste Nr. 2 (Xaver, Yvonne, Zora; laufend)", **A)  # type: ignore[arg-type]
    await ok(chat, "/loeschen liste ja", "Gelöscht: Liste Nr. 2 (Xaver, Yvonne, Zora", **A)  # type: ignore[arg-type]
    assert [status for _, status in lists_of(chat)] == ["closed"]


async def test_loeschen_liste_ja_after_a_game_was_booked(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat)
    await ok(chat, "/loeschen liste", "mit 2 Spielen", **A)  # type: ignore[arg-type]
    await ok(chat, "/spiel Bernd herz mit 2 gewonnen", **MAX)  # type: ignore[arg-type]
    before = dump(chat)
    await refused(
        chat,
        "/loeschen liste ja",
        "Gefragt war: Liste Nr. 1 (Anna, Bernd, Carla; laufend) mit 2 Spielen. "
        "Jetzt: Liste Nr. 1 (Anna, Bernd, Carla; laufend) mit 3 Spielen.",
        **A,  # type: ignore[arg-type]
    )
    assert dump(chat) == before


async def test_a_correction_with_the_same_count_is_a_change_too(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat)
    await ok(chat, "/loeschen liste", **A)  # type: ignore[arg-type]
    await ok(chat, "/korrigieren 2 Bernd null gewonnen", **MAX)  # type: ignore[arg-type]
    await refused(chat, "/loeschen liste ja", "daran wurde inzwischen etwas geändert", **A)  # type: ignore[arg-type]
    assert len(lists_of(chat)) == 1


async def test_ja_by_someone_who_was_not_asked_is_refused(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN, OTHER_ADMIN)
    await a_list(chat)
    await ok(chat, "/loeschen liste", **A)  # type: ignore[arg-type]
    before = dump(chat)
    await refused(
        chat,
        "/loeschen liste ja",
        "jemand anderes",
        "👉 Selbst fragen: /loeschen liste – oder auf den Knopf unter der Frage tippen.",
        **B,  # type: ignore[arg-type]
    )
    assert dump(chat) == before
    # the way forward works: B asks, and B's "ja" answers B's question
    await ok(chat, "/loeschen liste", **B)  # type: ignore[arg-type]
    await ok(chat, "/loeschen liste ja", "Gelöscht: Liste Nr. 1", **B)  # type: ignore[arg-type]
    # A's question went with the list: A's "ja" now deletes nothing either
    await refused(chat, "/loeschen liste ja", "keine Liste", **A)  # type: ignore[arg-type]


async def age_questions(chat: Harness, hours: int = 13) -> None:
    from skatbot.storage.questions import PendingQuestion

    def age(s: Any) -> None:
        then = dt.datetime.now(dt.UTC) - dt.timedelta(hours=hours)
        s.execute(update(PendingQuestion).values(asked_at=then))

    await chat.db.write(age)


async def test_a_question_older_than_twelve_hours_is_asked_again(chat: Harness) -> None:
    await ok(chat, "/turnier Herbstskat", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende", "beenden?", **ANNA)  # type: ignore[arg-type]
    await age_questions(chat)
    await refused(chat, "/turnier ende ja", "älter als 12 Stunden", "/turnier ende", **ANNA)  # type: ignore[arg-type]
    assert tournaments_of(chat) == [(1, "Herbstskat", False)]
    await ok(chat, "/turnier ende", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende ja", "ist beendet", **ANNA)  # type: ignore[arg-type]


async def test_an_old_question_does_not_block_a_one_step_order(chat: Harness) -> None:
    """Asked last week and never answered: today's "/abschluss ja" is the one-step order
    again (the question's button stays void)."""
    await a_list(chat)
    await ok(chat, "/abschluss", **ANNA)  # type: ignore[arg-type]
    question = chat.last(CHAT, with_buttons=True)
    await age_questions(chat, hours=24 * 7)
    tapped = await chat.tap(question, "Ja, abschließen", user_id=MEMBER)
    assert "älter als 12 Stunden" in tapped.notice, tapped
    await ok(chat, "/spiel Bernd herz mit 2 gewonnen", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/abschluss ja", "Liste abgeschlossen", **ANNA)  # type: ignore[arg-type]


async def test_the_one_step_orders_stay_when_nobody_asked(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat)
    await ok(chat, "/abschluss ja", **MAX)  # type: ignore[arg-type]
    await a_list(chat, "Dora Emil Fritz")
    await ok(chat, "/loeschen liste ja", "Gelöscht: Liste Nr. 2 (Dora", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/loeschen ja", "Gelöscht: 1 Liste mit 2 Spielen", **A)  # type: ignore[arg-type]


# --- /loeschen: everything -------------------------------------------------------------------


async def test_loeschen_ja_after_a_game_was_booked_deletes_nothing(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat)
    await ok(chat, "/loeschen", "1 Liste mit 2 Spielen", **A)  # type: ignore[arg-type]
    await ok(chat, "/spiel Carla kreuz mit 1 gewonnen", **MAX)  # type: ignore[arg-type]
    before = dump(chat)
    await refused(
        chat,
        "/loeschen ja",
        "Gefragt war: alle Daten dieses Chats (1 Liste mit 2 Spielen). "
        "Jetzt: alle Daten dieses Chats (1 Liste mit 3 Spielen).",
        "👉 Neu fragen: /loeschen",
        **A,  # type: ignore[arg-type]
    )
    assert dump(chat) == before
    await ok(chat, "/loeschen", "1 Liste mit 3 Spielen", **A)  # type: ignore[arg-type]
    await ok(chat, "/loeschen ja", "Gelöscht: 1 Liste mit 3 Spielen", **A)  # type: ignore[arg-type]
    assert lists_of(chat) == []


# --- /loeschen at a tournament desk ---------------------------------------------------------


async def two_tournaments(chat: Harness) -> None:
    for name in ("Herbstskat", "Winterskat"):
        await ok(chat, f"/turnier {name}", **ANNA)  # type: ignore[arg-type]
        await ok(chat, "/teilnehmer Hilde, Kuno, Walli", **ANNA)  # type: ignore[arg-type]
        if name == "Herbstskat":
            await ok(chat, "/turnier ende", **ANNA)  # type: ignore[arg-type]
            await ok(chat, "/turnier ende ja", **ANNA)  # type: ignore[arg-type]


async def test_two_admins_two_questions_each_ja_answers_its_own(chat: Harness) -> None:
    """The reproduced attack: A asks for tournament 1, B for everything; A's "ja" deleted
    both. Now it deletes tournament 1, and B's question, which named tournament 1 among
    everything, finds the desk changed."""
    chat.set_admins(CHAT, ADMIN, OTHER_ADMIN)
    await two_tournaments(chat)
    await ok(chat, "/loeschen turnier 1", "Turnier 1 „Herbstskat“ löschen?", **A)  # type: ignore[arg-type]
    await ok(chat, "/loeschen alles", "Alle Daten dieses Chats löschen?", **B)  # type: ignore[arg-type]
    await ok(
        chat,
        "/loeschen ja",
        "Gelöscht: Turnier 1 „Herbstskat“",
        "Es bleiben: Turnier 2 „Winterskat“",
        **A,  # type: ignore[arg-type]
    )
    assert tournaments_of(chat) == [(2, "Winterskat", False)]
    before = dump(chat)
    await refused(
        chat,
        "/loeschen ja",
        "nichts gelöscht",
        "Gefragt war: alle Daten dieses Chats (0 Listen mit 0 Spielen und 2 Turniere "
        "(Herbstskat, Winterskat)). Jetzt: alle Daten dieses Chats (0 Listen mit 0 Spielen "
        "und das Turnier „Winterskat“).",
        "👉 Neu fragen: /loeschen alles",
        **B,  # type: ignore[arg-type]
    )
    assert dump(chat) == before


async def test_a_tournament_changed_after_the_question(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await two_tournaments(chat)
    await ok(chat, "/loeschen", "Turnier 2 „Winterskat“ löschen?", **A)  # type: ignore[arg-type]
    await ok(chat, "/teilnehmer Otto", **ANNA)  # type: ignore[arg-type]
    await refused(
        chat,
        "/loeschen ja",
        "mit 3 Teilnehmern",
        "Jetzt: Turnier 2 „Winterskat“",
        "mit 4 Teilnehmern",
        "👉 Neu fragen: /loeschen turnier 2",
        **A,  # type: ignore[arg-type]
    )
    assert len(tournaments_of(chat)) == 2
    # "/loeschen turnier 2 ja" names it, but the sender's own question is still the old one
    await refused(chat, "/loeschen turnier 2 ja", "Gefragt war", **A)  # type: ignore[arg-type]
    await ok(chat, "/loeschen turnier 2", **A)  # type: ignore[arg-type]
    await ok(chat, "/loeschen turnier 2 ja", "Gelöscht: Turnier 2", **A)  # type: ignore[arg-type]
    assert tournaments_of(chat) == [(1, "Herbstskat", True)]


# --- /abschluss ------------------------------------------------------------------------------


async def test_abschluss_ja_after_a_game_was_booked_closes_nothing(chat: Harness) -> None:
    await a_list(chat)
    await ok(chat, "/abschluss", "Serie jetzt abschließen?", "Gespielt: 2 von 36", **ANNA)  # type: ignore[arg-type]
    question = chat.last(CHAT, with_buttons=True)
    await ok(chat, "/spiel Bernd herz mit 2 gewonnen", **MAX)  # type: ignore[arg-type]
    await refused(
        chat,
        "/abschluss ja",
        "nichts abgeschlossen",
        "Gefragt war: Liste Nr. 1 mit 2 von 36 Spielen. Jetzt: Liste Nr. 1 mit 3 von 36 Spielen.",
        "👉 Neu fragen: /abschluss",
        **ANNA,  # type: ignore[arg-type]
    )
    assert lists_of(chat)[0][1] == "open"
    # the question's button likewise: an alert, the buttons go, the list stays open
    tapped = await chat.tap(question, "Ja, abschließen", user_id=MEMBER)
    assert tapped.alert and "nichts abgeschlossen" in tapped.notice, tapped.notice
    assert "Jetzt: Liste Nr. 1 mit 3 von 36 Spielen" in tapped.notice, tapped.notice
    assert chat.messages[(CHAT, question.message_id)].buttons == ()
    assert lists_of(chat)[0][1] == "open"
    # asked again: the button of the new question closes
    await ok(chat, "/abschluss", "Gespielt: 3 von 36", **ANNA)  # type: ignore[arg-type]
    tapped = await chat.tap(chat.last(CHAT, with_buttons=True), "Ja, abschließen", user_id=MEMBER)
    assert "Liste abgeschlossen" in tapped.text, tapped
    assert lists_of(chat)[0][1] == "closed"


async def test_abschluss_button_after_another_list_started(chat: Harness) -> None:
    await a_list(chat)
    await ok(chat, "/abschluss", **ANNA)  # type: ignore[arg-type]
    question = chat.last(CHAT, with_buttons=True)
    await ok(chat, "/abschluss ja", **ANNA)  # type: ignore[arg-type]  # answers the question
    await a_list(chat, "Dora Emil Fritz", games=1)
    tapped = await chat.tap(question, "Ja, abschließen", user_id=MEMBER)
    assert "gilt nicht mehr" in tapped.notice, tapped.notice
    assert [s for _, s in lists_of(chat)] == ["closed", "open"]


async def test_abschluss_ja_of_someone_not_asked(chat: Harness) -> None:
    await a_list(chat)
    await ok(chat, "/abschluss", **ANNA)  # type: ignore[arg-type]
    await refused(
        chat,
        "/abschluss ja",
        "jemand anderes",
        "Selbst fragen: /abschluss – oder auf den Knopf unter der Frage tippen.",
        **MAX,  # type: ignore[arg-type]
    )
    assert lists_of(chat)[0][1] == "open"
    # the button under the question is for everyone at the table
    tapped = await chat.tap(chat.last(CHAT, with_buttons=True), "Ja, abschließen", user_id=MEMBER)
    assert "Liste abgeschlossen" in tapped.text
    assert lists_of(chat)[0][1] == "closed"


# --- /turnier ende, /auslosen zurück ---------------------------------------------------------


async def a_drawn_tournament(chat: Harness) -> None:
    await ok(chat, "/turnier Herbstskat", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/teilnehmer Hilde, Kuno, Walli, Otto, Paula, Quirin", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/auslosen 4711", **ANNA)  # type: ignore[arg-type]


async def test_turnier_ende_ja_after_a_result_came_in(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_drawn_tournament(chat)
    await ok(chat, "/turnier ende", "beenden?", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/ergebnis Hilde 100 3 1", **A)  # type: ignore[arg-type]
    before = dump(chat)
    await refused(
        chat,
        "/turnier ende ja",
        "nichts beendet",
        "und 0 Ergebnissen",
        "und 1 Ergebnis ",
        "👉 Neu fragen: /turnier ende",
        **ANNA,  # type: ignore[arg-type]
    )
    assert dump(chat) == before
    # another manager who was not asked: refused with the way forward
    await refused(chat, "/turnier ende ja", "jemand anderes", "Selbst fragen: /turnier ende", **A)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende ja", "ist beendet", **ANNA)  # type: ignore[arg-type]
    assert tournaments_of(chat) == [(1, "Herbstskat", True)]


async def test_auslosen_zurueck_ja_after_the_tournament_changed(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_drawn_tournament(chat)
    await ok(chat, "/auslosen zurück", "zurücknehmen?", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/teilnehmer Zenzi", **A)  # type: ignore[arg-type]
    before = dump(chat)
    await refused(
        chat,
        "/auslosen zurück ja",
        "nichts zurückgenommen",
        "Gefragt war: die Auslosung von Serie 1 (Startwert 4711) im Turnier „Herbstskat“",
        "👉 Neu fragen: /auslosen zurück",
        **ANNA,  # type: ignore[arg-type]
    )
    assert dump(chat) == before
    await refused(chat, "/auslosen zurück ja", "jemand anderes", **A)  # type: ignore[arg-type]
    await ok(chat, "/auslosen zurück", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/auslosen zurück ja", "zurückgenommen", **ANNA)  # type: ignore[arg-type]


# --- Stornieren under a booking --------------------------------------------------------------


async def test_storno_ja_never_cancels_another_game_than_the_one_asked(chat: Harness) -> None:
    """Stornieren asks about game 2 of a list; the list is deleted and a new one played; the
    question's Ja must not cancel a game of the new list, even one whose row took the
    deleted row's place."""
    await a_list(chat)
    booking = chat.last(CHAT, with_buttons=True)
    row_id = int(booking.data("Stornieren").rsplit(":", 1)[1])
    asked = await chat.tap(booking, "Stornieren", user_id=MEMBER)
    assert not asked.alert
    question = chat.messages[(CHAT, booking.message_id)]
    yes = question.data("Ja, Spiel 2 stornieren")
    assert yes.startswith(f"v1:sj:{row_id}:") and len(yes.encode()) <= 64
    await ok(chat, "/loeschen liste ja", "Gelöscht", **ANNA)  # type: ignore[arg-type]
    await ok(chat, "/neu Dora Emil Fritz", **ANNA)  # type: ignore[arg-type]
    for _ in range(4):  # enough games for a reused row id (SQLite without AUTOINCREMENT)
        await ok(chat, "/spiel Dora grand ohne 1 hand gewonnen", **ANNA)  # type: ignore[arg-type]

    tapped = await chat.tap(question, yes, user_id=MEMBER)
    assert "Storniert" not in tapped.notice, tapped
    assert struck(chat) == 0


def struck(chat: Harness) -> int:
    """How many rows strike another (a storno or a correction)."""

    def read(s: Any) -> int:
        return len(s.scalars(select(Row).where(Row.target.is_not(None))).all())

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def test_storno_ja_by_anyone_at_the_table(chat: Harness) -> None:
    await a_list(chat)
    booking = chat.last(CHAT, with_buttons=True)
    await chat.tap(booking, "Stornieren", user_id=MEMBER)
    tapped = await chat.tap(chat.messages[(CHAT, booking.message_id)], "Ja, Spiel 2", user_id=2)
    assert tapped.notice == "Storniert.", tapped
    assert struck(chat) == 1


async def test_an_older_versions_storno_ja_asks_again(chat: Harness) -> None:
    await a_list(chat)
    booking = chat.last(CHAT, with_buttons=True)
    row_id = int(booking.data("Stornieren").rsplit(":", 1)[1])
    booking.buttons = ((("Ja, Spiel 2 stornieren", f"v1:sj:{row_id}"),),)  # no nonce
    tapped = await chat.tap(booking, f"v1:sj:{row_id}", user_id=MEMBER)
    assert "noch einmal bestätigen" in tapped.notice, tapped
    assert struck(chat) == 0
    again = chat.messages[(CHAT, booking.message_id)]
    assert (await chat.tap(again, "Ja, Spiel 2", user_id=MEMBER)).notice == "Storniert."
    assert struck(chat) == 1


async def test_storno_ja_after_the_game_was_corrected(chat: Harness) -> None:
    await a_list(chat)
    booking = chat.last(CHAT, with_buttons=True)
    await chat.tap(booking, "Stornieren", user_id=MEMBER)
    await ok(chat, "/korrigieren 2 Bernd null gewonnen", **ANNA)  # type: ignore[arg-type]
    tapped = await chat.tap(chat.messages[(CHAT, booking.message_id)], "Ja, Spiel 2", user_id=2)
    assert "korrigiert oder storniert" in tapped.notice, tapped


# --- two transactions at once (PostgreSQL) ---------------------------------------------------


@pytest.mark.skipif(not PG_URL, reason="concurrent transactions need PostgreSQL")
async def test_the_answer_and_a_booking_at_the_same_moment(
    chat: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The admin's "ja" and a booking arrive together. Each transaction reads slowly (the
    fingerprint waits a moment), so they overlap whatever the scheduling: either the list
    goes as the question showed it (and the booking finds no list), or the booking comes
    first and the "ja" deletes nothing - never a list deleted with a game the question did
    not show."""
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat)
    await ok(chat, "/loeschen liste", "mit 2 Spielen", **A)  # type: ignore[arg-type]
    from skatbot.storage import questions

    real = questions.thing_state

    def slow(session: Any, table: str, thing_id: int | None) -> str:
        state = real(session, table, thing_id)
        time.sleep(0.3)
        return state

    monkeypatch.setattr(questions, "thing_state", slow)
    answer, booking = await asyncio.gather(  # run: each call's own replies
        chat.run("/loeschen liste ja", chat_id=CHAT, **A),  # type: ignore[arg-type]
        chat.run("/spiel Bernd herz mit 2 gewonnen", chat_id=CHAT, **MAX),  # type: ignore[arg-type]
    )
    deleted = not answer[0].refusal
    booked = not booking[0].refusal
    assert deleted != booked, (answer, booking)
    if deleted:
        assert lists_of(chat) == []
        assert "mit 2 Spielen" in answer[0].text
    else:
        assert "Jetzt: Liste Nr. 1 (Anna, Bernd, Carla; laufend) mit 3 Spielen" in answer[0].text
        assert len(lists_of(chat)) == 1
