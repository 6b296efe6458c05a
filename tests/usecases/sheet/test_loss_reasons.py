"""Every loss explained, German slips fixed."""

from __future__ import annotations

import re

import pytest

from tests import helpers
from tests.harness import Harness
from tests.helpers import ok


async def refused(chat: Harness, message: str, *expected: str) -> str:
    reply = await helpers.refused(chat, message, *expected)
    assert "\n👉 " in reply, (message, reply)
    return reply


def correction_line(reply: str) -> str:
    found = re.findall(r"(/korrigieren \d+ .+)$", reply, re.M)
    assert len(found) == 1, reply
    return found[0]


async def test_schwarz_announced_without_schwarz_names_the_reason_and_the_fix(
    chat: Harness,
) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    reply = await ok(
        chat,
        "/spiel Anna grand mit 1 hand swa augen 120",
        "❌ verloren: Schwarz angesagt, aber nicht alle Stiche.",
        "👉 Doch alle Stiche? Dann fehlt „schwarz“: /korrigieren 1 Anna ",
        "Anna −2 × 168",
    )
    line = correction_line(reply)
    assert "schwarz" in line.split("angesagt", 1)[1]
    fixed = await ok(chat, line, "Spiel 1 korrigiert", "gewonnen", "Anna +168")
    assert "❌" not in fixed


async def test_ouvert_not_schwarz(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    reply = await ok(
        chat,
        "/spiel Bernd grand ouvert mit 2 augen 120",
        "❌ verloren: ouvert heißt Schwarz angesagt, aber nicht alle Stiche.",
    )
    await ok(chat, correction_line(reply), "gewonnen")


async def test_schneider_announced_missed(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    reply = await ok(
        chat,
        "/spiel Anna kreuz mit 2 hand sa augen 75",
        "❌ verloren: Schneider angesagt, aber nur 75 Augen (Schneider ab 90).",
        "👉 Schneider gar nicht angesagt? Dann: /korrigieren 1 Anna kreuz mit 2 hand augen 75",
    )
    await ok(chat, correction_line(reply), "gewonnen", "Anna +48")


async def test_card_points_and_overbid_name_the_rule_without_a_correction_line(
    chat: Harness,
) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    reply = await ok(
        chat,
        "/spiel Anna herz mit 1 augen 52",
        "❌ verloren: nur 52 Augen des Alleinspielers, gewonnen ist ab 61.",
    )
    assert "/korrigieren" not in reply
    reply = await ok(
        chat,
        "/spiel Bernd karo mit 1 reiz 30 gewonnen",
        "❌ verloren: überreizt – gereizt 30, das Spiel ist nur 18 wert.",
        "überreizt",
    )
    assert "/korrigieren" not in reply
    # a typed "verloren" needs no explanation
    reply = await ok(chat, "/spiel Carla grand mit 1 verloren", "Carla −2 × 48")
    assert "❌" not in reply
    # /wert explains the same way (nothing to correct there)
    reply = await ok(chat, "/wert grand mit 1 hand swa augen 120", "verloren: Schwarz angesagt")
    assert "/korrigieren" not in reply


async def test_house_rules_booking_names_the_reason(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(
        chat,
        "/spiel Anna grand mit 1 hand swa kontra augen 120",
        "❌ verloren: Schwarz angesagt, aber nicht alle Stiche.",
        "/korrigieren 1 Anna grand mit 1 hand schwarz angesagt schwarz kontra augen 120",
    )


async def test_durchmarsch_with_jungfrau_says_jungfrau_does_not_count(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/bock")
    for _ in range(3):
        await ok(chat, "/eingepasst")
    reply = await ok(
        chat,
        "/ramsch durchmarsch Carla jungfrau 1",
        "Carla +120",
        "ℹ️ Jungfrau zählt beim Durchmarsch nicht",
    )
    assert "240" not in reply
    reply = await ok(chat, "/ramsch Anna 55 jungfrau 1", "Anna −110")
    assert "zählt beim Durchmarsch nicht" not in reply


# --- item 8 ---------------------------------------------------------------------------------


async def test_a_correction_that_changes_nothing_is_refused(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(chat, "/eingepasst")
    await refused(
        chat, "/korrigieren 1 anna hand grand o1 g", "Spiel 1 ist schon genau so eingetragen"
    )
    await refused(chat, "/korrigieren 2 passe", "Spiel 2 ist schon genau so eingetragen")
    await refused(chat, "/korrigieren 1 geber Anna", "schon genau so")
    liste = await ok(chat, "/liste")
    assert "korrigiert" not in liste
    await ok(chat, "/korrigieren 1 Anna grand ohne 1 hand verloren", "Spiel 1 korrigiert")


async def test_stand_before_the_first_game_speaks_of_no_lot(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    reply = await ok(chat, "/stand", "Noch kein Spiel eingetragen: Anna 0 · Bernd 0 · Carla 0")
    assert "Los" not in reply
    assert "1." not in reply


async def test_house_stand_before_the_first_game_shows_start_points(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/startpunkte Bernd -20")
    reply = await ok(chat, "/stand", "Anna 0 · Bernd −20 · Carla 0 (Startpunkte)")
    assert "Los" not in reply


async def test_one_game_is_singular(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/serie 1", "Die Serie hat jetzt 1 Spiel.")
    await ok(chat, "/spiel Anna grand mit 1 gewonnen")
    await refused(chat, "/spiel Bernd grand mit 1 gewonnen", "Die Serie ist mit 1 Spiel voll.")
    await refused(chat, "/neu Dora Emil Fritz", "Es läuft noch eine Liste (1 Spiel).")
    await ok(chat, "/serie 2", "2 Spiele")


async def test_sick_hints_name_the_sick_player_without_dessen(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Dora")
    await ok(chat, "/bock")
    for _ in range(3):
        await ok(chat, "/eingepasst")
    await ok(chat, "/krank Dora")
    text = await refused(chat, "/krank Bernd", "Dora ist schon krank gemeldet")
    assert "dessen" not in text
    assert "Grand Hand von Dora" in text and "/spiel Dora grand mit 1 hand gewonnen" in text
    text = await refused(chat, "/spiel Dora kreuz mit 1 hand gewonnen", "Grand Hand")
    assert "/spiel Dora grand mit 1 hand gewonnen" in text
    assert "Anna" not in text
    await ok(chat, "/spiel Dora grand mit 1 hand gewonnen")


@pytest.mark.parametrize("table", ["/neu Anna Bernd Carla Dora"])
async def test_the_dealer_of_a_past_game_can_be_corrected(chat: Harness, table: str) -> None:
    await ok(chat, table)
    await ok(chat, "/spiel Bernd grand mit 1 gewonnen", "Geber Bernd")  # game 1: Anna deals
    await ok(chat, "/spiel Carla grand mit 1 gewonnen")  # game 2: Bernd deals
    # Anna played game 1, but the bot thinks she dealt (she sat out): refused, with the way out
    text = await refused(
        chat,
        "/korrigieren 1 Anna grand mit 1 gewonnen",
        "Anna gibt in Spiel 1 und setzt aus",
        "/korrigieren 1 Anna grand mit 1 gewonnen geber NAME",
    )
    assert "/geber NAME ändern" not in text
    reply = await ok(
        chat,
        "/korrigieren 1 Anna grand mit 1 gewonnen geber Dora",
        "🔄 Geber in Spiel 1: Dora (vorher Anna)",
        "Anna +48",
    )
    assert "Geber Carla" in reply  # game 1 is not the last: the next dealer stays
    chat.rich_messages = False  # the list's lines in their text form, not as table cells
    liste = await ok(chat, "/liste")
    assert "1. Anna: Grand mit 1 – gewonnen 48 · Geber Dora" in liste
    # only the dealer of the last game: the dealing order continues from it
    await ok(
        chat, "/korrigieren 2 geber Dora", "Geber in Spiel 2: Dora (vorher Bernd)", "Geber Anna"
    )
    await refused(chat, "/korrigieren 2 geber Carla", "zugleich Geber und Alleinspieler")
    await refused(
        chat, "/korrigieren 2 geber", "Nach „geber“ fehlt der Name", "/korrigieren 2 geber"
    )


async def test_tournament_texts_use_the_typographic_minus(chat: Harness) -> None:
    await ok(chat, "/turnier Stadtmeisterschaft")
    await ok(chat, "/teilnehmer Anna, Bernd, Carla")
    await ok(chat, "/auslosen 1")
    reply = await ok(
        chat,
        "/ergebnis Anna -400 1 6\nBernd 300 10 2\nCarla 100 8 3",
        "Anna: −400 Spielpunkte",
    )
    assert "-400" not in reply
    reply = await ok(chat, "/ergebnis Anna -410 1 6", "Anna: −410 Spielpunkte", "vorher −400/1/6")
    chat.rich_messages = False  # the ranking's lines in their text form, not as table cells
    ranking = await ok(chat, "/rangliste", "Anna – −")
    assert not re.search(r"-\d", ranking), ranking
