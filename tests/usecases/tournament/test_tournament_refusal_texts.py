"""The tournament refusals reach the chat unchanged now that TournamentError is a
RuleError (no conversion in the handlers). The texts are the replies recorded before."""

from __future__ import annotations

from tests.harness import Harness
from tests.usecases.tournament.test_tournament_chat import ORGANISER, draw, setup_tournament

CHAT = -1601


async def test_draw_refusals_read_as_before(chat: Harness) -> None:
    await setup_tournament(chat, chat_id=CHAT, names=["Anna", "Bernd", "Carla", "Dora", "Emil"])
    assert await chat.text("/auslosen 1", chat_id=CHAT, **ORGANISER) == (
        "⚠️ Mit 5 Teilnehmern geht keine Tischeinteilung auf – nimm eine Person dazu "
        "(6 = 2 Dreiertische) oder spiele mit 4."
    )
    await chat.say("/teilnehmer Frieda", chat_id=CHAT, **ORGANISER)
    assert await chat.text("/auslosen a/b", chat_id=CHAT, **ORGANISER) == (
        "⚠️ Der Startwert darf keine Leerzeichen und keinen Schrägstrich enthalten – "
        "z. B. /auslosen 4711."
    )
    assert await chat.text("/auslosen " + "9" * 65, chat_id=CHAT, **ORGANISER) == (
        "⚠️ Der Startwert ist zu lang (höchstens 64 Zeichen) – z. B. /auslosen 4711."
    )


async def test_result_refusals_read_as_before(chat: Harness) -> None:
    await setup_tournament(chat, chat_id=CHAT, names=["Anna", "Bernd", "Carla"])
    await draw(chat, "7", chat_id=CHAT)
    assert await chat.text("/ergebnis Anna 100 30 7", chat_id=CHAT, **ORGANISER) == (
        "⚠️ Zeile 1: Am Tisch Bernd, Carla, Anna stehen 37 Spiele (gewonnen + verloren), "
        "die Serie hat aber nur 36 – bitte die Zahlen prüfen.\n👉 Nichts wurde gespeichert."
    )
    await chat.say("/ergebnis Anna 100 20 4", chat_id=CHAT, **ORGANISER)
    assert await chat.text("/serienlaenge 20 32", chat_id=CHAT, **ORGANISER) == (
        "⚠️ Serie 1: Am Tisch Bernd, Carla, Anna stehen 24 Spiele (gewonnen + verloren), "
        "die Serie hat aber nur 20 – bitte die Zahlen prüfen."
    )
