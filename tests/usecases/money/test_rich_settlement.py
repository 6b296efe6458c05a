"""/abrechnung as tables says what its text form says: how start points were treated (and
the line that changes it), and how many transfers there are."""

from __future__ import annotations

import pytest

from tests.harness import Harness
from tests.helpers import ok
from tests.usecases.forms import table_form, tables, text_form

NO_MONEY = (
    "🏁 Startpunkte (Anna 100 · Bernd −20) bewegen kein Geld – abgerechnet wird, was in der "
    "Serie gespielt wurde. Mit Startpunkten: /einsatz {stake} startpunkte"
)
COUNTED = (
    "🏁 Startpunkte (Anna 100 · Bernd −20) zählen mit. Nur was gespielt wurde: /einsatz {stake}"
)


async def start_points_list(chat: Harness, stake: str) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/startpunkte Anna 100 Bernd -20")
    await ok(chat, f"/einsatz {stake}")
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen")  # Bernd +24, Anna and Carla 0


@pytest.mark.parametrize(
    ("stake", "shown"),
    [
        ("1 ct", "1 ct paarweise"),  # Anna and Carla pay Bernd 24 × 1 ct each
        ("10 ct kasse", "10 ct kasse"),  # into the pot per minus point: nobody has any
    ],
)
async def test_the_table_says_start_points_move_no_money(
    chat: Harness, stake: str, shown: str
) -> None:
    await start_points_list(chat, stake)
    line = NO_MONEY.format(stake=shown)
    assert line in await text_form(chat, "/abrechnung")
    seen = await table_form(chat, "/abrechnung")
    assert line in seen.text.split("\n"), seen.text
    # a paragraph after the tables (where the text form has it: after the amounts)
    after = seen.text.split("\n")
    assert after.index(line) > max(i for i, t in enumerate(after) if "│" in t), seen.text


async def test_the_table_says_start_points_count(chat: Harness) -> None:
    await start_points_list(chat, "1 ct")
    await ok(chat, "/einsatz 1 ct paarweise startpunkte", "Startpunkte zählen beim Geld mit")
    line = COUNTED.format(stake="1 ct paarweise")
    assert line in await text_form(chat, "/abrechnung")
    seen = await table_form(chat, "/abrechnung")
    assert line in seen.text.split("\n"), seen.text


async def test_no_start_points_no_line(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/einsatz 1 ct")
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen")
    assert "Startpunkte" not in await text_form(chat, "/abrechnung")
    assert "Startpunkte" not in (await table_form(chat, "/abrechnung")).text


async def test_the_table_counts_the_transfers(chat: Harness) -> None:
    await start_points_list(chat, "1 ct")
    assert "Zahlungen: 2 Überweisungen" in await text_form(chat, "/abrechnung")
    seen = await table_form(chat, "/abrechnung")
    lines = seen.text.split("\n")
    # the count heads the transfers' table
    assert lines[lines.index("Zahlungen: 2 Überweisungen") + 1].startswith("zahlt"), seen.text
    assert [row[:2] for row in tables(seen)[1][1:]] == [["Anna", "Bernd"], ["Carla", "Bernd"]]
