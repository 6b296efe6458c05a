"""Every refusal answers in German (a ⚠️ line plus a 👉 hint) and leaves the list unchanged.

"Unchanged" is checked byte for byte on the /export JSON before and after the refused message.
"""

from __future__ import annotations

import pytest

from tests.harness import Harness
from tests.helpers import export_raw, ok


async def refused(chat: Harness, message: str, *expected: str, hint: bool = True) -> str:
    """``message`` is refused with a German ⚠️ line (and 👉 hint); the list stays byte-equal."""
    before = await export_raw(chat)
    reply = await chat.say(message)
    assert len(reply) == 1, reply
    assert reply[0].refusal, reply
    text = reply[0].text
    assert text.startswith("⚠️ "), (message, text)  # what users see
    if hint:
        assert "\n👉 " in text, (message, text)
    for part in expected:
        assert part in text, (message, part, text)
    assert reply[0].document is None
    after = await export_raw(chat)
    assert after == before, message
    return text


@pytest.fixture
async def table(chat: Harness) -> Harness:
    """A running 3-table list (Anna, Andreas, Bernd) with two games."""
    await ok(chat, "/neu Anna Andreas Bernd")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(chat, "/spiel Bernd herz mit 2 verloren")
    return chat


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # unknown player: the names at the table are listed
        (
            "/spiel Zoe grand mit 1 gewonnen",
            ["„Zoe“ spielt in dieser Liste nicht mit", "Anna, Andreas, Bernd"],
        ),
        # ambiguous prefix
        ("/spiel an grand mit 1 gewonnen", ["„an“ ist nicht eindeutig", "Anna oder Andreas"]),
        # matadors out of range, the limit is named
        ("/spiel Anna grand mit 5 gewonnen", ["Grand mit 5 gibt es nicht", "1 bis 4"]),
        ("/spiel Anna kreuz mit 12 gewonnen", ["Kreuz mit 12 gibt es nicht", "1 bis 11"]),
        # missing matadors
        ("/spiel Anna kreuz gewonnen", ["Bei Kreuz fehlen die Spitzen", "mit 1"]),
        # matadors at null
        ("/spiel Anna null mit 2 gewonnen", ["Null hat keine Spitzen"]),
        # a level counted aloud other than the rules count it: both named
        ("/spiel Anna kreuz ohne 2 spiel 3 hand 5 gewonnen", ["„hand 5“", "ich rechne Hand 4"]),
        # contradictions
        (
            "/spiel Anna kreuz mit 1 gewonnen augen 50",
            ["„gewonnen“ passt nicht zu 50 Augen", "verloren"],
        ),
        (
            "/spiel Anna kreuz mit 1 hand schneider angesagt gewonnen augen 85",
            ["„gewonnen“ passt nicht zu 85 Augen"],
        ),
        ("/spiel Anna kreuz mit 1 gewonnen verloren", ["widerspricht"]),
        # no outcome
        ("/spiel Anna kreuz mit 1", ["Das Ergebnis fehlt", "gewonnen"]),
        # card points out of range
        ("/spiel Anna kreuz mit 1 augen 121", ["121 Augen gibt es nicht", "0 und 120"]),
        # /storno and /korrigieren of a game that does not exist
        ("/storno 999", ["Spiel 999 gibt es nicht", "1 bis 2"]),
        ("/korrigieren 999 Anna grand mit 1 gewonnen", ["Spiel 999 gibt es nicht", "1 bis 2"]),
        ("/storno", ["Welche Spielnummer", "/storno 2"]),
        # a running list with games is not replaced
        ("/neu Carl Dieter Emil", ["Es läuft noch eine Liste (2 Spiele)", "/abschluss"]),
        # /neu with 2 or 5 names, duplicate names
        ("/neu Anna Bernd", ["3 oder 4 Spieler, nicht 2"]),
        ("/neu Anna Bernd Carla Dora Emil", ["3 oder 4 Spieler, nicht 5"]),
        ("/neu Anna Bernd anna", ["„Anna“ kommt doppelt vor", "Groß-/Kleinschreibung"]),
        ("/neu ÅSA Bernd åsa", ["kommt doppelt vor"]),
        # Kontra only under house rules
        (
            "/spiel Anna grand mit 1 kontra gewonnen",
            ["Kontra und Re gibt es nur mit Hausregeln", "/regeln haus"],
        ),
        # garbage
        ("/spiel Anna ;;;; 💥", ["Unbekanntes Wort „💥“"]),  # punctuation separates words
        ("/spiel Anna ~~~~ 💥", ["Unbekanntes Wort „~~~~“"]),
        ("/spiel Anna", ["Die Spielansage fehlt"]),
        ("/spiel Anna grand mit gewonnen", ["Nach „mit“ fehlt eine Zahl"]),
        ("/spiel Anna grand mit 99999999999999999999 gewonnen", ["zu groß"]),
        # an unknown word gets a suggestion
        ("/spiel Anna grnad mit 1 gewonnen", ["Unbekanntes Wort „grnad“", "Meintest du „grand“?"]),
        ("/spiel Anna grand mit 1 gewonen", ["Meintest du „gewonnen“?"]),
        # a bid that no null reaches
        ("/spiel Anna null reiz 60 gewonnen", ["Kein Nullspiel erreicht Reiz 60"]),
        # /umbenennen onto another player's name or a reserved word
        ("/umbenennen Anna bernd", ["kommt doppelt vor"]),
        ("/umbenennen Anna geber", ["„geber“ geht nicht als Name"]),
        # a refused correction books nothing either
        ("/korrigieren 1 Anna grand mit 1 gewonnen augen 40", ["„gewonnen“ passt nicht"]),
        ("/korrigieren 1", ["Wie lautet das richtige Spiel?", "/korrigieren 1"]),
        # Schwarz is about tricks: card points must be 0 or 120
        ("/spiel Anna grand mit 1 schwarz augen 100", ["Schwarz passt nicht zu 100 Augen"]),
        ("/spiel Anna grand mit 1 spiel 3 gewonnen", ["„spiel 3“", "ich rechne Spiel 2"]),
        # unknown dealer
        ("/geber Zoe", ["„Zoe“ spielt in dieser Liste nicht mit"]),
        ("/geber", ["Wer gibt als Nächstes?"]),
    ],
)
async def test_refusal_leaves_the_list_unchanged(
    table: Harness, message: str, expected: list[str]
) -> None:
    await refused(table, message, *expected)


@pytest.mark.parametrize(
    "message",
    ["/spiel Anna grand mit 1 reiz 19 gewonnen", "/korrigieren 1 Anna grand mit 1 r19 gewonnen"],
)
async def test_invalid_bid_names_both_neighbours(table: Harness, message: str) -> None:
    # docs/rules.md §3: "19 ist kein Reizwert – nächste gültige: 18 oder 20", then the list as hint.
    text = await refused(table, message)
    assert text.startswith(
        "⚠️ 19 ist kein Reizwert – nächste gültige: 18 oder 20.\n👉 Reizwerte: 18, 20"
    )


async def test_very_long_message(table: Harness) -> None:
    message = "/spiel Anna grand mit 1 gewonnen " + "x" * 5000
    assert len(message) > 5000
    await refused(table, message, "zu lang")


async def test_too_many_words(table: Harness) -> None:
    await refused(table, "/spiel Anna " + "hand " * 500, "Zu viele Wörter")


async def test_sitting_out_dealer_is_refused_naming_the_dealer(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla Dora")
    await refused(chat, "/spiel Anna grand mit 1 gewonnen", "Anna gibt und setzt aus", "/geber")
    await ok(chat, "/spiel Bernd grand mit 1 gewonnen")
    await refused(chat, "/spiel be grand mit 1 gewonnen", "Bernd gibt und setzt aus")


async def test_game_past_the_series_length(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    assert "2 Spiele" in await ok(chat, "/serie 2")
    await ok(chat, "/spiel Anna grand mit 1 gewonnen")
    await ok(chat, "/eingepasst")  # passed games count as games
    await refused(
        chat, "/spiel Carla grand mit 1 gewonnen", "mit 2 Spielen voll", "/serie", "/abschluss"
    )
    await refused(chat, "/eingepasst", "voll", "/serie")
    await refused(chat, "/spiel passe", "voll", "/serie")
    await refused(chat, "/serie 1", "1 Spiel geht nicht", "2 bis")
    # after /serie 3 the game fits
    await ok(chat, "/serie 3")
    await ok(chat, "/spiel Carla grand mit 1 gewonnen")


async def test_spiel_before_any_list(chat: Harness) -> None:
    for message in ("/spiel Anna grand mit 1 gewonnen", "/eingepasst", "/storno 1", "/stand"):
        text = await refused(chat, message, "keine Liste", "/neu")
        assert "👉 Starte eine mit /neu" in text
    text = await chat.text("/export")
    assert text.startswith("⚠️ In diesem Chat gibt es noch keine Liste")


async def test_refusals_before_the_first_game_keep_the_empty_list(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await refused(chat, "/korrigieren 1 Anna grand mit 1 gewonnen", "Spiel 1 gibt es nicht")
    await refused(chat, "/neu Anna Bernd Carla Dora Emil", "nicht 5")
    await refused(chat, "/neu Anna Anna Bernd", "doppelt")


async def test_a_refusal_in_one_chat_does_not_touch_another(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 gewonnen")
    before = await export_raw(chat)
    text = await chat.text("/spiel Anna grnad mit 1 gewonnen", chat_id=-2002)
    assert text.startswith("⚠️ In diesem Chat läuft keine Liste")
    assert await export_raw(chat) == before
