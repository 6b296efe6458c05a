"""Through the real bot: every loss explained, German slips fixed."""

from __future__ import annotations

import re

import pytest

from tests import helpers
from tests.helpers import Bot, ok


async def refused(bot: Bot, message: str, *expected: str) -> str:
    reply = await helpers.refused(bot, message, *expected)
    assert "\n👉 " in reply, (message, reply)
    return reply


def correction_line(reply: str) -> str:
    found = re.findall(r"(/korrigieren \d+ .+)$", reply, re.M)
    assert len(found) == 1, reply
    return found[0]


async def test_schwarz_announced_without_schwarz_names_the_reason_and_the_fix(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    reply = await ok(
        bot,
        "/spiel Anna grand mit 1 hand swa augen 120",
        "❌ verloren: Schwarz angesagt, aber nicht alle Stiche.",
        "👉 Doch alle Stiche? Dann fehlt „schwarz“: /korrigieren 1 Anna ",
        "Anna −2 × 168",
    )
    line = correction_line(reply)
    assert "schwarz" in line.split("angesagt", 1)[1]
    fixed = await ok(bot, line, "Spiel 1 korrigiert", "gewonnen", "Anna +168")
    assert "❌" not in fixed


async def test_ouvert_not_schwarz(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    reply = await ok(
        bot,
        "/spiel Bernd grand ouvert mit 2 augen 120",
        "❌ verloren: ouvert heißt Schwarz angesagt, aber nicht alle Stiche.",
    )
    await ok(bot, correction_line(reply), "gewonnen")


async def test_schneider_announced_missed(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    reply = await ok(
        bot,
        "/spiel Anna kreuz mit 2 hand sa augen 75",
        "❌ verloren: Schneider angesagt, aber nur 75 Augen (Schneider ab 90).",
        "👉 Schneider gar nicht angesagt? Dann: /korrigieren 1 Anna kreuz mit 2 hand augen 75",
    )
    await ok(bot, correction_line(reply), "gewonnen", "Anna +48")


async def test_card_points_and_overbid_name_the_rule_without_a_correction_line(
    bot: Bot,
) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    reply = await ok(
        bot,
        "/spiel Anna herz mit 1 augen 52",
        "❌ verloren: nur 52 Augen des Alleinspielers, gewonnen ist ab 61.",
    )
    assert "/korrigieren" not in reply
    reply = await ok(
        bot,
        "/spiel Bernd karo mit 1 reiz 30 gewonnen",
        "❌ verloren: überreizt – gereizt 30, das Spiel ist nur 18 wert.",
        "überreizt",
    )
    assert "/korrigieren" not in reply
    # a typed "verloren" needs no explanation
    reply = await ok(bot, "/spiel Carla grand mit 1 verloren", "Carla −2 × 48")
    assert "❌" not in reply
    # /wert explains the same way (nothing to correct there)
    reply = await ok(bot, "/wert grand mit 1 hand swa augen 120", "verloren: Schwarz angesagt")
    assert "/korrigieren" not in reply


async def test_house_rules_booking_names_the_reason(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(
        bot,
        "/spiel Anna grand mit 1 hand swa kontra augen 120",
        "❌ verloren: Schwarz angesagt, aber nicht alle Stiche.",
        "/korrigieren 1 Anna grand mit 1 hand schwarz angesagt schwarz kontra augen 120",
    )


async def test_durchmarsch_with_jungfrau_says_jungfrau_does_not_count(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/bock")
    for _ in range(3):
        await ok(bot, "/eingepasst")
    reply = await ok(
        bot,
        "/ramsch durchmarsch Carla jungfrau 1",
        "Carla +120",
        "ℹ️ Jungfrau zählt beim Durchmarsch nicht",
    )
    assert "240" not in reply
    reply = await ok(bot, "/ramsch Anna 55 jungfrau 1", "Anna −110")
    assert "zählt beim Durchmarsch nicht" not in reply


# --- item 8 ---------------------------------------------------------------------------------


async def test_a_correction_that_changes_nothing_is_refused(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(bot, "/eingepasst")
    await refused(
        bot, "/korrigieren 1 anna hand grand o1 g", "Spiel 1 ist schon genau so eingetragen"
    )
    await refused(bot, "/korrigieren 2 passe", "Spiel 2 ist schon genau so eingetragen")
    await refused(bot, "/korrigieren 1 geber Anna", "schon genau so")
    liste = await ok(bot, "/liste")
    assert "korrigiert" not in liste
    await ok(bot, "/korrigieren 1 Anna grand ohne 1 hand verloren", "Spiel 1 korrigiert")


async def test_stand_before_the_first_game_speaks_of_no_lot(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    reply = await ok(bot, "/stand", "Noch kein Spiel eingetragen: Anna 0 · Bernd 0 · Carla 0")
    assert "Los" not in reply
    assert "1." not in reply


async def test_house_stand_before_the_first_game_shows_start_points(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/startpunkte Bernd -20")
    reply = await ok(bot, "/stand", "Anna 0 · Bernd −20 · Carla 0 (Startpunkte)")
    assert "Los" not in reply


async def test_one_game_is_singular(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/serie 1", "Die Serie hat jetzt 1 Spiel.")
    await ok(bot, "/spiel Anna grand mit 1 gewonnen")
    await refused(bot, "/spiel Bernd grand mit 1 gewonnen", "Die Serie ist mit 1 Spiel voll.")
    await refused(bot, "/neu Dora Emil Fritz", "Es läuft noch eine Liste (1 Spiel).")
    await ok(bot, "/serie 2", "2 Spiele")


async def test_sick_hints_name_the_sick_player_without_dessen(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Dora")
    await ok(bot, "/bock")
    for _ in range(3):
        await ok(bot, "/eingepasst")
    await ok(bot, "/krank Dora")
    text = await refused(bot, "/krank Bernd", "Dora ist schon krank gemeldet")
    assert "dessen" not in text
    assert "Grand Hand von Dora" in text and "/spiel Dora grand mit 1 hand gewonnen" in text
    text = await refused(bot, "/spiel Dora kreuz mit 1 hand gewonnen", "Grand Hand")
    assert "/spiel Dora grand mit 1 hand gewonnen" in text
    assert "Anna" not in text
    await ok(bot, "/spiel Dora grand mit 1 hand gewonnen")


@pytest.mark.parametrize("table", ["/neu Anna Bernd Carla Dora"])
async def test_the_dealer_of_a_past_game_can_be_corrected(bot: Bot, table: str) -> None:
    await ok(bot, table)
    await ok(bot, "/spiel Bernd grand mit 1 gewonnen", "Geber Bernd")  # game 1: Anna deals
    await ok(bot, "/spiel Carla grand mit 1 gewonnen")  # game 2: Bernd deals
    # Anna played game 1, but the bot thinks she dealt (she sat out): refused, with the way out
    text = await refused(
        bot,
        "/korrigieren 1 Anna grand mit 1 gewonnen",
        "Anna gibt in Spiel 1 und setzt aus",
        "/korrigieren 1 Anna grand mit 1 gewonnen geber NAME",
    )
    assert "/geber NAME ändern" not in text
    reply = await ok(
        bot,
        "/korrigieren 1 Anna grand mit 1 gewonnen geber Dora",
        "🔄 Geber in Spiel 1: Dora (vorher Anna)",
        "Anna +48",
    )
    assert "Geber Carla" in reply  # game 1 is not the last: the next dealer stays
    liste = await ok(bot, "/liste")
    assert "1. Anna: Grand mit 1 – gewonnen 48 · Geber Dora" in liste
    # only the dealer of the last game: the dealing order continues from it
    await ok(
        bot, "/korrigieren 2 geber Dora", "Geber in Spiel 2: Dora (vorher Bernd)", "Geber Anna"
    )
    await refused(bot, "/korrigieren 2 geber Carla", "zugleich Geber und Alleinspieler")
    await refused(
        bot, "/korrigieren 2 geber", "Nach „geber“ fehlt der Name", "/korrigieren 2 geber"
    )


async def test_tournament_texts_use_the_typographic_minus(bot: Bot) -> None:
    await ok(bot, "/turnier Stadtmeisterschaft")
    await ok(bot, "/teilnehmer Anna, Bernd, Carla")
    await ok(bot, "/auslosen 1")
    reply = await ok(
        bot,
        "/ergebnis Anna -400 1 6\nBernd 300 10 2\nCarla 100 8 3",
        "Anna: −400 Spielpunkte",
    )
    assert "-400" not in reply
    reply = await ok(bot, "/ergebnis Anna -410 1 6", "Anna: −410 Spielpunkte", "vorher −400/1/6")
    ranking = await ok(bot, "/rangliste", "Anna – −")
    assert not re.search(r"-\d", ranking), ranking
