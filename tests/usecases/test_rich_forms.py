"""Every reply that can be a table says as a table what its text form says: each line of the
text form has its words in the table form (in a cell, a header or a paragraph; the words
that only join others, like "von" or "je", aside). Read on lists with what makes rows and
standings special: a correction, overbid games, Bock, a sick player, Ramsch, start points,
a stake, a closed list, an evening of two series, a season, a tournament with a player who
missed a series."""

from __future__ import annotations

import pytest

from tests.harness import Harness
from tests.helpers import ok
from tests.usecases.forms import missing_facts, row_of, table_form, tables, text_form, words
from tests.usecases.tournament.test_tournament_chat import (
    ORGANISER,
    draw,
    results_message,
    setup_tournament,
)

ISKO = (
    "/neu Anna Bernd Carla",
    "/einsatz 1 ct",
    "/spiel Anna grand ohne 1 hand gewonnen",
    "/spiel Bernd karo mit 1 reiz 30 gewonnen",  # overbid
    "/spiel Carla kreuz mit 1 gewonnen",
    "/korrigieren 1 Anna grand ohne 1 hand verloren",
    "/eingepasst",
    "/abschluss ja",
    "/weiter",
    "/spiel Carla kreuz mit 1 verloren",
)
HOUSE = (
    "/regeln haus",
    "/neu Anna Bernd Carla",
    "/startpunkte Anna 100 Bernd -20",
    "/einsatz 1 ct",
    "/spiel Carla kreuz mit 1 hand verloren",
    "/spiel Anna kreuz mit 1 kontra re gewonnen",  # 3B3R
    "/spiel Bernd kreuz mit 1 gewonnen",  # Bock
    "/storno 3",
    "/spiel Bernd kreuz mit 2 gewonnen",  # Bock
    "/eingepasst",
    "/eingepasst",
    "/krank Anna",
    "/spiel Anna grand mit 1 hand gewonnen",
    "/ramsch Bernd Carla 40 geschoben 1",
)
TABLES = ("/liste", "/liste alle", "/stand", "/abrechnung", "/abend", "/saison")


async def same_facts(chat: Harness, message: str) -> None:
    text = await text_form(chat, message)
    table = await table_form(chat, message)
    assert not missing_facts(text, table.text), (missing_facts(text, table.text), table.text)


@pytest.mark.parametrize("message", [*TABLES, "/liste 1", "/stand 1", "/abrechnung 1"])
async def test_isko_lists(chat: Harness, message: str) -> None:
    for line in ISKO:
        await ok(chat, line)
    await same_facts(chat, message)


@pytest.mark.parametrize("message", TABLES)
async def test_house_lists(chat: Harness, message: str) -> None:
    for line in HOUSE:
        await ok(chat, line)
    await same_facts(chat, message)


@pytest.mark.parametrize("rules", ["", "/turnierregeln schnitt mindestens 2"])
async def test_a_tournament_ranking(chat: Harness, rules: str) -> None:
    names = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav"]
    await setup_tournament(chat, names=names)
    if rules:
        await ok(chat, rules, **ORGANISER)  # type: ignore[arg-type]
    await draw(chat)
    first = {n: (10 * i, 1, 0) for i, n in enumerate(names)}
    await ok(chat, results_message(first), **ORGANISER)  # type: ignore[arg-type]
    await ok(chat, "/teilnehmer Hanna", **ORGANISER)  # type: ignore[arg-type]
    await draw(chat, seed="123456")
    second = {n: (10 * i, 2, 1) for i, n in enumerate([*names, "Hanna"])}
    await ok(chat, results_message(second), **ORGANISER)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende", **ORGANISER)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende ja", **ORGANISER)  # type: ignore[arg-type]
    await same_facts(chat, "/rangliste")


def test_the_comparison_sees_a_lost_line() -> None:
    """The check itself: a line the table leaves out, or a mark, is found; layout is not."""
    text = "Liste\n 3. Bernd: Kreuz mit 1 – gewonnen: +48 (Bock) · Geber Carla\nStand: Bernd 48"
    table = (
        "Liste\nNr │ Geber │ Spiel │ Wert │ Bernd\n 3 │ Carla │ Kreuz mit 1 – gewonnen │ 48 │ 48"
    )
    assert missing_facts(text, table) == {
        " 3. Bernd: Kreuz mit 1 – gewonnen: +48 (Bock) · Geber Carla": {"Bock"},
        "Stand: Bernd 48": {"Stand"},
    }
    assert missing_facts(text, table + " (Bock)\nStand: Bernd 48") == {}
    # "1 gewonnen, 0 verloren" is what the columns gew. and verl. say
    assert (
        missing_facts("Anna – 50 Punkte · 1 gewonnen, 0 verloren", "Punkte gew. verl. 50 1 0 Anna")
        == {}
    )
    assert words("S1 +96 · −72 (krank: Anna).") == {"S1", "96", "−72", "krank", "Anna"}


async def test_an_overbid_game_is_lost_in_the_table(chat: Harness) -> None:
    for line in ISKO[:5]:
        await ok(chat, line)
    assert " 2. Bernd: Karo mit 1 – verloren (überreizt) −72" in await text_form(chat, "/liste")
    [table] = tables(await table_form(chat, "/liste"))
    assert row_of(table, "2")["Spiel"] == "Karo mit 1 – verloren (überreizt)", table
