from __future__ import annotations

import dataclasses
import datetime
import re
from typing import Any

import pytest

from skatbot.pdf.base import format_number
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow
from skatbot.pdf.sample import sample_document
from skatbot.pdf.series import render_series
from tests.pdf.helpers import all_text, assert_liberation_embedded, page_texts, reader


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def sample() -> SeriesDocument:
    return sample_document(20)


@pytest.fixture(scope="module")
def sample_pdf(sample: SeriesDocument) -> bytes:
    data, lost = render_series(sample)
    assert lost == set()
    return data


def test_metadata_and_fonts(sample_pdf: bytes) -> None:
    pdf = reader(sample_pdf)
    assert pdf.metadata is not None
    assert pdf.metadata.title == "Skatliste – Skatrunde Dienstag"
    assert pdf.metadata.author == "skatbot"
    assert pdf.metadata.creation_date is not None
    root: Any = pdf.trailer["/Root"]
    assert str(root.get("/Lang")) == "de"
    box = pdf.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (
        210,
        297,
    )
    assert_liberation_embedded(sample_pdf)
    fonts = set()
    for page in pdf.pages:
        resources: Any = page["/Resources"]
        fonts |= {
            str(f.get_object()["/BaseFont"]).split("+")[1] for f in resources["/Font"].values()
        }
    assert fonts == {"LiberationSans", "LiberationSansBold"}


@pytest.mark.parametrize(
    "players", [("Łukasz", "Şule", "Đorđe", "Σοφία"), ("Юрий", "Anna", "Bernd")]
)
def test_names_in_other_scripts_extract_correctly(players: tuple[str, ...]) -> None:
    data, lost = render_series(sample_document(14, players=players))
    assert lost == set()
    text = all_text(data)
    for name in players:
        assert name in text
    header = page_texts(data)[0].splitlines()[2]
    assert header == "Spieler (Sitzordnung): " + ", ".join(
        f"{i}. {name}" for i, name in enumerate(players, start=1)
    )


def test_totals_steps_and_ranking_appear(sample: SeriesDocument, sample_pdf: bytes) -> None:
    text = _flat(all_text(sample_pdf))
    assert "Serienabschluss" in text
    for total in sample.totals:
        line = (
            f"{total.name} {format_number(total.game_points)} {total.won} {total.lost} "
            f"{total.others_lost} {total.steps} {format_number(total.score)}"
        )
        assert line in text
    for place, name, score in sample.ranking:
        assert f"{place}. {name} {format_number(score)}" in text


def test_rows_bookings_and_running_sums(sample: SeriesDocument, sample_pdf: bytes) -> None:
    lines = all_text(sample_pdf).splitlines()
    for row in sample.rows:
        if row.struck or row.nr is None or not row.bookings:
            continue
        ((player, booking),) = row.bookings.items()
        sign = "+" if booking > 0 else ""
        expected = f"{row.nr} {row.dealer} {row.text}"
        # the dealer of a 4-table sits out: "setzt aus" in his column
        matching = [
            line.replace(" setzt aus", "") for line in lines if line.startswith(expected + " ")
        ]
        assert matching, expected
        assert matching[0].endswith(
            f"{row.bid} {row.value} {sign}{format_number(booking)} "
            f"{format_number(row.running[player])}"
        ), matching[0]


def test_struck_rows_passed_game_and_overbid(sample_pdf: bytes) -> None:
    text = all_text(sample_pdf)
    assert "Anna Herz mit 1 korrigiert → Spiel 5 18 20 +20" in text
    assert "\n5 Anna Herz mit 2" in text  # the correction follows directly
    assert "storniert" in text
    assert "\n3 Σοφία eingepasst setzt aus\n" in text  # the dealer sits out
    assert "8 Юрий Karo mit 1 überreizt 30 36 −72" in text


def test_struck_rows_are_drawn_struck_through() -> None:
    row = SheetRow(1, "Anna", "Grand Hand", 24, 72, {"Anna": 72}, {"Anna": 72}, struck=False)
    doc = dataclasses.replace(sample_document(4, with_specials=False), rows=[row])
    plain, _ = render_series(doc)
    struck, _ = render_series(
        dataclasses.replace(doc, rows=[dataclasses.replace(row, struck=True, nr=None)])
    )

    def strike_marks(data: bytes) -> int:
        content = reader(data).pages[0].get_contents()
        assert content is not None
        # fpdf2 draws a strike-through as a thin filled rectangle ("re f") per text run
        return len(re.findall(rb"re f\b", content.get_data()))

    assert strike_marks(struck) >= strike_marks(plain) + 5


def test_emoji_in_a_name_is_dropped_and_reported() -> None:
    players = ("Anna 🃏", "Bernd", "Carla")
    data, lost = render_series(sample_document(12, players=players))
    assert lost == {"Anna 🃏"}
    text = all_text(data)
    assert "🃏" not in text
    assert "\ufffd" not in text
    assert "1. Anna, 2. Bernd, 3. Carla" in text


def test_long_list_flows_over_pages_with_repeated_header() -> None:
    doc = sample_document(48)
    data, _ = render_series(doc)
    assert len(data) < 60_000, len(data)
    pages = page_texts(data)
    assert len(pages) >= 2
    for page in pages:
        assert "Nr Geber Spiel Reiz Wert" in page or "Serienabschluss" in page
    assert "Nr Geber Spiel Reiz Wert" in pages[1]
    assert f"Seite 1/{len(pages)}" in pages[0]
    text = all_text(data)
    for nr in (1, 24, 48):
        assert f"\n{nr} " in text


def test_open_series_is_marked_as_intermediate() -> None:
    data, _ = render_series(sample_document(6, closed=False))
    text = all_text(data)
    assert "Zwischenstand" in text
    data, _ = render_series(sample_document(6, closed=True))
    assert "Zwischenstand" not in all_text(data)


def test_empty_series_and_ranking_note() -> None:
    doc = SeriesDocument(
        title="Skatliste – leer",
        date=datetime.date(2025, 1, 2),
        rules="Hausregeln (3B3R)",
        players=["Anna", "Bernd", "Carla"],
        table_size=3,
        rows=[],
        totals=[
            PlayerTotal(p, 0, 0, 0, 0, 0, "0 + 50 × (0 − 0) + 40 × 0 = 0")
            for p in ("Anna", "Bernd", "Carla")
        ],
        ranking=[(1, "Anna", 0), (1, "Bernd", 0), (1, "Carla", 0)],
        ranking_note="Gleichstand, Reihenfolge durch Los entschieden",
    )
    data, lost = render_series(doc)
    assert lost == set()
    text = _flat(all_text(data))
    assert "Noch keine Spiele eingetragen." in text
    assert "Gleichstand, Reihenfolge durch Los entschieden" in text
    assert "Hausregeln (3B3R)" in text
    assert "Datum: 02.01.2025" in text


def test_long_game_text_and_big_numbers() -> None:
    row = SheetRow(
        nr=1,
        dealer="Bernd",
        text="Kreuz ohne 4 Hand Schneider angesagt Schwarz angesagt ouvert",
        bid=18,
        value=1234,
        bookings={"Anna": -2468},
        running={"Anna": -2468, "Bernd": 0, "Carla": 0},
        note="korrigiert → Spiel 2",
    )
    doc = dataclasses.replace(
        sample_document(3, with_specials=False),
        rows=[row],
        players=["Anna", "Bernd", "Carla"],
        table_size=3,
    )
    text = all_text(render_series(doc)[0])
    assert "−2.468" in text
    assert "korrigiert → Spiel 2" in text
