"""Where the sheet's commands work, as their routes declare it: at the places that play
(a chat with lists, a tournament's or a league's table); a desk refuses them with what it
offers and where the tables play, a host's chat with the generic refusal; ``/wert`` computes
anywhere. And the parsers' refusals of bad words, each with its fix."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from skatbot.storage.schema import metadata
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.league.test_league import HOST, HOST_CHAT, LEADER, TEAMS, host_code

DESK = -1001
ORGANISER = {"user_id": 1, "name": "Olga"}


def row_counts(chat: Harness) -> dict[str, int]:
    def read(session: Any) -> dict[str, int]:
        return {
            t.name: session.scalar(select(func.count()).select_from(t))
            for t in metadata().sorted_tables
            if t.name not in ("processed_updates", "outbox", "message_links")
        }

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def test_a_tournament_desk_refuses_the_sheet_with_what_it_offers(chat: Harness) -> None:
    await ok(chat, "/turnier Herbstskat", **ORGANISER)
    before = row_counts(chat)
    for message in ("/spiel Anna grand ohne 1 hand gewonnen", "/eingepasst", "/storno 1"):
        text = await refused(chat, message, "ist die Turnierleitung", "👉", "/rangliste")
        assert "/neu" not in text, text
    text = await refused(chat, "/neu Anna Bernd Carla", "Turnierleitung eines Turniers", "👉")
    assert "je Tisch eins" in text, text
    assert row_counts(chat) == before
    # computing a game books nothing: it works at the desk too
    await ok(chat, "/wert grand ohne 1 hand gewonnen", "nicht eingetragen")


async def test_a_league_desk_refuses_the_sheet_naming_its_league(chat: Harness) -> None:
    await ok(chat, "/liga Kreisliga", "angelegt", **LEADER)
    before = row_counts(chat)
    for message in ("/stand", "/liste", "/korrigieren 1 Anna null gewonnen", "/neu Ute Vera Wim"):
        await refused(chat, message, "Ligaleitung der Liga „Kreisliga“", "anderen Chat")
    assert row_counts(chat) == before
    await ok(chat, "/wert null hand gewonnen", "Null Hand")


async def test_a_hosts_chat_keeps_lists_and_runs_its_day(chat: Harness) -> None:
    """A host's chat is where the club plays too: its lists work as before it hosted, and
    the day's commands still go to the league."""
    await ok(chat, "/liga Kreisliga", "angelegt", **LEADER)
    await ok(chat, TEAMS, **LEADER)
    await ok(chat, "/spieltag 1 Münster", **LEADER)
    code = await host_code(chat)
    at_host = {"chat_id": HOST_CHAT, **HOST}
    await ok(chat, f"/ausrichter {code}", "richtet hier Spieltag 1", **at_host)
    await ok(chat, "/neu Ute Vera Wim", "Neue Liste", **at_host)
    await ok(chat, "/spiel Ute grand ohne 1 gewonnen", "Spiel 1", **at_host)
    await ok(chat, "/setzen", "Serie 1", **at_host)
    await ok(chat, "/wert grand ohne 1 hand gewonnen", "nicht eingetragen", **at_host)


async def test_bad_words_are_refused_with_their_fix(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await refused(chat, "/geber", "Wer gibt als Nächstes?", "/geber Bernd")
    await refused(chat, "/umbenennen Anna", "Alter und neuer Name?", "/umbenennen Anna Annika")
    await refused(chat, "/serie viele", "Jetzt: 36", "/serie 48")
    await refused(chat, "/serie ٤٨", "/serie 48")
    await refused(chat, "/wert", "Welches Spiel?", "/wert grand ohne 1 hand gewonnen")
    await refused(chat, "/neu Dora Emil Frida geber", "fehlt der Name", "geber Bernd")
    await refused(chat, "/stand ٢", "/stand 2")
    await refused(chat, "/liste ٢", "/liste 2")
    # the words were right: they work
    await ok(chat, "/geber Bernd", "Nächster Geber: Bernd")
    await ok(chat, "/serie 48", "48 Spiele")
