"""The house-rules list on paper and the sick mark, through the use cases.

Values: Kreuz mit 1 Hand won = 3 × 12 = +36; Grand mit 1 Hand won = 3 × 24 = +72; Ramsch with
70 Augen, geschoben 1 and one Jungfrau = 70 × 2 × 2 = −280.
"""

from __future__ import annotations

import re

import pytest

from tests.harness import Harness
from tests.helpers import Talker
from tests.pdf.helpers import all_text
from tests.usecases.house.test_house_chat import export, ok


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


async def pdf_text(chat: Talker) -> str:
    """The text of the /pdf document (through the use cases or the bot)."""
    out = await chat.say("/pdf")
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1, out
    return all_text(docs[0][1])


async def house_evening(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/startpunkte Anna 100 Bernd -20", "Anna 100 · Bernd −20 · Carla 0")
    await ok(chat, "/spiel Anna kreuz mit 1 hand gewonnen", "Anna +36")


async def test_start_points_are_a_row_and_the_sums_include_them(chat: Harness) -> None:
    await house_evening(chat)
    assert "Anna 136" in await chat.text("/stand")
    lines = (await pdf_text(chat)).splitlines()
    start = lines.index("Startpunkte 100 −20 0")
    # the first game right below: booking +36, running sum 136 as in the chat (not 36)
    assert lines[start + 1] == "1 Anna Kreuz mit 1 Hand 36 +36 136", lines[start + 1]


async def test_closing_shows_start_plus_bookings_without_seeger_fabian(chat: Harness) -> None:
    await house_evening(chat)
    await ok(chat, "/spiel Bernd kreuz mit 1 hand verloren", "Bernd −36")
    text = await pdf_text(chat)
    assert "Spieler Start Buchungen gewonnen verloren Rechenweg Stand" in text
    assert "Anna 100 36 1 0 Start 100 + 36 = 136 136" in text
    assert "Bernd −20 −36 0 1 Start −20 − 36 = −56 −56" in text
    assert "Stand = Startpunkte + Buchungen (Hausregeln, ohne Seeger-Fabian)." in text
    assert "Verl. andere" not in text
    assert "Spielpunkte" not in text.replace("Verlauf der Spielpunkte", "")
    assert "1. Anna 136" in text  # the ranking on the same numbers


async def test_isko_list_keeps_seeger_fabian_and_has_no_start_row(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna kreuz mit 1 hand gewonnen", "Anna +36")
    text = await pdf_text(chat)
    assert "Verl. andere" in text
    assert "Startpunkte" not in text
    assert "1 Anna Kreuz mit 1 Hand 36 +36 36" in text


async def to_ramsch(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/bock")
    for _ in range(3):
        await ok(chat, "/eingepasst")


async def test_sick_game_is_marked_in_liste_export_and_pdf(chat: Harness) -> None:
    await to_ramsch(chat)
    await ok(chat, "/krank Anna")
    await ok(chat, "/spiel Anna grand mit 1 hand gewonnen", "Anna +72")
    await ok(chat, "/ramsch Bernd 70 geschoben 1 jungfrau 1", "Bernd −280")
    liste = await chat.text("/liste")
    assert " 4. Anna: Grand mit 1 Hand – gewonnen: +72 (krank: Anna) · Geber Anna" in liste
    assert liste.count("(krank:") == 1, liste
    data = await export(chat)
    assert [g["sick"] for g in data["games"]] == [None, None, None, "Anna", None]
    text = await pdf_text(chat)
    assert "Grand mit 1 Hand krank: Anna 72 +72 72" in text
    # the Ramsch row whole, though it is longer than the Spiel column
    assert "Ramsch: Bernd 70 Augen (geschoben 1, Jungfrau 1)" in re.sub(r"\s+", " ", text)


async def test_four_long_names_are_printed_in_full(chat: Harness) -> None:
    names = [
        "Annegret-Mechthild_von_Schwarzen",
        "BernhardWilhelmMuellerLuedensche",
        "Carla-Josephine-Freifrau-von-Tan",
        "Dorothea_Kunigunde_Oberhuber_Wag",
    ]
    assert all(len(name) == 32 for name in names)
    a, b, _c, _d = names
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu " + " ".join(names), "Vierertisch")
    await ok(chat, f"/spiel {b} grand mit 1 hand gewonnen", f"{b} +72")
    await ok(chat, f"/spiel {a} kreuz mit 1 hand verloren")
    text = await pdf_text(chat)
    assert "…" not in text
    squeezed = re.sub(r"\s+", "", text)
    seat_order = "Spieler(Sitzordnung):" + ",".join(
        f"{i}.{name}" for i, name in enumerate(names, start=1)
    )
    assert seat_order in squeezed
    for name in names:
        # header, Geber or booking rows, closing, ranking, legend
        assert squeezed.count(name) >= 4, name


async def test_the_value_column_is_what_was_booked_and_says_so(chat: Harness) -> None:
    """One meaning in the column: the amount booked to the declarer, with Kontra/Re, Bock and
    the lost game's doubling (the game's value alone stood beside the booking before: Pik mit
    1 lost showed 22 beside −44, Grand mit 2 with Kontra 72 beside +144)."""
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna pik mit 1 verloren", "Anna −44")
    await ok(chat, "/spiel Bernd grand mit 2 kontra gewonnen", "Bernd +144")
    await ok(chat, "/spiel Carla kreuz mit 1 gewonnen", "Carla +48")  # Bock
    await ok(chat, "/spiel Anna null verloren", "Anna −92")  # Bock, lost
    lines = (await pdf_text(chat)).splitlines()
    assert "Nr Geber Spiel Reiz gebucht Anna" in lines, lines[:8]
    for row in (
        "1 Anna Pik mit 1 44 −44 −44",
        "2 Bernd Grand mit 2 Kontra 3B3R 144 +144 144",
        "3 Carla Kreuz mit 1 Bock 48 +48 48",
        "4 Anna Null Bock 92 −92 −136",
    ):
        assert row in lines, (row, lines)
    assert any(line.startswith("gebucht =") for line in lines), lines


async def test_an_isko_list_keeps_the_games_value(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna pik mit 1 verloren", "Anna")
    text = await pdf_text(chat)
    assert "Nr Geber Spiel Reiz Wert Anna" in text and "gebucht" not in text
    assert "1 Anna Pik mit 1 22 −44 −44" in text
