"""No cell of the list PDF is ever cut and the house-rules layout (item 3).

Every text the PDF draws goes through ``SkatPDF.put`` (which would shorten a too long text with
an ellipsis as a last resort); these tests record each call and check with fpdf2's own
``get_string_width`` that the text fits its cell, so nothing was wrapped or shrunk too little.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.pdf.base import ELLIPSIS, SkatPDF
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow
from skatbot.pdf.sample import sample_document
from skatbot.pdf.series import render_series
from tests.pdf.helpers import all_text, page_texts

# 32 characters each (the longest name the bot keeps): with break points, with spaces, and one
# without any place to break
LONG_NAMES = [
    "Annegret-Mechthild_von_Schwarzen",
    "BernhardWilhelmMuellerLuedensche",
    "Carla Josephine Freifrau von Tan",
    "Dorothea_Kunigunde_Oberhuber_Wa",
]
RAMSCH = f"Ramsch: {LONG_NAMES[1]} 70 Augen (geschoben 2, Jungfrau 1)"


@dataclasses.dataclass
class Cell:
    text: str
    width: float  # of the text, by fpdf2's get_string_width in the font it is drawn in
    room: float  # inside the cell, without its padding


@pytest.fixture
def cells(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Cell]]:
    drawn: list[Cell] = []
    original = SkatPDF.put

    def put(self: SkatPDF, x: float, y: float, w: float, h: float, text: str, *args, **kw):  # type: ignore[no-untyped-def]
        padding = kw.get("padding", args[1] if len(args) > 1 else 1.5)
        if text:
            drawn.append(Cell(text, self.get_string_width(text), w - 2 * padding))
        original(self, x, y, w, h, text, *args, **kw)

    monkeypatch.setattr(SkatPDF, "put", put)
    yield drawn


def assert_nothing_cut(cells: list[Cell], data: bytes) -> None:
    assert cells, "no cell recorded"
    too_wide = [c for c in cells if c.width > c.room + 0.01]
    assert not too_wide, too_wide[:5]
    assert ELLIPSIS not in all_text(data)


def _squeezed(text: str) -> str:
    """Text without any whitespace: a wrapped cell reads back with line breaks inside."""
    return re.sub(r"\s+", "", text)


def long_house_document() -> SeriesDocument:
    a, b, c, d = LONG_NAMES
    start = {a: 100, b: -20, c: 0, d: 0}
    rows = [
        SheetRow(1, d, "Grand mit 1 Hand", None, 72, {c: 72}, {a: 100, b: -20, c: 72, d: 0},
                 note=f"krank: {c}"),
        SheetRow(2, a, RAMSCH, None, 560, {b: -560}, {a: 100, b: -580, c: 72, d: 0},
                 note="3B3R"),
        SheetRow(3, b, f"Ramsch: {c} und {d} 45 Augen (geschoben 1)", None, 90,
                 {c: -90, d: -90}, {a: 100, b: -580, c: -18, d: -90}, note="Bock"),
        SheetRow(4, c, "Kreuz ohne 4 Hand Schneider angesagt Schwarz angesagt ouvert", 18,
                 1234, {a: -12_345}, {a: -12_245, b: -580, c: -18, d: -90},
                 note="überreizt · korrigiert → Spiel 7 · Bock · 3B3R", overbid=True),
    ]  # fmt: skip
    totals = [
        PlayerTotal(a, -12_345, 0, 1, 0, -12_245, "Start 100 − 12.345 = −12.245"),
        PlayerTotal(b, -560, 0, 0, 0, -580, "Start −20 − 560 = −580"),
        PlayerTotal(c, -18, 1, 0, 0, -18, "Start 0 − 18 = −18"),
        PlayerTotal(d, -90, 0, 0, 0, -90, "Start 0 − 90 = −90"),
    ]
    return SeriesDocument(
        title="Skatliste – " + "Skatclub Grün-Weiß Oberammergau 1923 e. V. " * 3,
        date=datetime.date(2025, 11, 30),
        rules="Hausregeln (3B3R)",
        players=list(LONG_NAMES),
        table_size=4,
        rows=rows,
        totals=totals,
        ranking=[(1, c, -18), (2, d, -90), (3, b, -580), (4, a, -12_245)],
        house=True,
        start=start,
    )


def test_long_names_ramsch_and_notes_are_never_cut(cells: list[Cell]) -> None:
    data, _ = render_series(long_house_document())
    assert_nothing_cut(cells, data)
    text = _squeezed(all_text(data))
    for name in LONG_NAMES:
        # table header, Geber, closing, ranking, chart legend: every place shows the full name
        assert text.count(_squeezed(name)) >= 4, name
    assert _squeezed(RAMSCH) in text
    assert _squeezed("überreizt · korrigiert → Spiel 7 · Bock · 3B3R") in text
    assert _squeezed("Skatclub Grün-Weiß Oberammergau 1923 e. V. " * 3) in text
    assert "−12.245" in text


def test_seat_order_line_names_every_player(cells: list[Cell]) -> None:
    data, _ = render_series(long_house_document())
    first_page = page_texts(data)[0]
    seat_order = first_page[first_page.index("Spieler (Sitzordnung):") : first_page.index("Nr ")]
    expected = "Spieler (Sitzordnung): " + ", ".join(
        f"{i}. {name}" for i, name in enumerate(LONG_NAMES, start=1)
    )
    assert _squeezed(expected) in _squeezed(seat_order)
    assert seat_order.count("\n") >= 2  # wrapped onto a second line, not cut


@pytest.mark.parametrize("games", [0, 20, 48])
def test_the_sample_lists_fit_too(cells: list[Cell], games: int) -> None:
    data, _ = render_series(sample_document(games))
    assert_nothing_cut(cells, data)


def test_house_start_row_and_running_sums_include_start(cells: list[Cell]) -> None:
    data, _ = render_series(long_house_document())
    lines = all_text(data).splitlines()
    # a row of its own at the top of the table: the start points in the Summe columns
    assert "Startpunkte 100 −20 0 0" in lines
    assert lines.index("Startpunkte 100 −20 0 0") < next(
        i for i, line in enumerate(lines) if "Grand mit 1 Hand" in line
    )
    text = all_text(data)
    assert "Stand = Startpunkte + Buchungen (Hausregeln, ohne Seeger-Fabian)." in text
    assert "Spieler Start Buchungen gewonnen verloren Rechenweg Stand" in text
    assert "Verl. andere" not in text
    assert "Spielpunkte gewonnen" not in text
    # the closing row: start, bookings, won, lost, calculation, Stand
    assert "0 −18 1 0 Start 0 − 18 = −18 −18" in _flat(text)


def test_house_list_without_start_points_has_no_start_row() -> None:
    doc = dataclasses.replace(long_house_document(), start={})
    text = all_text(render_series(doc)[0])
    assert "Startpunkte" not in text.replace("Stand = Startpunkte", "")
    assert "Verl. andere" not in text


def test_isko_list_keeps_the_seeger_fabian_columns() -> None:
    text = all_text(render_series(sample_document(12))[0])
    assert "Spieler Spielpunkte gewonnen verloren Verl. andere Rechenweg Wertung" in text
    assert "Verl. andere = verlorene Spiele der anderen Spieler am Tisch." in text
    assert "Startpunkte" not in text


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# --- the wrapping itself --------------------------------------------------------------------------

_PDF = SkatPDF("wrap")

words = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzäöüßÄÖÜŁłWM0123456789-_/.,()"),
    min_size=1,
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(words, min_size=1, max_size=8).map(" ".join),
    st.floats(min_value=3.0, max_value=80.0),
    st.sampled_from([6.5, 8.0, 12.0]),
)
def test_wrap_keeps_every_character_and_every_line_fits(
    text: str, width: float, size: float
) -> None:
    _PDF.font(size)
    lines = _PDF.wrap(text, width)
    assert _squeezed("".join(lines)) == _squeezed(text)
    for line in lines:
        assert line == line.strip()
        assert _PDF.get_string_width(line) <= width + 0.01 or len(line) == 1, (line, width)


def test_wrap_breaks_a_long_word_into_even_pieces() -> None:
    _PDF.font(6.5, bold=True)
    lines = _PDF.wrap("BernhardWilhelmMuellerLuedensche", 20)
    assert len(lines) == 3
    assert max(len(line) for line in lines) - min(len(line) for line in lines) <= 1
