"""Earlier lists by number: /liste N, /stand N, /pdf N, /export N, /abrechnung N and
/stand bild N take the list's number in the chat (as in the file name skatliste-N-…) and say
which list they show; /listen shows the chat's lists; /einsatz BETRAG liste N sets the stake
of an earlier series of the evening.

On the use cases (the ``chat`` harness). The read-only commands are checked in the text form,
as a server without tables shows them, and /stand N also as a table."""

from __future__ import annotations

import json

from tests.harness import Harness
from tests.helpers import ok, refused


async def _two_lists(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 g")
    await ok(chat, "/abschluss ja")
    await ok(chat, "/weiter")
    await ok(chat, "/spiel Bernd kreuz mit 2 g")


async def test_read_only_commands_take_the_list_number(chat: Harness) -> None:
    chat.rich_messages = False  # the text form (the table form: the next test)
    await _two_lists(chat)
    text = await ok(chat, "/stand 1", "Liste 1 vom", "(abgeschlossen)", "Anna")
    assert "Bernd +" not in text.split("\n")[1]
    await ok(chat, "/liste 1", "Liste 1 vom", "Anna: Grand mit 1 – gewonnen")
    text = await ok(chat, "/liste 2", "Liste 2 vom", "(läuft)", "Bernd: Kreuz mit 2")
    assert "Grand mit 1" not in text
    text = await ok(chat, "/liste")  # no number: the running list, as before
    assert "Liste 2 vom" not in text and "Bernd: Kreuz mit 2" in text
    out = await chat.say("/pdf 1")
    assert "Liste 1 vom" in out[0].text
    assert out[0].document is not None and out[0].document[0].startswith("skatliste-1-abschluss-")
    out = await chat.say("/export 1")
    assert out[0].document is not None
    data = json.loads(out[0].document[1])
    assert [g["declarer"] for g in data["games"]] == ["Anna"]
    out = await chat.say("/stand bild 1")
    assert [r.method for r in out] == ["sendPhoto"] and "Liste 1 vom" in out[0].text
    assert out[0].document is not None and out[0].document[0].startswith("skatliste-1-abschluss-")
    await refused(chat, "/stand 7", "keine Liste 7", "/listen")


async def test_stand_of_an_earlier_list_names_it_in_the_table(chat: Harness) -> None:
    """What users of a server with tables see: the same "Liste 1 vom" line as /liste 1 shows
    (and as the text form of /stand 1 has, tested above)."""
    await _two_lists(chat)
    await ok(chat, "/liste 1", "Liste 1 vom")
    await ok(chat, "/stand 1", "Liste 1 vom", "(abgeschlossen)")


async def test_listen_shows_every_list(chat: Harness) -> None:
    await _two_lists(chat)
    text = await ok(chat, "/listen", "Listen in diesem Chat (2)")
    assert "1 · " in text and "Anna, Bernd, Carla · abgeschlossen, 1 Spiel · 🏆 Anna" in text
    assert "2 · " in text and "läuft, 1 Spiel · vorn: Bernd" in text


async def test_a_stake_for_an_earlier_series(chat: Harness) -> None:
    await _two_lists(chat)
    await ok(chat, "/einsatz 1 ct")  # the running list 2 and later ones
    text = await ok(chat, "/abrechnung abend")
    assert "zählt nicht" in text  # list 1 has no stake yet
    # list 1 is a series of this evening (/weiter): its evening settlement is suggested
    await ok(chat, "/einsatz 2 ct liste 1", "Liste 1: 2 ct", "nur diese Liste", "/abrechnung abend")
    text = await ok(chat, "/abrechnung abend")
    assert "zählt nicht" not in text
    await ok(chat, "/abrechnung 1", "Liste 1", "2 ct")
    await ok(chat, "/abrechnung 2", "Liste 2", "1 ct")
    await ok(chat, "/einsatz", "1 ct")  # the chat's stake is still 1 ct


async def test_a_stake_for_a_list_of_another_evening_suggests_that_list_only(chat: Harness) -> None:
    await _two_lists(chat)
    await ok(chat, "/abschluss ja")
    await ok(chat, "/neu Dora Emil Fritz")  # a new evening: no /weiter back to lists 1 and 2
    await ok(chat, "/spiel Dora null g")
    text = await ok(chat, "/einsatz 2 ct liste 1", "Liste 1: 2 ct", "Abrechnen: /abrechnung 1")
    assert "/abrechnung abend" not in text  # the latest evening is list 3 alone
    text = await ok(chat, "/einsatz 1 ct liste 3", "Liste 3: 1 ct", "Abrechnen: /abrechnung 3")
    assert "/abrechnung abend" not in text  # an evening of one list: /abrechnung 3 is all
