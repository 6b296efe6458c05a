"""Empty lists are not series: a list without a game is discarded when a new one replaces
it, /abschluss refuses it with a hint that works, and no statistic, season, evening or
rating counts one (not even one closed empty before)."""

from __future__ import annotations

from skatbot.storage import lists as repo
from tests.helpers import Bot, ok, refused


async def test_replaced_empty_lists_leave_no_trace(bot: Bot) -> None:
    for _ in range(3):
        await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/listen", "Listen in diesem Chat (1)")
    await ok(bot, "/spiel Anna grand mit 1 g")
    out = await bot.say("/pdf")
    assert out[0].document is not None and out[0].document[0].startswith("skatliste-1-")


async def test_closing_an_empty_list_is_refused_with_a_hint_that_works(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    text = await refused(bot, "/abschluss ja", "noch kein Spiel", "/neu Anna Bernd Carla")
    assert "/spiel Bernd grand mit 1 gewonnen" in text
    await ok(bot, "/spiel Bernd grand mit 1 gewonnen")
    await ok(bot, "/abschluss ja", "abgeschlossen")


def _closed_empty_list(bot: Bot) -> None:
    def write(session):  # type: ignore[no-untyped-def]
        lst = repo.create_list(
            session, -1001, ["Anna", "Bernd", "Carla"], first_dealer=0, series_length=36,
            rules="isko", seed="abcd1234", user_id=1,
        )  # fmt: skip
        repo.close_list(session, lst)

    bot.db.run_write(write)


async def test_statistics_season_and_evening_skip_empty_lists(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand mit 1 g")
    await ok(bot, "/abschluss ja")
    _closed_empty_list(bot)  # as older versions left them
    _closed_empty_list(bot)
    text = await ok(bot, "/statistik", "Über 1 abgeschlossene Liste")
    assert "Beste Serie: Anna 98" in text
    text = await ok(bot, "/statistik Bernd", "Serien: 1 ·", "Skatzahl")
    assert "nach 1 Serie" in text, text  # the rating counts the one played series only
    text = await ok(bot, "/saison", "Saison", "– 1 Serie\n")
    assert "Bernd 0 · 1 Serie ·" in text, text
    text = await ok(bot, "/abend")
    assert "Serie 2" not in text and "Serie 3" not in text


async def test_the_hint_for_an_empty_list_keeps_names_with_spaces(bot: Bot) -> None:
    await ok(bot, "/neu Anna Maria, Anna Lena, Bernd")
    text = await refused(bot, "/abschluss ja", "noch kein Spiel")
    line = text[text.index("neu anfangen: ") + 14 :].split(" (ersetzt")[0]
    assert line == "/neu „Anna Maria“ „Anna Lena“ Bernd"
    await ok(bot, line, "Neue Liste: Anna Maria, Anna Lena, Bernd")
