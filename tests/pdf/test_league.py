"""The match report on paper: a series and the captains' signature block are never split
over two pages (they move to the next page whole when they do not fit)."""

from __future__ import annotations

from skatbot.pdf.league import (
    MatchReport,
    PlayerRow,
    SeriesBlock,
    TableRow,
    TeamRow,
    render_match_report,
)
from tests.pdf.helpers import page_texts

TEAMS = ("Nord", "Süd", "Ost", "West")


def _series(number: int) -> SeriesBlock:
    players = [
        PlayerRow(str(t) if k == 0 else "", f"S{number}T{t}P{k}", TEAMS[k], "100", "2", "1", "150")
        for t in range(1, 5)
        for k in range(4)
    ]
    teams = [TeamRow(team, "600", f"{i + 1}. Platz: {3 - i}:{i}") for i, team in enumerate(TEAMS)]
    return SeriesBlock(f"Serie {number} · 4 Tische", players, teams)


def _report(series: int) -> MatchReport:
    return MatchReport(
        "Landesliga Nord",
        "Spieltag 1 · Reken · vorläufig",
        ["Einstellungen: 3 Serien je Spieltag"],
        [_series(n) for n in range(1, series + 1)],
        [TableRow(f"{i + 1}.", team, "6:3", "5.000") for i, team in enumerate(TEAMS)],
        [(team, f"Kapitän {team}") for team in TEAMS],
        ["Startwert 123456"],
    )


def test_a_series_and_the_signatures_stay_on_one_page() -> None:
    for count in (1, 2, 3, 4):
        pages = page_texts(render_match_report(_report(count))[0])
        for n in range(1, count + 1):
            # the series' heading, its last player and its team table on one page
            home = [p for p in pages if f"Serie {n} · 4 Tische" in p]
            assert len(home) == 1, (count, n)
            assert f"S{n}T4P3" in home[0] and "4. Platz: 0:3" in home[0], (count, n)
        signed = [p for p in pages if "Bestätigung der Mannschaftsführer" in p]
        assert len(signed) == 1, count
        for team in TEAMS:
            assert f"{team} – Kapitän {team}" in signed[0], (count, team)
