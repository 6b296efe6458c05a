"""Averages never extrapolate a broken-off series: under /saisonregeln schnitt a series is
normalised to 48 games only when it was played to its length; a shorter one counts as
played, unscaled, and the table names it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skatbot.rules.season import Counting, Result, SeasonRules, Series, season_table
from tests.harness import Harness
from tests.helpers import ok


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


def _series(id: str, games: int, length: int | None, score: int) -> Series:
    import datetime as dt

    results = (Result("a", "Anna", score, 1, 0), Result("b", "Bernd", 0, 0, 0))
    return Series(id, dt.date(2026, 11, 30), games, results, length=length)


def test_a_broken_off_series_is_not_scaled_up() -> None:
    rules = SeasonRules(counting=Counting.AVERAGE)
    table = season_table([_series("liste:1", 1, 36, 98)], rules)
    assert table.ranked[0].total == 98  # not 98 × 48 = 4,704
    assert table.unscaled == ("liste:1",)
    full = season_table([_series("liste:2", 36, 36, 360)], rules)
    assert full.ranked[0].total == 480 and full.unscaled == ()
    both = season_table([_series("liste:1", 1, 36, 98), _series("liste:2", 36, 36, 360)], rules)
    assert both.ranked[0].total == Fraction(98 + 480, 2)
    summed = season_table([_series("liste:1", 1, 36, 98)], SeasonRules())
    assert summed.unscaled == ()


async def test_the_season_table_names_the_unscaled_series(chat: Harness) -> None:
    await ok(chat, "/saisonregeln schnitt", "abgebrochene Serien zählen wie gespielt")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/serie 3")
    for line in ("/spiel Anna grand mit 1 g", "/spiel Bernd null g", "/spiel Carla null g"):
        await ok(chat, line)
    await ok(chat, "/abschluss ja")
    await ok(chat, "/weiter")
    await ok(chat, "/spiel Anna grand mit 1 g")  # 98 after one game of 3
    await ok(chat, "/abschluss ja")
    text = await ok(chat, "/saison", "Nicht hochgerechnet (abgebrochen, zählen wie gespielt)")
    assert "(1 von 3 Spielen)" in text  # /weiter keeps the length
    # Anna: 98 × 48 / 3 = 1568 and 98 unscaled: 833,0 – not (1568 + 1568) / 2
    assert "Anna 833,0" in text, text
