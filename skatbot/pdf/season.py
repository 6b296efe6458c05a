"""The season table ("Jahreswertung") as an A4 PDF: the ranking with series, value, games won
and lost and the Skatzahl; the Rote Laterne marked; the people not yet ranked below; the
counting rules and the tie rule as notes.

Pure layout: the caller computes places, values (already formatted) and German labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skatbot.pdf.base import BLACK, GRID, RGB, STRIPE, Column, SkatPDF
from skatbot.pdf.fonts import printable

ROW_H = 6.0
HEAD_H = 6.5
LANTERN: RGB = (190, 30, 30)
TIE_RULE = (
    "Bei gleicher Wertung entscheiden mehr gewonnene Spiele, dann weniger verlorene Spiele; "
    "wer dann noch gleich steht, teilt sich den Platz."
)
RATING_NOTE = (
    "Skatzahl: Wertungszahl aus allen Serien bis zum Ende des Zeitraums (openskill, "
    "Plackett-Luce): 1000 + 40 × (Können − 3 × Unsicherheit). Neue Spieler starten bei 1000; "
    "mit jeder Serie wird die Zahl sicherer, nach langer Pause wieder unsicherer."
)


@dataclass(frozen=True)
class SeasonRow:
    place: int | None
    name: str
    played: int
    counted: int
    value: str
    won: int
    lost: int
    skatzahl: str
    lantern: bool = False


@dataclass(frozen=True)
class SeasonDocument:
    title: str
    period: str  # "01.01.2026 – 31.12.2026"
    series: int
    rules: str
    value_label: str  # "Summe" or "Schnitt/48"
    minimum: int
    ranked: list[SeasonRow]
    unranked: list[SeasonRow] = field(default_factory=list)
    house_lists: int = 0


class _SeasonPDF(SkatPDF):
    def __init__(self, doc: SeasonDocument) -> None:
        super().__init__(doc.title, subject="Saisonwertung", footer_label=doc.title)
        self.doc = doc

    def header_block(self) -> None:
        doc = self.doc
        series = "1 Serie" if doc.series == 1 else f"{doc.series} Serien"
        self.title_block(doc.title, f"{doc.period} · {series}", [f"Wertung: {doc.rules}."])

    def columns(self) -> list[Column]:
        fixed = [
            Column("Platz", 13, "R"),
            Column("Serien", 17, "R"),
            Column(self.doc.value_label, 26, "R"),
            Column("gewonnen", 20, "R"),
            Column("verloren", 20, "R"),
            Column("Skatzahl", 21, "R"),
        ]
        name_w = self.content_width - sum(c.width for c in fixed)
        return [fixed[0], Column("Name", name_w), *fixed[1:]]

    def ranking(self, rows: list[SeasonRow], ranked: bool) -> None:
        columns = self.columns()
        self.begin_table(lambda: self.header_row(columns, HEAD_H, size=8.5), ROW_H)
        for index, row in enumerate(rows):
            self.ensure_row_space(ROW_H)
            self.row(columns, index, row, ranked)
        self.end_table()
        self.set_draw_color(*GRID)
        self.set_line_width(0.2)
        y = self.get_y()
        self.line(self.l_margin, y, self.l_margin + sum(c.width for c in columns), y)

    def row(self, columns: list[Column], index: int, row: SeasonRow, ranked: bool) -> None:
        x0, y0 = self.l_margin, self.get_y()
        width = sum(c.width for c in columns)
        if index % 2 == 1:
            self.set_fill_color(*STRIPE)
            self.rect(x0, y0, width, ROW_H, style="F")
        self.color(BLACK)
        self.font(9, bold=True)
        if row.place is not None:
            self.put(x0, y0, columns[0].width, ROW_H, f"{row.place}.", "R")
        x = x0 + columns[0].width
        name_w = columns[1].width
        if row.lantern:
            self.font(7, bold=True)
            self.color(LANTERN)
            mark = "Rote Laterne"
            mark_w = self.text_width(mark) + 3
            self.put(x + name_w - mark_w, y0, mark_w, ROW_H, mark, "R")
            self.color(BLACK)
            name_w -= mark_w
        name = self.clean(row.name)
        self.fit_size(name, name_w - 3, 9, 5, bold=False)
        self.put(x, y0, name_w, ROW_H, name)
        x += columns[1].width
        played = str(row.played) if row.counted == row.played else f"{row.counted}/{row.played}"
        cells = [played, row.value, str(row.won), str(row.lost), row.skatzahl]
        for i, (column, text) in enumerate(zip(columns[2:], cells, strict=True)):
            self.font(9.5 if i == 1 and ranked else 9, bold=i == 1 and ranked)
            self.put(x, y0, column.width, ROW_H, text, "R")
            x += column.width
        self.set_xy(x0, y0 + ROW_H)

    def notes(self) -> None:
        doc = self.doc
        lines: list[str] = []
        if any(r.counted != r.played for r in doc.ranked):
            lines.append("Serien 10/12 = die besten 10 von 12 Serien zählen.")
        if doc.house_lists:
            n = doc.house_lists
            lists = (
                "1 Liste mit Hausregeln zählt" if n == 1 else f"{n} Listen mit Hausregeln zählen"
            )
            lines.append(f"{lists} nicht (keine Seeger-Fabian-Wertung).")
        lines += [TIE_RULE, RATING_NOTE]
        self.note_lines(lines)


def render_season(doc: SeasonDocument) -> tuple[bytes, set[str]]:
    """Render the season table. Returns the PDF bytes and the names that lost characters in
    the PDF because the embedded font cannot draw them (emoji)."""
    pdf = _SeasonPDF(doc)
    pdf.header_block()
    if doc.ranked:
        pdf.ranking(doc.ranked, ranked=True)
    if doc.unranked:
        pdf.heading(f"Noch nicht gewertet (unter {doc.minimum} Serien)", size=11, gap_before=6)
        pdf.ranking(doc.unranked, ranked=False)
    pdf.notes()
    names = [r.name for r in [*doc.ranked, *doc.unranked]]
    return bytes(pdf.output()), {n for n in names if printable(n)[1]}
