"""/saison and /saisonregeln in the chat: periods, bad input, tournament series (a long
table split within Telegram's limit is delivery: tests/handlers/test_season_chat.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from skatbot.rules.errors import RuleError
from skatbot.usecases.season.season_table import parse_period
from tests.harness import Harness
from tests.helpers import ok, refused


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


TODAY = dt.date(2026, 5, 17)


@pytest.mark.parametrize(
    ("words", "start", "end", "label"),
    [
        ([], dt.date(2026, 1, 1), dt.date(2026, 12, 31), "2026"),
        (["2025"], dt.date(2025, 1, 1), dt.date(2025, 12, 31), "2025"),
        (["märz", "2026"], dt.date(2026, 3, 1), dt.date(2026, 3, 31), "März 2026"),
        (["Maerz", "2026"], dt.date(2026, 3, 1), dt.date(2026, 3, 31), "März 2026"),
        (["2", "2024"], dt.date(2024, 2, 1), dt.date(2024, 2, 29), "Februar 2024"),
        (["12/2025"], dt.date(2025, 12, 1), dt.date(2025, 12, 31), "Dezember 2025"),
        (
            ["von", "01.03.2026", "bis", "31.05.2026"],
            dt.date(2026, 3, 1),
            dt.date(2026, 5, 31),
            "01.03.2026 – 31.05.2026",
        ),
    ],
)
def test_periods(words: list[str], start: dt.date, end: dt.date, label: str) -> None:
    p = parse_period(words, TODAY)
    assert (p.start, p.end, p.label) == (start, end, label)


@pytest.mark.parametrize(
    "words",
    [["13", "2026"], ["1999"], ["von", "31.05.2026", "bis", "01.03.2026"], ["von", "x", "bis", "y"],
     ["gestern"], ["a", "b", "c"], ["30.02.2026"]],
)  # fmt: skip
def test_bad_periods_are_refused_with_a_hint(words: list[str]) -> None:
    with pytest.raises(RuleError) as err:
        parse_period(words, TODAY)
    assert err.value.hint


async def test_refusals_and_an_empty_season(chat: Harness) -> None:
    await refused(chat, "/saison 13 2026", "kein Monat", "/saison märz 2026")
    await refused(chat, "/saison von 01.01.2026", "Von wann bis wann")
    await refused(chat, "/saisonregeln beste", "fehlt die Zahl")
    await refused(chat, "/saisonregeln beste 0", "Eine Zahl von 1 bis")
    await refused(chat, "/saisonregeln quatsch", "kenne ich bei /saisonregeln nicht")
    await ok(chat, "/saisonregeln", "Summe der Seeger-Fabian-Punkte · alle Serien zählen")
    text = await ok(chat, "/saison 2025", "Keine abgeschlossene Serie")
    assert "1." not in text
    # An open list does not count; a closed one under house rules is named, not counted.
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(chat, "/saison", "Keine abgeschlossene Serie")
    await ok(chat, "/abschluss ja")
    await ok(chat, "/saison", "1 Liste mit Hausregeln zählt nicht")


async def test_tournament_series_count_for_the_season(chat: Harness) -> None:
    desk = -3003
    for line in [
        "/turnier Preisskat Vereinsheim",
        "/teilnehmer Anna, Bernd, Carla, Dora, Emil, Frieda, Gustav",
        "/serienlaenge 36 48",
        "/auslosen 482913",
    ]:
        await ok(chat, line, chat_id=desk)
    await ok(
        chat,
        "/ergebnis Anna 100 2 1\nBernd 50 1 1\nCarla 0 0 2\nDora 30 1 0\nEmil 10 1 1\n"
        "Frieda 70 2 0\nGustav -20 0 1",
        chat_id=desk,
    )
    ranking = await ok(chat, "/rangliste", chat_id=desk)
    text = await ok(chat, "/saison", "2 Serien", chat_id=desk)  # the two tables of series 1
    ranked = [x for x in text.splitlines() if x[:1].isdigit()]
    assert len(ranked) == 7
    # Same scores as the tournament's own ranking (one series: the sum is that series).
    first = next(x for x in ranking.splitlines() if x.startswith("1."))
    name = first.split()[1]
    assert ranked[0].startswith(f"1. {name} ")
