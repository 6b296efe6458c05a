"""Ramsch as tables play it: 40:40:40 is a result (all three lose 40), a Ramsch with every
trick is a Durchmarsch, the sick-player rule speaks of the Ramsch-Phase, a correction that
breaks the 3B3R sequence names the line that works; house-rules /liste rows are readable."""

from __future__ import annotations

import pytest

from skatbot.rules import house as h
from skatbot.rules.errors import RuleError
from tests.harness import Harness
from tests.helpers import ok, refused


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


RAMSCH = (
    "/regeln haus",
    "/neu Anna Bernd Carla",
    "/bock",
    "/eingepasst",
    "/eingepasst",
    "/eingepasst",
)


def test_forty_forty_forty_is_valid_and_nothing_else_with_three() -> None:
    tie = h.Ramsch(losers=(0, 1, 2), points=40)
    h.validate_ramsch(tie, 3, None)
    assert tie.bookings() == {0: -40, 1: -40, 2: -40}
    assert h.parse_ramsch_text(tie.text()) == tie
    with pytest.raises(RuleError, match="40:40:40"):
        h.validate_ramsch(h.Ramsch(losers=(0, 1, 2), points=41), 3, None)


async def test_a_three_way_tie_is_booked(chat: Harness) -> None:
    for line in RAMSCH:
        await ok(chat, line)
    await ok(chat, "/ramsch Anna Bernd Carla 40", "Ramsch: Anna, Bernd und Carla 40 Augen")
    text = await ok(chat, "/liste", "Ramsch: Anna, Bernd und Carla 40 Augen: je −40 · Geber")
    assert " · G " not in text


async def test_all_tricks_is_a_durchmarsch(chat: Harness) -> None:
    for line in RAMSCH:
        await ok(chat, line)
    text = await refused(chat, "/ramsch Carla 120 jungfrau 2", "Durchmarsch")
    assert "/ramsch durchmarsch Carla" in text
    await ok(chat, "/ramsch durchmarsch Carla", "Durchmarsch")


async def test_ramsch_phase_wording(chat: Harness) -> None:
    assert "Ramsch-Phase" in await ok(chat, "/hilfe haus")
    for line in (*RAMSCH, "/krank Anna", "/spiel Anna grand mit 1 hand g"):
        await ok(chat, line)
    text = await refused(chat, "/krank Anna", "in dieser Ramsch-Phase schon krank")
    assert "Runde" not in text


async def test_correcting_a_trigger_names_the_line_that_works(chat: Harness) -> None:
    for line in (
        "/regeln haus",
        "/neu Anna Bernd Carla",
        "/spiel anna grand mit 1 kontra re g",
        "/eingepasst",
        "/eingepasst",
        "/eingepasst",
        "/ramsch anna 50",
    ):
        await ok(chat, line)
    text = await refused(chat, "/korrigieren 1 anna grand mit 1 g", "Ramsch-Phase")
    assert "/korrigieren 1 anna grand mit 1 g wie gespielt" in text  # game 5 stays
    await ok(chat, "/korrigieren 1 anna grand mit 1 g wie gespielt", "Spiel 1 korrigiert")
    assert "Ramsch: Anna 50 Augen" in await ok(chat, "/liste")


async def test_house_rows_name_each_player_once(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 g")
    text = await ok(chat, "/liste", " 1. Anna: Grand mit 1 – gewonnen: +48 · Geber Anna")
    assert "gewonnen Anna" not in text
