"""A house-rules /liste as a table says what its text form says of each row: Bock, who was
sick, and what the row booked (docs/rules.md §6). Values: Kreuz mit 1 = 24, Kreuz mit 1
Hand = 36, Grand mit 1 Hand = 72."""

from __future__ import annotations

from tests.harness import Harness
from tests.helpers import ok
from tests.usecases.forms import row_of, table_form, tables, text_form

GAMES = (
    "/regeln haus",
    "/neu Anna Bernd Carla",
    "/spiel Carla kreuz mit 1 hand verloren",  # 1: lost hand, not doubled: −36
    "/spiel Anna kreuz mit 1 kontra re gewonnen",  # 2: 24 × 2 × 2 = +96, Re → 3B3R
    "/spiel Bernd kreuz mit 1 gewonnen",  # 3: Bock 1/3: +48
    "/eingepasst",  # 4: Bock 2/3
    "/eingepasst",  # 5: Bock 3/3
    "/krank Anna",  # Ramsch 1/3: Anna plays Grand Hand instead
    "/spiel Anna grand mit 1 hand gewonnen",  # 6: +72, the sick player's game
    "/ramsch Bernd Carla 40 geschoben 1",  # 7: both −40 × 2 = −80
)


async def play(chat: Harness) -> None:
    for message in GAMES:
        await ok(chat, message)


async def test_the_list_table_marks_bock_and_the_sick_player(chat: Harness) -> None:
    await play(chat)
    text = await text_form(chat, "/liste")
    assert " 3. Bernd: Kreuz mit 1 – gewonnen: +48 (Bock) · Geber Carla" in text, text
    assert " 6. Anna: Grand mit 1 Hand – gewonnen: +72 (krank: Anna)" in text, text
    [table] = tables(await table_form(chat, "/liste"))
    bock = row_of(table, "3")
    assert bock["Spiel"] == "Kreuz mit 1 – gewonnen (Bock)", table
    assert bock["Bernd"] == "48"
    for nr in ("4", "5"):  # passed under Bock: the mark too
        assert row_of(table, nr)["Spiel"] == "eingepasst (Bock)", table
    sick = row_of(table, "6")
    assert sick["Spiel"] == "Grand mit 1 Hand – gewonnen (krank: Anna)", table
    # the other rows carry no mark
    for nr in ("1", "2", "7"):
        game = row_of(table, nr)["Spiel"]
        assert "Bock" not in game and "krank" not in game, table


async def test_the_value_column_is_what_the_row_booked(chat: Harness) -> None:
    """The text form writes each row's booking; so does the table's Wert (not the ISkO
    score: a lost hand game is not doubled under house rules, Kontra, Re and Bock are)."""
    await play(chat)
    text = await text_form(chat, "/liste")
    for line in (
        " 1. Carla: Kreuz mit 1 Hand – verloren: −36",
        " 2. Anna: Kreuz mit 1 Kontra Re – gewonnen: +96",
        " 7. Ramsch: Bernd und Carla 40 Augen (geschoben 1): je −80",
    ):
        assert line in text, (line, text)
    [table] = tables(await table_form(chat, "/liste"))
    assert [row_of(table, nr)["Wert"] for nr in "1234567"] == [
        "−36", "96", "48", "", "", "72", "−80",
    ]  # fmt: skip
    assert [row_of(table, "7")[name] for name in ("Anna", "Bernd", "Carla")] == [
        "",
        "−32",  # 48 − 80
        "−116",  # −36 − 80
    ]
