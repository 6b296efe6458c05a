"""The match report on paper: legible (its settings line wrapped at a reading size, never
cut), over only the pages it needs; a table's players, a series' team sums and the captains'
signature block are never split over two pages."""

from __future__ import annotations

from skatbot.pdf.league import (
    MatchReport,
    PlayerRow,
    SeriesBlock,
    TableRow,
    TeamRow,
    render_match_report,
)
from tests.pdf.helpers import page_texts, reader

TEAMS = ("Nord", "Süd", "Ost", "West")


def _series(number: int) -> SeriesBlock:
    players = [
        PlayerRow(str(t) if k == 0 else "", f"S{number}T{t}P{k}", TEAMS[k], "100", "2", "1", "150")
        for t in range(1, 5)
        for k in range(4)
    ]
    teams = [TeamRow(team, "600", f"{i + 1}. Platz: {3 - i}:{i}") for i, team in enumerate(TEAMS)]
    return SeriesBlock(f"Serie {number} · 4 Tische", players, teams)


SETTINGS = (
    "Einstellungen: 3 Serien je Spieltag, 36/48 Spiele am Dreier-/Vierertisch, 1 Matchpunkt je "
    "geschlagener Mannschaft, Tabelle nach Matchpunkten, dann Spielpunkten, Wechsel zwischen "
    "und während der Serien, Einzelwertung ab 50 % der Spiele, Verlustspielgeld 0,50 € an den "
    "Ausrichter."
)


def _report(series: int) -> MatchReport:
    return MatchReport(
        "Landesliga Nord",
        "Spieltag 1 · Reken · vorläufig",
        [SETTINGS],
        [_series(n) for n in range(1, series + 1)],
        [TableRow(f"{i + 1}.", team, "6:3", "5.000") for i, team in enumerate(TEAMS)],
        [(team, f"Kapitän {team}") for team in TEAMS],
        ["Startwert 123456"],
    )


def test_tables_team_sums_and_the_signatures_stay_on_one_page() -> None:
    for count in (1, 2, 3, 4):
        pages = page_texts(render_match_report(_report(count))[0])
        for n in range(1, count + 1):
            for t in range(1, 5):  # a table's four players on one page
                home = [p for p in pages if f"S{n}T{t}P0" in p]
                assert len(home) == 1 and f"S{n}T{t}P3" in home[0], (count, n, t)
            # the series' heading above its first table, its team sums on one page
            heading = [p for p in pages if f"Serie {n} · 4 Tische" in p]
            assert len(heading) == 1 and f"S{n}T1P0" in heading[0], (count, n)
            sums = [p for p in pages if "1. Platz: 3:0" in p and f"S{n}T" in p]
            assert any("4. Platz: 0:3" in p for p in sums), (count, n)
        signed = [p for p in pages if "Bestätigung der Mannschaftsführer" in p]
        assert len(signed) == 1, count
        for team in TEAMS:
            assert f"{team} – Kapitän {team}" in signed[0], (count, team)


def test_a_normal_match_day_runs_over_the_pages_it_needs() -> None:
    """Four teams of four, three series: two full pages (before, every series took a page
    of its own and the report ran over a third, mostly empty one)."""
    assert [len(page_texts(render_match_report(_report(n))[0])) for n in (1, 2, 3)] == [1, 2, 2]
    # series 2 goes on over the page: the repeated header says which series it is
    assert "Spieler – Serie 2, Fortsetzung" in page_texts(render_match_report(_report(3))[0])[1]


def test_the_settings_line_is_legible_and_whole() -> None:
    page = reader(render_match_report(_report(3))[0]).pages[0]
    sizes: list[float] = []
    text: list[str] = []

    def seen(part: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if part.strip():
            text.append(part)
            sizes.append(size * tm[0])

    page.extract_text(visitor_text=seen)
    settings = [
        i for i, part in enumerate(text) if "Einstellungen" in part or "Ausrichter." in part
    ]
    assert settings, text
    assert all(sizes[i] >= 8 for i in range(settings[0], settings[-1] + 1)), sizes
    assert "…" not in "".join(text[settings[0] : settings[-1] + 1])
    assert "Ausrichter." in " ".join(page_texts(render_match_report(_report(3))[0]))
