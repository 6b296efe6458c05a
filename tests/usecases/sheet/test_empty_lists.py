"""Empty lists are not series: a list without a game is discarded when a new one replaces
it, /abschluss refuses it with a hint that works, and no statistic, season, evening or
rating counts one (not even one closed empty before). On the use cases (the ``chat``
harness)."""

from __future__ import annotations

import re

from skatbot.storage import lists as lists_store
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.standin.fake_telegram import html_to_text


async def test_replaced_empty_lists_leave_no_trace(chat: Harness) -> None:
    for _ in range(3):
        await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/listen", "Listen in diesem Chat (1)")
    await ok(chat, "/spiel Anna grand mit 1 g")
    out = await chat.say("/pdf")
    assert out[0].document is not None and out[0].document[0].startswith("skatliste-1-")


async def test_closing_an_empty_list_is_refused_with_a_hint_that_works(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    text = await refused(chat, "/abschluss ja", "noch kein Spiel", "/neu Anna Bernd Carla")
    assert "/spiel Bernd grand mit 1 gewonnen" in text
    await ok(chat, "/spiel Bernd grand mit 1 gewonnen")
    await ok(chat, "/abschluss ja", "abgeschlossen")


def _closed_empty_list(chat: Harness) -> None:
    def write(session):  # type: ignore[no-untyped-def]
        lst = lists_store.create_list(
            session, -1001, ["Anna", "Bernd", "Carla"], first_dealer=0, series_length=36,
            rules="isko", seed="abcd1234", user_id=1,
        )  # fmt: skip
        lists_store.close_list(session, lst)

    chat.db.run_write(write)


async def test_statistics_season_and_evening_skip_empty_lists(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 g")
    await ok(chat, "/abschluss ja")
    _closed_empty_list(chat)  # as older versions left them
    _closed_empty_list(chat)
    text = await ok(chat, "/statistik", "Über 1 abgeschlossene Liste")
    assert "Beste Serie: Anna 98" in text
    text = await ok(chat, "/statistik Bernd", "Serien: 1 ·", "Skatzahl")
    assert "nach 1 Serie" in text, text  # the rating counts the one played series only
    text = await ok(chat, "/saison", "Saison", "– 1 Serie\n")
    # a table (Wertung, Serien) and, without tables, its text form
    row = next(line for line in text.splitlines() if re.search(r"│ ?Bernd ", line))
    assert [c.strip() for c in row.split("│")][1:4] == ["Bernd", "0", "1"], text
    [reply] = await chat.run("/saison")
    assert "Bernd 0 · 1 Serie ·" in html_to_text(str(reply.text)), reply.text
    text = await ok(chat, "/abend")
    assert "Serie 2" not in text and "Serie 3" not in text


async def test_the_hint_for_an_empty_list_keeps_names_with_spaces(chat: Harness) -> None:
    await ok(chat, "/neu Anna Maria, Anna Lena, Bernd")
    text = await refused(chat, "/abschluss ja", "noch kein Spiel")
    line = text[text.index("neu anfangen: ") + 14 :].split(" (ersetzt")[0]
    assert line == "/neu „Anna Maria“ „Anna Lena“ Bernd"
    await ok(chat, line, "Neue Liste: Anna Maria, Anna Lena, Bernd")
