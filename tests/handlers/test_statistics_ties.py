"""/statistik names every holder of a tied record, through the bot and the strict stand-in:
four players with two series each all have "Meiste Serien"."""

from __future__ import annotations

from tests.helpers import Bot, ok


async def test_a_record_all_players_share_says_so(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla Dora")
    await ok(bot, "/spiel Bernd grand mit 1 gewonnen")
    await ok(bot, "/abschluss ja")
    await ok(bot, "/weiter")
    await ok(bot, "/spiel Carla grand mit 1 gewonnen")
    await ok(bot, "/abschluss ja")
    text = await ok(bot, "/statistik", "Meiste Serien: alle gleich, je 2")
    assert "Meiste Serien: Anna, 2" not in text
    # Bernd and Carla won one game each, Anna and Dora none
    assert "Meiste gewonnene Spiele: Bernd und Carla, je 1" in text
