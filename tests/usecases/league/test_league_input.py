"""Odd and broken input to every league command: always a German answer, never the internal
error notice, and every refusal names a fix (👉)."""

from __future__ import annotations

from skatbot.standin.botapi import html_to_text
from tests.harness import Harness
from tests.helpers import ERROR_NOTICE
from tests.usecases.league import test_league as t

INPUTS = [
    "/liga",
    "/liga serien",
    "/liga serien 0",
    "/liga mindestens abc",
    "/liga verlustspiel x",
    "/liga reihenfolge",
    "/liga wechsel",
    "/mannschaft",
    "/mannschaft :",
    "/mannschaft Nord",
    "/mannschaft X: A, B",
    "/mannschaft #: A, B, C",
    "/mannschaft Y: A, B, C, Ersatz",
    "/kapitaen",
    "/kapitaen " + "Z" * 80,
    "/spieltag",
    "/spieltag 0",
    "/spieltag 100",
    "/spieltag 5 " + "x" * 100,
    "/spieltag 6 Ort 99.99.2027",
    "/aufstellung Nord",
    "/aufstellung Nord:",
    "/aufstellung Unbekannt: A",
    "/aufstellung Nord: Anna, Anna, Bernd",
    "/setzen",
    "/sitzplan 0",
    "/sitzplan abc",
    "/sitzplan 99",
    "/wechsel",
    "/wechsel Nord",
    "/wechsel Nord Erik",
    "/wechsel Nord Erik für",
    "/wechsel Nord Erik für Anna spiel x",
    "/wechsel Nord Erik für Anna spiel 1",
    "/wechsel Nord Erik für Erik",
    "/ergebnis",
    "/ergebnis serie 9\nAnna 1 1 1",
    "/ergebnis serie 1",
    "/ergebnis Anna",
    "/ergebnis Anna 1 2",
    "/ergebnis Niemand 1 1 1",
    "/ergebnis Anna 999999 1 1",
    "/ergebnis Anna 1 -1 0",
    "/tabelle 99",
    "/tabelle x pdf",
    "/tabelle pdf",
    "/tabelle 1 pdf",
    "/einzelwertung",
    "/freigeben 99",
    "/freigeben x",
    "/bestaetigen",
    "/ausrichter",
    "/ausrichter A",
    "/tisch L",
    "/tisch LAAAAAA",
    "/hilfe liga",
    # digits of other scripts: never read as numbers (str.isdigit would take them)
    "/liga serien ²",
    "/liga mindestens ٥٠",
    "/spieltag ²",
    "/spieltag ٣ Reken",
    "/sitzplan ²",
    "/tabelle ²",
    "/freigeben ٢",
    "/wechsel Nord Erik für Anna spiel ١٧",
]


async def test_a_date_in_other_digits_is_refused_not_taken_for_the_place(chat: Harness) -> None:
    await t.setup_league(chat)
    before = await chat.say("/tabelle", **t.LEADER)
    out = await chat.say("/spieltag 2 Reken ١٤.٠٣.٢٠٢٧", **t.LEADER)
    assert any(r.refusal for r in out), [r.text for r in out]
    assert "Ziffern 0–9" in out[0].text and "14.03.2027" in out[0].text, out[0].text
    assert [r.text for r in await chat.say("/tabelle", **t.LEADER)] == [r.text for r in before]


async def test_odd_input_to_the_league_commands_gets_an_answer(chat: Harness) -> None:
    await t.setup_league(chat)
    await chat.say("/spieltag 1 Reken", **t.LEADER)
    for n, text in enumerate(INPUTS):
        if n == INPUTS.index("/setzen"):  # the rest with a series seated
            await chat.say("/setzen", **t.LEADER)
        out = await chat.say(text, **t.LEADER)
        joined = "\n".join(r.text for r in out)
        assert html_to_text(ERROR_NOTICE) not in joined, (text, joined)
        assert out, text
        for r in out:
            if r.refusal:
                assert "👉" in r.text, (text, r.text)


async def test_a_name_twice_in_one_result_message_is_refused_with_both_lines(chat: Harness) -> None:
    await t.setup_league(chat)
    await chat.say("/spieltag 1 Reken", **t.LEADER)
    await chat.say("/setzen", **t.LEADER)
    before = [r.text for r in await chat.say("/tabelle 1", **t.LEADER)]
    out = await chat.say("/ergebnis Anna 100 2 1\nAnna 120 2 0", **t.LEADER)
    assert any(r.refusal for r in out), [r.text for r in out]
    assert "Zeile 2: Anna steht in dieser Nachricht schon in Zeile 1" in out[0].text, out[0].text
    assert [r.text for r in await chat.say("/tabelle 1", **t.LEADER)] == before
