"""League documents as A4 PDFs: the match report of a day (every series with its tables,
the team sums and match points, the day's table, the lost-game fee and the captains'
signatures) and the season table.

Pure layout: the caller computes places, values (already formatted) and German labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatbot.pdf.base import BLACK, GREY_TEXT, GRID, Column, SkatPDF
from skatbot.pdf.fonts import printable

ROW_H = 5.0
HEAD_H = 5.6


@dataclass(frozen=True)
class PlayerRow:
    table: str  # "1" on the first row of a table, "" below it
    name: str  # "Inge → Jens ab Spiel 17" for a substitution during the series
    team: str
    game_points: str
    won: str
    lost: str
    score: str


@dataclass(frozen=True)
class TeamRow:
    team: str
    points: str  # the series sum, or "–" when absent
    reason: str  # "2. Platz: 2:1", "nicht angetreten: 0:3"


@dataclass(frozen=True)
class SeriesBlock:
    title: str  # "Serie 1 · 4 Tische"
    players: list[PlayerRow]
    teams: list[TeamRow]


@dataclass(frozen=True)
class TableRow:
    place: str
    team: str
    match_points: str
    game_points: str
    days: str = ""


@dataclass(frozen=True)
class MatchReport:
    title: str  # the league
    subtitle: str  # "Spieltag 1 · Reken · vorläufig"
    notes: list[str]
    series: list[SeriesBlock]
    table: list[TableRow]
    captains: list[tuple[str, str]]  # (team, captain or "")
    footnotes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SeasonTable:
    title: str
    subtitle: str
    rows: list[TableRow]
    notes: list[str]


PLAYER_COLUMNS = (
    ("Tisch", 12, "R"),
    ("Spieler", 0, "L"),
    ("Mannschaft", 36, "L"),
    ("Spielpunkte", 22, "R"),
    ("gew.", 13, "R"),
    ("verl.", 13, "R"),
    ("Wertung", 20, "R"),
)


class _LeaguePDF(SkatPDF):
    def columns(self, spec: tuple[tuple[str, float, str], ...]) -> list[Column]:
        fixed = sum(w for _, w, _ in spec)
        return [
            Column(title, width or self.content_width - fixed, align)  # type: ignore[arg-type]
            for title, width, align in spec
        ]

    def grid(
        self,
        columns: list[Column],
        rows: list[list[str]],
        bold: int = -1,
        groups: list[int] | None = None,
        tail: float = 0.0,
        continued: str = "",
    ) -> None:
        """A table with its header repeated on a new page (its second column's title then
        followed by ``continued``, e.g. "Serie 2, Fortsetzung": no room taken); ``groups``:
        the sizes of the runs of rows that stay on one page together (a table's players),
        else one run; ``tail``: the height of what follows that stays with the last run."""
        first = [True]

        def header() -> None:
            shown = columns
            if continued and not first[0]:
                name = columns[1]
                shown = [columns[0], Column(f"{name.title} – {continued}", name.width, name.align)]
                shown += columns[2:]
            first[0] = False
            self.header_row(shown, HEAD_H, size=8)

        self.begin_table(header, ROW_H)
        starts: dict[int, int] = {}
        at = 0
        for size in groups or [len(rows)]:
            starts[at] = size
            at += size
        for index, values in enumerate(rows):
            if index in starts:
                last = index + starts[index] == len(rows)
                self.ensure_row_space(starts[index] * ROW_H + (tail if last else 0.0))
            cells = [
                self.fit(self.clean(v), c.width - 2) for v, c in zip(values, columns, strict=True)
            ]
            self.font(8.5)
            self.table_row(columns, cells, ROW_H, bold_columns=frozenset({bold}))
        self.end_table()


def render_match_report(doc: MatchReport) -> tuple[bytes, set[str]]:
    """The match report of one day; the PDF bytes and the names that lost characters."""
    pdf = _LeaguePDF(
        doc.title, subject="Spielbericht", footer_label=f"{doc.title} · {doc.subtitle}"
    )
    pdf.title_block(doc.title, doc.subtitle, doc.notes)
    players = pdf.columns(PLAYER_COLUMNS)
    teams = pdf.columns((("Mannschaft", 0, "L"), ("Summe", 28, "R"), ("Matchpunkte", 50, "L")))
    for block in doc.series:
        # Series follow each other down the page; a page breaks between two tables (the
        # header again), never inside one, and the team sums stay with the last table. (A series kept
        # whole took a page of its own: a match day ran over a third, mostly empty page.)
        groups = _table_runs(block.players)
        sums_h = 2 + HEAD_H + len(block.teams) * ROW_H  # the team sums, under the last table
        first_h = (groups[0] if groups else 0) * ROW_H + (sums_h if len(groups) == 1 else 0)
        pdf.keep_together(11 + HEAD_H + first_h)
        pdf.heading(block.title, size=11, gap_before=3)
        pdf.grid(
            players,
            [
                [r.table, r.name, r.team, r.game_points, r.won, r.lost, r.score]
                for r in block.players
            ],
            bold=6,
            groups=groups,
            tail=sums_h,
            continued=f"{block.title.split(' · ')[0]}, Fortsetzung",
        )
        pdf.set_y(pdf.get_y() + 2)
        pdf.keep_together(HEAD_H + len(block.teams) * ROW_H)
        pdf.grid(teams, [[t.team, t.points, t.reason] for t in block.teams], bold=1)
    pdf.heading("Tabelle des Spieltags", size=11, gap_before=5)
    table = pdf.columns(
        (
            ("Platz", 14, "R"),
            ("Mannschaft", 0, "L"),
            ("Matchpunkte", 30, "R"),
            ("Spielpunkte", 30, "R"),
        )
    )
    pdf.grid(table, [[r.place, r.team, r.match_points, r.game_points] for r in doc.table], bold=2)
    if doc.footnotes:
        pdf.note_lines(doc.footnotes)
    _signatures(pdf, doc.captains)
    names = [r.name for b in doc.series for r in b.players]
    return bytes(pdf.output()), {n for n in names if printable(n)[1]}


def _table_runs(players: list[PlayerRow]) -> list[int]:
    """The number of rows of each table of a series (a table's first row names it)."""
    runs: list[int] = []
    for row in players:
        if row.table or not runs:
            runs.append(0)
        runs[-1] += 1
    return runs


def _signatures(pdf: _LeaguePDF, captains: list[tuple[str, str]]) -> None:
    pdf.keep_together(14 + 15 * -(-len(captains) // 2))  # the heading and every line together
    pdf.heading("Bestätigung der Mannschaftsführer", size=11, gap_before=6)
    half = pdf.content_width / 2
    for i, (team, captain) in enumerate(captains):
        if i % 2 == 0:
            pdf.ensure_row_space(16)
            y = pdf.get_y() + 10
        x = pdf.l_margin + (i % 2) * half
        pdf.set_draw_color(*GRID)
        pdf.set_line_width(0.3)
        pdf.line(x, y, x + half - 8, y)
        pdf.font(8)
        pdf.color(GREY_TEXT)
        label = f"{team} – {captain}" if captain else team
        pdf.put(x, y + 0.5, half - 8, 4, pdf.fit(pdf.clean(label), half - 10))
        pdf.color(BLACK)
        if i % 2 == 1 or i == len(captains) - 1:
            pdf.set_y(y + 5)


def render_season_table(doc: SeasonTable) -> bytes:
    pdf = _LeaguePDF(doc.title, subject="Saisontabelle", footer_label=doc.title)
    pdf.title_block(doc.title, doc.subtitle, [])
    columns = pdf.columns(
        (
            ("Platz", 14, "R"),
            ("Mannschaft", 0, "L"),
            ("Spieltage", 20, "R"),
            ("Matchpunkte", 30, "R"),
            ("Spielpunkte", 30, "R"),
        )
    )
    pdf.grid(
        columns,
        [[r.place, r.team, r.days, r.match_points, r.game_points] for r in doc.rows],
        bold=3,
    )
    pdf.note_lines(doc.notes)
    return bytes(pdf.output())
