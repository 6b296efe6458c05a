"""A running series shows its Zwischenstand, a closed one its Serienabschluss: in /stand, in
the pinned standings and on the list's PDF, through the bot and the strict stand-in."""

from __future__ import annotations

from tests.helpers import Bot, ok
from tests.usecases.place.test_closing import pdf_text

CHAT = -1001


async def _pdf(bot: Bot) -> str:
    before = len(bot.api.documents(CHAT))
    await ok(bot, "/pdf")
    [(_, data)] = bot.api.documents(CHAT)[before:]
    return pdf_text(data)


async def test_a_running_series_is_a_zwischenstand_and_its_end_the_serienabschluss(
    bot: Bot,
) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    running = await ok(bot, "/stand", "Zwischenstand (ISkO, Seeger-Fabian), 1/36 Spiele")
    assert "Serienabschluss" not in running
    pinned = await ok(bot, "/anheften", "Zwischenstand")
    assert "Serienabschluss" not in pinned
    interim = await _pdf(bot)
    assert "Zwischenstand" in interim and "Serienabschluss" not in interim
    closing = await ok(bot, "/abschluss ja", "Serienabschluss (ISkO, Seeger-Fabian)")
    assert "Zwischenstand" not in closing
    await ok(bot, "/stand", "Serienabschluss (ISkO, Seeger-Fabian), 1/36 Spiele")
    closed = await _pdf(bot)
    assert "Serienabschluss" in closed and "Zwischenstand" not in closed
