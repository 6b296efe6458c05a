"""Money settles what was played: start points move no money unless the chat says so
(/einsatz … startpunkte), and the settlement says how they were treated."""

from __future__ import annotations

import pytest

from tests.harness import Harness
from tests.helpers import ok


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


async def test_start_points_move_no_money_by_default(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/startpunkte Anna 100 Bernd -20")
    await ok(chat, "/einsatz 1 ct")
    text = await ok(chat, "/abrechnung", "Niemand muss zahlen")
    assert "Startpunkte (Anna 100 · Bernd −20) bewegen kein Geld" in text
    line = text[text.index("Mit Startpunkten: ") + 18 :].split("\n")[0]
    assert line == "/einsatz 1 ct paarweise startpunkte"
    await ok(chat, line, "Startpunkte zählen beim Geld mit")
    text = await ok(chat, "/abrechnung", "Startpunkte (Anna 100 · Bernd −20) zählen mit")
    assert "Niemand muss zahlen" not in text and "Anna (100)" in text


async def test_a_played_game_is_settled_without_the_start_points(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/startpunkte Anna 100")
    await ok(chat, "/einsatz 1 ct")
    await ok(chat, "/spiel Bernd grand mit 1 g")  # Bernd +48 (house: game value booked)
    text = await ok(chat, "/abrechnung")
    assert "Bernd (48)" in text and "Anna (0)" in text, text
