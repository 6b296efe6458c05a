from __future__ import annotations

import re

import pytest

from skatbot.pdf.forms import render_blank_form
from tests.pdf.helpers import assert_liberation_embedded, page_texts, reader


@pytest.mark.parametrize(("table_size", "games", "factor"), [(3, 36, 40), (4, 48, 30)])
def test_blank_form_rows_and_closing(table_size: int, games: int, factor: int) -> None:
    data = render_blank_form(table_size)
    assert_liberation_embedded(data)
    pages = page_texts(data)
    assert len(pages) == 2
    # page 1: one numbered row per game, nothing beyond
    numbers = [int(line) for line in pages[0].splitlines() if re.fullmatch(r"\d+", line)]
    assert numbers == list(range(1, games + 1))
    assert "Nr Geber Spiel Reiz Wert" in pages[0]
    assert pages[0].count("Buchung Summe") == table_size
    assert f"Spieler {table_size}" in pages[0]
    # page 2: the Serienabschluss with the steps to fill in, once per player
    closing = pages[1]
    assert closing.startswith("Serienabschluss")
    assert closing.count("Spielpunkte + 50 × (gewonnen − verloren )") == table_size
    assert closing.count(f"+ {factor} × (verlorene Spiele der anderen ) = Wertung") == table_size
    assert f"{table_size}. Platz" in closing
    assert f"{table_size + 1}. Platz" not in closing
    assert len(data) < 60_000


@pytest.mark.parametrize("table_size", [0, 2, 5, -3, True])
def test_invalid_table_size(table_size: int) -> None:
    with pytest.raises(ValueError):
        render_blank_form(table_size)


@pytest.mark.parametrize("table_size", [3, 4])
def test_the_name_row_has_room_to_write_a_name(table_size: int) -> None:
    """Between a player column's label and its "Buchung"/"Summe" line lies the line a name
    is written on by hand: at least 10 mm (a handwritten name with room above and below)."""
    page = reader(render_blank_form(table_size)).pages[0]
    tops: dict[str, float] = {}

    def seen(part: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        for word in ("Spieler 1", "Buchung"):
            if part.strip().startswith(word) and word not in tops:
                tops[word] = tm[5]  # the baseline, in pt from the page's bottom

    page.extract_text(visitor_text=seen)
    room_mm = (tops["Spieler 1"] - tops["Buchung"]) * 25.4 / 72
    assert room_mm >= 10, room_mm
