"""/rueckgaengig takes back the latest change of the running list (a booking, a strike, a
correction), as a row of the log; a strike of an earlier game asks first; every strike and
correction carries the way back."""

from __future__ import annotations

from tests.harness import Harness
from tests.helpers import export_json, ok, refused

ANNA, BERND = 1, 2


async def _list(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla", user_id=ANNA)
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ANNA)
    await ok(chat, "/spiel Bernd kreuz mit 2 gewonnen", user_id=ANNA)
    await ok(chat, "/spiel Carla null verloren", user_id=ANNA)


async def _games(chat: Harness) -> list[str]:
    data = await export_json(chat)
    return [f"{g['nr']} {g['announcement']}" for g in data["games"] if g["nr"] is not None]


async def test_undo_takes_back_a_booking_then_the_change_before(chat: Harness) -> None:
    await _list(chat)
    before = await export_json(chat)
    text = await ok(chat, "/rueckgaengig", "Zurückgenommen: Spiel 3", user_id=ANNA)
    assert "Noch eine Änderung zurück: /rueckgaengig" in text
    assert "Spiel 3/36" in text  # the next deal is game 3 again, dealt by Carla
    after = await export_json(chat)
    assert len([g for g in after["games"] if g["nr"]]) == 2
    assert after["totals"] != before["totals"]
    await ok(chat, "/rueckgaengig", "Zurückgenommen: Spiel 2", user_id=ANNA)
    await ok(chat, "/spiel Bernd pik mit 1 gewonnen", "Spiel 2/36", user_id=ANNA)


async def test_undo_brings_a_struck_game_back(chat: Harness) -> None:
    await _list(chat)
    before = await export_json(chat)
    text = await ok(chat, "/storno 3", "Spiel 3 storniert", user_id=ANNA)
    assert "Zurücknehmen: /rueckgaengig" in text
    assert "rücken eine Nummer auf" not in text  # the latest game: nothing follows it
    await ok(chat, "/rueckgaengig", "Zurückgenommen: das Streichen", "Spiel 3 zählt wieder")
    assert (await export_json(chat))["totals"] == before["totals"]


async def test_undo_of_a_correction_restores_the_game_as_it_was(chat: Harness) -> None:
    await _list(chat)
    before = await export_json(chat)
    text = await ok(chat, "/korrigieren 2 Bernd kreuz mit 3 gewonnen", "korrigiert")
    assert "Zurücknehmen: /rueckgaengig" in text
    last = chat.last(with_buttons=True)
    assert last.data("Rückgängig").startswith("v1:u:")
    await ok(chat, "/rueckgaengig", "Zurückgenommen: die Korrektur von Spiel 2", "gilt wieder")
    assert (await export_json(chat))["totals"] == before["totals"]


async def test_nothing_to_take_back(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await refused(chat, "/rueckgaengig", "nichts zurückzunehmen", "/spiel")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(chat, "/rueckgaengig")
    await refused(chat, "/rueckgaengig", "nichts zurückzunehmen")
    await refused(chat, "/rueckgaengig 3", "ohne Nummer", "/storno N")


async def test_only_who_made_the_change_or_an_admin(chat: Harness) -> None:
    chat.set_admins(-1001, 7)
    await _list(chat)
    json = await export_json(chat)
    text = await refused(chat, "/rueckgaengig", "ist von Spieler", "Admins", user_id=BERND)
    assert "/korrigieren" in text
    assert await export_json(chat) == json
    await ok(chat, "/rueckgaengig", "Zurückgenommen: Spiel 3", user_id=7)  # an admin


async def test_a_strike_of_an_earlier_game_asks_first(chat: Harness) -> None:
    await _list(chat)
    json = await export_json(chat)
    text = await ok(chat, "/storno 1", "Spiel 1 streichen?", "Anna: Grand", "/storno 1 ja")
    assert "das ist Spiel 3" in text
    assert await export_json(chat) == json  # the question changes nothing
    question = chat.last(with_buttons=True)
    tapped = await chat.tap(question, "Nein")
    assert tapped.notice == "Nichts gestrichen."
    assert await export_json(chat) == json
    await ok(chat, "/storno 1")
    tapped = await chat.tap(chat.last(with_buttons=True), "Ja, Spiel 1 streichen")
    assert "Spiel 1 storniert" in tapped.text
    assert len(await _games(chat)) == 2


async def test_the_question_strikes_exactly_what_it_showed(chat: Harness) -> None:
    await _list(chat)
    await ok(chat, "/storno 2", "Spiel 2 streichen?")
    question = chat.last(with_buttons=True)
    await ok(chat, "/storno 1 ja", "Spiel 1 storniert")  # meanwhile game 2 became game 1
    json = await export_json(chat)
    tapped = await chat.tap(question, "Ja, Spiel 2 streichen")
    assert tapped.alert and "Inzwischen hat sich etwas geändert" in tapped.notice
    assert await export_json(chat) == json


async def test_storno_n_ja_and_the_latest_game_strike_at_once(chat: Harness) -> None:
    await _list(chat)
    await ok(chat, "/storno 1 ja", "Spiel 1 storniert", "rücken eine Nummer auf")
    await ok(chat, "/storno 2", "Spiel 2 storniert")  # the latest now
    assert len(await _games(chat)) == 1
