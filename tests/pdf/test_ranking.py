from __future__ import annotations

import ast
import datetime
import time
from pathlib import Path

import skatbot.pdf.ranking as ranking_module
from skatbot.pdf.ranking import RankingRow, render_ranking
from tests.pdf.helpers import assert_liberation_embedded, page_texts

DATE = datetime.date(2025, 11, 25)
NOTE = "Gleichstand bei Anna und Bernd: Platz durch Los (Startwert 482913) entschieden."


def _rows() -> list[RankingRow]:
    return [
        RankingRow(1, "Łukasz", 3456, 21, 2, False),
        RankingRow(2, "Σοφία 🃏", 2980, 19, 4, False),
        RankingRow(3, "Anna", 1200, 12, 3, True),
        RankingRow(4, "Bernd", 1200, 12, 3, True),
        RankingRow(5, "Юрий", -1234, 4, 9, False),
    ]


def test_places_names_totals_and_lot_note() -> None:
    data, lost = render_ranking("Preisskat Vereinsheim", DATE, _rows(), NOTE, [1, 2], [3])
    assert lost == {"Σοφία 🃏"}
    assert_liberation_embedded(data)
    pages = page_texts(data)
    assert len(pages) == 1
    text = pages[0]
    assert "Preisskat Vereinsheim" in text
    assert "Rangliste nach 2 Serien" in text
    assert "25. November 2025" in text
    assert "Gewertet: Serien 1, 2" in text
    assert "Serie 3 ist noch unvollständig und nicht gewertet" in text
    for header in ("Platz", "Name", "Wertung", "gewonnen", "verloren"):
        assert header in text
    for place in range(1, 6):
        assert f"{place}." in text
    for name in ("Łukasz", "Σοφία", "Anna", "Bernd", "Юрий"):
        assert name in text
    assert "🃏" not in text
    assert "3.456" in text and "2.980" in text and "1.200" in text
    assert "\u22121.234" in text
    assert "Startwert 482913" in text
    assert "durch Los" in text
    assert "aus dem Startwert" in text and "nachrechenbar" in text


def test_one_series_and_no_lot() -> None:
    rows = [RankingRow(1, "Anna", 10, 1, 0, False)]
    data, lost = render_ranking("Turnier", DATE, rows, "", [1], [])
    text = page_texts(data)[0]
    assert lost == set()
    assert "Rangliste nach 1 Serie" in text and "Gewertet: Serie 1" in text
    assert "unvollständig" not in text
    assert "Platz durch Los entschieden" not in text


def test_header_repeated_on_every_page() -> None:
    rows = [RankingRow(i, f"Spieler {i}", 5000 - 10 * i, 10, 2, False) for i in range(1, 121)]
    data, _ = render_ranking("Großes Turnier", DATE, rows, "", [1, 2, 3], [])
    pages = page_texts(data)
    assert len(pages) >= 2
    for text in pages:
        assert "Platz" in text and "Wertung" in text and "verloren" in text
    joined = "\n".join(pages)
    assert "Spieler 1\n" in joined or "Spieler 1 " in joined
    assert "Spieler 120" in joined
    assert "4.990" in joined


def test_thousand_rows_render_fast() -> None:
    rows = [
        RankingRow(i, f"Teilnehmerin Nummer {i}", 100_000 - 37 * i, 30, 5, False)
        for i in range(1, 1001)
    ]
    start = time.perf_counter()
    data, _ = render_ranking("Landesmeisterschaft", DATE, rows, "", [1, 2, 3], [])
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0, f"{elapsed:.2f} s"
    pages = page_texts(data)
    # the last rows stay on the page of the notes, every page has the table header
    assert "Teilnehmerin Nummer 1000" in pages[-1] and "nachrechenbar" in pages[-1]
    assert all("Platz" in text for text in pages)


def test_does_not_import_rules_or_storage() -> None:
    tree = ast.parse(Path(ranking_module.__file__).read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    assert not any(m.startswith(("skatbot.rules", "skatbot.storage")) for m in modules)


def test_team_ranking_below_the_individual_one() -> None:
    from skatbot.pdf.ranking import TeamRow

    members = " · ".join(f"Marie-Luise Mustermann-{i} 1.{i}00" for i in range(6))
    teams = [
        TeamRow(
            i, f"Skatfreunde {i} 🃏" if i == 1 else f"Skatfreunde {i}", 5000 - i, members, "Olaf 12"
        )
        for i in range(1, 41)
    ]
    data, lost = render_ranking(
        "Turnier", DATE, _rows(), NOTE, [1], [], teams, "Teamwertung: die besten 6 je Team"
    )
    assert lost == {"Σοφία 🃏", "Skatfreunde 1 🃏"}
    pages = page_texts(data)
    text = "\n".join(pages)
    assert len(pages) >= 2  # 40 teams with wrapped member lists run onto a second page
    assert (
        "Teamwertung: die besten 6 je Team" in text and "Einzelplatz des besten Mitglieds" in text
    )
    assert "Gewertet (nicht gewertet)" in pages[-1]  # the header repeated on the next page
    for i in range(1, 41):
        assert f"Skatfreunde {i}" in text
    assert "Mustermann-5" in text and "(Olaf 12)" in text  # wrapped, nothing cut off
    without, _ = render_ranking("Turnier", DATE, _rows(), NOTE, [1], [])
    assert "Teamwertung" not in "\n".join(page_texts(without))
