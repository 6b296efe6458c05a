"""Which tables are compact (Bot API 10.3 ``is_compact``, smaller indents): a table read at a
glance - the standings of a series, an evening, a season, a tournament - from six columns on,
where the usual indents run past a phone's width; the list never (it is read row by row,
and the spaces keep the running sums apart). What a server before 10.3 shows instead is
tests/handlers/test_button_state.py."""

from __future__ import annotations

from skatbot.rules.ranking import Ranked, Standing
from skatbot.standin.rich import parse_rich
from skatbot.usecases.common import rich
from tests.harness import Harness
from tests.usecases.forms import table_form


async def compact_tables(chat: Harness, message: str) -> list[bool]:
    """Each table of ``message``'s rich reply: compact or not, as the server reads it."""
    seen = await table_form(chat, message)
    return [b.compact for b in parse_rich({"html": seen.html}).blocks if b.kind == "table"]


async def test_standings_of_six_columns_and_more_are_compact(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")
    for _ in range(3):  # an evening of four series: Platz, Spieler, S1-S4, Summe
        await chat.say("/abschluss ja")
        await chat.say("/weiter")
        await chat.say("/spiel Bernd herz mit 2 gewonnen")
    assert await compact_tables(chat, "/stand") == [True]
    assert await compact_tables(chat, "/liste") == [False]
    assert await compact_tables(chat, "/abend") == [True]
    assert await compact_tables(chat, "/saison") == [True]  # seven columns


async def test_an_evening_of_two_series_is_a_normal_table(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")
    await chat.say("/abschluss ja")
    await chat.say("/weiter")
    assert await compact_tables(chat, "/abend") == [False]  # Platz, Spieler, S1, S2, Summe


def test_a_ranking_is_compact_from_its_sixth_column() -> None:
    ranked = [
        Ranked(1, Standing("Anna", 120, 2, 0), by_lot=False),
        Ranked(2, Standing("Bernd", 40, 1, 1), by_lot=False),
    ]

    def compact(columns: list[tuple[str, list[str]]]) -> bool:
        doc = rich.ranking_doc("Rangliste", ranked, [], columns=columns)
        [table] = [b for b in doc.blocks if isinstance(b, rich.Table)]
        return table.compact

    assert compact([]) is False  # Platz, Spieler, Punkte, gew., verl.
    assert compact([("S1", ["120", "40"])]) is True
