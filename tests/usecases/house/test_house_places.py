"""Where the house rules, /weiter and the place's settings work: the commands of the running
list serve the places where lists are played (a chat with lists, a table); a tournament desk
and a league desk refuse them with what the place is and where they work, and change nothing.
The reads and the place's settings (/darstellung, /saisonregeln, /saison, /statistik, /abend)
work at every place. And the words of /regeln, /darstellung and /saisonregeln."""

from __future__ import annotations

import pytest

from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.place.test_rights import dump

DESK = -3001
LIST_COMMANDS = (
    "/regeln haus",
    "/regeln",
    "/weiter",
    "/bock",
    "/krank Anna",
    "/gesund",
    "/ramsch Anna 55",
    "/startpunkte Anna 10",
)


def changes(chat: Harness) -> dict[str, object]:
    seen = dump(chat)
    seen.pop("processed_updates")
    return seen  # type: ignore[return-value]


@pytest.mark.parametrize("message", LIST_COMMANDS)
async def test_a_tournament_desk_refuses_the_commands_of_a_list(
    chat: Harness, message: str
) -> None:
    await ok(chat, "/turnier Stadtmeisterschaft", chat_id=DESK)
    before = changes(chat)
    command = message.split()[0]
    await refused(
        chat,
        message,
        f"{command} gilt hier nicht",
        "Turnierleitung",
        f"👉 {command} geht in einem Chat mit Liste",
        "Nichts wurde geändert",
        chat_id=DESK,
    )
    assert changes(chat) == before


@pytest.mark.parametrize("message", LIST_COMMANDS)
async def test_a_league_desk_refuses_the_commands_of_a_list(chat: Harness, message: str) -> None:
    await ok(chat, "/liga Testliga", chat_id=DESK)
    before = changes(chat)
    command = message.split()[0]
    await refused(chat, message, f"{command} gilt hier nicht", "Ligaleitung", chat_id=DESK)
    assert changes(chat) == before


async def test_the_place_settings_and_reads_work_at_a_desk(chat: Harness) -> None:
    await ok(chat, "/turnier Stadtmeisterschaft", chat_id=DESK)
    await ok(chat, "/darstellung text", "als Text", chat_id=DESK)
    await ok(chat, "/saisonregeln schnitt", "Schnitt je Serie", chat_id=DESK)
    await ok(chat, "/saison", "Saison", chat_id=DESK)
    await refused(chat, "/statistik", "noch keine abgeschlossene Liste", chat_id=DESK)
    await refused(chat, "/abend", "noch keine Liste", chat_id=DESK)


async def test_regeln_words(chat: Harness) -> None:
    await refused(chat, "/regeln streng", "„streng“ kenne ich nicht", "/regeln haus")
    await refused(chat, "/regeln haus schnell", "Option „schnell“", "runde=geberrunde")
    await refused(chat, "/regeln isko streng", "ISkO hat keine Optionen", "/regeln isko")
    await ok(chat, "/regeln", "Regeln in diesem Chat: ISkO mit Seeger-Fabian")
    await ok(chat, "/regeln haus geberrunde", "Runde = Geberrunde", "ab der nächsten Liste (/neu")
    await ok(chat, "/regeln", "Regeln in diesem Chat: Hausregeln (3B3R)")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/regeln isko", "gilt ab sofort für diese Liste")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(chat, "/regeln haus", "Runde = 1 Spiel", "die laufende bleibt, wie sie ist")


async def test_darstellung_words(chat: Harness) -> None:
    await refused(chat, "/darstellung bunt", "„bunt“ kenne ich nicht", "/darstellung tabelle")
    await refused(chat, "/darstellung text tabelle", "kenne ich nicht", "/darstellung text")
    await ok(chat, "/darstellung TEXT", "als Text")
    await ok(chat, "/darstellung", "Darstellung hier: text")


async def test_saisonregeln_words_apply_in_the_order_written(chat: Harness) -> None:
    await ok(chat, "/saisonregeln schnitt beste 3 mindestens 2 laterne", "beste")
    await ok(
        chat,
        "/saisonregeln",
        "Schnitt je Serie",
        "die besten 3 Serien zählen",
        "gewertet ab 2 Serien",
        "mit Roter Laterne",
    )
    # "standard" first: everything back, then the words after it
    said = await ok(chat, "/saisonregeln standard laterne an alle")
    assert "Summe der Seeger-Fabian-Punkte · alle Serien zählen · mit Roter Laterne" in said
    # "standard" last: it wins over what came before
    said = await ok(chat, "/saisonregeln schnitt laterne aus standard")
    assert "Summe der Seeger-Fabian-Punkte · alle Serien zählen. Tabelle: /saison" in said
    await refused(chat, "/saisonregeln mindestens", "Nach „mindestens“ fehlt die Zahl")
    await refused(chat, "/saisonregeln beste 1001", "1001 geht bei „beste“ nicht")
