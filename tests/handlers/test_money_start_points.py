"""Money settles what was played: start points move no money unless the chat says so
(/einsatz … startpunkte), and the settlement says how they were treated."""

from __future__ import annotations

from tests.helpers import Bot, ok


async def test_start_points_move_no_money_by_default(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/startpunkte Anna 100 Bernd -20")
    await ok(bot, "/einsatz 1 ct")
    text = await ok(bot, "/abrechnung", "Niemand muss zahlen")
    assert "Startpunkte (Anna 100 · Bernd −20) bewegen kein Geld" in text
    line = text[text.index("Mit Startpunkten: ") + 18 :].split("\n")[0]
    assert line == "/einsatz 1 ct paarweise startpunkte"
    await ok(bot, line, "Startpunkte zählen beim Geld mit")
    text = await ok(bot, "/abrechnung", "Startpunkte (Anna 100 · Bernd −20) zählen mit")
    assert "Niemand muss zahlen" not in text and "Anna (100)" in text


async def test_a_played_game_is_settled_without_the_start_points(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/startpunkte Anna 100")
    await ok(bot, "/einsatz 1 ct")
    await ok(bot, "/spiel Bernd grand mit 1 g")  # Bernd +48 (house: game value booked)
    text = await ok(bot, "/abrechnung")
    assert "Bernd (48)" in text and "Anna (0)" in text, text
