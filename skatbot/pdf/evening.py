"""The evening ("Skatabend") of several series at one table as an A4 PDF.

Page 1: one table, players × series with the sum of the evening and its ranking; after it
one short Serienabschluss per series (score, games won and lost, the calculation).

Pure layout: the caller computes the scores, places, lot note and German labels.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from skatbot.pdf.base import (
    BLACK,
    GREY_TEXT,
    GRID,
    LOT_TEXT,
    RGB,
    Column,
    SkatPDF,
    format_date,
    format_date_long,
    format_number,
)
from skatbot.pdf.fonts import printable

ROW_H = 6.0
HEAD_H = 6.5
MISSING = "–"
MAX_SERIES_COLUMNS = 6
"""More series than this are shown in several tables of at most this many series each."""
TIE_RULE = (
    "Bei Gleichstand entscheiden mehr gewonnene Spiele, dann weniger verlorene Spiele, "
    "dann das Los (fest aus dem Startwert der letzten Serie, nachrechenbar)."
)


@dataclass(frozen=True)
class EveningSeries:
    number: int
    state: str
    """E.g. "36 Spiele von 36, abgeschlossen"."""
    rules: str
    closed: bool
    lines: list[tuple[str, int, int, int, str]]
    """Per player in seat order: name, score, won, lost, calculation."""


@dataclass(frozen=True)
class EveningRow:
    place: int
    name: str
    scores: list[int | None]
    """Per series of the evening; ``None``: the player did not play that series."""
    total: int
    won: int
    lost: int
    by_lot: bool


@dataclass(frozen=True)
class EveningDocument:
    title: str
    date: datetime.date
    sum_label: str
    """E.g. "Summe der Seeger-Fabian-Wertungen"."""
    series: list[EveningSeries]
    rows: list[EveningRow]
    """Best first."""
    note: str = ""
    """The lot note, if the lot decided a place."""


class _EveningPDF(SkatPDF):
    def __init__(self, doc: EveningDocument) -> None:
        super().__init__(
            doc.title,
            subject="Skatabend",
            footer_label=f"{doc.title} · {format_date(doc.date)}",
        )
        self.doc = doc

    def header_block(self) -> None:
        doc = self.doc
        n = len(doc.series)
        series = "1 Serie" if n == 1 else f"{n} Serien"
        self.title_block(
            doc.title,
            f"{format_date_long(doc.date)} · {series}",
            [f"Wertung: {doc.sum_label}."],
        )

    # -- the table of the evening -------------------------------------------------------------

    def _columns(self, numbers: Sequence[int]) -> list[Column]:
        place_w, sum_w = 13.0, 24.0
        series_w = 24.0
        name_w = self.content_width - place_w - sum_w - series_w * len(numbers)
        if name_w < 60:  # room for 32 characters (names are at most 32)
            name_w = 60.0
            series_w = (self.content_width - place_w - sum_w - name_w) / len(numbers)
        self.font(8.5, bold=True)
        columns = [Column("Platz", place_w, "R"), Column("Name", name_w)]
        for number in numbers:
            title = f"Serie {number}"
            if self.text_width(title) > series_w - 3:
                title = f"S{number}"
            columns.append(Column(title, series_w, "R"))
        columns.append(Column("Summe", sum_w, "R"))
        return columns

    def evening_table(self, start: int, stop: int, notes_height: float) -> None:
        numbers = [s.number for s in self.doc.series[start:stop]]
        columns = self._columns(numbers)

        def header() -> None:
            y0 = self.get_y()
            self.header_row(columns, HEAD_H, size=8.5)
            y = self.get_y()
            x = self.l_margin
            for column in columns[:-1]:
                x += column.width
                self.line(x, y0, x, y)
            self.header_rule(y)

        self.begin_table(header, ROW_H)
        rows = self.doc.rows
        for index, row in enumerate(rows):
            last = index == len(rows) - 1
            self.ensure_row_space(ROW_H + (notes_height if last else 0.0))
            self._row(columns, index, row, row.scores[start:stop])
        self.end_table()

    def _row(
        self, columns: Sequence[Column], index: int, row: EveningRow, scores: Sequence[int | None]
    ) -> None:
        x0, y0 = self.l_margin, self.get_y()
        width = sum(c.width for c in columns)
        x = self.place_and_name(
            columns, index, ROW_H, row.place, row.name, row.by_lot, name_min_size=4.5
        )
        for column, score in zip(columns[2:-1], scores, strict=True):
            self.font(9)
            if score is None:
                self.color(GREY_TEXT)
                self.put(x, y0, column.width, ROW_H, MISSING, "R")
                self.color(BLACK)
            else:
                text = format_number(score)
                self.fit_size(text, column.width - 3, 9, 6.5, bold=False)
                self.put(x, y0, column.width, ROW_H, text, "R")
            x += column.width
        total = format_number(row.total)
        self.fit_size(total, columns[-1].width - 3, 9.5, 7, bold=True)
        self.put(x, y0, columns[-1].width, ROW_H, total, "R")
        self.set_draw_color(*GRID)
        self.set_line_width(0.15)
        x = x0
        self.line(x, y0, x, y0 + ROW_H)
        for column in columns:
            x += column.width
            self.line(x, y0, x, y0 + ROW_H)
        self.line(x0, y0 + ROW_H, x0 + width, y0 + ROW_H)
        self.set_xy(x0, y0 + ROW_H)

    def notes_lines(self) -> list[tuple[str, RGB, bool]]:
        doc = self.doc
        lines: list[tuple[str, RGB, bool]] = []
        if any(None in r.scores for r in doc.rows):
            lines.append((f"{MISSING} = in dieser Serie nicht dabei, zählt 0.", GREY_TEXT, False))
        running = [s.number for s in doc.series if not s.closed]
        if running:
            which = ", ".join(map(str, running))
            lines.append((f"Serie {which} läuft noch: Zwischenstand.", GREY_TEXT, False))
        if any(r.by_lot for r in doc.rows):
            lines.append(("Los = Platz durch Los entschieden.", LOT_TEXT, False))
        if doc.note:
            lines.append((doc.note, BLACK, True))
        lines.append((TIE_RULE, GREY_TEXT, False))
        return lines

    def notes_height(self) -> float:
        height = 2.0
        for text, _, bold in self.notes_lines():
            self.font(8, bold)
            found = self.multi_cell(
                self.content_width, 3.8, self.clean(text), dry_run=True, output="LINES"
            )
            height += 3.8 * (len(found) if isinstance(found, list) else 1) + 0.6
        return height

    def notes(self) -> None:
        self.set_y(self.get_y() + 2)
        if self.space_left() < self.notes_height():
            self.add_page()
        for text, color, bold in self.notes_lines():
            self.font(8, bold)
            self.color(color)
            self.set_x(self.l_margin)
            self.multi_cell(self.content_width, 3.8, self.clean(text))
            self.set_y(self.get_y() + 0.6)
        self.color(BLACK)

    # -- one Serienabschluss per series ---------------------------------------------------------

    def series_summaries(self) -> None:
        self.heading("Die Serien des Abends", size=12, gap_before=6)
        for series in self.doc.series:
            self.series_summary(series)

    def series_summary(self, series: EveningSeries) -> None:
        height = 5.5
        needed = 6 + height * (len(series.lines) + 1) + 3
        if self.space_left() < needed:
            self.add_page()
        self.set_y(self.get_y() + 2)
        self.set_x(self.l_margin)
        self.font(10, bold=True)
        title = f"Serie {series.number}"
        self.cell(self.text_width(title) + 2, 6, title)
        self.font(8.5)
        self.color(GREY_TEXT)
        detail = self.clean(f"{series.state} · {series.rules}")
        self.cell(0, 6, self.fit(detail, self.content_width - self.text_width(title) - 4))
        self.color(BLACK)
        self.ln(6)
        fixed = 56 + 19 + 19 + 22
        columns = [
            Column("Spieler", 56),
            Column("gewonnen", 19, "R"),
            Column("verloren", 19, "R"),
            Column("Rechenweg", self.content_width - fixed),
            Column("Wertung", 22, "R"),
        ]
        self.header_row(columns, height, size=7.5)
        for name, score, won, lost, steps in series.lines:
            x0, y0 = self.row_grid(columns, height)
            x = x0
            clean = self.clean(name)
            self.fit_size(clean, columns[0].width - 3, 8.5, 4.5, bold=False)
            self.put(x, y0, columns[0].width, height, clean)
            x += columns[0].width
            self.font(8.5)
            self.put(x, y0, columns[1].width, height, str(won), "R")
            x += columns[1].width
            self.put(x, y0, columns[2].width, height, str(lost), "R")
            x += columns[2].width
            text = self.clean(steps)
            self.fit_size(text, columns[3].width - 3, 8.5, 6.0, bold=False)
            self.put(x, y0, columns[3].width, height, text)
            x += columns[3].width
            self.font(9, bold=True)
            self.put(x, y0, columns[4].width, height, format_number(score), "R")
            self.set_xy(x0, y0 + height)


def render_evening(doc: EveningDocument) -> tuple[bytes, set[str]]:
    """Render the evening. Returns the PDF bytes and the (original) names that lost characters
    in the PDF because the embedded font cannot draw them (emoji)."""
    pdf = _EveningPDF(doc)
    pdf.header_block()
    notes_height = pdf.notes_height()
    count = len(doc.series)
    for start in range(0, count, MAX_SERIES_COLUMNS):
        stop = min(start + MAX_SERIES_COLUMNS, count)
        if start:
            pdf.set_y(pdf.get_y() + 4)
        pdf.evening_table(start, stop, notes_height if stop == count else 0.0)
    pdf.notes()
    pdf.series_summaries()
    names = [r.name for r in doc.rows] + [line[0] for s in doc.series for line in s.lines]
    return bytes(pdf.output()), {n for n in names if printable(n)[1]}
